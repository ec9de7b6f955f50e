/**
 * A scene that chooses its material from the mesh's size resolves it (scenes/resolvedBudget.ts).
 *
 * The law: a column of height H resting on a frictionless floor under its own weight (uniaxial
 * stress rho g (H - y), free to widen) shortens by u(y) = rho g (H y - y^2 / 2) / E, so its centre
 * of mass sinks by rho g H^2 / (3 E) below H / 2. The drop scene picks E = rho g H / 0.05
 * (suggestedMaterial), a sag of H / 60 whatever the size. Cube.t scaled to 20 um gets a pressure
 * wave that crosses 12 of its smallest elements a substep at the solver's 20 x 3: there the
 * cube settled (4 frames) with its centre of mass 0.32 H above the floor (the law: 0.483 H) and its strain
 * energy 2.4x the drop's. The scene now takes 81 substeps and rests where the law says. A mesh of
 * ordinary size keeps the default, and a stiffness or substep count the user fixed is left alone.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { meshDrop } from '../../../src/scenes/meshDrop';
import { meshPile } from '../../../src/scenes/meshPile';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { defaultParams } from '../../../src/contract/params';
import { loadSharedTetArrays } from '../../support/sharedMeshes';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunArgs } from '../../../src/runner/args';
import { buildScene, runParams } from '../../../src/runner/sceneSetup';
import { readMeshFile } from '../../../src/runner/meshFile';
import { findScene } from '../../../src/scenes/registry';

function scaledCube(scale: number) {
  const mesh = loadSharedTetArrays('Cube.t');
  return { name: 'Cube.t', positions: Float64Array.from(mesh.positions, (p) => p * scale), tets: mesh.tets };
}

/** Centre of mass height of the solver's state, weighted by the masses it moves. */
function centreHeight(solver: CpuSolver, invMass: Float64Array): number {
  let m = 0, my = 0;
  for (let v = 0; v < invMass.length; v++) {
    if (!(invMass[v] > 0)) continue;
    m += 1 / invMass[v];
    my += solver.x[3 * v + 1] / invMass[v];
  }
  return my / m;
}

describe('scenes that choose their material resolve it', () => {
  it('a 20 um cube dropped on a frictionless floor rests at its own-weight sag, rho g H^2 / (3 E)', () => {
    const mesh = scaledCube(1e-5);
    const setup = meshDrop.build({ mesh });
    const defaults = defaultParams();
    expect(setup.params.substeps).toBeGreaterThan(defaults.substeps);
    expect(setup.notes?.join(' ')).toMatch(/substeps a frame instead of 20/);
    setup.params = { ...setup.params, friction: 0 };
    const H = 2e-5;
    const material = setup.model.materials[0];
    const sag = (material.density * 9.81 * H * H) / (3 * material.youngsModulus);
    expect(sag / H).toBeCloseTo(1 / 60, 3);
    const solver = new CpuSolver(setup);
    for (let f = 0; f < 4; f++) solver.stepFrame();
    const rest = centreHeight(solver, setup.model.invMass);
    console.log(`20 um cube: ${setup.params.substeps} substeps, centre of mass ${(rest / H).toFixed(4)} H, the law ${(0.5 - sag / H).toFixed(4)} H`);
    // Within 30 % of the sag (the 'auto' contact offset lifts it by about 0.001 H); at 20
    // substeps it rested 0.16 H low, ten times the sag.
    expect(Math.abs(rest - (H / 2 - sag))).toBeLessThan(0.3 * sag);
  });

  it('keeps the default for a mesh of ordinary size, and what the user fixed', () => {
    const ordinary = meshDrop.build({ mesh: scaledCube(1) });
    expect(ordinary.params.substeps).toBe(defaultParams().substeps);
    expect(ordinary.notes).toBeUndefined();
    const tiny = scaledCube(1e-5);
    expect(meshDrop.build({ mesh: tiny, step: { substeps: 20 } }).params.substeps).toBe(20);
    expect(meshDrop.build({ mesh: tiny, material: { youngsModulus: 0.2 } }).params.substeps).toBe(20);
    // More iterations resolve more of the wave: fewer substeps needed (kappa x 20 / iterations).
    const byIterations = meshDrop.build({ mesh: tiny, step: { iterations: 6 } }).params.substeps;
    const byDefault = meshDrop.build({ mesh: tiny }).params.substeps;
    expect(byIterations).toBeLessThan(byDefault);
    expect(byIterations).toBeGreaterThanOrEqual(Math.ceil(byDefault / 2));
    expect(meshPile.build({ mesh: tiny, copies: 2 }).params.substeps).toBe(byDefault);
  });

  it("the runner: the scene's substeps unless --substeps or --young is given; --iterations enters the count", () => {
    // Cube.t's records with the coordinates scaled to a 20 um cube, as a user's file would hold them.
    const folder = mkdtempSync(join(tmpdir(), 'resolved-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    const file = join(folder, 'cube20um.t');
    writeFileSync(file, readFileSync('../shared/meshes/Cube.t', 'utf8').replace(/^(Vertex \d+) (\S+) (\S+) (\S+)/gm, (_, head, x, y, z) => `${head} ${x * 1e-5} ${y * 1e-5} ${z * 1e-5}`));
    const substepsOf = (...flags: string[]) => {
      const c = parseRunArgs(['--scene', 'drop', '--mesh', file, ...flags]);
      if (c.kind !== 'run') throw new Error('not a run');
      const setup = buildScene(findScene('drop'), c.options, readMeshFile(file));
      return { ...setup.params, ...runParams(setup, c.options).initial }.substeps;
    };
    const own = substepsOf();
    expect(own).toBeGreaterThan(60);
    expect(substepsOf('--substeps', '20')).toBe(20);
    expect(substepsOf('--young', '0.4')).toBe(20);
    expect(substepsOf('--iterations', '12')).toBeLessThan(own / 3);
  });
});
