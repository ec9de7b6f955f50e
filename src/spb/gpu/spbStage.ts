/**
 * The 'spb' stage of the time step (docs/collisions.md; paper 000 sections 3.4 and 4):
 * every substep, after detection, on the GPU and with no readback,
 *   1. clears the prepass's inverted-tet count and per-component flags (encoder.clearBuffer),
 *   2. refits the surface BVH from state.positions (src/bvh),
 *   3. the per-tet prepass (h^2, inversions, the culling guard's list: shaders/spbPrepass.wgsl);
 *      1 and 3 are detection's hash build's in the time step (prepassInDetect), and 2 runs inside
 *      the hash build's and detection's dispatches where the device has the bindings
 *      (refitInDetect; DetectStage.refitBvh),
 *   4. the query (shaders/spbQuery.wgsl) over the query list, dispatched directly over the list's
 *      capacity (issue 24: no indirect dispatch); the kernel reads n = min(count, capacity) from
 *      the list header, writes one result per query, and its other threads return.
 * All of it in one compute pass (WebGPU orders its dispatches). The statistics (Q, Tr, Tet,
 * culled, overflows, ...; STAT_NAMES order) accumulate over the frame: cleared in beginFrame,
 * where nothing else is written (the uniforms are written at construction and by setOptions).
 * Overflowed queries come back with status QUERY_OVERFLOW; the contacts stage lists them for the
 * CPU fallback (src/workers/spbFallback.ts).
 *
 * With `penetration` (SolverParams.penetration, paper 000 Figs. 22-23) other than 'exact', step 4
 * runs that method's kernel instead (src/penetration/gpu: the rest-pose closest point or the
 * deformed distance field) over the same list, into the same result records and statistics;
 * steps 1-3 stay (the intersection display and the ddf kernel walk the refitted tree).
 *
 * The BVH's topology is built once at setup and only refitted per substep; replaceBvh installs a
 * tree rebuilt elsewhere (src/bvh/rebuildJob.ts, in a worker) for the following substeps. The old
 * tree's buffers are destroyed at the next beginFrame (or destroy), after the submit of any frame
 * that was being recorded when the tree changed.
 */
import { dispatchGrid, gridRowStride } from '../../gpu/buffers';
import type { SurfaceBvh } from '../../bvh/surfaceBvh';
import { resolvesOnly, type GpuStage, type SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { SpbMeshData } from '../meshData';
import type { SpbQueryConfig } from '../query';
import { SPB_DEFAULT_TOLERANCES, SPB_STATIC_CAPACITIES, type SpbCapacities, type SpbTolerances } from '../settings';
import { STAT_NAMES } from '../workspace';
import { RESULT_WORDS } from './packSpbBuffers';
import { QL_HEADER_BYTES, QUERY_WORDS } from './queryListLayout';
import { SPB_STATS_BYTE_OFFSET, SpbGpuMesh } from './spbGpuMesh';
import type { PenetrationMethod } from '../../contract/params';
import type { AlternativeQueries, AlternativeQueriesFactory } from './alternativeQueries';

export interface SpbStageOptions {
  /** Infeasible-region culling (default true). */
  culling?: boolean;
  tolerances?: Partial<SpbTolerances>;
  /** Fixed capacities compiled into the kernel (default SPB_STATIC_CAPACITIES). */
  capacities?: Readonly<SpbCapacities>;
  /** False while the stage has nothing to do (collisions off); default always active. */
  active?: () => boolean;
  /** The penetration method per substep (default always 'exact') and the other methods' kernels (src/penetration, handed in by the caller). */
  penetration?: { method: () => PenetrationMethod; kernels: AlternativeQueriesFactory };
}

/** Where the frame's summed statistics lie in `statsBuffer` (copy them into the frame's readback). */
export interface SpbStatsLayout {
  byteOffset: number;
  /** One u32 per name, in this order (src/spb/workspace.ts STAT_NAMES). */
  names: readonly (typeof STAT_NAMES)[number][];
}

export const SPB_STATS_LAYOUT: SpbStatsLayout = { byteOffset: SPB_STATS_BYTE_OFFSET, names: STAT_NAMES };

export class SpbStage implements GpuStage {
  readonly phase = 'spb' as const;
  /** Runs after every material iteration when SolverParams.collideEvery says so (SubstepContext.round). */
  readonly perRound = true;
  readonly mesh: SpbGpuMesh;
  readonly statsLayout = SPB_STATS_LAYOUT;
  /** The rest-pose methods' kernels (null without options.penetration). */
  readonly penetration: AlternativeQueries | null;
  private readonly method: () => PenetrationMethod;
  private config: SpbQueryConfig;
  private list!: GPUBuffer;
  private args!: GPUBuffer;
  private results!: GPUBuffer;
  private group: { positions: GPUBuffer; bindGroup: GPUBindGroup } | null = null;
  private readonly isActive: () => boolean;
  /** Buffers of replaced trees, destroyed at the next beginFrame. */
  private retired: GPUBuffer[] = [];
  /** The exact query's direct dispatch over the list's capacity (threads past the count return at once). */
  private queryGrid: [number, number] = [0, 0];
  private rowStride = 0;
  /**
   * True: detection's hash build takes the per-tet measures from the same positions
   * (DetectStage.measureTets, issue 24), so this stage records only the refit and the query
   * (one dispatch a substep fewer). False (default): the prepass is recorded here.
   */
  prepassInDetect = false;
  /**
   * True: detection's hash build and detection run the BVH refit's dispatches inside theirs
   * (DetectStage.refitBvh, issue 24), so this stage records only the query. False (default): the
   * refit is recorded here.
   */
  refitInDetect = false;

  constructor(
    device: GPUDevice,
    data: SpbMeshData,
    list: GPUBuffer,
    args: GPUBuffer,
    results: GPUBuffer,
    options: SpbStageOptions = {},
  ) {
    this.mesh = new SpbGpuMesh(device, data, options.capacities ?? SPB_STATIC_CAPACITIES);
    this.config = { culling: options.culling ?? true, tolerances: { ...SPB_DEFAULT_TOLERANCES, ...options.tolerances } };
    this.isActive = options.active ?? (() => true);
    this.penetration = options.penetration ? options.penetration.kernels(device, this.mesh) : null;
    this.method = options.penetration?.method ?? (() => 'exact');
    this.setBuffers(list, args, results);
  }

  /**
   * New query list / indirect args / results buffers (the list grew): the query's bind group is
   * rebuilt at the next encode, and only then. Sizes are checked against each other.
   */
  setBuffers(list: GPUBuffer, args: GPUBuffer, results: GPUBuffer): void {
    const capacity = Math.floor((list.size - QL_HEADER_BYTES) / (4 * QUERY_WORDS));
    if (!(capacity >= 0)) throw new RangeError(`SpbStage: the query list holds ${list.size} bytes, less than its ${QL_HEADER_BYTES}-byte header`);
    if (results.size < 4 * RESULT_WORDS * capacity) {
      throw new RangeError(`SpbStage: the results buffer holds ${results.size} bytes, ${4 * RESULT_WORDS * capacity} needed for the list's ${capacity} queries (${RESULT_WORDS} words each)`);
    }
    if (args.size < 12 || (args.usage & GPUBufferUsage.INDIRECT) === 0) {
      throw new RangeError(`SpbStage: the indirect args buffer needs INDIRECT usage and 12 bytes (has usage ${args.usage}, ${args.size} bytes)`);
    }
    this.list = list;
    this.args = args;
    this.results = results;
    this.group = null;
    // Issue 24: the exact query is dispatched directly over the capacity, not indirectly from
    // detection's args (an indirect dispatch costs the driver a validation of its arguments; the
    // extra threads read the count and return).
    this.queryGrid = dispatchGrid(Math.max(1, capacity));
    this.rowStride = gridRowStride(Math.max(1, capacity));
    this.mesh.writeQueryParams(this.config, this.rowStride);
  }

  /**
   * Installs a surface BVH built elsewhere (a rebuild over the mesh's boundary triangles, e.g.
   * rebuildSurfaceBvhFromVec4 in a worker; any node and level count) for every substep encoded
   * from now on. Its boxes need not be current: each substep refits them from state.positions
   * before the query reads them. Every bind group over the old buffers is rebuilt here, once; the
   * reported dispatch count follows the new level count. A malformed tree throws a RangeError
   * naming the fault and leaves the running tree in place. Meant for between frames; a call
   * between two substeps of a frame being recorded is safe too (the earlier substeps keep the old
   * buffers, whose only uniform change, nodeCount, is read as "non-empty" and both trees have the
   * mesh's triangles). The old buffers are destroyed at the next beginFrame.
   */
  replaceBvh(bvh: SurfaceBvh): void {
    const old = this.mesh.replaceBvh(bvh);
    this.retired.push(...old);
    if (this.group) this.group = { positions: this.group.positions, bindGroup: this.mesh.queryGroup(this.group.positions, this.list, this.results) };
    this.mesh.writeQueryParams(this.config, this.rowStride);
    this.penetration?.treeReplaced();
  }

  /** Levels (depths) of the GPU tree now. */
  get bvhLevelCount(): number {
    return this.mesh.bvhGpu.levelCount;
  }

  /** Refit dispatches per substep of the GPU tree now (1 or 2, refitSchedule.ts). */
  get bvhRefitDispatches(): number {
    return this.mesh.bvhGpu.refitDispatches;
  }

  /** Culling or tolerances changed (a uniform write, outside the frame's substeps). */
  setOptions(options: Pick<SpbStageOptions, 'culling' | 'tolerances'>): void {
    this.config = {
      culling: options.culling ?? this.config.culling,
      tolerances: { ...this.config.tolerances, ...options.tolerances },
    };
    this.mesh.writeQueryParams(this.config, this.rowStride);
  }

  /** Culling and tolerances the kernel runs with (the CPU fallback answers with the same). */
  get queryConfig(): SpbQueryConfig {
    return this.config;
  }

  /** The answers, RESULT_WORDS words per query at the query's index (shaders/lib/spbResult.wgsl). */
  get resultsBuffer(): GPUBuffer {
    return this.results;
  }

  /** Holds the frame's summed statistics at statsLayout (and the prepass's words around them). */
  get statsBuffer(): GPUBuffer {
    return this.mesh.counters;
  }

  active(): boolean {
    return this.isActive();
  }

  beginFrame(encoder: GPUCommandEncoder): void {
    this.destroyRetired();
    this.mesh.clearStats(encoder);
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    // A round that only solves the contacts again keeps the detecting round's answers.
    if (resolvesOnly(step)) return;
    const positions = state.positions;
    if (positions.size < 16 * this.mesh.data.vertexCount) {
      throw new RangeError(`SpbStage: state.positions holds ${positions.size} bytes, the mesh needs ${16 * this.mesh.data.vertexCount} (vec4 per vertex)`);
    }
    if (this.group?.positions !== positions) {
      this.group = { positions, bindGroup: this.mesh.queryGroup(positions, this.list, this.results) };
    }
    if (!this.prepassInDetect) this.mesh.clearInversions(encoder);
    const pass = step.beginPass(encoder, 'spb', 'spb');
    if (!this.prepassInDetect) this.mesh.recordRefitAndPrepass(pass, positions, !this.refitInDetect);
    else if (!this.refitInDetect) this.mesh.bvhGpu.recordRefit(pass, positions);
    const method = this.method();
    if (method === 'exact') {
      pass.setPipeline(this.mesh.kernels.query);
      pass.setBindGroup(0, this.group.bindGroup);
      pass.dispatchWorkgroups(this.queryGrid[0], this.queryGrid[1]);
    } else {
      if (!this.penetration) throw new Error(`SpbStage: penetration '${method}' needs the rest pose (options.penetration)`);
      this.penetration.record(pass, method, positions, this.list, this.results, { indirect: this.args });
    }
    pass.end();
    step.countDispatches((this.refitInDetect ? 0 : this.mesh.bvhGpu.refitDispatches) + (this.prepassInDetect ? 1 : 2));
  }

  private destroyRetired(): void {
    for (const b of this.retired) b.destroy();
    this.retired = [];
  }

  destroy(): void {
    this.destroyRetired();
    this.penetration?.destroy();
    this.mesh.destroy();
  }
}

