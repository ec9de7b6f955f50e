/**
 * Exact shortest path to boundary for self-intersecting tet meshes (Chen, Diaz, Yuksel 2023).
 * Public entry point; see README.md in this folder.
 */
import { FEATURE_EDGE01, FEATURE_FACE } from '../geometry/closestPointOnTriangle';
import { buildTetMesh } from '../mesh/tetMesh';
import type { TetMesh } from '../mesh/types';
import { createSpbMeshData, updateSpbMeshData, type SpbMeshData } from './meshData';
import { QUERY_FOUND, QUERY_OVERFLOW, shortestPathToBoundary } from './query';
import { SPB_DEFAULT_TOLERANCES, SPB_DYNAMIC_CAPACITIES, type SpbCapacities, type SpbTolerances } from './settings';
import { STAT_BVH_CANDIDATES, STAT_TETS_VISITED, STAT_TRAVERSALS, SpbWorkspace } from './workspace';

export { SPB_STATIC_CAPACITIES, SPB_DYNAMIC_CAPACITIES, SPB_DEFAULT_TOLERANCES, type SpbCapacities, type SpbTolerances } from './settings';
export { createSpbMeshData, updateSpbMeshData, type SpbMeshData } from './meshData';
export { SpbWorkspace, STAT_NAMES } from './workspace';
export { shortestPathToBoundary, QUERY_NONE, QUERY_FOUND, QUERY_OVERFLOW, QUERY_SKIPPED, type SpbQueryConfig } from './query';

export interface TetMeshArrays {
  /** xyz per vertex. */
  positions: ArrayLike<number>;
  /** 4 vertex ids per tet. */
  tets: ArrayLike<number>;
}

export interface SpbOptions {
  /** Infeasible-region culling (section 3.6). Default true. */
  culling?: boolean;
  /** Tolerance overrides (all relative to the local element size). */
  tolerances?: Partial<SpbTolerances>;
}

export interface SpbResult {
  /** Closest boundary point s. */
  point: [number, number, number];
  /** Index into the boundary triangles of the mesh. */
  triangle: number;
  feature: 'vertex' | 'edge' | 'face';
  /** |s - p|, the penetration depth. */
  distance: number;
  stats: { bvhCandidates: number; traversals: number; tetsVisited: number };
}

/** Per-query options of closestBoundaryPoint. */
export interface SpbQueryOptions {
  /**
   * p is a point of boundary edge (excludeVertex, excludeVertex2) (an edge-tet DCD hit): only the
   * edge's own two triangles are excluded, not every triangle at excludeVertex. Default -1.
   */
  excludeVertex2?: number;
  /** The nearest boundary point of p's tet's component, no path validity (paper Fig. 15). */
  euclidean?: boolean;
}

export interface BoundaryPathQuery {
  /** New positions after deformation (refits the BVH). */
  update(positions: ArrayLike<number>): void;
  /**
   * p's closest boundary point by a valid path, p being the point of tet `tet`. `excludeVertex`:
   * the boundary vertex whose own position is p (its incident triangles are not candidates).
   * null when no valid path exists, or when excludeVertex is on an inverted boundary tet
   * (such vertices are skipped, paper section 3.5). `options`: an edge point's second vertex,
   * the Euclidean mode.
   */
  closestBoundaryPoint(p: ArrayLike<number>, tet: number, excludeVertex?: number, options?: SpbQueryOptions): SpbResult | null;
  /** 3 vertex ids per boundary triangle. */
  boundaryTriangles(): Uint32Array;
  /** The topology and flat arrays used (for the GPU kernel and the static twin). */
  readonly mesh: TetMesh;
  readonly data: SpbMeshData;
}

function featureName(code: number): 'vertex' | 'edge' | 'face' {
  return code === FEATURE_FACE ? 'face' : code >= FEATURE_EDGE01 ? 'edge' : 'vertex';
}

function toTetMesh(mesh: TetMeshArrays | TetMesh): TetMesh {
  if ('tetNeighbors' in mesh && 'boundaryTriangleTet' in mesh) return mesh;
  const positions = Float32Array.from(mesh.positions);
  for (let i = 0; i < mesh.tets.length; i++) {
    const v = mesh.tets[i];
    if (!(Number.isInteger(v) && v >= 0)) {
      throw new RangeError(`createBoundaryPathQuery: tet ${Math.floor(i / 4)} has vertex id ${v} (local ${i % 4}), not a non-negative integer`);
    }
  }
  const tets = Uint32Array.from(mesh.tets);
  const built = buildTetMesh({ positions, tets }, { source: 'createBoundaryPathQuery' }).mesh;
  if (built.vertexCount !== positions.length / 3) {
    throw new Error(
      `createBoundaryPathQuery: ${positions.length / 3 - built.vertexCount} vertices are used by no tet; remove them first so vertex ids stay valid`,
    );
  }
  return built;
}

/**
 * Builds the topology (or takes a built TetMesh), the surface BVH and a dynamic workspace:
 * every query is answered exactly (no stack or candidate limit).
 */
export function createBoundaryPathQuery(
  mesh: TetMeshArrays | TetMesh,
  options: SpbOptions = {},
  capacities: Readonly<SpbCapacities> = SPB_DYNAMIC_CAPACITIES,
): BoundaryPathQuery {
  const tetMesh = toTetMesh(mesh);
  const data = createSpbMeshData(tetMesh);
  const ws = new SpbWorkspace(capacities, data.tetCount);
  const cfg = { culling: options.culling ?? true, tolerances: { ...SPB_DEFAULT_TOLERANCES, ...options.tolerances } };
  return {
    mesh: tetMesh,
    data,
    update(positions) {
      updateSpbMeshData(data, positions);
    },
    closestBoundaryPoint(p, tet, excludeVertex = -1, options = {}) {
      if (p.length < 3 || !Number.isFinite(p[0]) || !Number.isFinite(p[1]) || !Number.isFinite(p[2])) {
        throw new RangeError(`closestBoundaryPoint: p must be 3 finite numbers, got [${Array.from(p).join(', ')}]`);
      }
      if (!(Number.isInteger(tet) && tet >= 0 && tet < data.tetCount)) {
        throw new RangeError(`closestBoundaryPoint: tet ${tet} out of range [0, ${data.tetCount})`);
      }
      if (!(Number.isInteger(excludeVertex) && excludeVertex >= -1 && excludeVertex < data.vertexCount)) {
        throw new RangeError(`closestBoundaryPoint: excludeVertex ${excludeVertex} out of range [0, ${data.vertexCount})`);
      }
      const e2 = options.excludeVertex2 ?? -1;
      if (!(Number.isInteger(e2) && e2 >= -1 && e2 < data.vertexCount)) {
        throw new RangeError(`closestBoundaryPoint: excludeVertex2 ${e2} out of range [0, ${data.vertexCount})`);
      }
      if (e2 >= 0 && (excludeVertex < 0 || e2 === excludeVertex)) {
        throw new RangeError(`closestBoundaryPoint: excludeVertex2 ${e2} needs a different excludeVertex (got ${excludeVertex}): the pair is an edge's two ends`);
      }
      const status = shortestPathToBoundary(data, ws, cfg, p[0], p[1], p[2], tet, excludeVertex, e2, options.euclidean ?? false);
      if (status === QUERY_OVERFLOW) throw new Error(`closestBoundaryPoint: a fixed-size stack overflowed (capacities ${JSON.stringify(capacities)})`);
      if (status !== QUERY_FOUND) return null;
      return {
        point: [ws.resultX, ws.resultY, ws.resultZ],
        triangle: ws.resultTriangle,
        feature: featureName(ws.resultFeature),
        distance: Math.sqrt(ws.resultDistance2),
        stats: {
          bvhCandidates: ws.stats[STAT_BVH_CANDIDATES],
          traversals: ws.stats[STAT_TRAVERSALS],
          tetsVisited: ws.stats[STAT_TETS_VISITED],
        },
      };
    },
    boundaryTriangles() {
      return data.triangles;
    },
  };
}
