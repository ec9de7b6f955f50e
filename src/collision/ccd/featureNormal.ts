/**
 * The normal of a vertex-triangle CCD contact whose closest point s lies on an edge or a vertex
 * of the triangle, kept inside that feature's normal cone on the surface (the float64 twin of
 * featureConeNormal in shaders/ccdNarrow.wgsl).
 *
 * The direction u from s to the vertex has no torque (x - s parallel to n) and pushes a vertex
 * beside a coplanar rim the right way (docs/collisions.md, cause 6). But a triangle's edge or
 * vertex is not always a feature of the surface: between two coplanar triangles an edge is
 * internal, and a vertex sliding over the neighbour within the contact offset reached this
 * triangle's rounded skin at that edge, whose u leans back against the slide (a "ghost" bump, as
 * game engines call it at internal edges). A block sliding on a slab at 35 degrees braked at up
 * to 2.75 m/s^2 beyond Coulomb's law with no friction at all (docs/collisions.md "Friction").
 * So u is kept only where the surface point nearest the vertex is really s's feature:
 *   edge (vertex k to k + 1): u in the short arc between the outward normals of the triangle and of
 *     the triangle across that edge (their normal cone); else the nearer of the two normals (the
 *     vertex is in front of that face);
 *   vertex: the vertex in the feature's Voronoi region, (x - V) . (W - V) <= 0 for every edge V W of
 *     V's boundary triangles; else the normal of those triangles nearest u.
 * At a coplanar edge the arc is one direction: the face normal; at a real corner or rim u stays.
 *
 * Where the contact's reach passes the triangle's longest edge (a thick contact offset), that
 * clamp holds planes the surface does not have there: a vertex resting on a cube's top within the
 * offset of a side triangle's internal edge a row or more below the top was held to the side's
 * plane, and each build re-took it at the vertex's new gap, a ratchet outward; and one above the
 * top beside an internal vertex of it was pushed along the top (`cube-stack --copies 2
 * --contact-offset 0.2`: 1,054 J of elastic energy in 20 frames, docs/collisions.md "Several
 * element edges between bodies"). There besideFeature asks whether the vertex is beside s's
 * feature at all: beyond V along a surface edge V W (by more than CONE_TOLERANCE) a point of that
 * edge is nearer than V, and outside an edge's cone and not over the triangle across it, a point
 * of the surface farther on is; that nearer point's triangle makes the contact with its own pair,
 * and this pair makes none. Within the triangle's reach the clamp stays: leaving those pairs out
 * too (13 % of the vertex-face hits in the octopus boxes) ended a frame of the 5-octopus box with
 * two vertices 6 mm inside another octopus (one run of each box), where the clamp ends none.
 */
import { FEATURE_EDGE01, FEATURE_EDGE20, FEATURE_FACE, FEATURE_VERTEX2, projectedBarycentrics } from '../../geometry/closestPointOnTriangle';

/**
 * About the angle (radians) by which a direction may lie outside a cone or a face's front and
 * count as inside it: here, the vertex taken as beside s's feature rather than another triangle's
 * (a vertex right over a vertex or on a face's plane must not be left beside none by rounding);
 * mutualCone.ts's cones likewise.
 */
export const CONE_TOLERANCE = 0.01;

/** The surface data the rule reads (TetMesh's boundary arrays, and trianglesAcross). */
export interface FeatureConeTopology {
  boundaryTriangles: Uint32Array;
  /** 3 per triangle: the triangle across edge k (vertex k to k + 1). */
  triangleAcross: Uint32Array;
  vertexTriangleOffsets: Uint32Array;
  vertexTriangles: Uint32Array;
}

/** Scratch: a normal, two barycentrics (the rule runs on one thread at a time). */
const N1 = new Float64Array(3), N2 = new Float64Array(3), W = new Float64Array(2);

/** Unit outward normal of boundary triangle f at positions pos(i, k); false when degenerate. */
export function triangleNormal(topo: Pick<FeatureConeTopology, 'boundaryTriangles'>, f: number, pos: (i: number, k: number) => number, out: Float64Array): boolean {
  const t = topo.boundaryTriangles;
  const a = t[3 * f], b = t[3 * f + 1], c = t[3 * f + 2];
  const ux = pos(b, 0) - pos(a, 0), uy = pos(b, 1) - pos(a, 1), uz = pos(b, 2) - pos(a, 2);
  const vx = pos(c, 0) - pos(a, 0), vy = pos(c, 1) - pos(a, 1), vz = pos(c, 2) - pos(a, 2);
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.hypot(nx, ny, nz);
  if (!(l > 0)) return false;
  out[0] = nx / l; out[1] = ny / l; out[2] = nz / l;
  return true;
}

/**
 * Writes into `u` (unit, from s toward the vertex at x) the contact normal for triangle f's
 * `feature` (closestPointOnTriangle's code); nT is f's unit outward normal. pos(i, k): coordinate
 * k of vertex i at the contact's time. Returns true when u was replaced. Within a layer thinner
 * than the triangle (the caller's choice): u kept in the feature's cone, or clamped into it (on a
 * vertex V, the cone of the surface edge V W the vertex is furthest beyond).
 */
export function featureConeNormal(
  topo: FeatureConeTopology, f: number, feature: number, x: ArrayLike<number>, nT: ArrayLike<number>, u: Float64Array,
  pos: (i: number, k: number) => number,
): boolean {
  if (feature === FEATURE_FACE) return false;
  const tris = topo.boundaryTriangles;
  const n = N2;
  if (feature >= FEATURE_EDGE01 && feature <= FEATURE_EDGE20) {
    const across = topo.triangleAcross[3 * f + (feature - FEATURE_EDGE01)];
    if (!triangleNormal(topo, across, pos, n)) return false;
    return clampToArc(nT, n, u);
  }
  if (feature > FEATURE_VERTEX2) return false;
  // Vertex V: beyond V along one of its surface edges V W, the nearest surface feature is that edge
  // (or a face beside it): the edge's rule with its two triangles; inside V's region, u stays.
  const v = tris[3 * f + feature];
  const from = topo.vertexTriangleOffsets[v], to = topo.vertexTriangleOffsets[v + 1];
  fanFarthest(topo, v, x, pos);
  const far = FAR.vertex;
  if (far < 0) return false;
  // The two triangles on edge V far (among V's).
  let t1 = -1, t2 = -1;
  for (let j = from; j < to; j++) {
    const g = topo.vertexTriangles[j];
    if (tris[3 * g] !== far && tris[3 * g + 1] !== far && tris[3 * g + 2] !== far) continue;
    if (t1 < 0) t1 = g; else { t2 = g; break; }
  }
  if (t1 < 0 || t2 < 0) return false;
  const n1 = N1;
  if (!triangleNormal(topo, t1, pos, n1) || !triangleNormal(topo, t2, pos, n)) return false;
  return clampToArc(n1, n, u);
}

/**
 * The rule where the contact's reach passes the triangle's longest edge (a thick layer): writes
 * into `u` (unit, from s toward the vertex at x) the contact normal for triangle f's `feature`
 * (closestPointOnTriangle's code), as featureConeNormal; false where the vertex is beside no
 * feature of f's (u is left as it is or clamped; the caller makes no contact).
 */
export function besideFeature(
  topo: FeatureConeTopology, f: number, feature: number, x: ArrayLike<number>, nT: ArrayLike<number>, u: Float64Array,
  pos: (i: number, k: number) => number,
): boolean {
  if (feature === FEATURE_FACE) return true;
  const tris = topo.boundaryTriangles;
  const n = N2;
  if (feature >= FEATURE_EDGE01 && feature <= FEATURE_EDGE20) {
    const across = topo.triangleAcross[3 * f + (feature - FEATURE_EDGE01)];
    if (!triangleNormal(topo, across, pos, n)) return true;
    return !clampToArc(nT, n, u) || overTriangle(topo, across, x, pos);
  }
  if (feature > FEATURE_VERTEX2) return true;
  // Vertex V: beyond V along one of its surface edges V W, a point of that edge is nearer than V.
  return !beyondVertex(topo, tris[3 * f + feature], x, pos);
}

/**
 * The same question asked of the other side, where the contact's reach passes the triangle's
 * longest edge: whether the contact's vertex v is its own surface's nearest point to s (the
 * triangle's point nearest v), i.e. s lies beyond v along none of v's surface edges (by
 * CONE_TOLERANCE). Where it does, a point of that edge is nearer s, and the pairs of that edge or
 * of its far vertex make the contact (the nearer pair is within the reach whenever this one is).
 * The case that decided it: a block hovering over a slab's flat top within a 12 cm layer (2.4
 * cells) reached the slab's side vertices one row below the rim with its bottom corner, pushing
 * them and itself along the diagonal between them; the block tilted by 44 mm and slid 52 mm as the
 * layer opened (docs/collisions.md "Several element edges between bodies"). Twin: the point-side
 * step of besideFeature in shaders/ccdNarrow.wgsl.
 */
export function nearestOnPointSide(topo: FeatureConeTopology, v: number, s: ArrayLike<number>, pos: (i: number, k: number) => number): boolean {
  return !beyondVertex(topo, v, s, pos);
}

/** Whether x lies beyond surface vertex v along one of v's surface edges by more than CONE_TOLERANCE of |x - v| (a point of that edge is nearer x than v). */
function beyondVertex(topo: FeatureConeTopology, v: number, x: ArrayLike<number>, pos: (i: number, k: number) => number): boolean {
  fanFarthest(topo, v, x, pos);
  return FAR.along > Math.sin(CONE_TOLERANCE) * Math.hypot(x[0] - pos(v, 0), x[1] - pos(v, 1), x[2] - pos(v, 2));
}

/** fanFarthest's answer (the rule runs on one thread at a time). */
const FAR = { vertex: -1, along: 0 };

/**
 * Into FAR: the neighbour W of surface vertex v (on v's boundary triangles) that x lies farthest
 * beyond along the edge v W, and how far, (x - v) . (W - v) / |W - v|; vertex -1 and along 0 where
 * x lies beyond v along none of them (in v's Voronoi region).
 */
function fanFarthest(topo: FeatureConeTopology, v: number, x: ArrayLike<number>, pos: (i: number, k: number) => number): void {
  const tris = topo.boundaryTriangles;
  const vx = x[0] - pos(v, 0), vy = x[1] - pos(v, 1), vz = x[2] - pos(v, 2);
  FAR.vertex = -1;
  FAR.along = 0;
  for (let j = topo.vertexTriangleOffsets[v]; j < topo.vertexTriangleOffsets[v + 1]; j++) {
    const g = topo.vertexTriangles[j];
    for (let k = 0; k < 3; k++) {
      const w = tris[3 * g + k];
      if (w === v) continue;
      const ex = pos(w, 0) - pos(v, 0), ey = pos(w, 1) - pos(v, 1), ez = pos(w, 2) - pos(v, 2);
      const el = Math.hypot(ex, ey, ez);
      const along = el > 0 ? (vx * ex + vy * ey + vz * ez) / el : 0;
      if (along > FAR.along) { FAR.along = along; FAR.vertex = w; }
    }
  }
}

/**
 * Whether x lies over triangle t: its projection on t's plane inside t, each barycentric above
 * -CONE_TOLERANCE (a point right over an edge of t stays over it through rounding).
 */
function overTriangle(topo: Pick<FeatureConeTopology, 'boundaryTriangles'>, t: number, x: ArrayLike<number>, pos: (i: number, k: number) => number): boolean {
  const tris = topo.boundaryTriangles;
  const a = tris[3 * t], b = tris[3 * t + 1], c = tris[3 * t + 2];
  const ax = pos(a, 0), ay = pos(a, 1), az = pos(a, 2);
  projectedBarycentrics(
    pos(b, 0) - ax, pos(b, 1) - ay, pos(b, 2) - az, pos(c, 0) - ax, pos(c, 1) - ay, pos(c, 2) - az, x[0] - ax, x[1] - ay, x[2] - az, W,
  );
  return W[0] >= -CONE_TOLERANCE && W[1] >= -CONE_TOLERANCE && 1 - W[0] - W[1] >= -CONE_TOLERANCE;
}

/**
 * The part along an edge below which a direction counts as perpendicular to it (float64 rounding
 * of directions built perpendicular to the edge; the f32 twin in shaders/ccdNarrow.wgsl is 1e-5).
 */
const EDGE_ALONG_ROUNDING = 1e-9;

/**
 * u (unit) moved into the normal cone of a surface edge whose two faces have unit outward normals
 * n1 and n2: the arc between them, in the plane perpendicular to the edge. clampToArc reads only on
 * which side of n1 and of n2 u lies, so a u with a part along the edge (a face normal of a vertex's
 * fan, a gap taken at an edge's end) read as inside it: the part along the edge is taken out first
 * (u along the edge: the nearer normal). True when u was replaced. The case that decided it
 * (mutualCone.ts mutualVertexCone): a block's vertex on its vertical corner edge, within a thick
 * layer of a slab's rim edge, had its fan's side normal, which runs along that rim, taken as inside
 * the rim's cone (up to sideways), and was pushed along the rim by the whole layer
 * (docs/collisions.md "Several element edges between bodies"). `strict` false: clampToArc alone,
 * the wedge that also holds directions along the edge (what mutualCone.ts keeps within a thin
 * layer; it says why). Twin: clampToEdgeCone in shaders/ccdNarrow.wgsl.
 */
export function clampToEdgeCone(n1: ArrayLike<number>, n2: ArrayLike<number>, u: Float64Array, strict = true): boolean {
  if (!strict) return clampToArc(n1, n2, u);
  const cx = n1[1] * n2[2] - n1[2] * n2[1], cy = n1[2] * n2[0] - n1[0] * n2[2], cz = n1[0] * n2[1] - n1[1] * n2[0];
  const cl = Math.hypot(cx, cy, cz);
  let moved = false;
  if (cl > 1e-7) {
    const along = (u[0] * cx + u[1] * cy + u[2] * cz) / cl;
    if (Math.abs(along) > EDGE_ALONG_ROUNDING) {
      const px = u[0] - (along * cx) / cl, py = u[1] - (along * cy) / cl, pz = u[2] - (along * cz) / cl;
      const pl = Math.hypot(px, py, pz);
      if (pl > EDGE_ALONG_ROUNDING) {
        u[0] = px / pl; u[1] = py / pl; u[2] = pz / pl;
      } else {
        const best = n1[0] * u[0] + n1[1] * u[1] + n1[2] * u[2] >= n2[0] * u[0] + n2[1] * u[1] + n2[2] * u[2] ? n1 : n2;
        u[0] = best[0]; u[1] = best[1]; u[2] = best[2];
      }
      moved = true;
    }
  }
  return clampToArc(n1, n2, u) || moved;
}

/** u kept when in the short arc between unit normals n1 and n2, else set to the nearer of them; true when replaced. */
export function clampToArc(n1: ArrayLike<number>, n2: ArrayLike<number>, u: Float64Array): boolean {
  const cx = n1[1] * n2[2] - n1[2] * n2[1], cy = n1[2] * n2[0] - n1[0] * n2[2], cz = n1[0] * n2[1] - n1[1] * n2[0];
  const c2 = cx * cx + cy * cy + cz * cz;
  if (c2 > 1e-14) {
    const a1 = (n1[1] * u[2] - n1[2] * u[1]) * cx + (n1[2] * u[0] - n1[0] * u[2]) * cy + (n1[0] * u[1] - n1[1] * u[0]) * cz;
    const a2 = (u[1] * n2[2] - u[2] * n2[1]) * cx + (u[2] * n2[0] - u[0] * n2[2]) * cy + (u[0] * n2[1] - u[1] * n2[0]) * cz;
    if (a1 >= 0 && a2 >= 0) return false;
  }
  const d1 = u[0] * n1[0] + u[1] * n1[1] + u[2] * n1[2];
  const d2 = u[0] * n2[0] + u[1] * n2[1] + u[2] * n2[2];
  const best = d2 > d1 ? n2 : n1;
  u[0] = best[0]; u[1] = best[1]; u[2] = best[2];
  return true;
}
