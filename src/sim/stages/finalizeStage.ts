/**
 * Finalize (XPBD Alg. 1 line 14 onward): velocities v = (x - x_prev) / h, the NaN/Inf guard
 * (a non-finite vertex goes back to the substep start and its object is flagged, then frozen),
 * and, when damping > 0, the damping of deformation only (Müller et al. 2007, section 3.5):
 * passes over 1024-vertex chunks (xpbdRigidDamping.wgsl: reduce per chunk, solve the rigid
 * motion per object, apply). Fused (the default): finalize in the reduction
 * (xpbdFinalizeDamping.wgsl, which also ages the held bits), then solve and apply in one
 * dispatch, each chunk solving its own object (solveApply): 2 dispatches a substep with damping,
 * 1 without; when every object has at most DAMP_OBJECT_MAX_CHUNKS chunks, all of it in one
 * workgroup per object (finalizeDampObject): 1 dispatch with damping too. CPU reference: cpuSolver.ts, rigidDamping.ts.
 */
import { dispatchGrid, storageBuffer } from '../../gpu/buffers';
import type { XpbdKernels } from '../gpuKernels';
import type { Model } from '../model';
import type { SolverParams } from '../../contract/params';
import { dampingTableWords, rigidDampingTables } from '../rigidDamping';
import type { GpuStage, PhaseName, SubstepContext } from '../../contract/stage';
import type { WarmStartedPredict } from './predictStage';
import type { GpuState } from '../../contract/state';
import type { XpbdFrame } from './xpbdFrame';

/** Vertices per workgroup of the damping passes (CHUNK in shaders/xpbdRigidDamping.wgsl). */
export const RIGID_DAMPING_CHUNK = 1024;

/**
 * Most chunks an object may have for the whole damping to run in one workgroup per object
 * (finalizeDampObject). Its 256 lanes (OBJECT_LANES in shaders/lib/rigidDampingReduce.wgsl) reduce 4 chunks at a time (64 lanes each, 16 vertices a
 * lane per chunk) and damp every chunk with all lanes (4 vertices a lane per chunk): at 8 chunks
 * 32 vertices a lane in each of the two walks, against 16 in the per-chunk plan's dispatches,
 * about 8 us more of latency-bound loads on a GPU for one dependent dispatch saved a substep
 * (tens of us in a browser, about 2 us native). Past it the per-chunk plan (finalizeReduce,
 * solveApply) runs. Measured on an H200 (bench/finalizePlans.ts, docs/benchmarks.md "The end of a
 * substep on a real GPU"): at 4,627 vertices (5 chunks) the per-object finalize and damping cost
 * 1.10 ms a frame of 20 substeps against the per-chunk plan's 1.04, 3 us a substep.
 */
export const DAMP_OBJECT_MAX_CHUNKS = 8;

/**
 * Largest object (vertices) whose workgroup also predicts the next substep (joinsNext,
 * xpbdFinalizeDampPredict.wgsl). That predict gathers each vertex's warm-start corrections from
 * its tets, one vertex after another on each of the workgroup's 256 lanes: measured on an H200
 * (bench/finalizePlans.ts), 26 us a substep more than predict's own dispatch at 697 vertices, 88
 * us at 2,605 and 150 us at 4,627 (about 32 us per 1,000), against the one dispatch it saves (about
 * 5 us natively, 24-71 us in a browser). It pays up to about 750 vertices in a browser. Past it the
 * workgroups finalize beside the next substep's warm start instead (xpbdFinalizeDampWarm.wgsl), and
 * predict keeps its own dispatch.
 */
export const PREDICT_JOIN_MAX_VERTICES = 768;

/** Lanes of the per-object workgroups, and tets warm-started by each of finalizeDampWarm's other workgroups. */
const OBJECT_LANES = 256;

/** How finalize records the next substep's predict (FinalizeStage.joinsNext): inside its workgroups, or its warm start beside them. */
export type NextSubstepJoin = 'predict' | 'warm-start';

export class FinalizeStage implements GpuStage {
  readonly phase: PhaseName = 'finalize';
  private readonly dampingGroup: GPUBindGroup;
  private readonly finalizeDampingGroup: GPUBindGroup;
  /**
   * With damping: finalize fused into the damping's reduction (xpbdFinalizeDamping.wgsl; the
   * chunks cover every vertex once) and the solve into the apply (solveApply): 2 dispatches
   * instead of 4. False: finalize, then the three damping passes (tests compare the two).
   */
  fuseWithDamping = true;
  /**
   * With fuseWithDamping, when every object has at most DAMP_OBJECT_MAX_CHUNKS chunks: finalize,
   * reduction, solve and apply of each object in one workgroup (finalizeDampObject), 1 dispatch a
   * substep. False: finalizeReduce then solveApply (the same frames, for tests).
   */
  dampPerObject = true;
  /**
   * With the per-object damping and the warm start: the next substep's warm start recorded before
   * this substep's finalize, and its predict done by each object's workgroup after the damping
   * (xpbdFinalizeDampPredict.wgsl; TimeStep joins predict to finalize, joinsNext), 2 dispatches
   * for finalize and the next predict instead of 3. False: predict records its own (the same
   * frames, for tests).
   */
  predictNextSubstep = true;
  /**
   * With predictNextSubstep, where an object has more than predictJoinMaxVertices vertices: the
   * next substep's warm start in the dispatch of this substep's per-object finalize and damping
   * (workgroups past the objects' warm-start the tets; xpbdFinalizeDampWarm.wgsl), then
   * predictWarm: 2 dispatches for finalize and the next predict instead of 3. False: predict
   * records its own (the same frames, for tests). Off by default on a software adapter: SwiftShader
   * runs a kernel with workgroup barriers as coroutines, about 1.4 ms a workgroup here, so the
   * warm start's workgroups made finalize 10x slower there (bench/finalizePlans.ts), where a GPU
   * runs them beside the damping's few workgroups.
   */
  warmStartNextSubstep: boolean;
  /** Largest object whose workgroup predicts the next substep (PREDICT_JOIN_MAX_VERTICES; tests lower it to run the warm-start join on small meshes). */
  predictJoinMaxVertices = PREDICT_JOIN_MAX_VERTICES;
  private finalizeDampPredictGroup: GPUBindGroup | null = null;
  /** Null when the objects' and tets' workgroups exceed one dispatch row (65,535). */
  private readonly finalizeDampWarmGroup: GPUBindGroup | null = null;
  private readonly finalizeDampWarmGroups: number;
  private readonly objectsFitWorkgroups: boolean;
  /** Vertices of the largest object (joinsNext). */
  private readonly largestObject: number;
  private readonly objectCount: number;
  private readonly dampingChunks: number;
  private readonly objectGroups: number;
  private readonly grid: [number, number];
  /** The substep's dynamic offset, reused (recording allocates nothing per substep). */
  private readonly slot = new Uint32Array(1);
  private readonly owned: GPUBuffer[] = [];

  constructor(
    device: GPUDevice,
    model: Model,
    state: GpuState,
    private readonly kernels: XpbdKernels,
    private readonly frame: XpbdFrame,
    private readonly params: () => Readonly<SolverParams>,
    /**
     * The time step's predict and the material's warm start, for joinsNext (null: never joined),
     * and whether the adapter emulates a GPU on the CPU (warmStartNextSubstep's default).
     */
    private readonly next: { predict: GpuStage; warmStart: WarmStartedPredict; softwareAdapter?: boolean } | null = null,
  ) {
    this.warmStartNextSubstep = next?.softwareAdapter !== true;
    const damping = rigidDampingTables(model, RIGID_DAMPING_CHUNK);
    if (damping.chunkCount > 65535) throw new RangeError(`GpuSolver: ${model.vertexCount} vertices need ${damping.chunkCount} damping workgroups, more than 65,535`);
    this.dampingChunks = damping.chunkCount;
    this.objectCount = model.objectNames.length;
    this.objectsFitWorkgroups = objectsFitDampingWorkgroups(damping.objects, this.objectCount);
    this.largestObject = largestObjectVertices(model);
    this.objectGroups = Math.ceil(model.objectNames.length / 64);
    const own = (b: GPUBuffer) => (this.owned.push(b), b);
    const chunks = own(storageBuffer(device, 'xpbd.dampingChunks', damping.chunks));
    const objects = own(storageBuffer(device, 'xpbd.dampingObjects', damping.objects));
    const partials = own(storageBuffer(device, 'xpbd.dampingPartials', 64 * damping.chunkCount));
    this.dampingGroup = kernels.damping.group({
      frame: frame.frame,
      positions: state.positions,
      velocities: state.velocities,
      objectStatus: frame.objectStatus,
      chunks,
      objects,
      partials,
      rigid: own(storageBuffer(device, 'xpbd.rigidMotion', 48 * model.objectNames.length)),
    });
    // What every kernel that finalizes binds (finalizeVertex, the held bits).
    const finalizing = {
      frame: frame.frame,
      positions: state.positions,
      prev: state.prev,
      velocities: state.velocities,
      rest: frame.rest,
      objectStatus: frame.objectStatus,
    };
    this.finalizeDampingGroup = kernels.finalizeDamping.group({
      ...finalizing,
      chunks,
      objects,
      partials,
    });
    if (next && this.objectsFitWorkgroups) {
      // Binds the handles' samples, reallocated when the substeps grow.
      frame.bindScripts(({ handles }) => {
        this.finalizeDampPredictGroup = kernels.finalizeDampPredictTable.group({
          ...finalizing,
          chunks,
          objects,
          handles,
          vertexTets: next.warmStart.warmStartBuffers.vertexTets,
          corrections: next.warmStart.warmStartBuffers.corrections,
        }, 'xpbd.finalizeDampPredict');
      });
    }
    this.finalizeDampWarmGroups = finalizeDampWarmWorkgroups(model);
    if (next && this.objectsFitWorkgroups && this.finalizeDampWarmGroups <= 65535) {
      const w = next.warmStart.warmStartBuffers;
      this.finalizeDampWarmGroup = kernels.finalizeDampWarmTable.group({
        ...finalizing,
        dampingTable: own(storageBuffer(device, 'xpbd.dampingTable', dampingTableWords(damping))),
        tets: w.tets,
        tetData: w.tetData,
        stress: w.stress,
        corrections: w.corrections,
      }, 'xpbd.finalizeDampWarm');
    }
    this.grid = dispatchGrid(model.vertexCount);
  }

  /** True when each object is finalized and damped by one workgroup this frame (finalizeDampObject). */
  private dampsPerObject(): boolean {
    return this.params().damping > 0 && this.fuseWithDamping && this.dampPerObject && this.objectsFitWorkgroups;
  }

  /**
   * How this stage records the next substep's predict, or null when it does not: when
   * `first` is the time step's predict, each object is damped by one workgroup and predict starts
   * warm, inside the objects' workgroups if none has more than predictJoinMaxVertices vertices,
   * else the warm start beside them (warmStartNextSubstep).
   */
  nextSubstepJoin(first: GpuStage): NextSubstepJoin | null {
    if (!this.predictNextSubstep || this.next === null || first !== this.next.predict || !this.dampsPerObject() || !this.next.warmStart.warmStarts()) return null;
    if (this.objectsPredictInWorkgroups()) return this.finalizeDampPredictGroup !== null ? 'predict' : null;
    return this.warmStartNextSubstep && this.finalizeDampWarmGroup !== null ? 'warm-start' : null;
  }

  /** No object has more than predictJoinMaxVertices vertices: the join predicts inside the objects' workgroups. */
  private objectsPredictInWorkgroups(): boolean {
    return this.largestObject <= this.predictJoinMaxVertices;
  }

  /** TimeStep's question (GpuStage.joinsNext): this stage records the next substep's predict (nextSubstepJoin). */
  joinsNext(first: GpuStage): boolean {
    return this.nextSubstepJoin(first) !== null;
  }

  encode(encoder: GPUCommandEncoder, _state: GpuState, step: SubstepContext): void {
    const k = this.kernels;
    if (step.joinNext && !this.objectsPredictInWorkgroups()) {
      // Finalize and damp each object in one workgroup, the next substep's warm start in the
      // dispatch's other workgroups (at this substep's end positions, which finalize moves only
      // at a NaN guard's vertex, whose object predict then freezes); then its predict.
      this.encodeJoined(encoder, step, k.finalizeDampWarm, this.finalizeDampWarmGroup!, this.finalizeDampWarmGroups);
      const predict = step.beginPass(encoder, 'predict');
      this.next!.warmStart.encodePredictWarm(predict, step.nextSlotOffset);
      step.countDispatches(1);
      predict.end();
      return;
    }
    if (step.joinNext) {
      // The next substep's warm start at this substep's end positions (finalize moves no vertex
      // but a NaN guard's, whose object predict then freezes), counted as predict's.
      const warm = step.beginPass(encoder, 'predict');
      this.next!.warmStart.encodeWarmStart(warm, step.nextSlotOffset);
      step.countDispatches(1);
      warm.end();
      // Finalize and damp each object in one workgroup, then predict its vertices for the next substep.
      this.encodeJoined(encoder, step, k.finalizeDampPredict, this.finalizeDampPredictGroup!, this.objectCount);
      return;
    }
    const pass = step.beginPass(encoder, 'finalize');
    const damped = this.params().damping > 0;
    if (this.dampsPerObject()) {
      // Finalize and damp each object in one workgroup.
      pass.setPipeline(k.finalizeDampObject);
      pass.setBindGroup(0, this.finalizeDampingGroup);
      pass.dispatchWorkgroups(this.objectCount);
      step.countDispatches(1);
      pass.end();
      return;
    }
    if (damped && this.fuseWithDamping) {
      // Damp deformation, not rigid motion (Müller et al. 2007, section 3.5); finalize in the reduction.
      pass.setPipeline(k.finalizeReduce);
      pass.setBindGroup(0, this.finalizeDampingGroup);
      pass.dispatchWorkgroups(this.dampingChunks);
      step.countDispatches(1);
    } else {
      this.slot[0] = step.nextSlotOffset;
      pass.setPipeline(k.finalize);
      pass.setBindGroup(0, this.frame.integrateGroup);
      pass.setBindGroup(1, this.frame.slotGroup, this.slot, 0, 1);
      pass.dispatchWorkgroups(this.grid[0], this.grid[1]);
      step.countDispatches(1);
    }
    if (damped) {
      pass.setBindGroup(0, this.dampingGroup);
      if (this.fuseWithDamping) {
        pass.setPipeline(k.dampSolveApply);
        pass.dispatchWorkgroups(this.dampingChunks);
        step.countDispatches(1);
      } else {
        pass.setPipeline(k.dampReduce);
        pass.dispatchWorkgroups(this.dampingChunks);
        pass.setPipeline(k.dampSolve);
        pass.dispatchWorkgroups(this.objectGroups);
        pass.setPipeline(k.dampApply);
        pass.dispatchWorkgroups(this.dampingChunks);
        step.countDispatches(3);
      }
    }
    pass.end();
  }

  /** A joined finalize kernel's dispatch in finalize's pass, bind group 1 the next substep's slot. */
  private encodeJoined(encoder: GPUCommandEncoder, step: SubstepContext, pipeline: GPUComputePipeline, group: GPUBindGroup, workgroups: number): void {
    const pass = step.beginPass(encoder, 'finalize');
    this.slot[0] = step.nextSlotOffset;
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.setBindGroup(1, this.frame.slotGroup, this.slot, 0, 1);
    pass.dispatchWorkgroups(workgroups);
    step.countDispatches(1);
    pass.end();
  }

  destroy(): void {
    for (const b of this.owned) b.destroy();
  }
}

/** True when every object has at most DAMP_OBJECT_MAX_CHUNKS damping chunks (rigidDampingTables' objects): finalizeDampObject then runs. */
export function objectsFitDampingWorkgroups(objects: Uint32Array, objectCount: number): boolean {
  if (objectCount > 65535) return false;
  for (let o = 0; o < objectCount; o++) if (objects[4 * o + 1] - objects[4 * o] > DAMP_OBJECT_MAX_CHUNKS) return false;
  return true;
}

/** Whether the damping of `model` runs in one workgroup per object (FinalizeStage.dampPerObject's condition). */
export function dampsPerObject(model: Model): boolean {
  return objectsFitDampingWorkgroups(rigidDampingTables(model, RIGID_DAMPING_CHUNK).objects, model.objectNames.length);
}

/** Vertices of the model's largest object. */
export function largestObjectVertices(model: Model): number {
  let most = 0;
  for (let o = 0; o < model.objectNames.length; o++) most = Math.max(most, model.objectVertexOffsets[o + 1] - model.objectVertexOffsets[o]);
  return most;
}

/** Whether each object's finalize workgroup predicts the next substep (FinalizeStage.joinsNext's mesh condition: damping per object, objects small enough). */
export function predictJoinsFinalize(model: Model): boolean {
  return dampsPerObject(model) && largestObjectVertices(model) <= PREDICT_JOIN_MAX_VERTICES;
}

/** Workgroups of finalizeDampWarm: one per object, then one per OBJECT_LANES tets. */
export function finalizeDampWarmWorkgroups(model: Model): number {
  return model.objectNames.length + Math.ceil(model.tetCount / OBJECT_LANES);
}

/**
 * Whether finalize's per-object dispatch warm-starts the next substep's tets beside it
 * (FinalizeStage.joinsNext's mesh condition when predict does not join: damping per object, an
 * object past PREDICT_JOIN_MAX_VERTICES, the workgroups in one dispatch row).
 */
export function warmStartJoinsFinalize(model: Model): boolean {
  return dampsPerObject(model) && largestObjectVertices(model) > PREDICT_JOIN_MAX_VERTICES && finalizeDampWarmWorkgroups(model) <= 65535;
}
