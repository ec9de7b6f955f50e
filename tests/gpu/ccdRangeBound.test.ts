/**
 * The rounding bound of the f32 CCD snippet (shaders/lib/ccd.wgsl, header "Rigorous widening") against exact
 * arithmetic: for benchmark queries (float64, made by others) and random dyadic parameter boxes, the GPU
 * computes the corner hull of F in f32 from the f32-rounded inputs, with the snippet's own functions, and
 * BigInt arithmetic evaluates F of the exact float64 query at the box corners. Every exact value must lie in
 * the hull widened by `err` (per axis) and by the normal-direction threshold (for n.F). Both are the
 * quantities the search drops boxes with; without the widening (ccdErrorScale = 0) the check fails.
 */
import { describe, expect, it } from 'vitest';
import { readBufferToCpu, storageBuffer } from '../../src/gpu/buffers';
import { withIncludes } from '../../src/gpu/wgsl';
import { ccdQuerySets, readCcdQueries, type CcdQueryKind } from '../support/ccdQueryFiles';
import { testGpu } from '../support/gpu';
import { rng } from '../support/random';

/** Per case: lo (3), hi (3), err (3), n (3), loN, hiN, thrN, pad = 16 floats. */
const OUT = 16;

const KERNEL = /* wgsl */ `
#include "ccd"
override KIND: u32 = 0u;
@group(0) @binding(0) var<storage, read> queries: array<f32>;   // 24 per case
@group(0) @binding(1) var<storage, read> boxes: array<f32>;     // t0 t1 u0 u1 w0 w1 per case
@group(0) @binding(2) var<storage, read_write> outv: array<f32>;

fn point(i: u32, p: u32) -> vec3<f32> {
  let b = 24u * i + 3u * p;
  return vec3<f32>(queries[b], queries[b + 1u], queries[b + 2u]);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = gid.x;
  if (i >= arrayLength(&boxes) / 6u) { return; }
  var q: CcdDiff;
  if (KIND == 0u) {
    q = ccdVertexFaceDiff(point(i, 0u), point(i, 1u), point(i, 2u), point(i, 3u), point(i, 4u), point(i, 5u), point(i, 6u), point(i, 7u));
  } else {
    q = ccdEdgeEdgeDiff(point(i, 0u), point(i, 1u), point(i, 2u), point(i, 3u), point(i, 4u), point(i, 5u), point(i, 6u), point(i, 7u));
  }
  let err = ccdErrorBound(q);
  let n = ccdNormal(q);
  var lo = vec3<f32>(3.0e38);
  var hi = vec3<f32>(-3.0e38);
  var loN = 3.0e38;
  var hiN = -3.0e38;
  for (var c = 0u; c < 8u; c++) {
    let t = boxes[6u * i + (c & 1u)];
    let u = boxes[6u * i + 2u + ((c >> 1u) & 1u)];
    let w = boxes[6u * i + 4u + ((c >> 2u) & 1u)];
    let f = ccdCorner(q, t, u, w);
    lo = min(lo, f);
    hi = max(hi, f);
    loN = min(loN, dot(n, f));
    hiN = max(hiN, dot(n, f));
  }
  let o = ${OUT}u * i;
  for (var k = 0u; k < 3u; k++) {
    outv[o + k] = lo[k];
    outv[o + 3u + k] = hi[k];
    outv[o + 6u + k] = err[k];
    outv[o + 9u + k] = n[k];
  }
  outv[o + 12u] = loN;
  outv[o + 13u] = hiN;
  outv[o + 14u] = ccdNormalThreshold(q, n, err, 0.0);
}
`;

/** Exact value of a double (or f32) times 2^scale, as a BigInt (scale >= 1074 + |exponent| keeps it integral). */
function scaled(x: number, scale: number): bigint {
  if (x === 0) return 0n;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const exp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(view.getUint32(4));
  let e = -1074;
  if (exp !== 0) {
    mant |= 1n << 52n;
    e = exp - 1075;
  }
  const shift = scale + e;
  if (shift < 0) throw new Error(`scaled: ${x} needs a scale above ${scale}`);
  const v = mant << BigInt(shift);
  return hi >>> 31 ? -v : v;
}

const S = 1100; // input scale: every double is an integer multiple of 2^-1074
const L = 20; // parameter levels: t, u, w are multiples of 2^-20

/** Exact F of the float64 query at (t, u, w), times 2^(S + 2L), per axis. */
function exactF(kind: CcdQueryKind, q: Float64Array, t: number, u: number, w: number): bigint[] {
  const T = BigInt(t * 2 ** L), U = BigInt(u * 2 ** L), W = BigInt(w * 2 ** L), ONE = 1n << BigInt(L);
  const out: bigint[] = [];
  for (let k = 0; k < 3; k++) {
    // p(t) * 2^(S + L) for the 4 points.
    const p = [0, 1, 2, 3].map((j) => {
      const x0 = scaled(q[3 * j + k], S);
      const x1 = scaled(q[12 + 3 * j + k], S);
      return x0 * ONE + T * (x1 - x0);
    });
    out.push(
      kind === 'vertex-face'
        ? (p[0] - p[1]) * ONE - U * (p[2] - p[1]) - W * (p[3] - p[1])
        : (p[0] - p[2]) * ONE + U * (p[1] - p[0]) - W * (p[3] - p[2]),
    );
  }
  return out;
}

interface Cases {
  queries: Float64Array; // 24 per case
  boxes: Float32Array; // 6 per case
}

/** Every benchmark query of a kind with two random dyadic boxes each (inside u + w <= 1 for vertex-face). */
function makeCases(kind: CcdQueryKind, seed: number): Cases {
  const r = rng(seed);
  const interval = (): [number, number] => {
    const level = Math.floor(r() * (L + 1));
    const i = Math.floor(r() * 2 ** level);
    return [i / 2 ** level, (i + 1) / 2 ** level];
  };
  const qs: number[] = [];
  const bs: number[] = [];
  for (const set of ccdQuerySets()) {
    const { queries } = readCcdQueries(set, kind);
    for (let i = 0; i < queries.length / 24; i++) {
      for (let rep = 0; rep < 2; rep++) {
        let t: [number, number], u: [number, number], w: [number, number];
        do {
          t = interval();
          u = interval();
          w = interval();
        } while (kind === 'vertex-face' && u[1] + w[1] > 1);
        for (let k = 0; k < 24; k++) qs.push(queries[24 * i + k]);
        bs.push(...t, ...u, ...w);
      }
    }
  }
  return { queries: Float64Array.from(qs), boxes: Float32Array.from(bs) };
}

async function gpuHulls(kind: CcdQueryKind, cases: Cases, errorScale: number): Promise<Float32Array> {
  const { device } = await testGpu();
  const module = device.createShaderModule({ label: 'ccdRangeBound', code: withIncludes(KERNEL, 'ccdRangeBound') });
  const pipeline = device.createComputePipeline({
    layout: 'auto',
    compute: { module, entryPoint: 'main', constants: { KIND: kind === 'vertex-face' ? 0 : 1, ccdErrorScale: errorScale } },
  });
  const n = cases.boxes.length / 6;
  const qb = storageBuffer(device, 'ccdRangeBound.queries', new Float32Array(cases.queries));
  const bb = storageBuffer(device, 'ccdRangeBound.boxes', cases.boxes);
  const ob = storageBuffer(device, 'ccdRangeBound.out', 4 * OUT * n);
  const encoder = device.createCommandEncoder();
  const pass = encoder.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, device.createBindGroup({
    layout: pipeline.getBindGroupLayout(0),
    entries: [qb, bb, ob].map((buffer, binding) => ({ binding, resource: { buffer } })),
  }));
  pass.dispatchWorkgroups(Math.ceil(n / 64));
  pass.end();
  device.queue.submit([encoder.finish()]);
  const out = new Float32Array(await readBufferToCpu(device, ob, 4 * OUT * n));
  for (const b of [qb, bb, ob]) b.destroy();
  return out;
}

/** Number of (case, corner) pairs whose exact F or n.F escapes the widened hull. */
function violations(kind: CcdQueryKind, cases: Cases, out: Float32Array): { axis: number; normal: number } {
  let axis = 0, normal = 0;
  const FS = S + 2 * L; // scale of exactF
  for (let c = 0; c < cases.boxes.length / 6; c++) {
    const q = cases.queries.subarray(24 * c, 24 * c + 24);
    const b = cases.boxes.subarray(6 * c, 6 * c + 6);
    const o = out.subarray(OUT * c, OUT * c + OUT);
    const lo = [0, 1, 2].map((k) => scaled(o[k], FS) - scaled(o[6 + k], FS));
    const hi = [0, 1, 2].map((k) => scaled(o[3 + k], FS) + scaled(o[6 + k], FS));
    const n = [0, 1, 2].map((k) => scaled(o[9 + k], S));
    const loN = scaled(o[12], FS + S) - scaled(o[14], FS + S);
    const hiN = scaled(o[13], FS + S) + scaled(o[14], FS + S);
    let badAxis = false, badNormal = false;
    for (let corner = 0; corner < 8; corner++) {
      const f = exactF(kind, q, b[corner & 1], b[2 + ((corner >> 1) & 1)], b[4 + ((corner >> 2) & 1)]);
      for (let k = 0; k < 3; k++) if (f[k] < lo[k] || f[k] > hi[k]) badAxis = true;
      const nf = n[0] * f[0] + n[1] * f[1] + n[2] * f[2];
      if (nf < loN || nf > hiN) badNormal = true;
    }
    if (badAxis) axis++;
    if (badNormal) normal++;
  }
  return { axis, normal };
}

describe('f32 CCD rounding bound against exact arithmetic on the float64 queries', () => {
  for (const [kind, seed] of [['vertex-face', 11], ['edge-edge', 12]] as const) {
    it(`${kind}: the exact F at every box corner lies in the widened f32 hull; not without the widening`, async () => {
      const cases = makeCases(kind, seed);
      expect(cases.boxes.length / 6).toBeGreaterThan(1000);
      const widened = violations(kind, cases, await gpuHulls(kind, cases, 1));
      const bare = violations(kind, cases, await gpuHulls(kind, cases, 0));
      console.log(
        `[ccd-gpu] ${kind}: ${cases.boxes.length / 6} boxes; escaping the hull (axis / normal): ` +
          `${widened.axis} / ${widened.normal} widened, ${bare.axis} / ${bare.normal} without the widening`,
      );
      expect(widened).toEqual({ axis: 0, normal: 0 });
      expect(bare.axis).toBeGreaterThan(0);
      expect(bare.normal).toBeGreaterThan(0);
    });
  }
});
