import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/sim/model';
import { materialResolution, shortestEdgeOfObjects } from '../../../src/sim/resolution';
import { shortestTetEdge } from '../../../src/mesh/shortestTetEdge';
import { kuhnLattice } from '../../support/kuhnLattice';

describe('materialResolution: c h / dx against the iterations', () => {
  it('shortest edge of a Kuhn lattice is its cell size (brute force: axis edges are the shortest)', () => {
    const lat = kuhnLattice(3, 2, 2, (u, v, w) => [u * 0.5, v * 0.25, w * 0.4]);
    expect(shortestTetEdge(lat.positions, lat.tets)).toBeCloseTo(0.25, 6);
    // Per object of a model: the second object is the same lattice scaled by 2.
    const material = { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 };
    const model = buildModel([
      { name: 'a', positions: lat.positions, tets: lat.tets, material },
      { name: 'b', positions: Array.from(lat.positions, (x) => 2 * x), tets: lat.tets, material },
    ]);
    const perObject = shortestEdgeOfObjects(model);
    expect(perObject[0]).toBeCloseTo(0.25, 6);
    expect(perObject[1]).toBeCloseTo(0.5, 6);
  });

  it('pressure wave speed is sqrt((lambda + 2 mu) / rho): steel-like 2e11 Pa, nu 0.3, 7850 kg/m^3 gives ~5.9 km/s', () => {
    const r = materialResolution({ youngsModulus: 2e11, poissonRatio: 0.3, density: 7850 }, 0.01, { dt: 1 / 60, substeps: 20, iterations: 3 });
    // Textbook P-wave speed of steel: about 5,900 m/s.
    expect(r.waveSpeed).toBeGreaterThan(5800);
    expect(r.waveSpeed).toBeLessThan(6000);
    expect(r.kappa).toBeCloseTo((r.waveSpeed / 1200) / 0.01, 6);
    expect(r.warning).toMatch(/substeps/);
  });

  it('no warning where the iterations cover kappa; the advice resolves it', () => {
    const soft = materialResolution({ youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 }, 0.05, { dt: 1 / 60, substeps: 20, iterations: 3 });
    expect(soft.warning).toBeNull();
    const stiff = materialResolution({ youngsModulus: 1e9, poissonRatio: 0.3, density: 1000 }, 0.05, { dt: 1 / 60, substeps: 20, iterations: 3 });
    const substeps = Number(/about (\d+) substeps/.exec(stiff.warning ?? '')?.[1]);
    expect(materialResolution({ youngsModulus: 1e9, poissonRatio: 0.3, density: 1000 }, 0.05, { dt: 1 / 60, substeps, iterations: 3 }).warning).toBeNull();
  });

  it('with contacts solved once a substep the advice adds the substeps that put the wave within one element (more iterations do not hold contacts), or contacts after every iteration; coupled contacts get the iterations; collisions off leave it out', () => {
    const material = { youngsModulus: 1e6, poissonRatio: 0.4, density: 1000 };
    const base = { dt: 0.1, substeps: 20, iterations: 3, collisions: true, collideEvery: 'substep', recovery: false, collisionMode: 'hybrid' } as const;
    const once = materialResolution(material, 0.05, base);
    expect(once.kappa).toBeCloseTo(4.63, 2);
    expect(once.warning).toMatch(/use about 31 substeps or 5 iterations/);
    expect(once.warning).toMatch(/contacts solved once a substep can gain energy/);
    expect(once.warning).toMatch(new RegExp(`about ${Math.ceil(20 * once.kappa)} substeps \\(the wave within one element a substep\\) do`));
    expect(once.warning).toMatch(new RegExp(`\\(collide-every contacts\\) with about ${Math.ceil(3 * once.kappa)} iterations\\.$`));
    // The advised substeps bring kappa to 1, at or below any iteration count: no warning.
    expect(materialResolution(material, 0.05, { ...base, substeps: Math.ceil(20 * once.kappa) }).warning).toBeNull();
    for (const coupled of [{ ...base, collideEvery: 'iteration' as const }, { ...base, collideEvery: 'contacts' as const }, { ...base, collideEvery: 'auto' as const, recovery: true }]) {
      expect(materialResolution(material, 0.05, coupled).warning).toMatch(/use about 31 substeps or 5 iterations to resolve it\. Where stiff bodies rest on each other, their contacts can gain energy below about 14 iterations\.$/);
    }
    expect(materialResolution(material, 0.05, { ...base, collideEvery: 'auto' }).warning).toBe(once.warning);
    expect(materialResolution(material, 0.05, { ...base, collisions: false }).warning).toMatch(/use about 31 substeps or 5 iterations to resolve it\.$/);
    // Air mode's constraints are its contacts (docs/collisions.md "Air mode: its constraints after every iteration").
    expect(materialResolution(material, 0.05, { ...base, collisionMode: 'air' }).warning).toBe(once.warning);
  });

  it('between bodies, contacts coupled with a converged material still need about 3 iterations per element the wave crosses; once a substep they are warned of at any kappa; one object is not', () => {
    // Three stacked cubes (E 1e6, nu 0.4, 1000 kg/m^3), resolution 4 (shortest edge 0.0625 m), at
    // 5 substeps: kappa 2.47 <= 3 iterations, yet +156 % of the energy released over 40 frames; 8
    // iterations held it within 1 % (docs/collisions.md "Contacts need about 3 iterations per element crossed").
    const material = { youngsModulus: 1e6, poissonRatio: 0.4, density: 1000 };
    const stack = { dt: 1 / 60, substeps: 5, iterations: 3, collisions: true, collideEvery: 'auto', recovery: false, collisionMode: 'hybrid', objects: 3 } as const;
    const r = materialResolution(material, 0.0625, stack);
    expect(r.kappa).toBeCloseTo(2.47, 2);
    expect(r.warning).toMatch(/^Bodies resting on each other can gain energy through their contacts at 5 substeps x 3 iterations: .* use about 8 iterations or 13 substeps\.$/);
    // The advice clears it, either way.
    expect(materialResolution(material, 0.0625, { ...stack, iterations: 8 }).warning).toBeNull();
    expect(materialResolution(material, 0.0625, { ...stack, substeps: 13 }).warning).toBeNull();
    // One object (its contacts are with itself and the colliders), or collisions off: no warning.
    expect(materialResolution(material, 0.0625, { ...stack, objects: 1 }).warning).toBeNull();
    expect(materialResolution(material, 0.0625, { ...stack, collisions: false }).warning).toBeNull();
    // Once a substep between bodies: warned at the scene's own step too (kappa 0.77, where three
    // cubes rose 44 % of what they released), with the iterations that hold contacts coupled.
    const once = materialResolution(material, 0.05, { ...stack, substeps: 20, collideEvery: 'substep' });
    expect(once.kappa).toBeCloseTo(0.77, 2);
    expect(once.warning).toMatch(/contacts solved once a substep, after the material.*with about 3 iterations hold it\.$/);
    expect(materialResolution(material, 0.05, { ...stack, substeps: 20 }).warning).toBeNull();
  });
});
