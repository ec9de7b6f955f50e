/**
 * Own-layer oracles for lattice scenes, sharing no code with src/spb or src/geometry: the
 * boundary faces come from the lattice construction (a tet face whose three lattice points lie on
 * one outer plane of the lattice box), and the distance to a triangle is computed here by plane
 * projection and segment clamping (not the Voronoi-region code the query uses).
 *
 * Why this is the truth: a layer (a range of lattice cells that does not overlap itself) is, in
 * space, the region bounded by its boundary faces. The ball around p of radius "distance to the
 * nearest boundary face of the layer" contains no boundary of it, so the segment to that nearest
 * point stays inside the layer: it is the shortest path to the boundary (Theorem 1). Moving an
 * interior vertex (inverting tets around it) leaves the boundary faces, hence this answer, as
 * they are; the path through the fold is valid because the fold has degree 1 (section 3.5).
 */

type V3 = [number, number, number];

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

function segmentClosest(p: V3, a: V3, b: V3): V3 {
  const e = sub(b, a);
  const ee = dot(e, e);
  const t = ee > 0 ? Math.min(1, Math.max(0, dot(sub(p, a), e) / ee)) : 0;
  return [a[0] + t * e[0], a[1] + t * e[1], a[2] + t * e[2]];
}

const dist2 = (a: V3, b: V3): number => dot(sub(a, b), sub(a, b));

/** Closest point of triangle abc to p: the plane projection if it falls inside, else the nearest edge point. */
export function triangleClosest(p: V3, a: V3, b: V3, c: V3): V3 {
  const n = cross(sub(b, a), sub(c, a));
  const nn = dot(n, n);
  if (nn > 0) {
    const h = dot(sub(p, a), n) / nn;
    const q: V3 = [p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]];
    // q inside when each edge sees it on the same side as the normal.
    if (dot(cross(sub(b, a), sub(q, a)), n) >= 0 && dot(cross(sub(c, b), sub(q, b)), n) >= 0 && dot(cross(sub(a, c), sub(q, c)), n) >= 0) return q;
  }
  let best = segmentClosest(p, a, b);
  for (const q of [segmentClosest(p, b, c), segmentClosest(p, c, a)]) if (dist2(p, q) < dist2(p, best)) best = q;
  return best;
}

/** Local vertex triples of a tet's four faces (any order: only the point set matters here). */
const FACES = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];

export interface LatticeScene {
  positions: Float32Array;
  tets: Uint32Array;
  /** Lattice cell (i, j, k) per tet. */
  cellOfTet: Int32Array;
  /** Lattice point (i, j, k) per vertex. */
  latticeOf: Int32Array;
  size: [number, number, number];
}

/**
 * Boundary faces of a lattice box nu x nv x nw from the construction alone: the tet faces whose
 * three lattice points share one outer coordinate plane. Returns vertex triples and owning tets.
 */
export function latticeBoundaryFaces(scene: LatticeScene): { faces: Uint32Array; faceTet: Uint32Array } {
  const faces: number[] = [], faceTet: number[] = [];
  const L = scene.latticeOf;
  for (let t = 0; t < scene.tets.length / 4; t++) {
    for (const f of FACES) {
      const ids = f.map((k) => scene.tets[4 * t + k]);
      let outer = false;
      for (let axis = 0; axis < 3 && !outer; axis++) {
        for (const plane of [0, scene.size[axis]]) if (ids.every((v) => L[3 * v + axis] === plane)) outer = true;
      }
      if (outer) {
        faces.push(...ids);
        faceTet.push(t);
      }
    }
  }
  return { faces: Uint32Array.from(faces), faceTet: Uint32Array.from(faceTet) };
}

/** Nearest point to p (and its distance) among the faces that `keep` accepts (by owning tet). */
export function layerClosest(positions: ArrayLike<number>, faces: Uint32Array, faceTet: Uint32Array, p: ArrayLike<number>, keep: (tet: number) => boolean): { distance: number; point: V3 } {
  const P: V3 = [p[0], p[1], p[2]];
  const at = (v: number): V3 => [positions[3 * v], positions[3 * v + 1], positions[3 * v + 2]];
  let best = Infinity, point: V3 = [NaN, NaN, NaN];
  for (let f = 0; f < faceTet.length; f++) {
    if (!keep(faceTet[f])) continue;
    const q = triangleClosest(P, at(faces[3 * f]), at(faces[3 * f + 1]), at(faces[3 * f + 2]));
    const d2 = dist2(P, q);
    if (d2 < best) {
      best = d2;
      point = q;
    }
  }
  return { distance: Math.sqrt(best), point };
}

/** Neighbour across each local face (face k = the three vertices other than k), -1 on the boundary: from sorted vertex triples. */
export function faceNeighbors(tets: ArrayLike<number>): Int32Array {
  const n = tets.length / 4;
  const out = new Int32Array(4 * n).fill(-1);
  const open = new Map<string, number>();
  for (let t = 0; t < n; t++) {
    for (let k = 0; k < 4; k++) {
      const key = [0, 1, 2, 3].filter((i) => i !== k).map((i) => tets[4 * t + i]).sort((a, b) => a - b).join(',');
      const other = open.get(key);
      if (other === undefined) open.set(key, 4 * t + k);
      else {
        out[4 * t + k] = other >> 2;
        out[other] = t;
        open.delete(key);
      }
    }
  }
  return out;
}

/** Barycentric coordinates of q in tet t (deformed positions; inverted tets too), by Cramer's rule. */
function barycentric(x: ArrayLike<number>, tets: ArrayLike<number>, t: number, q: V3): number[] {
  const P = [0, 1, 2, 3].map((k): V3 => [x[3 * tets[4 * t + k]], x[3 * tets[4 * t + k] + 1], x[3 * tets[4 * t + k] + 2]]);
  const e1 = sub(P[1], P[0]), e2 = sub(P[2], P[0]), e3 = sub(P[3], P[0]), d = sub(q, P[0]);
  const det = dot(e1, cross(e2, e3));
  const b1 = dot(d, cross(e2, e3)) / det, b2 = dot(e1, cross(d, e3)) / det, b3 = dot(e1, cross(e2, d)) / det;
  return [1 - b1 - b2 - b3, b1, b2, b3];
}

export interface LineArc {
  /** The arc through p's pre-image reaches the boundary at z = 0, i.e. at s: p-s is a valid path. */
  reachesS: boolean;
  /** Sum of |dz| (units of |p - s|) along the arc from s to p's pre-image; Infinity if it does not reach s. */
  travel: number;
  /** The arc is a closed loop: p's pre-image is connected to no boundary point along this line. */
  closed: boolean;
  /** The line met an edge or vertex of the mesh inside (no exact verdict). */
  degenerate: boolean;
}

/**
 * Traces pre-images of lines, exactly, tet by tet: in each tet the pre-image of a line is one
 * segment (where all four barycentric coordinates are >= 0, affine in the line parameter z).
 * Through p's pre-image it continues across faces into a 1-manifold arc: both ends on the
 * boundary, or a closed loop (possible around inverted tets). The segment p-s is a valid path
 * (Definition 1, possibly running back and forth inside inverted tets, section 3.5) exactly when
 * one end of the arc is the boundary point s (given `face`, s as a point of that boundary face);
 * `travel` is then the distance the arc runs along the line from s to p, the quantity
 * supplement 001 section 1.2 bounds by 2 |p - s|.
 */
export function arcTracer(x: ArrayLike<number>, tets: ArrayLike<number>): (tet: number, p: ArrayLike<number>, s: ArrayLike<number>, face?: ArrayLike<number>) => LineArc {
  const neighbors = faceNeighbors(tets);
  // Boundary simplices (faces, their edges and vertices) as sorted vertex keys.
  const onBoundary = new Set<string>();
  for (let t = 0; t < tets.length / 4; t++) {
    for (let k = 0; k < 4; k++) {
      if (neighbors[4 * t + k] >= 0) continue;
      const f = [0, 1, 2, 3].filter((i) => i !== k).map((i) => tets[4 * t + i]).sort((a, b) => a - b);
      for (const sub of [f, [f[0], f[1]], [f[0], f[2]], [f[1], f[2]], [f[0]], [f[1]], [f[2]]]) onBoundary.add(sub.join(','));
    }
  }
  return (tet, p, s, face) => {
    const P: V3 = [p[0], p[1], p[2]], S: V3 = [s[0], s[1], s[2]];
    const at = (z: number): V3 => [S[0] + z * (P[0] - S[0]), S[1] + z * (P[1] - S[1]), S[2] + z * (P[2] - S[2])];
    let degenerate = false;
    /** The z-interval of the line's pre-image in t, with the local faces at both ends. */
    const interval = (t: number): { lo: number; hi: number; faceLo: number; faceHi: number } => {
      const w0 = barycentric(x, tets, t, at(0)), w1 = barycentric(x, tets, t, at(1));
      let lo = -Infinity, hi = Infinity, faceLo = -1, faceHi = -1;
      for (let i = 0; i < 4; i++) {
        const a = w0[i], b = w1[i] - w0[i]; // w_i(z) = a + b z >= 0
        if (b === 0) continue;
        const z = -a / b;
        // Two coordinates vanishing together away from s: the line meets an edge of t.
        if (b > 0) {
          if (Math.abs(z - lo) < 1e-12 && Math.abs(z) > 1e-9) degenerate = true;
          if (z > lo) { lo = z; faceLo = i; }
        } else {
          if (Math.abs(z - hi) < 1e-12 && Math.abs(z) > 1e-9) degenerate = true;
          if (z < hi) { hi = z; faceHi = i; }
        }
      }
      return { lo, hi, faceLo, faceHi };
    };
    /**
     * s's pre-image in t is on the boundary: the vertices carrying it span a boundary simplex
     * (and, when `face` is given, one of that boundary face: the same pre-image as its point s;
     * overlapping layers can put other boundary faces through the same point).
     */
    const atBoundaryS = (t: number): boolean => {
      const w = barycentric(x, tets, t, S);
      const carrying = [0, 1, 2, 3].filter((i) => Math.abs(w[i]) > 1e-9).map((i) => tets[4 * t + i]).sort((a, b) => a - b);
      if (face && !carrying.every((v) => v === face[0] || v === face[1] || v === face[2])) return false;
      return onBoundary.has(carrying.join(','));
    };
    const start = interval(tet);
    // Walk from p's tet through `face` (left at parameter z); the end parameter and travel from p.
    const walk = (face0: number, z0: number): { end: number; travel: number; closed: boolean } => {
      let t = tet, face = face0, z = z0, travel = Math.abs(z0 - 1);
      for (let steps = 0; steps < 100000; steps++) {
        if (Math.abs(z) < 1e-9 && atBoundaryS(t)) return { end: 0, travel, closed: false };
        const n = neighbors[4 * t + face];
        if (n < 0) return { end: z, travel, closed: false };
        if (n === tet) return { end: NaN, travel: Infinity, closed: true };
        const iv = interval(n);
        // n is entered at z, one end of its interval; leave through the other end.
        const atLo = Math.abs(iv.lo - z) <= Math.abs(iv.hi - z);
        const next = atLo ? iv.hi : iv.lo;
        travel += Math.abs(next - z);
        face = atLo ? iv.faceHi : iv.faceLo;
        t = n;
        z = next;
      }
      return { end: NaN, travel: Infinity, closed: true };
    };
    const a = walk(start.faceLo, start.lo);
    const b = a.closed ? a : walk(start.faceHi, start.hi);
    const reachesA = a.end === 0, reachesB = b.end === 0;
    return {
      reachesS: reachesA || reachesB,
      travel: reachesA ? a.travel : reachesB ? b.travel : Infinity,
      closed: a.closed,
      degenerate,
    };
  };
}
