import { describe, expect, it } from 'vitest';
import { computeRestShapeCpu, DegenerateTetError } from '../../../src/sim/restShapeCpu';

/** Column-major 3x3 product. */
function mul(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number[] {
  const r: number[] = [];
  for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) {
    let s = 0;
    for (let k = 0; k < 3; k++) s += a[ao + 3 * k + i] * b[bo + 3 * j + k];
    r.push(s);
  }
  return r;
}

describe('computeRestShapeCpu', () => {
  it('gives volume |det|/6 of hand-made tets, signed by orientation', () => {
    // Corner tet of a 2 x 3 x 4 box: volume 2*3*4/6 = 4.
    const p = new Float64Array([1, 1, 1, 3, 1, 1, 1, 4, 1, 1, 1, 5]);
    const pos = computeRestShapeCpu(p, [0, 1, 2, 3]);
    expect(pos.volume[0]).toBeCloseTo(4, 12);
    const neg = computeRestShapeCpu(p, [0, 2, 1, 3]);
    expect(neg.volume[0]).toBeCloseTo(-4, 12);
  });

  it('Dm * Dm^-1 = I on random tets of very different scales', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
    for (const scale of [1e-3, 1, 20]) {
      const n = 50;
      const p = new Float64Array(12 * n);
      const tets = new Uint32Array(4 * n);
      for (let i = 0; i < 12 * n; i++) p[i] = rnd() * scale;
      for (let i = 0; i < 4 * n; i++) tets[i] = i;
      const { dmInv } = computeRestShapeCpu(p, tets);
      for (let t = 0; t < n; t++) {
        const dm: number[] = [];
        for (let c = 1; c <= 3; c++) for (let k = 0; k < 3; k++) dm.push(p[3 * (4 * t + c) + k] - p[3 * 4 * t + k]);
        const prod = mul(dm, 0, dmInv, 9 * t);
        for (let j = 0; j < 3; j++) for (let i = 0; i < 3; i++) expect(prod[3 * j + i]).toBeCloseTo(i === j ? 1 : 0, 6);
      }
    }
  });

  it('rejects a flat tet naming it, and an out-of-range vertex', () => {
    const flat = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0]);
    const ok = new Float64Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1]);
    const both = new Float64Array([...ok, ...flat]);
    expect(() => computeRestShapeCpu(both, [0, 1, 2, 3, 4, 5, 6, 7])).toThrow(DegenerateTetError);
    expect(() => computeRestShapeCpu(both, [0, 1, 2, 3, 4, 5, 6, 7])).toThrow(/tet 1 is degenerate/);
    expect(() => computeRestShapeCpu(ok, [0, 1, 2, 9])).toThrow(/tet 0 names vertex 9/);
  });
});
