/**
 * Whether an object's culling tree is worth rebuilding (SelfCulling's periodic rebuild): only when
 * the object's surface has changed shape since the tree was built. A tree's topology never makes
 * the culling unsound (the cones are refit to every motion, selfCulling.ts); what a rebuild buys
 * is nodes that are compact patches of the surface as it is now. A body that only translates (a
 * falling pile) or barely deforms keeps patches that are as compact as a new build's, and its
 * rebuild cost about 15 ms a tree (8 octopi: a 120 ms job every 30 jobs), so its tree is kept.
 *
 * Shape change: the largest change of a surface vertex's position relative to the object's
 * centroid (max norm), against REBUILD_SHAPE_CHANGE of the object's mean surface edge at the build.
 */
import type { CullingSurface } from './surfaceTopology';

/** Rebuild when a surface vertex moved, relative to the centroid, by more than this fraction of the mean edge. */
export const REBUILD_SHAPE_CHANGE = 0.25;

/** One object's surface as its tree was built. */
export interface BuiltShape {
  /** The object's surface vertices (each once). */
  vertices: Uint32Array;
  /** xyz per vertex of `vertices`, relative to their centroid, at the build. */
  relative: Float64Array;
  /** REBUILD_SHAPE_CHANGE x the mean length of the object's surface edges at the build. */
  tolerance: number;
}

/** The surface vertices of the triangles `objectTriangles` (global ids), each once. */
export function surfaceVertices(surface: CullingSurface, objectTriangles: Uint32Array): Uint32Array {
  const seen = new Set<number>();
  for (let i = 0; i < objectTriangles.length; i++) for (let c = 0; c < 3; c++) seen.add(surface.triangles[3 * objectTriangles[i] + c]);
  return Uint32Array.from([...seen].sort((a, b) => a - b));
}

/** The shape of `vertices` at `start` (xyz per vertex of the scene), for the object's triangles. */
export function builtShape(surface: CullingSurface, vertices: Uint32Array, objectTriangles: Uint32Array, start: Float64Array): BuiltShape {
  const relative = new Float64Array(3 * vertices.length);
  const c = centroid(vertices, start);
  for (let q = 0; q < vertices.length; q++) for (let k = 0; k < 3; k++) relative[3 * q + k] = start[3 * vertices[q] + k] - c[k];
  let sum = 0;
  const tri = surface.triangles;
  for (let i = 0; i < objectTriangles.length; i++) {
    const t = objectTriangles[i];
    for (let e = 0; e < 3; e++) {
      const a = tri[3 * t + e], b = tri[3 * t + ((e + 1) % 3)];
      sum += Math.hypot(start[3 * b] - start[3 * a], start[3 * b + 1] - start[3 * a + 1], start[3 * b + 2] - start[3 * a + 2]);
    }
  }
  const mean = objectTriangles.length > 0 ? sum / (3 * objectTriangles.length) : 0;
  return { vertices, relative, tolerance: REBUILD_SHAPE_CHANGE * mean };
}

/** Whether the shape at `start` differs from `shape` by more than its tolerance (or is not finite). */
export function shapeChanged(shape: BuiltShape, start: Float64Array): boolean {
  const { vertices, relative, tolerance } = shape;
  const c = centroid(vertices, start);
  for (let q = 0; q < vertices.length; q++) {
    const p = 3 * vertices[q], r = 3 * q;
    const d = Math.max(Math.abs(start[p] - c[0] - relative[r]), Math.abs(start[p + 1] - c[1] - relative[r + 1]), Math.abs(start[p + 2] - c[2] - relative[r + 2]));
    if (!(d <= tolerance)) return true;
  }
  return false;
}

function centroid(vertices: Uint32Array, x: Float64Array): [number, number, number] {
  let cx = 0, cy = 0, cz = 0;
  for (let q = 0; q < vertices.length; q++) {
    const p = 3 * vertices[q];
    cx += x[p];
    cy += x[p + 1];
    cz += x[p + 2];
  }
  const n = Math.max(1, vertices.length);
  return [cx / n, cy / n, cz / n];
}
