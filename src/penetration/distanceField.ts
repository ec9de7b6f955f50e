/**
 * The rest pose's internal distance field at the vertices (Fisher and Lin 2001 section 4, the
 * d_i of eq. 3) and its gradient, computed once per scene when the 'ddf' method is first used.
 *
 * Exact, not fast marching: each interior vertex's distance is that to the closest boundary
 * point of its own connected component of the rest mesh, found by the surface BVH's nearest-first
 * walk (src/spb/euclideanQuery.ts). Inside a closed mesh free of self-intersections the segment to
 * the nearest boundary point crosses no other boundary (a crossing would be nearer), so this is
 * the internal distance itself, to rounding, at O(log F) per vertex. The paper's fast marching
 * on a grid costs O(n^3 log n) for an n^3 grid and is exact nowhere: its Table 1 reads 0.92
 * instead of 1 at a sphere's centre on a 60^3 grid, and the grid values would still have to be
 * sampled at the vertices. The values at the vertices are all eq. 3 uses.
 *
 * direction: the unit vector from the vertex towards that closest point (minus the distance's
 * gradient, the way out); on a boundary vertex (distance 0) the outward normal, the normalized sum
 * of its boundary triangles' area vectors.
 */
import { addTriangleAreaVector } from '../geometry/triangleAreaVector';
import { nearestInComponent } from '../spb/euclideanQuery';
import type { SpbMeshData } from '../spb/meshData';
import { QUERY_FOUND } from '../spb/query';
import { SPB_DYNAMIC_CAPACITIES } from '../spb/settings';
import { SpbWorkspace } from '../spb/workspace';

export interface RestDistanceField {
  /** Per vertex: the inward distance to the rest boundary (0 on boundary vertices and on vertices of no tet). */
  readonly distance: Float64Array;
  /** xyz per vertex: unit direction to the closest rest boundary point (the outward normal on the boundary; 0 on vertices of no tet). */
  readonly direction: Float64Array;
  /** xyz per vertex at rest. */
  readonly restPositions: Float64Array;
}

/** Adds boundary triangle f's area vector at the rest positions to out[o..o+2]. */
function addAreaVector(rest: SpbMeshData, f: number, out: Float64Array, o: number): void {
  const t = rest.triangles;
  addTriangleAreaVector(rest.positions, t[3 * f], t[3 * f + 1], t[3 * f + 2], out, o);
}

function normalize(v: Float64Array, o: number): void {
  const len = Math.hypot(v[o], v[o + 1], v[o + 2]);
  if (len > 0) for (let k = 0; k < 3; k++) v[o + k] /= len;
}

/** The field of the rest pose `rest` (src/penetration/restPose.ts). */
export function buildRestDistanceField(rest: SpbMeshData): RestDistanceField {
  const n = rest.vertexCount;
  const x = rest.positions;
  const distance = new Float64Array(n);
  const direction = new Float64Array(3 * n);
  // A tet of each vertex: the vertex's connected component is that tet's.
  const tetOf = new Int32Array(n).fill(-1);
  for (let i = 0; i < rest.tets.length; i++) if (tetOf[rest.tets[i]] < 0) tetOf[rest.tets[i]] = i >> 2;
  const ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, rest.tetCount);
  for (let v = 0; v < n; v++) {
    if (tetOf[v] < 0) continue;
    if (rest.vertexTriangleOffsets[v + 1] > rest.vertexTriangleOffsets[v]) {
      for (let j = rest.vertexTriangleOffsets[v]; j < rest.vertexTriangleOffsets[v + 1]; j++) addAreaVector(rest, rest.vertexTriangles[j], direction, 3 * v);
      normalize(direction, 3 * v);
      continue;
    }
    ws.beginQuery();
    if (nearestInComponent(rest, ws, x[3 * v], x[3 * v + 1], x[3 * v + 2], tetOf[v], -1, -1) !== QUERY_FOUND) continue;
    const d = Math.sqrt(ws.resultDistance2);
    distance[v] = d;
    if (d > 0) {
      direction[3 * v] = (ws.resultX - x[3 * v]) / d;
      direction[3 * v + 1] = (ws.resultY - x[3 * v + 1]) / d;
      direction[3 * v + 2] = (ws.resultZ - x[3 * v + 2]) / d;
    } else {
      // An interior vertex on the boundary surface (a degenerate mesh): its triangle's normal.
      addAreaVector(rest, ws.resultTriangle, direction, 3 * v);
      normalize(direction, 3 * v);
    }
  }
  return { distance, direction, restPositions: new Float64Array(x) };
}
