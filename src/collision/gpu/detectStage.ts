/**
 * The 'detect' stage (docs/collisions.md; paper 000 section 4): every substep, on the GPU,
 * with no readback,
 *   1. clears the query count and the spatial hash (encoder.clearBuffer: header word 0, heads),
 *   2. buildHash   one invocation per tet: the spatial hash of tet boxes (dcdHash.wgsl),
 *   3. detect      one invocation per query point: boundary vertices, boundary edges (recovery:
 *                  every vertex and every tet centroid), the containing tet of smallest id, one Query per hit,
 *   4. writeArgs   one invocation: the indirect dispatch args over the queries, only where a later
 *                  kernel reads them (argsReadWhen: the contacts' grid passes, the rest-pose
 *                  penetration methods, the intersection display; dcdArgs.wgsl, bindings of its own).
 * Hybrid mode (Alg. 5) marks the points penetrating at the substep's start (Pin) in the same
 * three dispatches: the hash holds each tet's box swept over the substep and detect marks each
 * point at the start positions before it tests a Pin point at the end (DETECT_PIN_AND_TEST). The
 * plan before issue 24 (`separatePinPass`: a hash and a detect dispatch of the start positions
 * first, 5 dispatches) stays for the tests that compare the two.
 * The shortest path's BVH refit (2 dispatches: subtrees, then the top) runs inside the hash build's
 * and the detection's dispatches where the adapter has the 10 storage buffers per kernel this
 * needs (refitBvh, issue 24: 2 dispatches a substep fewer; 10 is what Chrome exposes on Metal);
 * its workgroups follow detection's in each, and read and write nothing detection does. To fit
 * 10, the hash build reads the tets' components from the collision topology (not the shortest
 * path's topology buffer), and detection binds neither the indirect args (writeArgs has its own
 * bindings) nor the overflow list (the substep its entries record is a query-list header word).
 * Per frame (beginFrame): the uniforms (switches read from the settings then) and the frame's
 * header counters. After the frame's readback, `afterFrame(header)` grows the query list and the
 * hash pool when they overflowed.
 */
import hashCode from '../../../shaders/dcdHash.wgsl?raw';
import detectCode from '../../../shaders/dcdDetect.wgsl?raw';
import argsCode from '../../../shaders/dcdArgs.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, uniformBuffer, WORKGROUP_SIZE } from '../../gpu/buffers';
import { definePipelines, wgslPipeline } from '../../gpu/lazyPipelines';
import { effectiveCollisionMode, type CollisionMode, type SolverParams } from '../../contract/params';
import { resolvesOnly, type GpuStage, type SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { RefitPart, SurfaceBvhGpu } from '../../bvh/surfaceBvhGpu';
import type { CollisionTopologyGpu } from './collisionTopology';
import type { QueryList } from './queryList';
import { SpatialHash, type SpatialHashOptions } from './spatialHash';

/** The switches detection reads (SolverParams' collision settings). */
export type DetectSettings = Pick<SolverParams, 'collisions' | 'selfCollision' | 'recovery' | 'interObject'> & Partial<Pick<SolverParams, 'collisionMode' | 'escapedToDcd' | 'pinRelease'>>;

/**
 * The shortest path's per-tet measures (shaders/lib/tetMeasures.wgsl; SpbGpuMesh), which the hash
 * build takes from the same corners when given (DETECT_MEASURE_TETS): the spb stage then skips
 * its prepass dispatch (SpbStage.prepassInDetect). The component flags are indexed by the tets'
 * components of the collision topology (CollisionTopologyGpu, tetComponent: the shortest path's
 * numbering, static per mesh).
 */
export interface TetMeasureTarget {
  readonly measures: GPUBuffer;
  readonly counters: GPUBuffer;
  /** Clears the inverted-tet count and the component flags (before every measuring). */
  clearInversions(encoder: GPUCommandEncoder): void;
}

/**
 * The boxes CCD's candidates of the frame were found with (shaders/lib/ccdBoxes.wgsl; CcdStage),
 * and which of them hold this frame: a free point that left them is tested at the substep's end
 * (SolverParams.escapedToDcd).
 */
export interface EscapeBoxes {
  readonly boxes: GPUBuffer;
  /** Asked at beginFrame, after the time step asked CcdStage.active(). */
  escapeChecks(): { world: boolean; own: boolean };
}

/** DetectParams bits (shaders/lib/spatialHash.wgsl). */
const DETECT_RECOVERY = 1;
const DETECT_SELF = 2;
const DETECT_EUCLIDEAN = 4;
const DETECT_MARK_PIN = 8;
const DETECT_ONLY_PIN = 16;
const DETECT_PIN_AND_TEST = 32;
const DETECT_ESCAPES = 64;
const DETECT_ESCAPES_OWN = 128;
const DETECT_MEASURE_TETS = 256;
const DETECT_PIN_RELEASE = 512;
const PARAM_WORDS = 24;
/** Workgroups per row of the dispatches that also refit (FUSED_GRID_ROW, lib/spatialHash.wgsl). */
const FUSED_GRID_ROW = 65535;
/**
 * Storage buffers of the hash build's and detection's kernels with the refit's dispatches inside
 * (dcdHash.wgsl buildHashAndRefit, dcdDetect.wgsl detectAndRefit: 10 each).
 */
export const REFIT_IN_DETECTION_STORAGE_BUFFERS = 10;

/** A grid of `groups` workgroups at most FUSED_GRID_ROW wide, so that the kernel needs no row stride. */
function fusedGrid(groups: number): [number, number] {
  const rows = Math.ceil(groups / FUSED_GRID_ROW);
  return [Math.min(groups, FUSED_GRID_ROW), rows];
}

/** The BVH refit's two dispatches run inside the hash build's and detection's on this device (refitBvh). */
export function detectionRefitsOn(device: GPUDevice): boolean {
  return device.limits.maxStorageBuffersPerShaderStage >= REFIT_IN_DETECTION_STORAGE_BUFFERS;
}

export class DetectStage implements GpuStage {
  readonly phase = 'detect' as const;
  /** Runs after every material iteration when SolverParams.collideEvery says so (SubstepContext.round). */
  readonly perRound = true;
  readonly hash: SpatialHash;
  private readonly hashTable;
  private readonly detectTable;
  private readonly argsTable;
  declare private readonly buildPipeline: GPUComputePipeline;
  declare private readonly detectPipeline: GPUComputePipeline;
  declare private readonly argsPipeline: GPUComputePipeline;
  /** refitBvh: the tree, and the kernels that run its refit dispatches inside the hash build and detection. */
  private refit?: { bvh: SurfaceBvhGpu; hashTable: BindingTable<string>; detectTable: BindingTable<string>; buildPipeline: GPUComputePipeline; detectPipeline: GPUComputePipeline };
  private readonly uniforms: GPUBuffer;
  /** The same uniforms with DETECT_MARK_PIN (hybrid's start-of-substep pass, separatePinPass). */
  private readonly markUniforms: GPUBuffer;
  /** The same uniforms with DETECT_PIN_AND_TEST (hybrid's first collision round: mark and test in one). */
  private readonly pinAndTestUniforms: GPUBuffer;
  /** Per point, 1 when it penetrated at the substep's start (hybrid): vertex ids, then vertexCount + boundary edge. */
  readonly pin: GPUBuffer;
  /** The mode of the current frame (set by beginFrame). */
  private mode: CollisionMode = 'dcd';
  private groups?: {
    key: string;
    positions: GPUBuffer;
    prev: GPUBuffer;
    hash: GPUBindGroup;
    detect: GPUBindGroup;
    markHash: GPUBindGroup;
    mark: GPUBindGroup;
    pinAndTestHash: GPUBindGroup;
    pinAndTest: GPUBindGroup;
    args: GPUBindGroup;
    /** With refitBvh: the same groups with the refit's dispatches (subtrees in the hash build's, the top in detection's), and their sizes. */
    refit?: { hash: GPUBindGroup; pinAndTestHash: GPUBindGroup; hashGroups: number; detect: GPUBindGroup | null; pinAndTest: GPUBindGroup | null; detectGroups: number };
  };
  /** Query points of the current frame (set by beginFrame: recovery mode changes them). */
  private pointCount = -1;
  private readonly splitPasses: boolean;
  private readonly ownsHash: boolean;
  private readonly vertexPointsOnly: boolean;
  private readonly separatePinPass: boolean;
  private escapeSource?: EscapeBoxes;
  /** This frame's detection tests escaped free points at the substep's end (set by beginFrame). */
  escapesTestedThisFrame = false;
  /** Whether a later stage reads the indirect args this frame (writeArgs runs only then; default: always). */
  private argsWanted: () => boolean = () => true;
  private measureTarget?: TetMeasureTarget;
  /** Bound as measures / counters while no target is given (the flag keeps them unwritten). */
  private readonly noMeasures: GPUBuffer;
  private readonly noCounters: GPUBuffer;
  /** Bound as `boxes` while no CCD stage is watched (the flags keep it unread). */
  private readonly noBoxes: GPUBuffer;

  constructor(
    private readonly device: GPUDevice,
    private readonly topology: CollisionTopologyGpu,
    readonly queryList: QueryList,
    private readonly settings: () => Readonly<DetectSettings>,
    hashOptions: SpatialHashOptions & {
      /** One pass per kernel (build, detect, args) instead of one pass: per-kernel timestamps for benchmarks. */
      splitPasses?: boolean;
      /** Build into this hash instead of one of its own (a second detection on the same scene; the owner destroys it). */
      sharedHash?: SpatialHash;
      /** Boundary vertices only, no edge points (the intersection display, collision/gpu/intersectionDisplay.ts). */
      vertexPointsOnly?: boolean;
      /**
       * Hybrid: mark Pin with a hash and a detect dispatch of its own on the start positions, as
       * before issue 24 (5 dispatches a substep instead of 3; same marks and queries).
       */
      separatePinPass?: boolean;
    } = {},
  ) {
    this.splitPasses = hashOptions.splitPasses ?? false;
    this.ownsHash = !hashOptions.sharedHash;
    this.vertexPointsOnly = hashOptions.vertexPointsOnly ?? false;
    this.separatePinPass = hashOptions.separatePinPass ?? false;
    this.hash = hashOptions.sharedHash ?? new SpatialHash(device, topology.mesh, hashOptions);
    // 8 storage buffers each; refitBvh adds the tree's 2 (REFIT_IN_DETECTION_STORAGE_BUFFERS).
    this.hashTable = new BindingTable(device, 'dcd.hash', {
      params: 'uniform', positions: 'read-only-storage', topo: 'read-only-storage', heads: 'storage', pool: 'storage', list: 'storage',
      prev: 'read-only-storage', measures: 'storage', counters: 'storage',
    });
    this.detectTable = new BindingTable(device, 'dcd.detect', {
      params: 'uniform', positions: 'read-only-storage', topo: 'read-only-storage', heads: 'read-only-storage', pool: 'read-only-storage',
      list: 'storage', pin: 'storage', prev: 'read-only-storage', boxes: 'read-only-storage',
    });
    this.argsTable = new BindingTable(device, 'dcd.args', { params: 'uniform', list: 'storage', args: 'storage' });
    // Compiled on first use (gpu/lazyPipelines.ts).
    definePipelines(this, {
      buildPipeline: () => wgslPipeline(device, 'dcd.buildHash', hashCode, 'buildHash', [this.hashTable.layout]),
      detectPipeline: () => wgslPipeline(device, 'dcd.detect', detectCode, 'detect', [this.detectTable.layout]),
      argsPipeline: () => wgslPipeline(device, 'dcd.writeArgs', argsCode, 'writeArgs', [this.argsTable.layout]),
    });
    this.uniforms = uniformBuffer(device, 'dcd.params', 4 * PARAM_WORDS);
    this.markUniforms = uniformBuffer(device, 'dcd.markParams', 4 * PARAM_WORDS);
    this.pinAndTestUniforms = uniformBuffer(device, 'dcd.pinAndTestParams', 4 * PARAM_WORDS);
    this.noBoxes = device.createBuffer({ label: 'dcd.noBoxes', size: 32, usage: GPUBufferUsage.STORAGE });
    this.noMeasures = device.createBuffer({ label: 'dcd.noMeasures', size: 16, usage: GPUBufferUsage.STORAGE });
    this.noCounters = device.createBuffer({ label: 'dcd.noCounters', size: 16, usage: GPUBufferUsage.STORAGE });
    this.pin = device.createBuffer({
      label: 'dcd.pin',
      size: Math.max(16, 4 * (topology.vertexCount + topology.boundaryEdgeCount)),
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST | GPUBufferUsage.COPY_SRC,
    });
  }

  active(): boolean {
    return this.settings().collisions;
  }

  /**
   * Asked at each encode: does a kernel of this substep read the query list's indirect args?
   * When not, the one-thread writeArgs dispatch is left out (GpuCollisions: the contacts' grid
   * passes and the rest-pose penetration methods read them; the exact query and the contact
   * build dispatch directly).
   */
  argsReadWhen(wanted: () => boolean): void {
    this.argsWanted = wanted;
  }

  /** The shortest path's per-tet measures, taken in the hash build from now on (GpuCollisions wires its SpbStage's). */
  measureTets(target: TetMeasureTarget): void {
    this.measureTarget = target;
    this.groups = undefined;
  }

  /**
   * Runs `bvh`'s refit (its 1 or 2 dispatches) inside the hash build's and detection's dispatches
   * from now on, after their own workgroups (GpuCollisions wires its SpbStage's tree, whose stage
   * then records only the query). Both read the positions detection reads, after the material
   * solve; the subtrees are final before detection's dispatch sweeps the top. Needs
   * REFIT_IN_DETECTION_STORAGE_BUFFERS storage buffers per kernel (detectionRefitsOn); a device
   * with fewer throws here.
   */
  refitBvh(bvh: SurfaceBvhGpu): void {
    if (!detectionRefitsOn(this.device)) {
      throw new RangeError(`DetectStage.refitBvh: the device allows ${this.device.limits.maxStorageBuffersPerShaderStage} storage buffers per kernel, ${REFIT_IN_DETECTION_STORAGE_BUFFERS} needed (check detectionRefitsOn first)`);
    }
    const refitKinds = { refitParams: 'uniform', bvhTopo: 'read-only-storage', bvhNodes: 'storage' } as const;
    const hashTable = new BindingTable<string>(this.device, 'dcd.hashAndRefit', { ...this.hashTable.kinds, ...refitKinds });
    const detectTable = new BindingTable<string>(this.device, 'dcd.detectAndRefit', { ...this.detectTable.kinds, ...refitKinds });
    this.refit = {
      bvh,
      hashTable,
      detectTable,
      buildPipeline: wgslPipeline(this.device, 'dcd.buildHashAndRefit', hashCode, 'buildHashAndRefit', [hashTable.layout]),
      detectPipeline: wgslPipeline(this.device, 'dcd.detectAndRefit', detectCode, 'detectAndRefit', [detectTable.layout]),
    };
    this.groups = undefined;
  }

  /** CCD's boxes, so that hybrid detection tests the free points that left them (GpuCollisions wires its CcdStage). */
  watchEscapes(source: EscapeBoxes): void {
    this.escapeSource = source;
    this.groups = undefined;
  }

  beginFrame(encoder: GPUCommandEncoder): void {
    const s = this.settings();
    this.mode = effectiveCollisionMode({ collisionMode: s.collisionMode ?? 'dcd', recovery: s.recovery });
    const topo = this.topology;
    const vertexPoints = s.recovery ? topo.vertexCount : topo.boundaryVertexCount;
    const centroidPoints = s.recovery ? topo.tetCount : 0;
    const edgePoints = this.vertexPointsOnly ? 0 : topo.boundaryEdgeCount;
    this.pointCount = vertexPoints + edgePoints + centroidPoints;
    const o = topo.offsets;
    const words = new Uint32Array(PARAM_WORDS);
    const floats = new Float32Array(words.buffer);
    floats[0] = this.hash.cellSize;
    floats[1] = 1 / this.hash.cellSize;
    words.set([
      this.hash.tableSize - 1, this.hash.poolCapacity, topo.tetCount, gridRowStride(topo.tetCount),
      vertexPoints, edgePoints, centroidPoints, gridRowStride(this.pointCount),
      (s.recovery ? DETECT_RECOVERY : 0) | (s.selfCollision ? DETECT_SELF : 0) | (s.interObject === 'euclidean' ? DETECT_EUCLIDEAN : 0),
      this.queryList.capacity,
      o.tets, o.vertexObject, o.boundaryVertices, o.boundaryEdges, o.triangleTet, o.vtOffsets, o.vtList, topo.vertexCount,
      o.tetComponent,
    ], 2);
    const FLAGS = 10;
    const base = words[FLAGS];
    // Hybrid with CCD's boxes of this frame: free points that left them are tested at the end.
    const checks = this.mode === 'hybrid' && (s.escapedToDcd ?? true) ? this.escapeSource?.escapeChecks() : undefined;
    const hybridTests = (checks?.world ? DETECT_ESCAPES : 0) | (checks?.world && checks.own ? DETECT_ESCAPES_OWN : 0)
      | (this.mode === 'hybrid' && (s.pinRelease ?? false) ? DETECT_PIN_RELEASE : 0);
    this.escapesTestedThisFrame = checks?.world ?? false;
    // The separate Pin pass hashes the start positions: it measures nothing.
    words[FLAGS] = base | DETECT_MARK_PIN;
    this.device.queue.writeBuffer(this.markUniforms, 0, words);
    const measure = this.measureTarget ? DETECT_MEASURE_TETS : 0;
    words[FLAGS] = base | DETECT_PIN_AND_TEST | hybridTests | measure;
    this.device.queue.writeBuffer(this.pinAndTestUniforms, 0, words);
    words[FLAGS] = base | (this.mode === 'hybrid' ? DETECT_ONLY_PIN | hybridTests : 0) | measure;
    this.device.queue.writeBuffer(this.uniforms, 0, words);
    this.queryList.beginFrame(encoder);
  }

  private bindGroups(state: GpuState) {
    const key = `${this.queryList.generation}/${this.hash.generation}/${this.refit?.bvh.generation ?? -1}`;
    if (this.groups && this.groups.key === key && this.groups.positions === state.positions && this.groups.prev === state.prev) return this.groups;
    const common = {
      params: this.uniforms, positions: state.positions, prev: state.prev, topo: this.topology.buffer, heads: this.hash.heads, pool: this.hash.pool, list: this.queryList.list,
    };
    const hashExtra = { measures: this.measureTarget?.measures ?? this.noMeasures, counters: this.measureTarget?.counters ?? this.noCounters };
    const detectExtra = { pin: this.pin, boxes: this.escapeSource?.boxes ?? this.noBoxes };
    // The separate mark pass reads the substep's start positions: predict left them in state.prev.
    const atStart = { ...common, params: this.markUniforms, positions: state.prev };
    const pinAndTest = { ...common, params: this.pinAndTestUniforms };
    this.groups = {
      key,
      positions: state.positions,
      prev: state.prev,
      hash: this.hashTable.group({ ...common, ...hashExtra }),
      detect: this.detectTable.group({ ...common, ...detectExtra }),
      markHash: this.hashTable.group({ ...atStart, ...hashExtra }),
      mark: this.detectTable.group({ ...atStart, ...detectExtra }),
      pinAndTestHash: this.hashTable.group({ ...pinAndTest, ...hashExtra }),
      pinAndTest: this.detectTable.group({ ...pinAndTest, ...detectExtra }),
      args: this.argsTable.group({ params: this.uniforms, list: this.queryList.list, args: this.queryList.args }),
      refit: this.refitGroups(common, pinAndTest, hashExtra, detectExtra),
    };
    return this.groups;
  }

  /** refitBvh's bind groups: the hash build's with the refit's first dispatch, detection's with its second (if any). */
  private refitGroups(common: Record<string, GPUBuffer>, pinAndTest: Record<string, GPUBuffer>, hashExtra: Record<string, GPUBuffer>, detectExtra: Record<string, GPUBuffer>) {
    const r = this.refit;
    const first = r?.bvh.refitPart(0);
    if (!r || !first) return undefined;
    const second = r.bvh.refitPart(1);
    const part = (p: RefitPart) => ({ refitParams: p.params, bvhTopo: p.topo, bvhNodes: p.nodes });
    return {
      hash: r.hashTable.group({ ...common, ...hashExtra, ...part(first) }),
      pinAndTestHash: r.hashTable.group({ ...pinAndTest, ...hashExtra, ...part(first) }),
      hashGroups: first.groups,
      detect: second ? r.detectTable.group({ ...common, ...detectExtra, ...part(second) }) : null,
      pinAndTest: second ? r.detectTable.group({ ...pinAndTest, ...detectExtra, ...part(second) }) : null,
      detectGroups: second?.groups ?? 0,
    };
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    if (this.pointCount < 0) throw new Error('DetectStage.encode: beginFrame was not called for this frame');
    // A round that only solves the contacts again keeps the detecting round's list.
    if (resolvesOnly(step)) return;
    const groups = this.bindGroups(state);
    this.queryList.beginSubstep(encoder);
    if (this.mode === 'ccd') {
      // CCD only: no DCD; empty args where a later kernel reads them (the list's count is 0).
      if (!this.argsWanted()) return;
      const pass = step.beginPass(encoder, 'detect', 'dcd.writeArgs');
      pass.setPipeline(this.argsPipeline);
      pass.setBindGroup(0, groups.args);
      pass.dispatchWorkgroups(1);
      pass.end();
      step.countDispatches?.(1);
      return;
    }
    // Alg. 5 line 1 at the substep's start only: later collision rounds keep its Pin marks.
    const markPin = this.mode === 'hybrid' && step.round === 0;
    if (markPin && this.separatePinPass) this.encodeMarkPin(encoder, groups, step);
    const pinAndTest = markPin && !this.separatePinPass;
    this.hash.clear(encoder);
    this.measureTarget?.clearInversions(encoder);
    let pass = step.beginPass(encoder, 'detect', this.splitPasses ? 'dcd.buildHash' : 'dcd');
    const refit = groups.refit;
    if (refit) {
      // The BVH's subtrees (or its only group) after the hash build's workgroups.
      pass.setPipeline(this.refit!.buildPipeline);
      pass.setBindGroup(0, pinAndTest ? refit.pinAndTestHash : refit.hash);
      const [bx, by] = fusedGrid(Math.ceil(this.topology.tetCount / WORKGROUP_SIZE) + refit.hashGroups);
      pass.dispatchWorkgroups(bx, by);
    } else {
      pass.setPipeline(this.buildPipeline);
      pass.setBindGroup(0, pinAndTest ? groups.pinAndTestHash : groups.hash);
      const [bx, by] = dispatchGrid(this.topology.tetCount);
      pass.dispatchWorkgroups(bx, by);
    }
    if (this.splitPasses) {
      pass.end();
      pass = step.beginPass(encoder, 'detect', 'dcd.detect');
    }
    if (refit?.detect) {
      // The BVH's top after detection's workgroups (the subtrees were refit by the dispatch above).
      pass.setPipeline(this.refit!.detectPipeline);
      pass.setBindGroup(0, (pinAndTest ? refit.pinAndTest : refit.detect)!);
      const [qx, qy] = fusedGrid(Math.max(1, Math.ceil(this.pointCount / WORKGROUP_SIZE)) + refit.detectGroups);
      pass.dispatchWorkgroups(qx, qy);
    } else {
      pass.setPipeline(this.detectPipeline);
      pass.setBindGroup(0, pinAndTest ? groups.pinAndTest : groups.detect);
      const [qx, qy] = dispatchGrid(this.pointCount);
      pass.dispatchWorkgroups(qx, qy);
    }
    const args = this.argsWanted();
    if (this.splitPasses && args) {
      pass.end();
      pass = step.beginPass(encoder, 'detect', 'dcd.writeArgs');
    }
    if (args) {
      pass.setPipeline(this.argsPipeline);
      pass.setBindGroup(0, groups.args);
      pass.dispatchWorkgroups(1);
    }
    pass.end();
    step.countDispatches?.(args ? 3 : 2);
  }

  /** Hybrid, Alg. 5 line 1, separatePinPass: the hash of the start positions and the Pin marks (no queries). */
  private encodeMarkPin(encoder: GPUCommandEncoder, groups: NonNullable<typeof this.groups>, step: SubstepContext): void {
    encoder.clearBuffer(this.pin);
    this.hash.clear(encoder);
    const pass = step.beginPass(encoder, 'detect', 'dcd.markPin');
    pass.setPipeline(this.buildPipeline);
    pass.setBindGroup(0, groups.markHash);
    const [bx, by] = dispatchGrid(this.topology.tetCount);
    pass.dispatchWorkgroups(bx, by);
    pass.setPipeline(this.detectPipeline);
    pass.setBindGroup(0, groups.mark);
    const [qx, qy] = dispatchGrid(this.pointCount);
    pass.dispatchWorkgroups(qx, qy);
    pass.end();
    step.countDispatches?.(2);
  }

  /**
   * After the frame's header readback: grows the query list (hits were dropped) and the hash pool
   * (entries were dropped) for the next frame; the grown buffers take effect at the next
   * beginFrame. Returns what grew.
   */
  afterFrame(header: Uint32Array): { queryList: boolean; hashPool: boolean } {
    return { queryList: this.queryList.growFromHeader(header), hashPool: this.hash.growFromHeader(header) };
  }

  destroy(): void {
    if (this.ownsHash) this.hash.destroy();
    this.uniforms.destroy();
    this.markUniforms.destroy();
    this.pinAndTestUniforms.destroy();
    this.noBoxes.destroy();
    this.noMeasures.destroy();
    this.noCounters.destroy();
    this.pin.destroy();
  }
}
