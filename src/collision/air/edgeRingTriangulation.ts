/**
 * Edge removal's new tets (Shewchuk 2002, "Two discrete optimization algorithms for the topological
 * improvement of tetrahedral meshes"; the polygon step is Klincsek's 1980 dynamic program): the m
 * tets around edge ab, whose other corners form the closed ring r_0 .. r_{m-1}, are replaced by
 * 2 (m - 2) tets over a triangulation of that ring, (a, r_i, r_k, r_j) and (b, r_i, r_j, r_k) for
 * each of its triangles (i, k, j), choosing the triangulation whose worst tet is best. Used by the
 * air mesh's optimisation (optimizeAirMesh.ts, paper 004 section 4) and by the general mesher's
 * boundary recovery (tetrahedralization.ts).
 */

export interface EdgeRingTriangulation {
  /** The worst score over the new tets. */
  quality: number;
  /** The 2 (m - 2) new tets, 4 vertex ids each. */
  tets: number[][];
}

/**
 * The best triangulation of `ring` around edge (a, b), or null when none has every sub-polygon
 * scoring above `floor`. `score(i, k, j)` is the worse of the two tets of ring triangle (i, k, j)
 * (-Infinity or NaN: not allowed); `chordAllowed(i, j)`, when given, vetoes a diagonal (i, j) of
 * the ring (a ring side is always allowed). A sub-polygon at or below `floor` is not extended, so
 * the floor prunes the search (the tets being replaced: their worst quality; or 0: positive tets).
 */
export function triangulateEdgeRing(
  a: number, b: number, ring: readonly number[], floor: number,
  score: (i: number, k: number, j: number) => number,
  chordAllowed?: (i: number, j: number) => boolean,
): EdgeRingTriangulation | null {
  const m = ring.length;
  if (m < 3) return null;
  // Q[i][j]: the best worst score of the polygon ring[i..j] closed by the chord (i, j); K its apex.
  const Q = Array.from({ length: m }, () => new Float64Array(m).fill(-Infinity));
  const K = Array.from({ length: m }, () => new Int32Array(m).fill(-1));
  for (let i = 0; i + 1 < m; i++) Q[i][i + 1] = Infinity;
  for (let len = 2; len < m; len++) {
    for (let i = 0; i + len < m; i++) {
      const j = i + len;
      if (chordAllowed && !(i === 0 && j === m - 1) && !chordAllowed(i, j)) continue;
      for (let k = i + 1; k < j; k++) {
        const sub = Math.min(Q[i][k], Q[k][j]);
        if (!(sub > floor)) continue;
        const q = Math.min(sub, score(i, k, j));
        if (q > Q[i][j]) { Q[i][j] = q; K[i][j] = k; }
      }
    }
  }
  const quality = Q[0][m - 1];
  if (!(quality > floor)) return null;
  const tets: number[][] = [];
  const emit = (i: number, j: number): void => {
    if (j - i < 2) return;
    const k = K[i][j];
    tets.push([a, ring[i], ring[k], ring[j]], [b, ring[i], ring[j], ring[k]]);
    emit(i, k);
    emit(k, j);
  };
  emit(0, m - 1);
  return { quality, tets };
}
