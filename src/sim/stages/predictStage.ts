/**
 * Predict (DESIGN.md "One time step", XPBD Alg. 1 lines 3-4): per vertex, keep the substep's
 * start in state.prev, move handles to their scripted pose and free vertices by v += h g,
 * x += h v. Frozen (stopped) objects stay where they were last finite. Kernel: predict in
 * shaders/xpbdIntegrate.wgsl (lib/predictVertex.wgsl); CPU reference: cpuSolver.ts.
 * When the material's multipliers start warm, its warm start is recorded first in this pass, at
 * the substep's start positions, and predict gathers its corrections in the same kernel
 * (predictWarm, shaders/xpbdPredictWarm.wgsl; issue 24): 2 dispatches instead of 3.
 */
import { dispatchGrid } from '../../gpu/buffers';
import type { XpbdKernels } from '../gpuKernels';
import type { GpuStage, PhaseName, SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { XpbdFrame } from './xpbdFrame';

/** The material's warm start, recorded in predict's pass (MaterialStage). */
export interface WarmStartedPredict {
  /** True when this substep's multipliers start warm under the current parameters. */
  warmStarts(): boolean;
  /** Records the warm start at the substep's start positions, then predict with its corrections added. */
  encodeWarmStartAndPredict(pass: GPUComputePassEncoder, step: SubstepContext): void;
  /** Records the warm start alone for the substep whose slot is at `slotOffset` (1 dispatch). */
  encodeWarmStart(pass: GPUComputePassEncoder, slotOffset: number): void;
  /** Records predict with the warm start's corrections alone (1 dispatch), the warm start recorded before. */
  encodePredictWarm(pass: GPUComputePassEncoder, slotOffset: number): void;
  /** What the warm start and predict's gather bind (for the finalize kernels that do either). */
  readonly warmStartBuffers: WarmStartBuffers;
}

/** The warm start's buffers (MaterialStage owns them). */
export interface WarmStartBuffers {
  /** Vertex -> tet corners in one array (offsets, then corners; xpbdPredictWarm.wgsl). */
  readonly vertexTets: GPUBuffer;
  /** w_v S g_v of each tet corner, 4 per tet (the warm start writes, predict gathers). */
  readonly corrections: GPUBuffer;
  /** The tets' corners, Dm^-1 and constants, and multipliers S (xpbdNeoHookean.wgsl's tets, tetData, stress). */
  readonly tets: GPUBuffer;
  readonly tetData: GPUBuffer;
  readonly stress: GPUBuffer;
}

export class PredictStage implements GpuStage {
  readonly phase: PhaseName = 'predict';
  private readonly grid: [number, number];
  /** The substep's dynamic offset, reused (recording allocates nothing per substep). */
  private readonly slot = new Uint32Array(1);

  constructor(
    private readonly kernels: XpbdKernels,
    private readonly frame: XpbdFrame,
    vertexCount: number,
    private readonly warmStart: WarmStartedPredict | null = null,
  ) {
    this.grid = dispatchGrid(vertexCount);
  }

  encode(encoder: GPUCommandEncoder, _state: GpuState, step: SubstepContext): void {
    const pass = step.beginPass(encoder, 'predict');
    if (this.warmStart?.warmStarts()) {
      this.warmStart.encodeWarmStartAndPredict(pass, step);
    } else {
      // The integrate group binds the state's buffers (XpbdFrame).
      pass.setPipeline(this.kernels.predict);
      pass.setBindGroup(0, this.frame.integrateGroup);
      this.slot[0] = step.slotOffset;
      pass.setBindGroup(1, this.frame.slotGroup, this.slot, 0, 1);
      pass.dispatchWorkgroups(this.grid[0], this.grid[1]);
      step.countDispatches(1);
    }
    pass.end();
  }
}
