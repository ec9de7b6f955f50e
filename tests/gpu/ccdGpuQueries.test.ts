/**
 * The f32 GPU CCD narrow phase (shaders/lib/ccd.wgsl through src/collision/ccd/gpu/ccdBatchGpu.ts) against
 * independent truths: the exact rational ground truth of the Wang et al. 2021 benchmark queries
 * (../shared/ccd-queries, made by others), analytic motions with known contact times, and grazing contacts
 * built in exact dyadic arithmetic whose f32 rounding separates the primitives (they show that the snippet's
 * rounding widening is needed).
 */
import { describe, expect, it } from 'vitest';
import { runCcdBatchGpu } from '../../src/collision/ccd/gpu/ccdBatchGpu';
import { CCD_QUERIES_DIR, ccdQuerySets, readCcdQueries } from '../support/ccdQueryFiles';
import { testGpu } from '../support/gpu';
import { rng } from '../support/random';

const device = async (): Promise<GPUDevice> => (await testGpu()).device;

/** Flattens queries (8 points each: 4 at t0, then at t1) into the runner's layout. */
function pack(queries: number[][][]): Float64Array {
  return Float64Array.from(queries.flat(2));
}

describe('GPU CCD on the Wang et al. 2021 benchmark queries (exact ground truth)', () => {
  const sets = ccdQuerySets();
  it('finds the shared query folder', () => {
    expect(sets, `expected the query sets in ${CCD_QUERIES_DIR}`).toContain('unit-tests');
    expect(sets.filter((s) => s.startsWith('erleben-')).length).toBe(6);
  });

  for (const set of sets) {
    for (const kind of ['vertex-face', 'edge-edge'] as const) {
      it(`${set} ${kind}: zero false negatives`, async () => {
        const { queries, truth, names } = readCcdQueries(set, kind);
        const start = performance.now();
        const toi = await runCcdBatchGpu(await device(), kind, queries);
        const ms = performance.now() - start;
        let fp = 0, neg = 0, pos = 0;
        const misses: string[] = [];
        for (let i = 0; i < toi.length; i++) {
          const hit = toi[i] >= 0;
          if (hit) expect(toi[i]).toBeLessThanOrEqual(1);
          else expect(toi[i]).toBe(-1);
          if (truth[i]) {
            pos++;
            if (!hit) misses.push(names[i]);
          } else {
            neg++;
            if (hit) fp++;
          }
        }
        console.log(
          `[ccd-gpu] ${set} ${kind}: ${toi.length} queries (${pos} positive), false negatives ${misses.length}, ` +
            `false positives ${fp}/${neg} = ${neg ? ((100 * fp) / neg).toFixed(1) : '0.0'}%, ${ms.toFixed(0)} ms (one dispatch)`,
        );
        expect(misses).toEqual([]);
        // Answering "hit" everywhere would pass the line above; the kernel must also separate most non-contacts.
        expect(fp).toBeLessThan(0.6 * neg);
      });
    }
  }
});

const tri = [
  [0, 0, 0],
  [1, 0, 0],
  [0, 1, 0],
];

/** Stated accuracy for unit-size primitives closing at speed >= 1 (header of shaders/lib/ccd.wgsl). */
const TOI_TOL = 1e-4;

/**
 * A hit no later than the exact first contact, and early by at most TOI_TOL plus 0.06 separation /
 * speed: the header's (2 err + 3 delta) / s, delta at least 2 % of the separation.
 */
function expectToi(toi: number, exact: number, label: string, separation = 0, speed = 1): void {
  const tol = TOI_TOL + 0.06 * separation / speed;
  expect(toi, `${label}: a hit`).toBeGreaterThanOrEqual(0);
  expect(toi, `${label}: not after the exact first contact ${exact}`).toBeLessThanOrEqual(exact);
  expect(exact - toi, `${label}: within ${tol} of ${exact}`).toBeLessThanOrEqual(tol);
}

/**
 * Whether the primitives' boxes over the motion lie farther apart than `gap` on some axis (float64,
 * its own code): vertex-face point 0 against points 1-3, edge-edge points 0-1 against 2-3.
 */
function boxesApartBy(q: Float64Array, i: number, kind: 'vertex-face' | 'edge-edge', gap: number): boolean {
  const first = kind === 'vertex-face' ? [0] : [0, 1];
  const second = kind === 'vertex-face' ? [1, 2, 3] : [2, 3];
  for (let axis = 0; axis < 3; axis++) {
    const range = (points: number[]): [number, number] => {
      let lo = Infinity, hi = -Infinity;
      for (const p of points) for (const t of [0, 4]) {
        const x = q[24 * i + 3 * (p + t) + axis];
        lo = Math.min(lo, x);
        hi = Math.max(hi, x);
      }
      return [lo, hi];
    };
    const [lo1, hi1] = range(first), [lo2, hi2] = range(second);
    if (lo2 - hi1 > gap || lo1 - hi2 > gap) return true;
  }
  return false;
}

describe("GPU CCD with the motion's boxes first (the time step's order on a software adapter)", () => {
  // lib/ccd.wgsl ccdMotionBoxesApart before the solve (ccdNarrow.wgsl ccdSweep): every benchmark query
  // must get the same answer as the solve alone, at no separation and at one a tenth of the
  // queries' scale, and so still no false negative against the exact ground truth.
  it('the same time of impact for every benchmark query, none of the exact contacts dropped, and the boxes settle the queries they hold apart', async () => {
    let queriesSeen = 0, apartInFloat64 = 0;
    for (const set of ccdQuerySets()) {
      for (const kind of ['vertex-face', 'edge-edge'] as const) {
        const { queries, truth, names } = readCcdQueries(set, kind);
        for (const separation of [0, 0.1]) {
          const plain = await runCcdBatchGpu(await device(), kind, queries, separation);
          const boxed = await runCcdBatchGpu(await device(), kind, queries, separation, { apartFirst: true });
          const differ: string[] = [];
          for (let i = 0; i < plain.length; i++) {
            if (plain[i] !== boxed[i]) differ.push(`${names[i]}: ${plain[i]} -> ${boxed[i]}`);
            if (separation === 0 && truth[i]) expect(boxed[i], `${set} ${kind} ${names[i]}: an exact contact`).toBeGreaterThanOrEqual(0);
            // Boxes apart by twice the separation in float64 cannot be within it: the kernel must say so.
            if (boxesApartBy(queries, i, kind, 2 * separation + 1e-3)) {
              apartInFloat64++;
              expect(boxed[i], `${set} ${kind} ${names[i]}: boxes apart`).toBe(-1);
            }
          }
          queriesSeen += plain.length;
          expect(differ, `${set} ${kind}, separation ${separation}`).toEqual([]);
        }
      }
    }
    console.log(`[ccd-gpu] motion boxes first: ${queriesSeen} query runs answered as by the solve alone; ${apartInFloat64} of them with boxes apart in float64`);
    expect(apartInFloat64).toBeGreaterThan(0);
  });
});

describe('GPU CCD analytic motions', () => {
  it('vertex falling onto a static triangle, with and without separation (inf-norm)', async () => {
    // v(t) = (0.2, 0.3, z0 + t (z1 - z0)) above the triangle's interior: |F|_inf = |z| (x, y can match),
    // so contact within s starts at t* = (z0 - s) / (z0 - z1).
    const cases = [
      [0.37, -0.63],
      [1, -2],
      [0.001, -0.999],
      [1.5, 0],
      [0.9, 0.1],
    ];
    for (const s of [0, 0.05]) {
      const queries = cases.map(([z0, z1]) => [[0.2, 0.3, z0], ...tri, [0.2, 0.3, z1], ...tri]);
      const toi = await runCcdBatchGpu(await device(), 'vertex-face', pack(queries), s);
      cases.forEach(([z0, z1], i) => {
        if (z1 > s) expect(toi[i], `z ${z0} -> ${z1} stays beyond ${s}`).toBe(-1);
        else expectToi(toi[i], Math.max(0, (z0 - s) / (z0 - z1)), `z ${z0} -> ${z1}, separation ${s}`, s, z0 - z1);
      });
    }
  });

  it('separation is honoured: a vertex passing 0.01 above the triangle', async () => {
    const q = [[0.2, 0.3, 0.01], ...tri, [0.3, 0.2, 0.01], ...tri];
    const [near, far] = [await runCcdBatchGpu(await device(), 'vertex-face', pack([q]), 0.02), await runCcdBatchGpu(await device(), 'vertex-face', pack([q]), 0.005)];
    expect(near[0]).toBe(0); // within 0.02 from the start
    expect(far[0]).toBe(-1);
  });

  it('moving triangle hitting a resting vertex; vertex passing beside the triangle', async () => {
    const lo = tri.map(([x, y]) => [x, y, -1.5]);
    const hi = tri.map(([x, y]) => [x, y, 0.5]);
    const toi = await runCcdBatchGpu(
      await device(),
      'vertex-face',
      pack([
        [[0.25, 0.25, 0], ...lo, [0.25, 0.25, 0], ...hi], // t* = 0.75
        [[0.6, 0.6, 1], ...tri, [0.6, 0.6, -1], ...tri], // outside u + w <= 1: never touches
      ]),
    );
    expectToi(toi[0], 0.75, 'triangle rising onto a vertex');
    expect(toi[1]).toBe(-1);
  });

  it('crossing edges (with and without separation) and parallel edges that never touch', async () => {
    // Edge a along x at height z(t) = 1 - 4t, edge b along y at z = 0: |F|_inf = |z|, t* = (1 - s) / 4.
    const crossing = [
      [-1, 0, 1], [1, 0, 1], [0, -1, 0], [0, 1, 0],
      [-1, 0, -3], [1, 0, -3], [0, -1, 0], [0, 1, 0],
    ];
    // Both along x, 0.3 apart in y (|F|_inf >= 0.3), sliding along x.
    const parallel = [
      [0, 0, 0], [1, 0, 0], [0, 0.3, 0], [1, 0.3, 0],
      [0.5, 0, 0], [1.5, 0, 0], [0.3, 0.3, 0], [1.3, 0.3, 0],
    ];
    for (const s of [0, 0.1]) {
      const toi = await runCcdBatchGpu(await device(), 'edge-edge', pack([crossing, parallel]), s);
      expectToi(toi[0], (1 - s) / 4, `crossing edges, separation ${s}`, s, 4);
      expect(toi[1]).toBe(-1);
    }
  });

  it('random translating triangles hit by a vertex at a designed time', async () => {
    // The triangle translates rigidly (fixed normal); relative to it the vertex moves on a straight line
    // through an interior point q at t*, crossing the plane once: the first contact is exactly t*.
    const r = rng(20261122);
    const rand = (a: number, b: number): number => a + (b - a) * r();
    const queries: number[][][] = [];
    const exact: number[] = [];
    while (queries.length < 256) {
      const f = [0, 1, 2].map(() => [rand(-1, 1), rand(-1, 1), rand(-1, 1)]);
      const e1 = [0, 1, 2].map((k) => f[1][k] - f[0][k]);
      const e2 = [0, 1, 2].map((k) => f[2][k] - f[0][k]);
      const nrm = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const area2 = Math.hypot(...nrm);
      if (area2 < 0.3) continue; // keep the triangle well shaped
      const W = [rand(-2, 2), rand(-2, 2), rand(-2, 2)];
      const closing = Math.abs(W[0] * nrm[0] + W[1] * nrm[1] + W[2] * nrm[2]) / area2;
      if (closing < 1.5) continue; // closing speed along the normal (see TOI_TOL)
      const V = [rand(-0.5, 0.5), rand(-0.5, 0.5), rand(-0.5, 0.5)];
      const a = rand(0.1, 0.8);
      const b = rand(0.1, 0.9 - a);
      const ts = rand(0.05, 0.95);
      const q0 = [0, 1, 2].map((k) => f[0][k] + a * e1[k] + b * e2[k]); // q at t = 0; q(t) = q0 + t V
      const v = (t: number): number[] => [0, 1, 2].map((k) => q0[k] + t * V[k] + (ts - t) * W[k]);
      const fAt = (t: number): number[][] => f.map((p) => p.map((x, k) => x + t * V[k]));
      queries.push([v(0), ...fAt(0), v(1), ...fAt(1)]);
      exact.push(ts);
    }
    const toi = await runCcdBatchGpu(await device(), 'vertex-face', pack(queries));
    let worst = 0;
    exact.forEach((ts, i) => {
      // 1e-12: the float64 coordinates of the construction move the exact contact by ~1e-16.
      expectToi(toi[i], ts + 1e-12, `random query ${i}`);
      worst = Math.max(worst, ts - toi[i]);
    });
    console.log(`[ccd-gpu] random designed contacts: largest t* - toi = ${worst.toExponential(2)}`);
  });
});

describe('the rounding widening matters', () => {
  it('grazing contacts whose f32 rounding separates the primitives: all found; without the widening some are missed', async () => {
    // Exact dyadic construction: triangle corners are multiples of 2^-28 in [-1, 1] (not f32 values), the
    // vertex ends exactly on the triangle at t = 1 (barycentrics in eighths: every sum is exact in float64)
    // and is strictly above its plane for t < 1. Truth: first contact at exactly t = 1. Rounding to f32
    // moves the end point off the plane by ~1e-8, away from the triangle about half the time.
    const r = rng(7);
    const grid = (): number => Math.round((2 * r() - 1) * 2 ** 28) / 2 ** 28;
    const queries: number[][][] = [];
    while (queries.length < 128) {
      const f = [0, 1, 2].map(() => [grid(), grid(), grid()]);
      const e1 = [0, 1, 2].map((k) => f[1][k] - f[0][k]);
      const e2 = [0, 1, 2].map((k) => f[2][k] - f[0][k]);
      const nz = e1[0] * e2[1] - e1[1] * e2[0];
      const area2 = Math.hypot(e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], nz);
      if (area2 < 0.3 || Math.abs(nz) < 0.3 * area2) continue;
      const a = 1 + Math.floor(r() * 5);
      const b = 1 + Math.floor(r() * (6 - a));
      const v1 = [0, 1, 2].map((k) => f[0][k] + (a / 8) * e1[k] + (b / 8) * e2[k]);
      // Start 0.5 above along z on the side the normal points to: strictly above the plane before t = 1.
      const v0 = [v1[0], v1[1], v1[2] + (nz > 0 ? 0.5 : -0.5)];
      queries.push([v0, ...f, v1, ...f]);
    }
    const q = pack(queries);
    const widened = await runCcdBatchGpu(await device(), 'vertex-face', q);
    const bare = await runCcdBatchGpu(await device(), 'vertex-face', q, 0, { errorScale: 0 });
    const missedWidened = [...widened].filter((x) => x < 0).length;
    const missedBare = [...bare].filter((x) => x < 0).length;
    console.log(`[ccd-gpu] grazing contacts at t = 1: missed ${missedWidened}/128 with the widening, ${missedBare}/128 without`);
    expect(missedWidened).toBe(0);
    for (const toi of widened) expect(1 - toi).toBeLessThanOrEqual(TOI_TOL);
    expect(missedBare).toBeGreaterThan(0);
  });
});

describe('bad input', () => {
  it('throws a RangeError naming the problem', async () => {
    const d = await device();
    await expect(runCcdBatchGpu(d, 'vertex-face', new Float64Array(23))).rejects.toThrow(/multiple of 24/);
    const q = new Float64Array(48);
    q[24 + 7] = Number.NaN;
    await expect(runCcdBatchGpu(d, 'edge-edge', q)).rejects.toThrow(/query 1, coordinate 7/);
    q[24 + 7] = 1e30;
    await expect(runCcdBatchGpu(d, 'edge-edge', q)).rejects.toThrow(RangeError);
    await expect(runCcdBatchGpu(d, 'edge-edge', new Float64Array(24), -1)).rejects.toThrow(/separation/);
  });
});
