/**
 * Dragging one vertex with the mouse: while grabbed, the vertex is a kinematic handle (as the
 * scripted pins of handles.ts: inverse mass 0, its position set at each substep's predict) whose
 * script moves it from where the previous frame left it to the mouse's target, linearly over the
 * frame's substeps, so the rest of the body follows through its material and contacts. Released,
 * it gets its inverse mass back and keeps the velocity of its last substep (finalize computed it
 * from the motion), so a throw carries on.
 *
 * The solver reserves one handle for this (GpuSolver appends `script` to the scene's handles);
 * grabbing writes three words on the GPU: the vertex's handle id (rest.w), its inverse mass
 * (invMass and positions.w).
 */
import type { HandleScript } from './handles';
import type { Vec3 } from './colliders';

export interface GrabBuffers {
  /** vec4 per vertex: rest xyz, handle id bits in w (-1 free). */
  rest: GPUBuffer;
  /** f32 per vertex. */
  invMass: GPUBuffer;
  /** vec4 per vertex: xyz, inverse mass in w. */
  positions: GPUBuffer;
}

const ZERO_MATRIX = [0, 0, 0, 0, 0, 0, 0, 0, 0];

export class VertexGrab {
  private grabbed = -1;
  private from: [number, number, number] = [0, 0, 0];
  private to: [number, number, number] = [0, 0, 0];
  private frameStart = 0;
  private frameLength = 1;

  /** The reserved handle's script: x = 0 * rest + (from -> to over the frame). */
  readonly script: HandleScript = (time) => {
    const s = Math.min(1, Math.max(0, (time - this.frameStart) / this.frameLength));
    const f = this.from, t = this.to;
    return { matrix: ZERO_MATRIX, translation: [f[0] + s * (t[0] - f[0]), f[1] + s * (t[1] - f[1]), f[2] + s * (t[2] - f[2])] };
  };

  constructor(
    private readonly device: GPUDevice,
    private readonly buffers: GrabBuffers,
    /** The model's handle of each vertex (-1: free) and inverse masses, as uploaded. */
    private readonly handleOfVertex: Int32Array,
    private readonly invMass: ArrayLike<number>,
    /** Index of the reserved handle. */
    readonly handle: number,
  ) {}

  /** The vertex being dragged, or -1. */
  get vertex(): number {
    return this.grabbed;
  }

  /** Starts dragging `vertex`, now at `position`; throws naming a vertex that cannot be grabbed. */
  grab(vertex: number, position: Vec3): void {
    if (!(Number.isInteger(vertex) && vertex >= 0 && vertex < this.handleOfVertex.length)) {
      throw new RangeError(`grab: vertex ${vertex} is not a vertex of the scene (0..${this.handleOfVertex.length - 1})`);
    }
    if (this.handleOfVertex[vertex]! >= 0) throw new Error(`grab: vertex ${vertex} is pinned by handle ${this.handleOfVertex[vertex]} (move the pin instead)`);
    if (!(this.invMass[vertex]! > 0)) throw new Error(`grab: vertex ${vertex} has no mass to move`);
    this.release();
    this.grabbed = vertex;
    this.from = [position[0], position[1], position[2]];
    this.to = [position[0], position[1], position[2]];
    this.writeVertex(vertex, this.handle, 0);
  }

  /** The point the dragged vertex moves to during the next frame. */
  moveTo(target: Vec3): void {
    if (!target.every(Number.isFinite)) throw new RangeError(`grab: target ${target.join(', ')} is not finite`);
    this.to = [target[0], target[1], target[2]];
  }

  /** Lets go: the vertex is free again with its own mass. */
  release(): void {
    if (this.grabbed < 0) return;
    const v = this.grabbed;
    this.grabbed = -1;
    this.writeVertex(v, -1, this.invMass[v]!);
  }

  /** Before the frame's scripts are sampled: the motion runs from the last target to the current one over [time, time + dt]. */
  beginFrame(time: number, dt: number): void {
    this.frameStart = time;
    this.frameLength = dt > 0 ? dt : 1;
  }

  /** After the frame: the next one starts where this one ended. */
  endFrame(): void {
    this.from = [...this.to];
  }

  /** Masses were uploaded again (a material change): keep the grabbed vertex kinematic. */
  reapply(): void {
    if (this.grabbed >= 0) this.writeVertex(this.grabbed, this.handle, 0);
  }

  private writeVertex(v: number, handle: number, invMass: number): void {
    const q = this.device.queue;
    q.writeBuffer(this.buffers.rest, 16 * v + 12, new Int32Array([handle]));
    q.writeBuffer(this.buffers.invMass, 4 * v, new Float32Array([invMass]));
    q.writeBuffer(this.buffers.positions, 16 * v + 12, new Float32Array([invMass]));
  }
}
