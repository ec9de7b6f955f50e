/**
 * Test oracles on raw tet arrays, written independently of the generator: signed volumes,
 * boundary faces by brute counting (string-free: sorted triples packed in a Map of numbers),
 * boundary edge counts, Euler characteristic of the boundary.
 */
export function signedVolume(p: ArrayLike<number>, t: ArrayLike<number>, i: number): number {
  const a = 3 * t[4 * i], b = 3 * t[4 * i + 1], c = 3 * t[4 * i + 2], d = 3 * t[4 * i + 3];
  const ux = p[b] - p[a], uy = p[b + 1] - p[a + 1], uz = p[b + 2] - p[a + 2];
  const vx = p[c] - p[a], vy = p[c + 1] - p[a + 1], vz = p[c + 2] - p[a + 2];
  const wx = p[d] - p[a], wy = p[d + 1] - p[a + 1], wz = p[d + 2] - p[a + 2];
  return (ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx)) / 6;
}

export interface BoundaryReport {
  /** Faces used by more than two tets (never valid). */
  overusedFaces: number;
  /** Interior faces whose two tets wind them the same way (overlap). */
  sameSideFaces: number;
  boundaryTriangles: number;
  boundaryEdges: number;
  /** Boundary edges without exactly two boundary triangles. */
  nonManifoldEdges: number;
  boundaryVertices: number;
  /** Boundary vertices whose boundary triangles do not form a single fan (pinch points). */
  nonManifoldVertices: number;
  eulerCharacteristic: number;
}

export function boundaryReport(vertexCount: number, tets: ArrayLike<number>): BoundaryReport {
  const V = vertexCount;
  const key3 = (a: number, b: number, c: number): number => (a * V + b) * V + c;
  if (V ** 3 > Number.MAX_SAFE_INTEGER) throw new Error('too many vertices for the test oracle');
  const local = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];
  const uses = new Map<number, number[]>();
  for (let t = 0; t < tets.length / 4; t++) {
    for (const f of local) {
      const tri = f.map((k) => tets[4 * t + k]);
      const sorted = [...tri].sort((x, y) => x - y);
      // Winding parity relative to sorted order: even if tri is a rotation of sorted.
      const rot = sorted[0] === tri[0] ? 0 : sorted[0] === tri[1] ? 1 : 2;
      const r = [tri[rot], tri[(rot + 1) % 3], tri[(rot + 2) % 3]];
      const even = r[1] === sorted[1];
      const key = key3(sorted[0], sorted[1], sorted[2]);
      const list = uses.get(key);
      if (list) list.push(even ? 1 : -1);
      else uses.set(key, [even ? 1 : -1]);
    }
  }
  let overused = 0, sameSide = 0, boundaryTris = 0;
  const edgeCount = new Map<number, number>();
  const bverts = new Set<number>();
  for (const [key, list] of uses) {
    if (list.length > 2) overused++;
    else if (list.length === 2 && list[0] === list[1]) sameSide++;
    else if (list.length === 1) {
      boundaryTris++;
      const c = key % V, b = Math.floor(key / V) % V, a = Math.floor(key / V / V);
      for (const [u, w] of [[a, b], [b, c], [a, c]]) edgeCount.set(u * V + w, (edgeCount.get(u * V + w) ?? 0) + 1);
      bverts.add(a).add(b).add(c);
    }
  }
  let nonManifold = 0;
  for (const n of edgeCount.values()) if (n !== 2) nonManifold++;
  // Vertex link: the edges opposite v in its boundary triangles must form one connected cycle.
  const link = new Map<number, number[]>();
  for (const [key, list] of uses) {
    if (list.length !== 1) continue;
    const c = key % V, b = Math.floor(key / V) % V, a = Math.floor(key / V / V);
    for (const [v, x, y] of [[a, b, c], [b, a, c], [c, a, b]]) {
      const l = link.get(v);
      if (l) l.push(x, y);
      else link.set(v, [x, y]);
    }
  }
  let pinched = 0;
  for (const l of link.values()) {
    const adj = new Map<number, number[]>();
    for (let i = 0; i < l.length; i += 2) {
      adj.set(l[i], [...(adj.get(l[i]) ?? []), l[i + 1]]);
      adj.set(l[i + 1], [...(adj.get(l[i + 1]) ?? []), l[i]]);
    }
    const start = l[0];
    const seen = new Set([start]);
    const stack = [start];
    while (stack.length) for (const y of adj.get(stack.pop()!)!) if (!seen.has(y)) (seen.add(y), stack.push(y));
    if (seen.size !== adj.size) pinched++;
  }
  return {
    overusedFaces: overused,
    sameSideFaces: sameSide,
    boundaryTriangles: boundaryTris,
    boundaryEdges: edgeCount.size,
    nonManifoldEdges: nonManifold,
    boundaryVertices: bverts.size,
    nonManifoldVertices: pinched,
    eulerCharacteristic: bverts.size - edgeCount.size + boundaryTris,
  };
}

/** Number of vertices never referenced by a tet. */
export function unusedVertices(vertexCount: number, tets: ArrayLike<number>): number {
  const used = new Uint8Array(vertexCount);
  for (let i = 0; i < tets.length; i++) used[tets[i]] = 1;
  let n = 0;
  for (let v = 0; v < vertexCount; v++) if (!used[v]) n++;
  return n;
}
