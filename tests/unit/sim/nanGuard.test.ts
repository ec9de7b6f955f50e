import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { loadSharedTetArrays } from '../../support/sharedMeshes';
import { makeSetup } from './support/setups';

describe('NaN/Inf guard (CPU reference)', () => {
  it('stops the object whose state went NaN, with a message; the other object is untouched', () => {
    const cube = loadSharedTetArrays('Cube.t');
    const two = makeSetup([{ ...cube }, { ...cube, offset: [4, 0, 0] }], { substeps: 5, iterations: 2 });
    const alone = makeSetup([{ ...cube, offset: [4, 0, 0] }], { substeps: 5, iterations: 2 });
    const s = new CpuSolver(two);
    const ref = new CpuSolver(alone);
    s.stepFrame();
    ref.stepFrame();
    s.x[3 * 7 + 1] = NaN; // corrupt vertex 7 of object 0
    for (let f = 0; f < 5; f++) {
      s.stepFrame();
      ref.stepFrame();
    }
    expect(s.messages).toHaveLength(1);
    expect(s.messages[0]).toMatch(/object 0 \(body0\) stopped at frame 1: its positions became NaN\/Inf/);
    expect(Array.from(s.objectStopped)).toEqual([1, 0]);
    // Object 0: finite and frozen.
    const n0 = two.model.objectVertexOffsets[1];
    const frozen = s.x.slice(0, 3 * n0);
    s.stepFrame();
    for (let i = 0; i < 3 * n0; i++) {
      expect(Number.isFinite(s.x[i])).toBe(true);
      expect(s.x[i]).toBe(frozen[i]);
    }
    // Object 1 behaves as if alone (it kept falling): to rounding, since the partitioned order
    // (the default) places its tets in cells of the whole scene, so alone it sweeps them in
    // another order (1e-17 m differences seen); NaN or the frozen object's influence would not be.
    ref.stepFrame();
    for (let i = 0; i < ref.x.length; i++) expect(Math.abs(s.x[3 * n0 + i] - ref.x[i])).toBeLessThan(1e-12);
    expect(ref.x[1] - alone.model.restPositions[1]).toBeLessThan(-0.01);
  });
});
