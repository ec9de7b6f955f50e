/**
 * The mutual normal cone rule of CCD contacts (the float64 twin of mutualVertexCone and
 * mutualEdgeCone in shaders/ccdNarrow.wgsl; docs/collisions.md "Mutual cones").
 *
 * At the nearest points of two convex features the direction between them lies in the normal
 * cones of both (paper 000 Theorem 2 says it for the boundary side; the same holds with the roles
 * swapped). featureNormal.ts keeps a contact's normal n in the cone of the triangle's feature; this
 * rule asks the same of the other side: -n in the cone of the vertex (vertex-triangle) or of edge a
 * (edge-edge, n from edge b toward edge a). Where it fails, the features are not the nearest pair
 * seen from that side. The case that decided it: a block sliding over a flat slab within the
 * contact offset. The block's rounded skin at its convex bottom edge reaches the slab's vertices
 * and edges ahead of it with n leaning back against the slide, though a vertex or an internal
 * edge of a flat surface has one normal only (up). Solved once a substep, those contacts braked a
 * frictionless slide a little (2.5 -> 2.34 m/s in 0.25 s); solved after every material iteration
 * (SolverParams.collideEvery 'contacts') they braked it to 2.04.
 * Where it fails, n becomes the other side's nearest cone direction, clamped into the first
 * side's cone, when that lies in both cones (to CONE_TOLERANCE). Where the cones do not meet (the
 * features are not the surfaces' nearest pair, only within the separation too), n stays
 * (docs/collisions.md "Mutual cones" has the three ways tried for edge-edge pairs).
 */
import { FEATURE_EDGE01, FEATURE_EDGE20, FEATURE_FACE, FEATURE_VERTEX2 } from '../../geometry/closestPointOnTriangle';
import { clampToEdgeCone, CONE_TOLERANCE, triangleNormal, type FeatureConeTopology } from './featureNormal';


/** The surface data the rule reads: featureNormal.ts's, and each boundary edge's two triangles. */
export interface MutualConeTopology extends FeatureConeTopology {
  boundaryEdgeTriangles: Uint32Array;
}

type Pos = (i: number, k: number) => number;

const A = new Float64Array(3), B = new Float64Array(3), C = new Float64Array(3), D = new Float64Array(3), FAN = new Float64Array(3);

/**
 * Whether unit d lies in the normal cone of surface vertex v: d . (W - v) <= CONE_TOLERANCE |W - v|
 * for every neighbour W on v's boundary triangles (the polar of the tangent cone, exact at a convex
 * vertex), and d on the outer side of v's triangles (positive on their summed area vectors).
 */
export function vertexConeContains(topo: FeatureConeTopology, v: number, d: ArrayLike<number>, pos: Pos): boolean {
  const tris = topo.boundaryTriangles;
  const px = pos(v, 0), py = pos(v, 1), pz = pos(v, 2);
  let sx = 0, sy = 0, sz = 0;
  for (let j = topo.vertexTriangleOffsets[v]; j < topo.vertexTriangleOffsets[v + 1]; j++) {
    const g = topo.vertexTriangles[j];
    for (let k = 0; k < 3; k++) {
      const w = tris[3 * g + k];
      if (w === v) continue;
      const ex = pos(w, 0) - px, ey = pos(w, 1) - py, ez = pos(w, 2) - pz;
      if (d[0] * ex + d[1] * ey + d[2] * ez > CONE_TOLERANCE * Math.hypot(ex, ey, ez)) return false;
    }
    const a = tris[3 * g], b = tris[3 * g + 1], c = tris[3 * g + 2];
    const ux = pos(b, 0) - pos(a, 0), uy = pos(b, 1) - pos(a, 1), uz = pos(b, 2) - pos(a, 2);
    const wx = pos(c, 0) - pos(a, 0), wy = pos(c, 1) - pos(a, 1), wz = pos(c, 2) - pos(a, 2);
    sx += uy * wz - uz * wy; sy += uz * wx - ux * wz; sz += ux * wy - uy * wx;
  }
  return d[0] * sx + d[1] * sy + d[2] * sz > 0;
}

/**
 * Writes into `out` the unit normal of v's boundary triangles nearest d; false when v has none.
 * Each triangle's normal goes to a scratch of its own (FAN): `out` may be any of the rule's
 * scratches (mutualVertexCone passes D), and a shared one was overwritten by every later triangle,
 * so that the last triangle's normal came back instead of the nearest (the f32 twin had it right).
 */
function nearestFanNormal(topo: FeatureConeTopology, v: number, d: ArrayLike<number>, pos: Pos, out: Float64Array): boolean {
  let best = -Infinity;
  for (let j = topo.vertexTriangleOffsets[v]; j < topo.vertexTriangleOffsets[v + 1]; j++) {
    if (!triangleNormal(topo, topo.vertexTriangles[j], pos, FAN)) continue;
    const dot = d[0] * FAN[0] + d[1] * FAN[1] + d[2] * FAN[2];
    if (dot > best) { best = dot; out[0] = FAN[0]; out[1] = FAN[1]; out[2] = FAN[2]; }
  }
  return best > -Infinity;
}

/**
 * d (unit) moved into the normal cone of triangle f's feature when outside it (featureNormal.ts's
 * cones; `strict`: an edge's perpendicular to it, else the wedge, as in mutualEdgeCone); false
 * when it cannot tell.
 */
function clampToTriangleFeature(topo: FeatureConeTopology, f: number, feature: number, d: Float64Array, pos: Pos, strict: boolean): boolean {
  if (!triangleNormal(topo, f, pos, A)) return false;
  if (feature === FEATURE_FACE) {
    d.set(A);
    return true;
  }
  if (feature >= FEATURE_EDGE01 && feature <= FEATURE_EDGE20) {
    if (!triangleNormal(topo, topo.triangleAcross[3 * f + (feature - FEATURE_EDGE01)], pos, B)) return false;
    clampToEdgeCone(A, B, d, strict);
    return true;
  }
  if (feature > FEATURE_VERTEX2) return false;
  const v = topo.boundaryTriangles[3 * f + feature];
  if (vertexConeContains(topo, v, d, pos)) return true;
  if (!nearestFanNormal(topo, v, d, pos, B)) return false;
  d.set(B);
  return true;
}

/**
 * Vertex-triangle contact of vertex v on triangle f at s on `feature`, normal u (unit, from s toward
 * v, already in the feature's cone): u replaced (true) where -u leaves v's cone and a direction in
 * both cones exists. `strict` (the caller's, where the contact's reach passes the triangle's
 * longest edge: a thick layer): an edge feature's cone perpendicular to the edge. Otherwise v's
 * fan normal nearest -u is clamped into the wedge on the arc's side of the edge's two faces, which
 * also holds directions along the edge: across a thick layer that took a block's side normal, along
 * a slab's rim edge, for the rim's, and pushed the block along the rim by the whole layer
 * (featureNormal.ts clampToEdgeCone); within a thin one the strict cone changed which folds CCD
 * holds in a cube crushed at 60 m/s (13 tets still inverted at frame 20 against 5;
 * tests/unit/runner/invertedBodyNote.test.ts), so the wedge stays there.
 */
export function mutualVertexCone(topo: FeatureConeTopology, v: number, f: number, feature: number, u: Float64Array, pos: Pos, strict = false): boolean {
  C[0] = -u[0]; C[1] = -u[1]; C[2] = -u[2];
  if (vertexConeContains(topo, v, C, pos)) return false;
  if (!nearestFanNormal(topo, v, C, pos, D)) return false;
  C[0] = -D[0]; C[1] = -D[1]; C[2] = -D[2];
  if (!clampToTriangleFeature(topo, f, feature, C, pos, strict)) return false;
  D[0] = -C[0]; D[1] = -C[1]; D[2] = -C[2];
  if (!vertexConeContains(topo, v, D, pos)) return false;
  u.set(C);
  return true;
}

/** Unit normals of boundary edge e's two triangles into n1, n2; false when one is degenerate. */
function edgeNormals(topo: MutualConeTopology, e: number, pos: Pos, n1: Float64Array, n2: Float64Array): boolean {
  return triangleNormal(topo, topo.boundaryEdgeTriangles[2 * e], pos, n1) && triangleNormal(topo, topo.boundaryEdgeTriangles[2 * e + 1], pos, n2);
}

/**
 * Whether unit d lies within CONE_TOLERANCE of the arc between unit n1 and n2 (the edge's cone,
 * seen across the edge); `strict`: and perpendicular to the edge (clampToEdgeCone), else only on
 * the arc's side of n1 and of n2 (clampToArc, a wedge along the edge).
 */
const ARC = new Float64Array(3);
function arcContains(n1: Float64Array, n2: Float64Array, d: ArrayLike<number>, strict: boolean): boolean {
  const c = ARC;
  c[0] = d[0]; c[1] = d[1]; c[2] = d[2];
  if (!clampToEdgeCone(n1, n2, c, strict)) return true;
  return c[0] * d[0] + c[1] * d[1] + c[2] * d[2] >= Math.cos(CONE_TOLERANCE);
}

/** What mutualEdgeCone did: n kept (in both cones, or a degenerate triangle), replaced, or the cones do not meet. */
export type MutualEdgeResult = 'kept' | 'replaced' | 'apart';

const A1 = new Float64Array(3), A2 = new Float64Array(3), B1 = new Float64Array(3), B2 = new Float64Array(3);
const INTO_B = new Float64Array(3), FROM_A = new Float64Array(3), M = new Float64Array(3);

/** -d into M (scratch). */
function minus(d: ArrayLike<number>): Float64Array {
  M[0] = -d[0]; M[1] = -d[1]; M[2] = -d[2];
  return M;
}

/**
 * Edge-edge contact of boundary edges a and b, normal n (unit, from b toward a): kept when n lies in b's cone and -n in a's; else replaced by the
 * nearer to n of: n clamped into b's cone, when its opposite lies in a's; the opposite of -n
 * clamped into a's cone, when it lies in b's. 'apart' when neither (the cones do not meet: the
 * edges' nearest points are not the surfaces' nearest there): n stays, perpendicular to both
 * edges, so that sliding along them does no work on the contact (docs/collisions.md "Mutual
 * cones": a face's normal there gained a folding cube 1.2 % of its energy).
 * `strict` (the caller's, where the contact's reach passes both edges: a thick layer): the cones
 * as they are, arcs perpendicular to their edges (clampToEdgeCone). Otherwise each edge's cone is
 * taken as the wedge on the arc's side of its two faces' normals, which also holds directions
 * along the edge: a face's normal of one edge then passes for the other's whenever it points out
 * of that edge's side. Within a thin layer that wedge is what holds edges crossing at a corner
 * (the strict cones everywhere let edges of two turned cubes through each other in one of the
 * five scenes of edgeContactsFollow.test.ts); across a thick one it held a block's face diagonal
 * to a slab's rim edge along the rim, a push sideways by the whole layer (docs/collisions.md
 * "Several element edges between bodies").
 */
export function mutualEdgeCone(topo: MutualConeTopology, a: number, b: number, n: Float64Array, pos: Pos, strict = false): MutualEdgeResult {
  if (!edgeNormals(topo, a, pos, A1, A2) || !edgeNormals(topo, b, pos, B1, B2)) return 'kept';
  if (arcContains(B1, B2, n, strict) && arcContains(A1, A2, minus(n), strict)) return 'kept';
  let bestDot = -Infinity;
  INTO_B.set(n);
  clampToEdgeCone(B1, B2, INTO_B, strict);
  if (arcContains(A1, A2, minus(INTO_B), strict)) bestDot = dot(INTO_B, n);
  FROM_A.set(minus(n));
  clampToEdgeCone(A1, A2, FROM_A, strict);
  FROM_A[0] = -FROM_A[0]; FROM_A[1] = -FROM_A[1]; FROM_A[2] = -FROM_A[2];
  if (arcContains(B1, B2, FROM_A, strict) && dot(FROM_A, n) > bestDot) {
    n.set(FROM_A);
    return 'replaced';
  }
  if (bestDot > -Infinity) {
    n.set(INTO_B);
    return 'replaced';
  }
  return 'apart';
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
