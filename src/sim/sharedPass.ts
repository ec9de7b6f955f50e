/**
 * One compute pass for many stages (issue 24, recording time): the time step hands every stage
 * a pass facade (SharedPass.pass) instead of a fresh GPUComputePassEncoder. The facade forwards
 * setPipeline / setBindGroup / dispatch to one real pass that stays open across stages and
 * substeps; its end() ends nothing. The real pass ends only when the frame's encoder is asked
 * for something a compute pass may not be open for (clearBuffer, a copy, another pass), which
 * the encoder facade (SharedPass.encoder) does first, or when the time step closes it.
 *
 * Why this is the same GPU work: in WebGPU every dispatch of a compute pass is its own usage
 * scope, and storage writes of one dispatch are visible to the next (the implementation puts
 * the barriers in), so splitting dispatches into passes or not changes no result. Bind groups
 * and the pipeline stay set across dispatches of a pass whatever the pipeline, so a call that
 * sets what is already set changes nothing and is dropped (counted in `skipped`).
 *
 * Nothing here allocates per call: the two facades are built once per time step.
 */

/** Opens real passes for the facade: the time step adds the timestamp writes and records the pass's phase. */
export type RealPassOpener = (encoder: GPUCommandEncoder) => GPUComputePassEncoder;

export class SharedPass {
  private real: GPUComputePassEncoder | null = null;
  private raw: GPUCommandEncoder | null = null;
  private opener: RealPassOpener | null = null;
  private pipeline: GPUComputePipeline | null = null;
  /** Per bind group index: the group set there and its one dynamic offset (-1: none; NaN: several, never matched). */
  private readonly groups: (GPUBindGroup | null)[] = [];
  private readonly offsets: number[] = [];
  /** setPipeline / setBindGroup calls dropped because they set what was already set. */
  skipped = 0;
  /** Real compute passes opened. */
  opened = 0;
  readonly pass: GPUComputePassEncoder;
  readonly encoder: GPUCommandEncoder;

  constructor() {
    this.pass = new PassFacade(this) as unknown as GPUComputePassEncoder;
    this.encoder = new EncoderFacade(this) as unknown as GPUCommandEncoder;
  }

  /** Starts a frame on `encoder`; `opener` opens each real pass. */
  begin(encoder: GPUCommandEncoder, opener: RealPassOpener): void {
    this.raw = encoder;
    this.opener = opener;
    this.real = null;
    this.skipped = 0;
    this.opened = 0;
  }

  /** The frame's real encoder (throws outside a frame). */
  get rawEncoder(): GPUCommandEncoder {
    if (!this.raw) throw new Error('SharedPass: no frame is being recorded');
    return this.raw;
  }

  /** True while a real pass is open. */
  get isOpen(): boolean {
    return this.real !== null;
  }

  /** The open real pass, or a new one from the opener. */
  ensureOpen(): GPUComputePassEncoder {
    if (this.real) return this.real;
    const real = this.opener!(this.rawEncoder);
    this.real = real;
    this.opened++;
    this.pipeline = null;
    this.groups.length = 0;
    this.offsets.length = 0;
    return real;
  }

  /** Ends the real pass if one is open. */
  close(): void {
    if (!this.real) return;
    this.real.end();
    this.real = null;
  }

  /** Ends the frame: the real pass closed, the encoder released. */
  end(): void {
    this.close();
    this.raw = null;
    this.opener = null;
  }

  setPipeline(p: GPUComputePipeline): void {
    const real = this.ensureOpen();
    if (p === this.pipeline) {
      this.skipped++;
      return;
    }
    this.pipeline = p;
    real.setPipeline(p);
  }

  setBindGroup(index: number, group: GPUBindGroup | null, offsets?: Iterable<number> | Uint32Array, start?: number, length?: number): void {
    const real = this.ensureOpen();
    let offset = -1;
    if (offsets !== undefined) {
      if (start !== undefined) offset = length === 1 ? (offsets as Uint32Array)[start] : NaN;
      else if (Array.isArray(offsets) || ArrayBuffer.isView(offsets)) {
        const a = offsets as ArrayLike<number>;
        offset = a.length === 0 ? -1 : a.length === 1 ? a[0] : NaN;
      } else offset = NaN;
    }
    if (group !== null && this.groups[index] === group && this.offsets[index] === offset) {
      this.skipped++;
      return;
    }
    this.groups[index] = group;
    this.offsets[index] = offset;
    if (start !== undefined) real.setBindGroup(index, group, offsets as Uint32Array, start, length!);
    else real.setBindGroup(index, group, offsets as Iterable<number> | undefined);
  }
}

/** The stages' view of the shared pass. */
class PassFacade {
  readonly __brand = 'GPUComputePassEncoder';
  label = 'sharedPass';
  constructor(private readonly s: SharedPass) {}
  setPipeline(p: GPUComputePipeline): undefined {
    this.s.setPipeline(p);
    return undefined;
  }
  setBindGroup(index: number, group: GPUBindGroup | null, offsets?: Iterable<number> | Uint32Array, start?: number, length?: number): undefined {
    this.s.setBindGroup(index, group, offsets, start, length);
    return undefined;
  }
  dispatchWorkgroups(x: number, y?: number, z?: number): undefined {
    this.s.ensureOpen().dispatchWorkgroups(x, y, z);
    return undefined;
  }
  dispatchWorkgroupsIndirect(buffer: GPUBuffer, offset: number): undefined {
    this.s.ensureOpen().dispatchWorkgroupsIndirect(buffer, offset);
    return undefined;
  }
  /** A stage's end of its pass: the real pass stays open for the next stage. */
  end(): undefined {
    return undefined;
  }
  pushDebugGroup(label: string): undefined {
    this.s.ensureOpen().pushDebugGroup(label);
    return undefined;
  }
  popDebugGroup(): undefined {
    this.s.ensureOpen().popDebugGroup();
    return undefined;
  }
  insertDebugMarker(label: string): undefined {
    this.s.ensureOpen().insertDebugMarker(label);
    return undefined;
  }
}

/** The stages' view of the frame's encoder: anything but a compute dispatch ends the shared pass first. */
class EncoderFacade {
  readonly __brand = 'GPUCommandEncoder';
  label = 'sharedPass.encoder';
  constructor(private readonly s: SharedPass) {}
  private raw(): GPUCommandEncoder {
    this.s.close();
    return this.s.rawEncoder;
  }
  beginComputePass(d?: GPUComputePassDescriptor): GPUComputePassEncoder {
    return this.raw().beginComputePass(d);
  }
  beginRenderPass(d: GPURenderPassDescriptor): GPURenderPassEncoder {
    return this.raw().beginRenderPass(d);
  }
  clearBuffer(buffer: GPUBuffer, offset?: number, size?: number): undefined {
    this.raw().clearBuffer(buffer, offset, size);
    return undefined;
  }
  copyBufferToBuffer(...a: unknown[]): undefined {
    (this.raw().copyBufferToBuffer as (...x: unknown[]) => void)(...a);
    return undefined;
  }
  copyBufferToTexture(source: GPUTexelCopyBufferInfo, destination: GPUTexelCopyTextureInfo, size: GPUExtent3DStrict): undefined {
    this.raw().copyBufferToTexture(source, destination, size);
    return undefined;
  }
  copyTextureToBuffer(source: GPUTexelCopyTextureInfo, destination: GPUTexelCopyBufferInfo, size: GPUExtent3DStrict): undefined {
    this.raw().copyTextureToBuffer(source, destination, size);
    return undefined;
  }
  copyTextureToTexture(source: GPUTexelCopyTextureInfo, destination: GPUTexelCopyTextureInfo, size: GPUExtent3DStrict): undefined {
    this.raw().copyTextureToTexture(source, destination, size);
    return undefined;
  }
  resolveQuerySet(querySet: GPUQuerySet, first: number, count: number, destination: GPUBuffer, offset: number): undefined {
    this.raw().resolveQuerySet(querySet, first, count, destination, offset);
    return undefined;
  }
  pushDebugGroup(label: string): undefined {
    this.raw().pushDebugGroup(label);
    return undefined;
  }
  popDebugGroup(): undefined {
    this.raw().popDebugGroup();
    return undefined;
  }
  insertDebugMarker(label: string): undefined {
    this.raw().insertDebugMarker(label);
    return undefined;
  }
  finish(): GPUCommandBuffer {
    throw new Error('SharedPass: a stage may not finish the frame\'s encoder (the time step submits the frame)');
  }
}
