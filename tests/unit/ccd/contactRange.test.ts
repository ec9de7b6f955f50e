/**
 * The conservative range of contactRange.ts checked against an exact oracle: the corner values of F computed
 * in BigInt fixed point (no rounding at all), sharing no code with the float path. The widened float range must
 * contain the exact hull on every box; with the rounding bound removed this test fails.
 */
import { describe, expect, it } from 'vitest';
import { contactRange, prepareQuery, QueryKind } from '../../../src/collision/ccd/contactRange';

const PS = 60n; // point scale: coordinates are multiples of 2^-53 in [-1, 1], exact at 2^60
const TS = 20n; // box corners are multiples of 2^-20

/** Exact a/2^scale versus the double x: returns sign(x - a/2^scale). */
function compare(x: number, a: bigint, scale: bigint): number {
  // Every finite double is m * 2^e; 2^1100 makes it an integer for |e| in range of our values.
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const expBits = (bits >> 52n) & 0x7ffn;
  const frac = bits & ((1n << 52n) - 1n);
  const mant = expBits === 0n ? frac : frac | (1n << 52n);
  const e = (expBits === 0n ? 1n : expBits) - 1075n; // x = sign * mant * 2^e
  const S = 1100n;
  const xs = sign * mant * (1n << (S + e)); // x * 2^S (e >= -1074 so S + e >= 26)
  const as = a * (1n << (S - scale));
  return xs > as ? 1 : xs < as ? -1 : 0;
}

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('contactRange encloses the exact range of F', () => {
  it('on random queries and random dyadic boxes, for both query kinds', () => {
    const rand = rng(12345);
    // Coordinates on a 2^-53 grid in [-1, 1]; near-coplanar configurations make F close to 0.
    const coord = () => Math.round((2 * rand() - 1) * 2 ** 53) / 2 ** 53;
    const out = new Float64Array(6);
    let tight = 0;
    for (let trial = 0; trial < 3000; trial++) {
      const kind = trial % 2 === 0 ? QueryKind.VertexFace : QueryKind.EdgeEdge;
      const q = new Float64Array(24);
      for (let i = 0; i < 24; i++) q[i] = coord();
      const pq = prepareQuery(kind, q);
      const P = Array.from(q, (x) => BigInt(x * 2 ** 60));
      const lohi = () => {
        const a = Math.floor(rand() * 2 ** 20);
        const b = a + 1 + Math.floor(rand() * Math.min(2 ** 20 - a, 1 + (rand() < 0.5 ? 4 : 2 ** 19)));
        return [a, Math.min(b, 2 ** 20)];
      };
      const [ta, tb] = lohi(), [ua, ub] = lohi(), [wa, wb] = lohi();
      contactRange(pq, ta / 2 ** 20, tb / 2 ** 20, ua / 2 ** 20, ub / 2 ** 20, wa / 2 ** 20, wb / 2 ** 20, out);
      for (let k = 0; k < 3; k++) {
        let min: bigint | null = null;
        let max: bigint | null = null;
        for (const T of [ta, tb]) for (const U of [ua, ub]) for (const W of [wa, wb]) {
          // x_i(t) at scale PS + TS
          const x = [0, 1, 2, 3].map((i) => P[3 * i + k] * (1n << TS) + BigInt(T) * (P[12 + 3 * i + k] - P[3 * i + k]));
          const f = kind === QueryKind.VertexFace
            ? (x[0] - x[1]) * (1n << TS) - BigInt(U) * (x[2] - x[1]) - BigInt(W) * (x[3] - x[1])
            : (x[0] - x[2]) * (1n << TS) + BigInt(U) * (x[1] - x[0]) - BigInt(W) * (x[3] - x[2]);
          if (min === null || f < min) min = f;
          if (max === null || f > max) max = f;
        }
        const scale = PS + 2n * TS;
        expect(compare(out[2 * k], min!, scale), `trial ${trial} axis ${k} lower`).toBeLessThanOrEqual(0);
        expect(compare(out[2 * k + 1], max!, scale), `trial ${trial} axis ${k} upper`).toBeGreaterThanOrEqual(0);
        // The bound stays useful: within 1e-12 of the exact hull at these magnitudes.
        if (Number(min!) / 2 ** 100 - out[2 * k] < 1e-12) tight++;
      }
    }
    expect(tight).toBe(3 * 3000);
  });
});
