/**
 * The simulation state on the GPU (Warp's State beside its SceneArrays): what changes every substep.
 * Every kernel, the solver's, detection's, the shortest path's and the contacts', binds these
 * buffers; there is one position layout for all of them (shaders/lib/positions.wgsl):
 *
 *   positions   vec4<f32> per vertex: xyz, inverse mass (0 for handles and stopped objects)
 *   prev        vec4<f32> per vertex: xyz at the start of the substep, object id (u32 bits)
 *   velocities  vec4<f32> per vertex: xyz, the substep's collider friction budget
 *   positionCarry vec4<f32> per vertex: xyz, what the material's in-place adds rounded away
 *               (shaders/lib/positionCarry.wgsl; below half an ulp of the position, so a kernel
 *               that does not bind it reads the position as exact enough)
 *
 * Vertex order is the model's, which is the merged TetMesh's (collision/sceneMesh.ts).
 */
import { dropW, packVec4, readBufferToCpu, storageBuffer } from '../gpu/buffers';
import type { SceneArrays } from './sceneArrays';

export { dropW, packVec4 };

export class GpuState {
  readonly vertexCount: number;
  readonly positions: GPUBuffer;
  readonly prev: GPUBuffer;
  readonly velocities: GPUBuffer;
  readonly positionCarry: GPUBuffer;

  constructor(
    private readonly device: GPUDevice,
    private readonly model: SceneArrays,
  ) {
    const n = model.vertexCount;
    this.vertexCount = n;
    // VERTEX: the renderer may draw straight from the positions (app/gpuPositionLink.ts).
    this.positions = storageBuffer(device, 'state.positions', 16 * n, GPUBufferUsage.VERTEX);
    this.prev = storageBuffer(device, 'state.prev', 16 * n);
    this.velocities = storageBuffer(device, 'state.velocities', 16 * n);
    this.positionCarry = storageBuffer(device, 'state.positionCarry', 16 * n);
    this.reset();
  }

  /** Rest positions, the model's inverse masses and initial velocities. */
  reset(): void {
    this.writePositions(this.model.restPositions);
    this.device.queue.writeBuffer(this.velocities, 0, packVec4(this.model.initialVelocities, this.vertexCount, () => 0));
  }

  /**
   * Sets every vertex's position, and its substep-start position, to `x` (xyz per vertex), keeping
   * each buffer's w: the inverse mass in the positions, the object id in prev. Writing a vec4 copy
   * of the positions into prev instead gives every vertex its inverse mass's bits as its object id,
   * so pairs of one object read as pairs of two (their contact offset and self-collision rules).
   * The inverse masses are the model's: a start state, written before frames run (reset() writes the rest positions through it).
   */
  writePositions(x: ArrayLike<number>): void {
    const m = this.model;
    const n = this.vertexCount;
    if (x.length !== 3 * n) throw new RangeError(`writePositions: expected ${3 * n} coordinates (3 per vertex of ${n}), got ${x.length}`);
    const objectBits = new Float32Array(new Uint32Array(m.vertexObject).buffer);
    const q = this.device.queue;
    q.writeBuffer(this.positions, 0, packVec4(x, n, (i) => m.invMass[i]));
    q.writeBuffer(this.prev, 0, packVec4(x, n, (i) => objectBits[i]));
    q.writeBuffer(this.positionCarry, 0, new Float32Array(4 * n));
  }

  /** Copies `bytes` of `buffer` to the CPU: a sync point (tests, the runner's summary, dumps). */
  private read(buffer: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
    return readBufferToCpu(this.device, buffer, bytes, 'state.readback');
  }

  /** xyz per vertex. */
  async readPositions(): Promise<Float32Array> {
    return dropW(new Float32Array(await this.read(this.positions, 16 * this.vertexCount)));
  }

  /** vec4 per vertex (xyz, inverse mass). */
  async readPositionsVec4(): Promise<Float32Array> {
    return new Float32Array(await this.read(this.positions, 16 * this.vertexCount));
  }

  async readVelocities(): Promise<Float32Array> {
    return dropW(new Float32Array(await this.read(this.velocities, 16 * this.vertexCount)));
  }

  destroy(): void {
    this.positions.destroy();
    this.prev.destroy();
    this.velocities.destroy();
    this.positionCarry.destroy();
  }
}
