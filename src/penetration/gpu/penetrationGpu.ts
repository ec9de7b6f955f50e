/**
 * The rest-pose methods on the GPU, beside the shortest-path kernel (src/spb/gpu/spbStage.ts
 * records them in its place when SolverParams.penetration is not 'exact'): over the same query
 * list, writing the same result records, reading the shortest path's topology, current tree and
 * counters (SpbGpuMesh). What each method adds is uploaded once, on its first use, from the CPU
 * twin's data (PenetrationTargets): the rest positions and the rest pose's BVH (restClosest), the
 * rest distance field (ddf). Nothing is read back.
 */
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer } from '../../gpu/buffers';
import type { AlternativeQueries, AlternativeQueriesFactory, QueryDispatch } from '../../spb/gpu/alternativeQueries';
import type { SpbGpuMesh } from '../../spb/gpu/spbGpuMesh';
import type { SpbMeshData } from '../../spb/meshData';
import type { SpbOverflowAnswers } from '../../spb/gpu/overflowFallback';
import type { PenetrationTargets } from '../penetrationTargets';
import { ddfKernel, PENETRATION_PARAMS_BYTES, restClosestKernel, type PenetrationKernel, type RestPoseMethod } from './penetrationKernels';

/** A method's kernel, its uniforms and buffers, and the bind group over the buffers last bound. */
interface MethodResources<Names extends string> {
  kernel: PenetrationKernel<Names>;
  params: GPUBuffer;
  /** The method's own buffers (destroyed with it). */
  own: Partial<Record<Names, GPUBuffer>>;
  group: GPUBindGroup | null;
  bound: GPUBuffer[];
}

/** How a record() dispatches (the spb stage's QueryDispatch). */
export type PenetrationDispatch = QueryDispatch;

/** The factory the spb stage and SpbQueryGpu take (spb/gpu/alternativeQueries.ts) for these methods over `targets`. */
export function penetrationKernels(targets: PenetrationTargets): AlternativeQueriesFactory {
  return (device, mesh) => new PenetrationGpu(device, mesh, targets);
}

export class PenetrationGpu implements AlternativeQueries {
  private restClosest: MethodResources<'params' | 'positions' | 'tets' | 'topo' | 'restPositions' | 'restTree' | 'list' | 'results' | 'counters'> | null = null;
  private ddf: MethodResources<'params' | 'positions' | 'tets' | 'topo' | 'nodes' | 'field' | 'list' | 'results' | 'counters'> | null = null;
  private rowStride = 0;

  constructor(
    private readonly device: GPUDevice,
    private readonly mesh: SpbGpuMesh,
    readonly targets: PenetrationTargets,
  ) {}

  /** Builds `method`'s pipeline and uploads its data now (otherwise at its first record). */
  prepare(method: RestPoseMethod): void {
    if (method === 'restClosest') this.restClosestResources();
    else this.ddfResources();
  }

  /**
   * Records `method`'s query over `list` (n = min(count, capacity) of its header) into
   * `results`, after the refit and prepass the caller recorded into the same pass. Direct
   * dispatches write the row stride first (outside any frame: a batch, not the time step).
   */
  record(pass: GPUComputePassEncoder, method: RestPoseMethod, positions: GPUBuffer, list: GPUBuffer, results: GPUBuffer, dispatch: PenetrationDispatch): void {
    const stride = 'count' in dispatch ? gridRowStride(dispatch.count) : 0;
    if (stride !== this.rowStride) {
      this.rowStride = stride;
      if (this.restClosest) this.writeRestClosestParams(this.restClosest.params);
      if (this.ddf) this.writeDdfParams(this.ddf.params);
    }
    const group = method === 'restClosest' ? this.restClosestGroup(positions, list, results) : this.ddfGroup(positions, list, results);
    const kernel = method === 'restClosest' ? this.restClosestResources().kernel : this.ddfResources().kernel;
    pass.setPipeline(kernel.pipeline);
    pass.setBindGroup(0, group);
    if ('indirect' in dispatch) pass.dispatchWorkgroupsIndirect(dispatch.indirect, 0);
    else {
      const [x, y] = dispatchGrid(dispatch.count);
      pass.dispatchWorkgroups(x, y);
    }
  }

  /** The CPU twin's answers (queries the GPU flagged as overflowed). */
  answerBatch(method: RestPoseMethod, current: SpbMeshData, points: ArrayLike<number>, tets: ArrayLike<number>, exclude: ArrayLike<number>, exclude2: ArrayLike<number>): SpbOverflowAnswers {
    return this.targets.answerBatch(method, current, points, tets, exclude, exclude2);
  }

  /** The shortest path's tree (and topology buffer) were replaced: ddf walks the new tree. */
  treeReplaced(): void {
    if (this.ddf) this.writeDdfParams(this.ddf.params);
  }

  private restClosestResources(): NonNullable<typeof this.restClosest> {
    if (this.restClosest) return this.restClosest;
    const rest = this.targets.rest;
    const bvh = rest.bvh;
    const nodeWords = 8 * bvh.nodeCount;
    const tree = new Uint32Array(Math.max(1, nodeWords + bvh.triangleOrder.length));
    tree.set(bvh.nodeWords.subarray(0, nodeWords));
    tree.set(bvh.triangleOrder, nodeWords);
    const restPositions = new Float32Array(4 * Math.max(1, rest.vertexCount));
    for (let v = 0; v < rest.vertexCount; v++) for (let k = 0; k < 3; k++) restPositions[4 * v + k] = rest.positions[3 * v + k];
    const params = uniformBuffer(this.device, 'restClosestQuery.params', PENETRATION_PARAMS_BYTES);
    this.restClosest = {
      kernel: restClosestKernel(this.device),
      params,
      own: { restPositions: storageBuffer(this.device, 'restClosest.restPositions', restPositions), restTree: storageBuffer(this.device, 'restClosest.restTree', tree) },
      group: null,
      bound: [],
    };
    this.writeRestClosestParams(params);
    return this.restClosest;
  }

  private ddfResources(): NonNullable<typeof this.ddf> {
    if (this.ddf) return this.ddf;
    const field = this.targets.field;
    const n = field.distance.length;
    const words = new Float32Array(8 * Math.max(1, n));
    for (let v = 0; v < n; v++) {
      for (let k = 0; k < 3; k++) {
        words[8 * v + k] = field.restPositions[3 * v + k];
        words[8 * v + 4 + k] = field.direction[3 * v + k];
      }
      words[8 * v + 3] = field.distance[v];
    }
    const params = uniformBuffer(this.device, 'ddfQuery.params', PENETRATION_PARAMS_BYTES);
    this.ddf = { kernel: ddfKernel(this.device), params, own: { field: storageBuffer(this.device, 'ddf.field', words) }, group: null, bound: [] };
    this.writeDdfParams(params);
    return this.ddf;
  }

  private writeRestClosestParams(params: GPUBuffer): void {
    const bvh = this.targets.rest.bvh;
    this.device.queue.writeBuffer(params, 0, new Uint32Array([this.rowStride, bvh.nodeCount, 8 * bvh.nodeCount, this.mesh.sections.offTetComponent]));
  }

  private writeDdfParams(params: GPUBuffer): void {
    const s = this.mesh.sections;
    this.device.queue.writeBuffer(params, 0, new Uint32Array([this.rowStride, this.mesh.bvhGpu.bvh.nodeCount, s.offOrder, s.offTetComponent]));
  }

  /** The resources' bind group over these buffers (rebuilt only when one of them changed). */
  private groupOf<N extends string>(r: MethodResources<N>, buffers: Record<N, GPUBuffer>): GPUBindGroup {
    const list = r.kernel.table.names.map((name) => buffers[name]);
    if (!r.group || list.some((b, i) => b !== r.bound[i])) {
      r.group = r.kernel.table.group(buffers, r.kernel.table.label);
      r.bound = list;
    }
    return r.group;
  }

  private restClosestGroup(positions: GPUBuffer, list: GPUBuffer, results: GPUBuffer): GPUBindGroup {
    const r = this.restClosestResources();
    const m = this.mesh;
    return this.groupOf(r, { params: r.params, positions, tets: m.tets, topo: m.topo, restPositions: r.own.restPositions!, restTree: r.own.restTree!, list, results, counters: m.counters });
  }

  private ddfGroup(positions: GPUBuffer, list: GPUBuffer, results: GPUBuffer): GPUBindGroup {
    const r = this.ddfResources();
    const m = this.mesh;
    return this.groupOf(r, { params: r.params, positions, tets: m.tets, topo: m.topo, nodes: m.bvhGpu.nodes, field: r.own.field!, list, results, counters: m.counters });
  }

  destroy(): void {
    for (const r of [this.restClosest, this.ddf]) {
      if (!r) continue;
      r.params.destroy();
      for (const b of Object.values(r.own) as GPUBuffer[]) b.destroy();
    }
    this.restClosest = this.ddf = null;
  }
}
