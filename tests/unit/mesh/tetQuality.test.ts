/**
 * Tet quality 6 sqrt(2) V / l_max^3 and slivers relative to their object's median
 * (mesh/tetQuality.ts, sim/model.ts). Truths: the regular tet (1), a tet flattened to height h
 * (V = A h / 3 exactly), the shared meshes (the octopus's known slivers; GlassBox.t, thin walls by
 * design, none), and the constants the model gives a sliver (its compliances over
 * SLIVER_STIFFNESS, its mass unchanged).
 */
import { describe, expect, it } from 'vitest';
import { relativeTetQuality, tetQuality } from '../../../src/mesh/tetQuality';
import { buildModel, setSliverQuality, SLIVER_STIFFNESS, sliverTets, lumpedMasses } from '../../../src/sim/model';
import { loadSharedTetArrays } from '../../support/sharedMeshes';

const material = { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 };

describe('tet quality', () => {
  it('is 1 for the regular tet and 6 sqrt(2) (A h / 3) / l^3 for one flattened to height h', () => {
    const s = Math.SQRT1_2;
    const regular = [1, 0, -s, -1, 0, -s, 0, 1, s, 0, -1, s];
    expect(tetQuality(regular, [0, 1, 2, 3], 0)).toBeCloseTo(1, 12);
    // Base: the right triangle (0,0,0), (1,0,0), (0,1,0) (area 1/2); apex at (0.3, 0.3, h); longest edge sqrt(2).
    for (const h of [0.1, 1e-3]) {
      const flat = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0.3, 0.3, h];
      const longest = Math.max(Math.SQRT2, Math.hypot(0.7, 0.3, h));
      expect(tetQuality(flat, [0, 1, 2, 3], 0)).toBeCloseTo((6 * Math.SQRT2 * (0.5 * h) / 3) / longest ** 3, 12);
    }
  });

  it('finds the shared octopus\'s slivers, none in a mesh flat by design, and softens only those', () => {
    const octopus = loadSharedTetArrays('octopus_2KFaces.t');
    const model = buildModel([{ name: 'octopus', positions: Float64Array.from(octopus.positions), tets: octopus.tets, material }]);
    const slivers = sliverTets(model);
    expect(slivers).toContain(4049);
    expect(slivers).toContain(3317);
    expect(slivers.length).toBeLessThan(0.01 * model.tetCount);
    // Softened: compliances over SLIVER_STIFFNESS, the rest and the masses as with the threshold 0.
    const soft = model.tetConstants.slice(), masses = lumpedMasses(model);
    expect(setSliverQuality(model, 0)).toBe(true);
    expect(sliverTets(model)).toEqual([]);
    for (let t = 0; t < model.tetCount; t++) {
      const factor = slivers.includes(t) ? 1 / SLIVER_STIFFNESS : 1;
      expect(soft[4 * t]).toBeCloseTo(model.tetConstants[4 * t] * factor, 6);
      expect(soft[4 * t + 1]).toBeCloseTo(model.tetConstants[4 * t + 1] * factor, 6);
      expect(soft[4 * t + 2]).toBe(model.tetConstants[4 * t + 2]);
    }
    expect(lumpedMasses(model)).toEqual(masses);
    expect(setSliverQuality(model, 0)).toBe(false);

    // GlassBox.t: every tet of its thin walls has quality about 0.005, none far below its median.
    const glass = loadSharedTetArrays('GlassBox.t');
    const g = relativeTetQuality(glass.positions, glass.tets, new Uint32Array(glass.tets.length / 4), 1);
    expect(Math.min(...g)).toBeGreaterThan(0.5);
    // Two objects: each tet judged against its own object's median.
    const both = buildModel([
      { name: 'octopus', positions: Float64Array.from(octopus.positions), tets: octopus.tets, material },
      { name: 'glass', positions: Float64Array.from(glass.positions), tets: glass.tets, material },
    ]);
    expect(sliverTets(both)).toEqual(slivers);
  });
});
