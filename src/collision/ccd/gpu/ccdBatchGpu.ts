/**
 * Batch runner for the f32 GPU CCD narrow phase (shaders/lib/ccd.wgsl through shaders/ccdBatch.wgsl): one
 * invocation per query, one dispatch, one read-back. For tests and benchmarks; the time step calls the same
 * snippet from its own kernel. Queries use the CPU API's layout (src/collision/ccd/index.ts): 24 numbers per
 * query, 4 points at t0 then the same 4 at t1. They are rounded to f32 here (round to nearest); the kernel's
 * error bound covers that rounding, so a contact of the float64 query is never missed.
 */
import code from '../../../../shaders/ccdBatch.wgsl?raw';
import { BindingTable } from '../../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, readBufferToCpu, storageBuffer, uniformBuffer } from '../../../gpu/buffers';
import { withIncludes } from '../../../gpu/wgsl';

export type CcdKind = 'vertex-face' | 'edge-edge';

/** Bindings of shaders/ccdBatch.wgsl, in its @binding order. */
const CCD_BATCH_BINDINGS = { params: 'uniform', queries: 'read-only-storage', toi: 'storage' } as const;

/** Inputs beyond this magnitude could overflow f32 differences (the snippet answers a conservative 0 there). */
const MAX_COORDINATE = 1e18;

export interface CcdBatchOptions {
  /**
   * Tests only: scales the rigorous rounding widening of the snippet (override `ccdErrorScale`). 1 (the
   * default) is the conservative kernel; 0 removes the widening to show that it matters.
   */
  errorScale?: number;
  /**
   * Test the motion's boxes first (lib/ccd.wgsl ccdMotionBoxesApart) and solve only the pairs they
   * leave, as the time step's narrow phase does on a software adapter (ccdNarrow.wgsl ccdSweep).
   */
  apartFirst?: boolean;
}

interface Kernel {
  table: BindingTable<keyof typeof CCD_BATCH_BINDINGS>;
  pipeline: GPUComputePipeline;
}

const kernels = new WeakMap<GPUDevice, Map<string, Kernel>>();

function kernel(device: GPUDevice, errorScale: number, apartFirst: boolean): Kernel {
  let byScale = kernels.get(device);
  if (!byScale) kernels.set(device, (byScale = new Map()));
  const key = `${errorScale}/${apartFirst}`;
  let k = byScale.get(key);
  if (!k) {
    const table = new BindingTable(device, 'ccdBatch', CCD_BATCH_BINDINGS);
    const pipeline = device.createComputePipeline({
      label: 'ccdBatch',
      layout: device.createPipelineLayout({ label: 'ccdBatch', bindGroupLayouts: [table.layout] }),
      compute: {
        module: device.createShaderModule({ label: 'ccdBatch.wgsl', code: withIncludes(code, 'ccdBatch.wgsl') }),
        entryPoint: 'main',
        constants: { ...(errorScale === 1 ? {} : { ccdErrorScale: errorScale }), ...(apartFirst ? { apartFirst: 1 } : {}) },
      },
    });
    k = { table, pipeline };
    byScale.set(key, k);
  }
  return k;
}

function validate(kind: string, queries: Float64Array, separation: number): void {
  if (kind !== 'vertex-face' && kind !== 'edge-edge') throw new RangeError(`runCcdBatchGpu: kind must be 'vertex-face' or 'edge-edge', got ${String(kind)}`);
  if (queries.length % 24 !== 0) throw new RangeError(`runCcdBatchGpu: ${queries.length} numbers, not a multiple of 24 (4 points at t0, then at t1, per query)`);
  if (!(Number.isFinite(separation) && separation >= 0)) throw new RangeError(`runCcdBatchGpu: separation must be finite and >= 0, got ${separation}`);
  for (let i = 0; i < queries.length; i++) {
    const x = queries[i];
    if (!Number.isFinite(x) || Math.abs(x) > MAX_COORDINATE) {
      const q = Math.floor(i / 24);
      const c = i % 24;
      throw new RangeError(
        `runCcdBatchGpu: query ${q}, coordinate ${c} (point ${Math.floor(c / 3)}, axis ${'xyz'[c % 3]}) is ${x}: ` +
          `must be finite with |x| <= ${MAX_COORDINATE}`,
      );
    }
  }
}

/**
 * Conservative time of impact per query: the earliest t in [0, 1] at which the primitives may come within
 * `separation` (inf-norm of the contact function), never after the exact first contact; -1 when no contact
 * can occur. Bad input throws a RangeError naming the query and coordinate.
 */
export async function runCcdBatchGpu(
  device: GPUDevice,
  kind: CcdKind,
  queries: Float64Array,
  separation = 0,
  options: CcdBatchOptions = {},
): Promise<Float32Array> {
  validate(kind, queries, separation);
  const count = queries.length / 24;
  if (count === 0) return new Float32Array(0);
  const { table, pipeline } = kernel(device, options.errorScale ?? 1, options.apartFirst ?? false);
  const params = uniformBuffer(device, 'ccdBatch.params', 16);
  const words = new ArrayBuffer(16);
  new Uint32Array(words, 0, 2).set([count, kind === 'vertex-face' ? 0 : 1]);
  new Float32Array(words, 8, 1)[0] = separation;
  new Uint32Array(words, 12, 1)[0] = gridRowStride(count);
  device.queue.writeBuffer(params, 0, words);
  const input = storageBuffer(device, 'ccdBatch.queries', new Float32Array(queries));
  const toi = storageBuffer(device, 'ccdBatch.toi', 4 * count);
  const encoder = device.createCommandEncoder({ label: 'ccdBatch' });
  const pass = encoder.beginComputePass({ label: 'ccdBatch' });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, table.group({ params, queries: input, toi }));
  const [x, y] = dispatchGrid(count);
  pass.dispatchWorkgroups(x, y);
  pass.end();
  device.queue.submit([encoder.finish()]);
  try {
    return new Float32Array(await readBufferToCpu(device, toi, 4 * count, 'ccdBatch.readback'));
  } finally {
    params.destroy();
    input.destroy();
    toi.destroy();
  }
}
