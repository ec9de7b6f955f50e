/**
 * Brute-force intersection counter: the independent truth for the collision tests (issue 8).
 * It shares no code with src/collision or src/spb: its own boundary (faces used by exactly one
 * tet, found by counting sorted vertex triples), its own orientation test, no broad phase beyond
 * a bounding-box reject, every boundary vertex against every tet, float64.
 *
 * A boundary vertex v is penetrating when it lies strictly inside a tet t (all four sub-volumes
 * nonzero and of the sign of t's volume) that
 *   - belongs to another object (inter), or
 *   - belongs to v's own object and does not have v as a corner (self).
 * Geometric containment: an inverted tet (volume < 0) still contains the points between its
 * faces; such hits are flagged (`inverted`) so that a comparison with the detection stage, which
 * skips inverted tets (paper 000 section 3.5), can leave them out. Zero-volume tets contain
 * nothing.
 */

export interface IntersectionInput {
  /** xyz per vertex. */
  positions: ArrayLike<number>;
  /** 4 vertex ids per tet. */
  tets: ArrayLike<number>;
  /** Object id per tet (a vertex's object is that of any tet using it). */
  tetObject: ArrayLike<number>;
}

export interface IntersectionHit {
  vertex: number;
  /** One tet that strictly contains the vertex (the lowest id of its class). */
  tet: number;
  self: boolean;
  /** The tet's signed volume is negative. */
  inverted: boolean;
  /**
   * A self hit through a face of the vertex's own tet: a tet with v as a corner has its other three
   * corners on `tet` (it shares that face with `tet`), so v lies past its own opposite face, i.e.
   * that tet of v has turned inside out. An element inversion, not two surfaces passing through
   * each other (false for inter-object hits).
   */
  throughOwnTet: boolean;
  /**
   * With options.depth: Euclidean distance from the vertex to the nearest boundary triangle of
   * the tet's object (own triangles of the vertex left out). For a convex object this is the
   * penetration depth; in general a lower bound of it (the shortest valid path is no shorter).
   */
  depth: number;
}

export interface IntersectionCount {
  /** Boundary vertices strictly inside a non-incident tet of their own object. */
  self: number;
  /** Boundary vertices strictly inside a tet of another object. */
  inter: number;
  /** Of the self hits, those through a face of the vertex's own tet (IntersectionHit.throughOwnTet). */
  selfThroughOwnTet: number;
  /** Distinct penetrating boundary vertices (a vertex may be both self and inter). */
  vertices: number;
  /** One entry per (vertex, class): at most one self and one inter hit per vertex. */
  hits: IntersectionHit[];
  /** Boundary vertices found by face counting. */
  boundaryVertexCount: number;
  /** Largest hit depth (options.depth; 0 without hits or without the option). */
  maxDepth: number;
}

export interface CounterOptions {
  /** Leave out hits in inverted tets (as the detection stage does). Default false. */
  skipInverted?: boolean;
  /** Count self hits (default true). */
  self?: boolean;
  /** Measure each hit's depth (brute force over the boundary triangles). Default false. */
  depth?: boolean;
}

/** Six times the signed volume of (a, b, c, d), d given by its coordinates: det[b - a, c - a, d - a]. */
function orient(p: ArrayLike<number>, a: number, b: number, c: number, dx: number, dy: number, dz: number): number {
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
  const ux = p[3 * b] - ax, uy = p[3 * b + 1] - ay, uz = p[3 * b + 2] - az;
  const vx = p[3 * c] - ax, vy = p[3 * c + 1] - ay, vz = p[3 * c + 2] - az;
  const wx = dx - ax, wy = dy - ay, wz = dz - az;
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
}

/** Faces that exactly one tet uses: 3 vertex ids each (unordered) and the owning tet. */
function boundaryFaces(tets: ArrayLike<number>): { faces: number[]; owner: number[] } {
  const uses = new Map<string, number>();
  const faces = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
  const tetCount = tets.length / 4;
  const keyOf = (t: number, f: number[]): string => [tets[4 * t + f[0]], tets[4 * t + f[1]], tets[4 * t + f[2]]].sort((x, y) => x - y).join(',');
  for (let t = 0; t < tetCount; t++) for (const f of faces) { const k = keyOf(t, f); uses.set(k, uses.has(k) ? -1 : t); }
  const out: number[] = [], owner: number[] = [];
  for (const [k, t] of uses) {
    if (t < 0) continue;
    out.push(...k.split(',').map(Number));
    owner.push(t);
  }
  return { faces: out, owner };
}

/** Distance from point p to triangle (a, b, c): the plane when p projects inside, else the nearest edge. */
function pointTriangleDistance(p: number[], a: number[], b: number[], c: number[]): number {
  const sub = (u: number[], v: number[]): number[] => [u[0] - v[0], u[1] - v[1], u[2] - v[2]];
  const dot = (u: number[], v: number[]): number => u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
  const cross = (u: number[], v: number[]): number[] => [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
  const n = cross(sub(b, a), sub(c, a));
  const nn = dot(n, n);
  if (nn > 0) {
    // Inside when p's projection is on the inner side of all three edges.
    const inside = [[a, b], [b, c], [c, a]].every(([u, v]) => dot(cross(sub(v, u), sub(p, u)), n) >= 0);
    if (inside) return Math.abs(dot(sub(p, a), n)) / Math.sqrt(nn);
  }
  let best = Infinity;
  for (const [u, v] of [[a, b], [b, c], [c, a]]) {
    const e = sub(v, u), ee = dot(e, e);
    const t = ee > 0 ? Math.min(1, Math.max(0, dot(sub(p, u), e) / ee)) : 0;
    const q = [u[0] + t * e[0], u[1] + t * e[1], u[2] + t * e[2]];
    best = Math.min(best, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
  }
  return best;
}

/** Vertices on faces that exactly one tet uses. */
export function countedBoundaryVertices(tets: ArrayLike<number>, vertexCount: number): Uint32Array {
  const uses = new Map<string, number>();
  const faces = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
  const keyOf = (t: number, f: number[]): string => {
    const ids = [tets[4 * t + f[0]], tets[4 * t + f[1]], tets[4 * t + f[2]]].sort((x, y) => x - y);
    return ids.join(',');
  };
  const tetCount = tets.length / 4;
  for (let t = 0; t < tetCount; t++) for (const f of faces) { const k = keyOf(t, f); uses.set(k, (uses.get(k) ?? 0) + 1); }
  const onBoundary = new Uint8Array(vertexCount);
  for (const [k, n] of uses) {
    if (n !== 1) continue;
    for (const s of k.split(',')) onBoundary[Number(s)] = 1;
  }
  const out: number[] = [];
  for (let v = 0; v < vertexCount; v++) if (onBoundary[v]) out.push(v);
  return Uint32Array.from(out);
}

/** Whether some tet with corner v has its other three corners among tet t's (scans every tet: hits are few). */
function sharesFaceWithTetOf(tets: ArrayLike<number>, v: number, t: number): boolean {
  const of = [tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], tets[4 * t + 3]];
  for (let u = 0; u < tets.length / 4; u++) {
    let hasV = false, onT = 0;
    for (let c = 0; c < 4; c++) {
      const w = tets[4 * u + c];
      if (w === v) hasV = true;
      else if (of.includes(w)) onT++;
    }
    if (hasV && onT === 3) return true;
  }
  return false;
}

export function countIntersections(input: IntersectionInput, options: CounterOptions = {}): IntersectionCount {
  const { positions: p, tets, tetObject } = input;
  const vertexCount = p.length / 3;
  const tetCount = tets.length / 4;
  if (tets.length % 4 !== 0) throw new RangeError(`countIntersections: tets has ${tets.length} ids, not a multiple of 4`);
  if (tetObject.length !== tetCount) throw new RangeError(`countIntersections: tetObject has ${tetObject.length} entries for ${tetCount} tets`);
  for (let i = 0; i < tets.length; i++) {
    if (!(tets[i] >= 0 && tets[i] < vertexCount)) throw new RangeError(`countIntersections: tet ${i >> 2} corner ${i & 3} is vertex ${tets[i]}, out of range [0, ${vertexCount})`);
  }
  for (let i = 0; i < p.length; i++) {
    if (!Number.isFinite(p[i])) throw new RangeError(`countIntersections: coordinate ${i % 3} of vertex ${Math.floor(i / 3)} is not finite (${p[i]})`);
  }
  const vertexObject = new Int32Array(vertexCount).fill(-1);
  for (let i = 0; i < tets.length; i++) vertexObject[tets[i]] = tetObject[i >> 2];
  const boundary = countedBoundaryVertices(tets, vertexCount);
  // Bounding box and signed volume per tet.
  const box = new Float64Array(6 * tetCount);
  const volume = new Float64Array(tetCount);
  for (let t = 0; t < tetCount; t++) {
    for (let k = 0; k < 3; k++) { box[6 * t + k] = Infinity; box[6 * t + 3 + k] = -Infinity; }
    for (let c = 0; c < 4; c++) {
      const v = tets[4 * t + c];
      for (let k = 0; k < 3; k++) {
        box[6 * t + k] = Math.min(box[6 * t + k], p[3 * v + k]);
        box[6 * t + 3 + k] = Math.max(box[6 * t + 3 + k], p[3 * v + k]);
      }
    }
    const d = tets[4 * t + 3];
    volume[t] = orient(p, tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], p[3 * d], p[3 * d + 1], p[3 * d + 2]);
  }
  const countSelf = options.self ?? true;
  const hits: IntersectionHit[] = [];
  let self = 0, inter = 0, vertices = 0;
  for (let n = 0; n < boundary.length; n++) {
    const v = boundary[n];
    const x = p[3 * v], y = p[3 * v + 1], z = p[3 * v + 2];
    let selfTet = -1, interTet = -1;
    for (let t = 0; t < tetCount; t++) {
      const o = 6 * t;
      if (x <= box[o] || y <= box[o + 1] || z <= box[o + 2] || x >= box[o + 3] || y >= box[o + 4] || z >= box[o + 5]) continue;
      const a = tets[4 * t], b = tets[4 * t + 1], c = tets[4 * t + 2], d = tets[4 * t + 3];
      const isSelf = tetObject[t] === vertexObject[v];
      if (isSelf && (!countSelf || a === v || b === v || c === v || d === v || selfTet >= 0)) continue;
      if (!isSelf && interTet >= 0) continue;
      const vol = volume[t];
      if (vol === 0 || (vol < 0 && options.skipInverted)) continue;
      const s = vol > 0 ? 1 : -1;
      // Sub-volumes with v in place of each corner, in the same orientation as (a, b, c, d).
      if (s * orient(p, b, c, d, x, y, z) >= 0) continue; // (v, b, c, d) = -orient(b, c, d; v)
      if (s * orient(p, a, c, d, x, y, z) <= 0) continue; // (a, v, c, d)
      if (s * orient(p, a, b, d, x, y, z) >= 0) continue; // (a, b, v, d)
      if (s * orient(p, a, b, c, x, y, z) <= 0) continue; // (a, b, c, v)
      if (isSelf) selfTet = t;
      else interTet = t;
      if (selfTet >= 0 && interTet >= 0) break;
    }
    if (selfTet >= 0) { self++; hits.push({ vertex: v, tet: selfTet, self: true, inverted: volume[selfTet] < 0, throughOwnTet: sharesFaceWithTetOf(tets, v, selfTet), depth: NaN }); }
    if (interTet >= 0) { inter++; hits.push({ vertex: v, tet: interTet, self: false, inverted: volume[interTet] < 0, throughOwnTet: false, depth: NaN }); }
    if (selfTet >= 0 || interTet >= 0) vertices++;
  }
  let maxDepth = 0;
  if (options.depth && hits.length > 0) {
    const { faces, owner } = boundaryFaces(tets);
    const at = (v: number): number[] => [p[3 * v], p[3 * v + 1], p[3 * v + 2]];
    for (const hit of hits) {
      const object = tetObject[hit.tet];
      let d = Infinity;
      for (let f = 0; f < owner.length; f++) {
        if (tetObject[owner[f]] !== object) continue;
        const a = faces[3 * f], b = faces[3 * f + 1], c = faces[3 * f + 2];
        if (a === hit.vertex || b === hit.vertex || c === hit.vertex) continue;
        d = Math.min(d, pointTriangleDistance(at(hit.vertex), at(a), at(b), at(c)));
      }
      hit.depth = d;
      maxDepth = Math.max(maxDepth, d);
    }
  }
  const selfThroughOwnTet = hits.filter((h) => h.throughOwnTet).length;
  return { self, inter, selfThroughOwnTet, vertices, hits, boundaryVertexCount: boundary.length, maxDepth };
}
