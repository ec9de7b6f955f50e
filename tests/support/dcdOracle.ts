/**
 * Brute-force oracle for the discrete detection (docs/collisions.md "Query points and
 * detection rules"): every query point against every tet, float64, no broad phase, sharing no
 * code with the WGSL kernels or src/collision. Containment is written here with face planes
 * (outward normal and offset per face), not with the kernels' sub-volumes, so a shared mistake
 * would have to be made twice in two forms.
 *
 * For each point it gives every tet that the rules accept (the kernel may return any one of
 * them) and flags points whose decision is within f32 rounding of a face (`ambiguous`): the
 * kernel decides in f32, and such a point may legitimately go either way.
 */

export interface OracleInput {
  /** xyz per vertex (the positions the kernel saw, widened to f64). */
  positions: ArrayLike<number>;
  tets: ArrayLike<number>;
  vertexObject: ArrayLike<number>;
  boundaryVertices: ArrayLike<number>;
  boundaryEdges: ArrayLike<number>;
  /** Per vertex: incident boundary triangles (CSR) and each triangle's tet (section 3.5 rule). */
  vertexTriangleOffsets: ArrayLike<number>;
  vertexTriangles: ArrayLike<number>;
  triangleTet: ArrayLike<number>;
  selfCollision: boolean;
  recovery: boolean;
}

export interface OraclePoint {
  kind: 0 | 1 | 2;
  /** Vertex id, boundary edge index or tet id (the query's source id). */
  id: number;
  /** Tets the rules accept, and for each whether it is a self hit. */
  tets: number[];
  self: boolean[];
  /** Query point and edge parameter per accepted tet. */
  points: [number, number, number][];
  params: number[];
  ambiguous: boolean;
}

/** Relative margin below which a containment decision counts as f32-ambiguous. */
const MARGIN = 1e-4;

interface Plane {
  n: [number, number, number];
  d: number;
}

function sub(a: number[], b: number[]): [number, number, number] {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}
function cross(a: number[], b: number[]): [number, number, number] {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}
function dot(a: number[], b: number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

export function runDcdOracle(input: OracleInput): OraclePoint[] {
  const P = input.positions;
  const T = input.tets;
  const tetCount = T.length / 4;
  const vertexCount = P.length / 3;
  const at = (v: number): number[] => [P[3 * v], P[3 * v + 1], P[3 * v + 2]];

  // Per tet: volume sign, and for each face a plane with unit inward normal (distance > 0 inside).
  const volume = new Float64Array(tetCount);
  const planes: Plane[][] = [];
  const size = new Float64Array(tetCount);
  for (let t = 0; t < tetCount; t++) {
    const x = [0, 1, 2, 3].map((k) => at(T[4 * t + k]));
    volume[t] = dot(sub(x[1], x[0]), cross(sub(x[2], x[0]), sub(x[3], x[0])));
    let longest = 0;
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) longest = Math.max(longest, Math.hypot(...sub(x[i], x[j])));
    size[t] = longest;
    const faces: Plane[] = [];
    for (let i = 0; i < 4; i++) {
      const [a, b, c] = [0, 1, 2, 3].filter((k) => k !== i).map((k) => x[k]);
      let n = cross(sub(b, a), sub(c, a));
      const len = Math.hypot(...n);
      n = [n[0] / len, n[1] / len, n[2] / len];
      // Point the normal towards the opposite corner.
      if (dot(n, sub(x[i], a)) < 0) n = [-n[0], -n[1], -n[2]];
      faces.push({ n, d: dot(n, a) });
    }
    planes.push(faces);
  }
  const inverted = (t: number): boolean => !(volume[t] > 0);
  const invertedBoundaryVertex = (v: number): boolean => {
    for (let j = input.vertexTriangleOffsets[v]; j < input.vertexTriangleOffsets[v + 1]; j++) {
      if (inverted(input.triangleTet[input.vertexTriangles[j]])) return true;
    }
    return false;
  };
  const objectOfTet = (t: number): number => input.vertexObject[T[4 * t]];
  const hasCorner = (t: number, v: number): boolean => T[4 * t] === v || T[4 * t + 1] === v || T[4 * t + 2] === v || T[4 * t + 3] === v;

  /** Smallest signed distance of p to t's faces, relative to t's size (> 0: strictly inside). */
  const depth = (t: number, p: number[]): number => {
    let m = Infinity;
    for (const f of planes[t]) m = Math.min(m, dot(f.n, p) - f.d);
    return m / size[t];
  };

  const out: OraclePoint[] = [];
  const consider = (
    kind: 0 | 1 | 2,
    id: number,
    corners: number[],
    object: number,
    selfAllowed: boolean,
    point: (t: number) => { p: number[]; param: number; margin: number } | null,
  ): void => {
    const rec: OraclePoint = { kind, id, tets: [], self: [], points: [], params: [], ambiguous: false };
    for (let t = 0; t < tetCount; t++) {
      if (corners.some((v) => hasCorner(t, v))) continue;
      if (inverted(t)) continue;
      const self = objectOfTet(t) === object;
      if (self && !selfAllowed) continue;
      const r = point(t);
      if (r === null) continue;
      if (Math.abs(r.margin) < MARGIN) rec.ambiguous = true;
      if (r.margin > 0) {
        rec.tets.push(t);
        rec.self.push(self);
        rec.points.push([r.p[0], r.p[1], r.p[2]]);
        rec.params.push(r.param);
      }
    }
    if (rec.tets.length > 0 || rec.ambiguous) out.push(rec);
  };

  const vertexIds = input.recovery ? Array.from({ length: vertexCount }, (_, v) => v) : Array.from(input.boundaryVertices);
  for (const v of vertexIds) {
    const p = at(v);
    consider(0, v, [v], input.vertexObject[v], input.selfCollision && !invertedBoundaryVertex(v), (t) => ({ p, param: 0, margin: depth(t, p) }));
  }

  const edgeCount = input.boundaryEdges.length / 2;
  for (let e = 0; e < edgeCount; e++) {
    const a = input.boundaryEdges[2 * e], b = input.boundaryEdges[2 * e + 1];
    const pa = at(a), pb = at(b);
    const d = sub(pb, pa);
    const selfAllowed = input.selfCollision && !invertedBoundaryVertex(a) && !invertedBoundaryVertex(b);
    consider(1, e, [a, b], input.vertexObject[a], selfAllowed, (t) => {
      // Parametric clip of a + s d against each face plane n.x >= d0.
      let s0 = 0, s1 = 1, margin = Infinity;
      for (const f of planes[t]) {
        const fa = dot(f.n, pa) - f.d;
        const slope = dot(f.n, d);
        if (slope === 0) {
          if (fa < 0) return null;
          continue;
        }
        const s = -fa / slope;
        if (slope > 0) s0 = Math.max(s0, s);
        else s1 = Math.min(s1, s);
      }
      const len = Math.hypot(...d);
      const overlap = ((s1 - s0) * len) / size[t];
      if (!(overlap > -MARGIN)) return null;
      const s = (s0 + s1) / 2;
      const p = [pa[0] + s * d[0], pa[1] + s * d[1], pa[2] + s * d[2]];
      margin = Math.min(overlap, depth(t, p));
      return { p, param: s, margin };
    });
  }

  if (input.recovery) {
    for (let u = 0; u < tetCount; u++) {
      const corners = [0, 1, 2, 3].map((k) => T[4 * u + k]);
      const c = [0, 1, 2].map((k) => (P[3 * corners[0] + k] + P[3 * corners[1] + k] + P[3 * corners[2] + k] + P[3 * corners[3] + k]) / 4);
      consider(2, u, corners, input.vertexObject[corners[0]], input.selfCollision && !inverted(u), (t) => ({ p: c, param: 0, margin: depth(t, c) }));
    }
  }
  return out;
}
