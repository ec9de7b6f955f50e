/**
 * The general air mesher (Delaunay tetrahedralization + boundary recovery, paper 004 section 3.1
 * for any objects) on meshes made by others (../shared/meshes), against geometry computed here:
 *   - it conforms: every object boundary face (found by counting faces here) is a face of exactly
 *     one air tet;
 *   - air and objects tile the container: every air tet positive at rest, the volumes (own
 *     float64 determinant) add up to the container's, no face used by more than two tets of the
 *     union, and every face used once lies on the container's walls;
 *   - bad input is refused: objects that overlap name the vertex and the object it lies in, and
 *     a triangle that cannot be made an air face (a vertex on it) names the object, the triangle
 *     and why;
 *   - air mode on that mesh keeps two Cube.t copies dropped onto each other apart: no boundary
 *     vertex of one inside the other (tests/support's brute-force counter, no code shared).
 */
import { describe, expect, it } from 'vitest';
import { airPositions } from '../../../src/collision/air/airMesh';
import { buildAir } from '../../../src/collision/air/buildAir';
import { buildGeneralAirMesh, type AirBox } from '../../../src/collision/air/generalAirMesh';
import { readMeshFile } from '../../../src/runner/meshFile';
import { cubeStack } from '../../../src/scenes/cubeStack';
import { findScene } from '../../../src/scenes/registry';
import { meshPile } from '../../../src/scenes/meshPile';
import { airContainerFor } from '../../../src/sim/airContainer';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { buildModel } from '../../../src/sim/model';
import type { SimSetup } from '../../../src/sim/setup';
import { countIntersections } from '../../support/intersectionCounter';
import { det, faceUses } from '../../support/tetOracle';

const MATERIAL = { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 };

/** Conformity and tiling of the general air mesh of `setup` (the checks of this file's header). */
function checkGeneral(setup: SimSetup): { airTets: number; ms: number } {
  const model = setup.model;
  const container = airContainerFor(setup, 'general');
  if (container.mesher !== 'general') throw new Error('expected the general mesher');
  const built = buildAir(model, container);
  const mesh = built.mesh;
  const p = airPositions(mesh, model.restPositions);
  let air = 0, objects = 0;
  for (let t = 0; t < mesh.tets.length / 4; t++) {
    const d = det(p, mesh.tets[4 * t], mesh.tets[4 * t + 1], mesh.tets[4 * t + 2], mesh.tets[4 * t + 3]) / 6;
    expect(d, `air tet ${t}`).toBeGreaterThan(0);
    air += d;
  }
  for (let t = 0; t < model.tetCount; t++) objects += det(model.restPositions, model.tets[4 * t], model.tets[4 * t + 1], model.tets[4 * t + 2], model.tets[4 * t + 3]) / 6;
  const volume = (container.max[0] - container.min[0]) * (container.max[1] - container.min[1]) * (container.max[2] - container.min[2]);
  expect(Math.abs(air + objects - volume) / volume).toBeLessThan(1e-9);
  // Conformity: each object boundary face is a face of exactly one air tet.
  const objectUses = faceUses(model.tets);
  const airUses = faceUses(mesh.tets);
  let boundary = 0;
  for (const [f, n] of objectUses) {
    if (n !== 1) continue;
    boundary++;
    expect(airUses.get(f), `object boundary face ${f}`).toBe(1);
  }
  expect(boundary).toBeGreaterThan(0);
  // No overlap: a face in at most two tets of the union; faces in one lie on the container's walls.
  const union = faceUses(model.tets, faceUses(mesh.tets));
  for (const [f, n] of union) {
    expect(n, `face ${f}`).toBeLessThanOrEqual(2);
    if (n === 2) continue;
    const ids = f.split(',').map(Number);
    const onWall = [0, 1, 2].some((a) => ids.every((v) => p[3 * v + a] === container.min[a]) || ids.every((v) => p[3 * v + a] === container.max[a]));
    expect(onWall, `face ${f} used once, off the container's walls`).toBe(true);
  }
  return { airTets: mesh.tets.length / 4, ms: built.stats.buildMs };
}

describe('general air mesh', () => {
  const cube = readMeshFile('../shared/meshes/Cube.t');

  it('conforms to and tiles with two copies of Cube.t (lattice-regular surfaces: co-spherical points everywhere)', () => {
    const r = checkGeneral(meshPile.build({ mesh: cube, copies: 2 }));
    console.log(`2 x Cube.t: ${r.airTets} air tets, ${r.ms.toFixed(0)} ms`);
  });

  it('conforms to and tiles with the shared octopus resting above a Cube.t', () => {
    const octopus = readMeshFile('../shared/meshes/octopus_2KFaces.t');
    // Octopus (about 1 across) above the cube [-1, 1]^3 with a gap.
    let minY = Infinity;
    for (let v = 1; v < octopus.positions.length; v += 3) minY = Math.min(minY, octopus.positions[v]);
    const lifted = Float64Array.from(octopus.positions, (c, i) => (i % 3 === 1 ? c - minY + 1.2 : c));
    const setup: SimSetup = {
      model: buildModel([{ name: 'cube', positions: cube.positions, tets: cube.tets, material: MATERIAL }, { name: 'octopus', positions: lifted, tets: octopus.tets, material: MATERIAL }]),
      colliders: [{ kind: 'plane', normal: [0, 1, 0], offset: -1.5 }],
      handles: [],
      params: meshPile.build({ mesh: cube, copies: 1 }).params,
    };
    const r = checkGeneral(setup);
    console.log(`octopus on Cube.t: ${r.airTets} air tets, ${r.ms.toFixed(0)} ms`);
  });

  it('conforms to and tiles where a surface lies a few millimetres from another or from itself (flat Delaunay tets cross the gap)', () => {
    // Each of these was refused until a missing edge's Steiner points were tried on what crosses
    // it, not only inside its object, edges present from the start were re-recovered after
    // Steiner points, and a failed recovery was retried from scratch with other Steiner points:
    // two turned cubes 5 mm apart (side 0.5), two Beam_1k.t stacked, the genus-1 teapot
    // container dropped, and three GlassBox.t piled (thin walls: built on a retry).
    const teapot = readMeshFile('../shared/meshes/teapotContainer.t');
    for (const [name, setup] of [
      ['cube-stack --copies 2', cubeStack.build({ copies: 2 })],
      ['2 x Beam_1k.t', meshPile.build({ mesh: readMeshFile('../shared/meshes/Beam_1k.t'), copies: 2 })],
      ['teapotContainer.t dropped', findScene('drop').build({ mesh: teapot })],
      ['3 x GlassBox.t', meshPile.build({ mesh: readMeshFile('../shared/meshes/GlassBox.t'), copies: 3 })],
    ] as const) {
      const r = checkGeneral(setup);
      console.log(`${name}: ${r.airTets} air tets, ${r.ms.toFixed(0)} ms`);
    }
  });

  it('refuses overlapping objects, naming the vertex and the object it lies in', () => {
    const shifted = Float64Array.from(cube.positions, (c, i) => (i % 3 === 0 ? c + 1 : c));
    const model = buildModel([{ name: 'left', positions: cube.positions, tets: cube.tets, material: MATERIAL }, { name: 'right', positions: shifted, tets: cube.tets, material: MATERIAL }]);
    const box: AirBox = { min: [-3, -3, -3], max: [4, 3, 3], wallSpacing: 1 };
    expect(() => buildGeneralAirMesh(model, box)).toThrow(/object [01] \((left|right)\) vertex \d+ at .* lies inside or on object [01] \((left|right)\)/);
  });

  it('refuses a triangle that cannot be an air face, naming the object, the triangle and why', () => {
    // One object of two tets: the second's apex lies inside the first's face (0, 1, 2).
    const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, -1, 0.25, 0.25, 0, 0.6, 0.25, 0.5, 0.25, 0.6, 0.5, 0.25, 0.25, 1];
    const tets = [0, 2, 1, 3, 4, 5, 6, 7];
    for (const t of [0, 4]) if (det(positions, tets[t], tets[t + 1], tets[t + 2], tets[t + 3]) < 0) [tets[t + 2], tets[t + 3]] = [tets[t + 3], tets[t + 2]];
    const model = buildModel([{ name: 'pinched', positions, tets, material: MATERIAL }]);
    const box: AirBox = { min: [-1, -1, -2], max: [2, 2, 2], wallSpacing: 1 };
    expect(() => buildGeneralAirMesh(model, box)).toThrow(/object 0 \(pinched\) boundary triangle \(vertices [0-2], [0-2], [0-2];.*cannot be made a face of the air: .*object 0 \(pinched\) vertex 4 at \(0.25, 0.25, 0\).* lies on it$/);
  });

  it('refuses a container that does not hold every object', () => {
    const model = buildModel([{ name: 'cube', positions: cube.positions, tets: cube.tets, material: MATERIAL }]);
    expect(() => buildGeneralAirMesh(model, { min: [-2, -2, -2], max: [2, 0.5, 2], wallSpacing: 1 })).toThrow(/object 0 \(cube\) vertex \d+ at .* is not strictly inside the air container/);
  });
});


describe('air mode on the general mesh (CPU reference)', () => {
  it('keeps two Cube.t copies dropped onto each other apart (brute-force counter), every state finite', () => {
    const cube = readMeshFile('../shared/meshes/Cube.t');
    const setup = meshPile.build({ mesh: cube, copies: 2 });
    setup.params = { ...setup.params, collisionMode: 'air', substeps: 10, airOptimizeFrames: 4 };
    const s = new CpuSolver(setup);
    const gap = (x: ArrayLike<number>) => Math.min(...Array.from({ length: 100 }, (_, v) => x[3 * (100 + v) + 1])) - Math.max(...Array.from({ length: 100 }, (_, v) => x[3 * v + 1]));
    let worst = 0;
    for (let f = 0; f < 60; f++) {
      s.stepFrame();
      if (f % 10 === 9) { const n = countIntersections({ positions: s.x, tets: s.model.tets, tetObject: s.model.tetObject }, { self: false }).inter; worst = Math.max(worst, n); }
    }
    expect(s.x.every(Number.isFinite)).toBe(true);
    expect(s.collisionCounters.air?.mesh.mesher).toBe('general');
    // The upper cube came down towards the lower one (half its start gap at least).
    console.log(`2 x Cube.t in air mode: gap ${gap(setup.model.restPositions).toFixed(3)} at the start, ${gap(s.x).toFixed(3)} after 1 s; most penetrating vertices at a check every 10 frames: ${worst}`);
    expect(gap(s.x)).toBeLessThan(0.5 * gap(setup.model.restPositions));
    // At most a vertex on the other's face while the air tets between are flat (det = 0 is allowed by eq. 2).
    expect(worst).toBeLessThanOrEqual(1);
    expect(countIntersections({ positions: s.x, tets: s.model.tets, tetObject: s.model.tetObject }, { self: false }).inter).toBe(0);
  });
});
