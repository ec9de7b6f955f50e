/**
 * One mesh's shortest-path data on the GPU, shared by SpbQueryGpu (batches) and SpbStage (the
 * time step): the topology (packSpbBuffers.ts), the surface BVH and its refit (src/bvh), the
 * per-tet measures and the counters, the uniforms, and the recording of the refit, the prepass
 * and the query into a compute pass. Positions are never held here: the caller binds a vec4
 * buffer (xyz + inverse mass, contract/state.ts).
 *
 * Counters (packSpbBuffers.ts): word 0 and the component flags are the prepass's, per position
 * update (clearInversions); words 1..STAT_COUNT are the summed statistics (STAT_NAMES order),
 * cleared by whoever owns their period (clearStats: per batch, or per frame in the stage).
 *
 * The GPU tree starts as data.bvh and may be replaced by a rebuild (replaceBvh); data.bvh stays
 * the CPU query's own tree (the answers do not depend on the tree's shape, only the cost does).
 */
import type { SurfaceBvh } from '../../bvh/surfaceBvh';
import { SurfaceBvhGpu } from '../../bvh/surfaceBvhGpu';
import { validateSurfaceBvh } from '../../bvh/validateSurfaceBvh';
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer } from '../../gpu/buffers';
import type { SpbMeshData } from '../meshData';
import type { SpbQueryConfig } from '../query';
import type { SpbCapacities } from '../settings';
import { STAT_COUNT } from '../workspace';
import { COMPONENT_FLAG_WORD, packTets, packTopology, type TopologySections } from './packSpbBuffers';
import { SpbKernels } from './spbKernels';

/** Byte offset and word count of the summed statistics in `counters` (STAT_NAMES order). */
export const SPB_STATS_BYTE_OFFSET = 4;
export const SPB_STATS_WORDS = STAT_COUNT;

export class SpbGpuMesh {
  readonly kernels: SpbKernels;
  readonly bvhGpu: SurfaceBvhGpu;
  readonly tets: GPUBuffer;
  /** Topology words (packSpbBuffers.ts); its order section follows the GPU tree (a new buffer per replaceBvh). */
  private topoBuffer: GPUBuffer;
  readonly measures: GPUBuffer;
  readonly counters: GPUBuffer;
  readonly prepassParams: GPUBuffer;
  readonly queryParams: GPUBuffer;
  readonly sections: TopologySections;
  private prepassGroup: GPUBindGroup | null = null;
  private prepassPositions: GPUBuffer | null = null;

  constructor(
    private readonly device: GPUDevice,
    readonly data: SpbMeshData,
    capacities: Readonly<SpbCapacities>,
  ) {
    this.kernels = new SpbKernels(device, capacities);
    const topo = packTopology(data);
    this.sections = topo.sections;
    this.tets = storageBuffer(device, 'spb.tets', packTets(data));
    this.topoBuffer = storageBuffer(device, 'spb.topology', topo.words);
    this.bvhGpu = new SurfaceBvhGpu(device, data.bvh);
    this.measures = storageBuffer(device, 'spb.tetMeasures', Math.max(1, data.tetCount) * 8);
    this.counters = storageBuffer(device, 'spb.counters', (COMPONENT_FLAG_WORD + data.tetCount) * 4);
    this.prepassParams = uniformBuffer(device, 'spbPrepass.params', 16);
    device.queue.writeBuffer(this.prepassParams, 0, new Uint32Array([data.tetCount, topo.sections.offTetComponent, gridRowStride(data.tetCount), 0]));
    this.queryParams = uniformBuffer(device, 'spbQuery.params', 80);
  }

  get topo(): GPUBuffer {
    return this.topoBuffer;
  }

  /**
   * Installs `bvh` (a rebuild over the same boundary triangles, any node and level count) as the
   * GPU tree for everything recorded from now on: new node, refit-topology and level buffers
   * (SurfaceBvhGpu.replace), a new topology buffer with the new triangle order (the rest copied
   * on the GPU from the old one), and the refit's and the prepass's bind groups rebuilt here, once.
   * Bind groups the caller holds over `nodes` or `topo` (queryGroup) must be rebuilt by the
   * caller, and the query uniforms rewritten (writeQueryParams: nodeCount).
   *
   * Throws a RangeError naming the fault, before touching anything, if `bvh` is not a valid tree
   * over data.triangles (validateSurfaceBvh). Returns the old buffers, not destroyed: commands
   * recorded before the call may reference them until their submit.
   */
  replaceBvh(bvh: SurfaceBvh): GPUBuffer[] {
    validateSurfaceBvh(bvh, this.data.triangles, 'SpbGpuMesh.replaceBvh');
    const oldTopo = this.topoBuffer;
    const topo = this.device.createBuffer({ label: 'spb.topology', size: oldTopo.size, usage: oldTopo.usage });
    const encoder = this.device.createCommandEncoder({ label: 'spb.replaceBvh' });
    encoder.copyBufferToBuffer(oldTopo, 0, topo, 0, oldTopo.size);
    // Queue order: the copy is submitted before the write, so the write lands on the copy.
    this.device.queue.submit([encoder.finish()]);
    const order = bvh.triangleOrder;
    if (order.byteLength > 0) this.device.queue.writeBuffer(topo, 4 * this.sections.offOrder, order.buffer as ArrayBuffer, order.byteOffset, order.byteLength);
    this.topoBuffer = topo;
    const retired = [oldTopo, ...this.bvhGpu.replace(bvh)];
    if (this.prepassPositions) this.bindPrepass(this.prepassPositions);
    return retired;
  }

  /** The query's uniforms (struct Params of spbQuery.wgsl); rowStride for a direct dispatchGrid. */
  writeQueryParams(config: SpbQueryConfig, rowStride: number): void {
    const buf = new ArrayBuffer(80);
    const u = new Uint32Array(buf);
    const f = new Float32Array(buf);
    const s = this.sections;
    const tol = config.tolerances;
    u.set([
      rowStride,
      this.bvhGpu.bvh.nodeCount,
      config.culling ? 1 : 0,
      s.offOrder,
      s.offTetComponent,
      s.offVertexNeighborOffsets,
      s.offVertexNeighbors,
      s.offVertexTriangleOffsets,
      s.offVertexTriangles,
    ]);
    f.set([tol.exitFace, tol.culling, tol.beyond, tol.zeroLength, tol.inversionTravel, tol.barycentric], 12);
    this.device.queue.writeBuffer(this.queryParams, 0, buf);
  }

  /** Before the prepass: the inverted-tet count and the per-component flags. */
  clearInversions(encoder: GPUCommandEncoder): void {
    encoder.clearBuffer(this.counters, 0, 4);
    encoder.clearBuffer(this.counters, 4 * COMPONENT_FLAG_WORD, 4 * this.data.tetCount);
  }

  /** The summed statistics (words 1..STAT_COUNT). */
  clearStats(encoder: GPUCommandEncoder): void {
    encoder.clearBuffer(this.counters, SPB_STATS_BYTE_OFFSET, 4 * SPB_STATS_WORDS);
  }

  /** The refit (when `refit`) and the prepass from `positions`, into an open pass. */
  recordRefitAndPrepass(pass: GPUComputePassEncoder, positions: GPUBuffer, refit: boolean): void {
    if (refit) this.bvhGpu.recordRefit(pass, positions);
    if (this.prepassPositions !== positions) this.bindPrepass(positions);
    pass.setPipeline(this.kernels.prepass);
    pass.setBindGroup(0, this.prepassGroup!);
    const [x, y] = dispatchGrid(this.data.tetCount);
    pass.dispatchWorkgroups(x, y);
  }

  private bindPrepass(positions: GPUBuffer): void {
    this.prepassGroup = this.kernels.prepassTable.group(
      { params: this.prepassParams, positions, tets: this.tets, topo: this.topoBuffer, measures: this.measures, counters: this.counters },
      'spbPrepass',
    );
    this.prepassPositions = positions;
  }

  /** The query kernel's bind group over a query list and its results (the current tree's buffers). */
  queryGroup(positions: GPUBuffer, list: GPUBuffer, results: GPUBuffer): GPUBindGroup {
    return this.kernels.queryTable.group(
      {
        params: this.queryParams,
        positions,
        tets: this.tets,
        topo: this.topoBuffer,
        nodes: this.bvhGpu.nodes,
        measures: this.measures,
        list,
        results,
        counters: this.counters,
      },
      'spbQuery',
    );
  }

  destroy(): void {
    for (const b of [this.tets, this.topoBuffer, this.measures, this.counters, this.prepassParams, this.queryParams]) b.destroy();
    this.bvhGpu.destroy();
  }
}
