/**
 * Other answers to the shortest path's query list (SolverParams.penetration other than 'exact':
 * src/penetration's rest-pose closest point and deformed distance field). The spb stage records
 * them in the shortest path's place, over the same list, into the same result records; spb only
 * knows this shape, so the methods (which build on spb) are handed in by whoever wires the stage
 * (sim/gpuCollisions.ts) and every import points down.
 */
import type { PenetrationMethod } from '../../contract/params';
import type { SpbMeshData } from '../meshData';
import type { SpbGpuMesh } from './spbGpuMesh';
import type { SpbOverflowAnswers } from './overflowFallback';

export type AlternativeMethod = Exclude<PenetrationMethod, 'exact'>;

/** How a record() dispatches: indirectly from detection's args, or directly over `count` queries. */
export type QueryDispatch = { indirect: GPUBuffer } | { count: number };

export interface AlternativeQueries {
  /** Builds `method`'s pipeline and uploads its data now (otherwise at its first record). */
  prepare(method: AlternativeMethod): void;
  /** Records `method`'s kernel over `list` into `results`, in `pass` after the refit and prepass. */
  record(pass: GPUComputePassEncoder, method: AlternativeMethod, positions: GPUBuffer, list: GPUBuffer, results: GPUBuffer, dispatch: QueryDispatch): void;
  /** The shortest path's tree was replaced (a rebuild): kernels that walk it rebind. */
  treeReplaced(): void;
  /** The CPU answers of `method` for a batch (queries the GPU flagged as overflowed), at `current`'s positions. */
  answerBatch(method: AlternativeMethod, current: SpbMeshData, points: ArrayLike<number>, tets: ArrayLike<number>, exclude: ArrayLike<number>, exclude2: ArrayLike<number>): SpbOverflowAnswers;
  destroy(): void;
}

/** Builds the methods' GPU side over the stage's GPU mesh (topology, tree, counters). */
export type AlternativeQueriesFactory = (device: GPUDevice, mesh: SpbGpuMesh) => AlternativeQueries;
