/**
 * The impact scenes (shoot, head-on) make their bodies as stiff as the speed asks (impact.ts:
 * E = 10 rho V^2) and raise their iterations until that material is resolved
 * (scenes/resolvedBudget.ts, lever 'iterations'): a pressure wave crosses at most `iterations` of
 * the body's shortest edges in a substep. The shared 2K octopus shot at 50 m/s is where this
 * mattered: at the 3 iterations it had (kappa 23.9) its total energy rose 3.5x over the impact, at
 * 24 it never rose (docs/benchmarks.md "Impact scenes resolve the material they choose").
 *
 * The truth here shares no code with sim/resolution.ts: the P-wave speed of linear elasticity,
 * c = sqrt(E (1 - nu) / (rho (1 + nu) (1 - 2 nu))), and the shortest edge found by brute force
 * over every tet's six edges. A scene that raises its iterations also runs CCD in every collision
 * round (the later iterations carry points after the first round's CCD), unless the run says otherwise.
 */
import { describe, expect, it } from 'vitest';
import { findScene } from '../../../src/scenes/registry';
import { readMeshFile } from '../../../src/runner/meshFile';
import { parseRunArgs } from '../../../src/runner/args';
import { buildScene, runParams } from '../../../src/runner/sceneSetup';
import type { SceneSetup } from '../../../src/scenes/types';

const OCTOPUS = '../shared/meshes/octopus_2KFaces.t';
const CUBE = '../shared/meshes/Cube.t';
const KNOT = '../shared/meshes/OverhandKnot.t';

/** Wave elements crossed per substep for object o, by the formula and a brute-force shortest edge. */
function kappaOf(setup: SceneSetup, o: number, substeps = setup.params.substeps): number {
  const m = setup.model;
  const { youngsModulus: E, poissonRatio: nu, density: rho } = m.materials[o];
  const c = Math.sqrt((E * (1 - nu)) / (rho * (1 + nu) * (1 - 2 * nu)));
  const x = m.restPositions;
  let shortest = Infinity;
  for (let t = m.objectTetOffsets[o]; t < m.objectTetOffsets[o + 1]; t++) {
    for (let i = 0; i < 4; i++) {
      for (let j = i + 1; j < 4; j++) {
        const a = m.tets[4 * t + i], b = m.tets[4 * t + j];
        shortest = Math.min(shortest, Math.hypot(x[3 * a] - x[3 * b], x[3 * a + 1] - x[3 * b + 1], x[3 * a + 2] - x[3 * b + 2]));
      }
    }
  }
  return (c * setup.params.dt) / substeps / shortest;
}

/** The scene as the runner builds it from these flags, with the parameters it will run. */
function runnerScene(...flags: string[]): SceneSetup {
  const c = parseRunArgs(flags);
  if (c.kind !== 'run') throw new Error('not a run');
  const mesh = readMeshFile(flags[flags.indexOf('--mesh') + 1]);
  const setup = buildScene(findScene(flags[flags.indexOf('--scene') + 1]), c.options, mesh);
  setup.params = { ...setup.params, ...runParams(setup, c.options).initial };
  return setup;
}

describe('the impact scenes resolve the material they choose for the speed', () => {
  it('the 2K octopus shot at 50 m/s: E = 10 rho V^2 and just the iterations the wave needs', () => {
    const setup = findScene('shoot').build({ mesh: readMeshFile(OCTOPUS) });
    const body = setup.model.materials[0];
    expect(body.youngsModulus).toBeCloseTo(10 * body.density * 50 * 50, 6);
    const kappa = kappaOf(setup, 0);
    expect(kappa).toBeGreaterThan(20);
    expect(setup.params.substeps).toBe(20);
    expect(setup.params.iterations).toBe(Math.ceil(kappa));
    expect(setup.notes?.join(' ')).toMatch(/iterations instead of 3/);
  });

  it('head-on raises both copies alike; the cube keeps 20 x 3, its pinned wall counting for nothing', () => {
    const pair = findScene('head-on').build({ mesh: readMeshFile(OCTOPUS), speed: 30 });
    expect(pair.params.iterations).toBe(Math.ceil(Math.max(kappaOf(pair, 0), kappaOf(pair, 1))));
    // Raised iterations carry points after the first round's CCD: the scene tests every round.
    expect(pair.params.ccdEveryRound).toBe(true);
    expect(pair.notes?.join(' ')).toMatch(/CCD runs in every collision round/);
    const cube = findScene('shoot').build({ mesh: readMeshFile(CUBE) });
    expect(kappaOf(cube, 0)).toBeLessThan(3);
    // The wall is thin (2 % of the cube) and as stiff: by its own edges it would ask for more, but
    // every vertex of it is pinned, so no wave crosses it.
    expect(kappaOf(cube, 1)).toBeGreaterThan(3);
    expect(cube.params.iterations).toBe(3);
    expect(cube.params.ccdEveryRound).toBe(false);
    expect(cube.notes).toBeUndefined();
  });

  it('past 30 iterations the substeps take the rest (the knot at 50 m/s)', () => {
    const setup = findScene('shoot').build({ mesh: readMeshFile(KNOT) });
    expect(setup.params.iterations).toBe(30);
    expect(setup.params.substeps).toBeGreaterThan(20);
    expect(kappaOf(setup, 0)).toBeLessThanOrEqual(30);
    // One substep fewer would not resolve it.
    expect(kappaOf(setup, 0, setup.params.substeps - 1)).toBeGreaterThan(30);
  });

  it('through the runner: --iterations and --young are kept, --substeps is resolved with, --density sets rho', () => {
    const base = ['--scene', 'shoot', '--mesh', OCTOPUS];
    const fixed = runnerScene(...base, '--iterations', '4');
    expect(fixed.params.iterations).toBe(4);
    // The user's budget: nothing raised, CCD in the first round as the flags say.
    expect(fixed.params.ccdEveryRound).toBe(false);
    expect(runnerScene(...base).params.ccdEveryRound).toBe(true);
    expect(runnerScene(...base, '--ccd-every-round', 'off').params.ccdEveryRound).toBe(false);
    const soft = runnerScene(...base, '--young', '1e5');
    expect(soft.params.iterations).toBe(3);
    expect(soft.model.materials[0].youngsModulus).toBe(1e5);
    const fine = runnerScene(...base, '--substeps', '40');
    expect(fine.params.substeps).toBe(40);
    expect(fine.params.iterations).toBe(Math.ceil(kappaOf(fine, 0)));
    expect(fine.params.iterations).toBeLessThan(runnerScene(...base).params.iterations);
    const dense = runnerScene(...base, '--density', '4000');
    expect(dense.model.materials[0].youngsModulus).toBeCloseTo(10 * 4000 * 50 * 50, 0);
    expect(dense.params.iterations).toBe(Math.ceil(kappaOf(dense, 0)));
  });
});
