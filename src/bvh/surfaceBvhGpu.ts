/**
 * The surface BVH on the GPU: its flat node array in a storage buffer (read as-is by
 * shaders/spbQuery.wgsl) and the refit kernel shaders/bvhRefit.wgsl, so that a simulation whose
 * positions live on the GPU refits without reading them back. The topology (tree shape,
 * triangle order) comes from a CPU build (buildSurfaceBvh) and stays fixed between rebuilds.
 *
 * The refit runs in two dispatches (refitSchedule.ts: subtrees, then the top, each workgroup
 * sweeping its nodes by height), not one per tree level; the schedule is made once per tree here.
 * Each dispatch's group range sits in its own slot of one uniform buffer (WGSL has no push
 * constants), bound by one bind group per dispatch (built once per positions buffer). Positions
 * are the one GPU layout, vec4 per vertex (xyz + inverse mass, contract/state.ts). The sweep's
 * group ranges follow the topology words in the same buffer (3 storage buffers in all), so that a
 * kernel running a refit dispatch inside its own (refitPart: detection's, issue 24) binds 2 more.
 *
 * A rebuild (new topology, made on the CPU or in a worker) is installed with replace(): new node,
 * topology and uniform buffers, the bind groups rebuilt once; the pipeline is kept.
 */
import code from '../../shaders/bvhRefit.wgsl?raw';
import { BindingTable } from '../gpu/bindingTable';
import { dispatchGrid, storageBuffer, WORKGROUP_SIZE } from '../gpu/buffers';
import { withIncludes } from '../gpu/wgsl';
import { refitSchedule } from './refitSchedule';
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS, type SurfaceBvh } from './surfaceBvh';

/** Node ids grouped by depth, deepest level first, with [start, end) per level (the overlay's BVH levels). */
export function levelOrder(bvh: SurfaceBvh): { nodes: Uint32Array; starts: Uint32Array } {
  const n = bvh.nodeCount;
  const depth = new Uint32Array(n);
  let maxDepth = 0;
  for (let i = 0; i < n; i++) {
    // Children follow their parent, so a parent's depth is final before its children are seen.
    if (bvh.nodeWords[i * BVH_NODE_WORDS + BVH_COUNT] === 0) {
      const l = bvh.nodeWords[i * BVH_NODE_WORDS + BVH_LINK];
      depth[l] = depth[i] + 1;
      depth[l + 1] = depth[i] + 1;
      maxDepth = Math.max(maxDepth, depth[i] + 1);
    }
  }
  const levels = n > 0 ? maxDepth + 1 : 0;
  const starts = new Uint32Array(levels + 1);
  // Level slot s holds depth maxDepth - s (deepest first).
  for (let i = 0; i < n; i++) starts[maxDepth - depth[i] + 1]++;
  for (let s = 0; s < levels; s++) starts[s + 1] += starts[s];
  const fill = starts.slice(0, levels);
  const nodes = new Uint32Array(n);
  for (let i = 0; i < n; i++) nodes[fill[maxDepth - depth[i]]++] = i;
  return { nodes, starts };
}

/** Bindings of shaders/bvhRefit.wgsl, in its @binding order. */
export const BVH_REFIT_BINDINGS = {
  level: 'uniform',
  positions: 'read-only-storage',
  topo: 'read-only-storage',
  nodes: 'storage',
} as const;

/** Bytes of one dispatch's uniforms (struct RefitParams of lib/bvhRefitSweep.wgsl). */
export const REFIT_PARAMS_BYTES = 32;

/**
 * One refit dispatch as another kernel runs it inside its own (lib/bvhRefitSweep.wgsl's
 * bindings): its uniforms' slot, the topology words and the nodes, and its workgroups.
 */
export interface RefitPart {
  params: GPUBufferBinding;
  topo: GPUBuffer;
  nodes: GPUBuffer;
  groups: number;
}

/** What one tree needs on the GPU: swapped as a whole by SurfaceBvhGpu.replace. */
interface TreeBuffers {
  bvh: SurfaceBvh;
  nodes: GPUBuffer;
  /** Triangles, triangle order, sweep order, then the sweep's group ranges. */
  topo: GPUBuffer;
  params: GPUBuffer;
  /** Tree levels (depths), and per refit dispatch its groups (subtrees, then the top). */
  levels: number;
  dispatchGroups: number[];
}

export class SurfaceBvhGpu {
  private readonly table: BindingTable<keyof typeof BVH_REFIT_BINDINGS>;
  private readonly pipeline: GPUComputePipeline;
  private readonly slot: number;
  private tree: TreeBuffers;
  private bindGroups: GPUBindGroup[] = [];
  private boundPositions: GPUBuffer | null = null;
  private treeGeneration = 0;

  constructor(
    private readonly device: GPUDevice,
    bvh: SurfaceBvh,
  ) {
    this.slot = Math.max(REFIT_PARAMS_BYTES, device.limits.minUniformBufferOffsetAlignment);
    this.tree = this.createTree(bvh);
    this.table = new BindingTable(device, 'bvhRefit', BVH_REFIT_BINDINGS);
    this.pipeline = device.createComputePipeline({
      label: 'bvhRefit',
      layout: device.createPipelineLayout({ label: 'bvhRefit', bindGroupLayouts: [this.table.layout] }),
      compute: { module: device.createShaderModule({ label: 'bvhRefit.wgsl', code: withIncludes(code, 'bvhRefit.wgsl') }), entryPoint: 'sweepCells' },
    });
  }

  /** The tree on the GPU now (its CPU arrays: what upload() sends). */
  get bvh(): SurfaceBvh {
    return this.tree.bvh;
  }

  /** BVH_NODE_WORDS words per node, the layout of surfaceBvh.ts (a new buffer after replace()). */
  get nodes(): GPUBuffer {
    return this.tree.nodes;
  }

  /** Levels (depths) of the current tree. */
  get levelCount(): number {
    return this.tree.levels;
  }

  /** Dispatches of one refit: 1 or 2 (refitSchedule.ts), 0 for an empty tree. */
  get refitDispatches(): number {
    return this.tree.dispatchGroups.length;
  }

  /** Bumped by every replace(): bind groups over refitPart's buffers are rebuilt when it changes. */
  get generation(): number {
    return this.treeGeneration;
  }

  /**
   * Refit dispatch d (0: the subtrees, or the whole tree when it is one group; 1: the top) for a
   * kernel that runs it in workgroups of its own dispatch; null when the tree has no dispatch d.
   * Its buffers change with replace() (generation).
   */
  refitPart(d: number): RefitPart | null {
    const t = this.tree;
    if (d >= t.dispatchGroups.length) return null;
    return { params: { buffer: t.params, offset: d * this.slot, size: REFIT_PARAMS_BYTES }, topo: t.topo, nodes: t.nodes, groups: t.dispatchGroups[d] };
  }

  /** Node array, refit topology (triangles, order, sweep order), sweep ranges and per-dispatch uniforms of `bvh`. */
  private createTree(bvh: SurfaceBvh): TreeBuffers {
    const device = this.device;
    const schedule = refitSchedule(bvh);
    const nTri = bvh.triangleCount;
    const offRanges = 4 * nTri + bvh.nodeCount;
    const words = new Uint32Array(Math.max(1, offRanges + schedule.ranges.length));
    words.set(bvh.triangles.subarray(0, 3 * nTri), 0);
    words.set(bvh.triangleOrder, 3 * nTri);
    words.set(schedule.order, 4 * nTri);
    words.set(schedule.ranges, offRanges);
    const topo = storageBuffer(device, 'bvhRefit.topology', words);
    const nodes = storageBuffer(device, 'bvh.nodes', bvh.nodes);
    const dispatchGroups = [schedule.subtrees, schedule.top].filter((g) => g > 0);
    const params = device.createBuffer({
      label: 'bvhRefit.dispatches',
      size: Math.max(1, dispatchGroups.length) * this.slot,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    const slots = new Uint32Array((Math.max(1, dispatchGroups.length) * this.slot) / 4);
    let first = 0;
    dispatchGroups.forEach((groups, d) => {
      slots.set([first, groups, 3 * nTri, 4 * nTri, dispatchGrid(groups * WORKGROUP_SIZE)[0], offRanges], (d * this.slot) / 4);
      first += groups;
    });
    device.queue.writeBuffer(params, 0, slots);
    return { bvh, nodes, topo, params, levels: levelOrder(bvh).starts.length - 1, dispatchGroups };
  }

  /**
   * Installs another tree over the same triangles (a rebuild: any node and level count), for
   * every refit recorded from now on; the per-level bind groups are rebuilt here, once, for the
   * positions bound last. The caller validates `bvh` first (validateSurfaceBvh: the kernels trust
   * the links). Returns the old tree's buffers, NOT destroyed: commands recorded before this call
   * may still reference them until their submit, so the caller destroys them after it.
   */
  replace(bvh: SurfaceBvh): GPUBuffer[] {
    const old = this.tree;
    this.tree = this.createTree(bvh);
    this.treeGeneration++;
    this.bindGroups = [];
    if (this.boundPositions) this.bindLevels(this.boundPositions);
    return [old.nodes, old.topo, old.params];
  }

  /** Uploads the CPU node array (after a CPU refit of the same topology). */
  upload(): void {
    const n = this.tree.bvh.nodes;
    this.device.queue.writeBuffer(this.tree.nodes, 0, n.buffer as ArrayBuffer, n.byteOffset, n.byteLength);
  }

  /** Records the refit from `positions` (vec4 per vertex) into `encoder`, in a pass of its own. */
  encodeRefit(encoder: GPUCommandEncoder, positions: GPUBuffer): void {
    if (this.refitDispatches === 0) return;
    const pass = encoder.beginComputePass({ label: 'bvhRefit' });
    this.recordRefit(pass, positions);
    pass.end();
  }

  /** One bind group per refit dispatch over `positions` (built once per positions buffer and per tree). */
  private bindLevels(positions: GPUBuffer): void {
    const t = this.tree;
    // The per-dispatch slot needs an offset, which BindingTable.group does not take: the entries
    // follow the table's names and order by hand.
    const buffers: Record<keyof typeof BVH_REFIT_BINDINGS, GPUBuffer> = { level: t.params, positions, topo: t.topo, nodes: t.nodes };
    this.bindGroups = t.dispatchGroups.map((_, d) =>
      this.device.createBindGroup({
        label: `bvhRefit dispatch ${d}`,
        layout: this.table.layout,
        entries: this.table.names.map((name, binding) => ({
          binding,
          resource: name === 'level' ? { buffer: t.params, offset: d * this.slot, size: REFIT_PARAMS_BYTES } : { buffer: buffers[name] },
        })),
      }),
    );
    this.boundPositions = positions;
  }

  /**
   * Records the refit's dispatches (subtrees, then the top) into an open compute pass: the second
   * sees the boxes the first wrote (WebGPU orders dispatches of one pass).
   */
  recordRefit(pass: GPUComputePassEncoder, positions: GPUBuffer): void {
    if (this.refitDispatches === 0) return;
    if (this.boundPositions !== positions) this.bindLevels(positions);
    pass.setPipeline(this.pipeline);
    this.tree.dispatchGroups.forEach((groups, d) => {
      pass.setBindGroup(0, this.bindGroups[d]);
      const [x, y] = dispatchGrid(groups * WORKGROUP_SIZE);
      pass.dispatchWorkgroups(x, y);
    });
  }

  destroy(): void {
    this.tree.topo.destroy();
    this.tree.nodes.destroy();
    this.tree.params.destroy();
  }
}
