import { storageBuffer } from '../../src/gpu/buffers';
import { resolvesOnly, type GpuStage, type PhaseName, type SubstepContext } from '../../src/contract/stage';
import type { GpuState } from '../../src/contract/state';

/**
 * A stage for tests, inserted right after detection (`timeStep.insertAfter('detect', snapshot)`):
 * copies the substep's start positions (state.prev) and current positions as detection saw them.
 * The contacts move both afterwards (prev by their split impulse), so reading them after the frame
 * would not show what detection tested. After a frame the copies hold its last substep's.
 */
export class DetectSnapshot implements GpuStage {
  readonly phase: PhaseName = 'detect';
  readonly perRound = true;
  readonly start: GPUBuffer;
  readonly end: GPUBuffer;

  constructor(device: GPUDevice, private readonly bytes: number) {
    this.start = storageBuffer(device, 'test.detectStart', bytes);
    this.end = storageBuffer(device, 'test.detectEnd', bytes);
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    // A round that only solves the contacts again (collideEvery 'contacts') detects nothing: the
    // snapshot stays the detecting round's.
    if (resolvesOnly(step)) return;
    encoder.copyBufferToBuffer(state.prev, 0, this.start, 0, this.bytes);
    encoder.copyBufferToBuffer(state.positions, 0, this.end, 0, this.bytes);
  }

  destroy(): void {
    this.start.destroy();
    this.end.destroy();
  }
}
