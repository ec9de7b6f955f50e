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
 */
import { FEATURE_EDGE01, FEATURE_EDGE20, FEATURE_FACE, FEATURE_VERTEX2 } from '../../geometry/closestPointOnTriangle';

/** The surface data the rule reads (TetMesh's boundary arrays, and trianglesAcross). */
export interface FeatureConeTopology {
  boundaryTriangles: Uint32Array;
  /** 3 per triangle: the triangle across edge k (vertex k to k + 1). */
  triangleAcross: Uint32Array;
  vertexTriangleOffsets: Uint32Array;
  vertexTriangles: Uint32Array;
}

/** Scratch normals (the rule runs on one thread at a time). */
const N1 = new Float64Array(3), N2 = new Float64Array(3);

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
 * k of vertex i at the contact's time. Returns true when u was replaced.
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
  const vx = x[0] - pos(v, 0), vy = x[1] - pos(v, 1), vz = x[2] - pos(v, 2);
  const from = topo.vertexTriangleOffsets[v], to = topo.vertexTriangleOffsets[v + 1];
  let far = -1, farDot = 0;
  for (let j = from; j < to; j++) {
    const g = topo.vertexTriangles[j];
    for (let k = 0; k < 3; k++) {
      const w = tris[3 * g + k];
      if (w === v) continue;
      const ex = pos(w, 0) - pos(v, 0), ey = pos(w, 1) - pos(v, 1), ez = pos(w, 2) - pos(v, 2);
      const el = Math.hypot(ex, ey, ez);
      const along = el > 0 ? (vx * ex + vy * ey + vz * ez) / el : 0;
      if (along > farDot) { farDot = along; far = w; }
    }
  }
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
