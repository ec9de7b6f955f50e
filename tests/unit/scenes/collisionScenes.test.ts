/**
 * The collision scenes (issue 8) as built, before any step: the vertex and tet counts they
 * state, every tet positively oriented, objects apart at the start (disjoint bounding boxes,
 * checked by a brute-force pairwise test written here; it is itself checked on two copies
 * pushed into each other), every vertex inside the open box (each collider's half-space
 * n.x >= offset evaluated here), stacked objects above one another so they fall onto each
 * other, and the noodle's schedule switching at the frame it states.
 */
import { describe, expect, it } from 'vitest';
import { readMeshFile } from '../../../src/runner/meshFile';
import { cubeStack } from '../../../src/scenes/cubeStack';
import { meshPile } from '../../../src/scenes/meshPile';
import { NOODLE_SWITCH_FRAME, noodleRecovery } from '../../../src/scenes/noodleRecovery';
import { octopusPile, PILE_GENERATED_OCTOPUS_COUNTS, PILE_OCTOPUS_RESOLUTION, PILE_OCTOPUS_SHAPE } from '../../../src/scenes/octopusPile';
import { findScene, scenes } from '../../../src/scenes/registry';
import { changesAt, paramsDuring } from '../../../src/scenes/schedule';
import { squishySqueeze } from '../../../src/scenes/squishySqueeze';
import type { SceneSetup } from '../../../src/scenes/types';
import { generateShape } from '../../../src/mesh/procedural/catalog';
import type { Model } from '../../../src/sim/model';
import { sharedMeshPath } from '../../support/sharedMeshes';

type Box = { min: number[]; max: number[] };

/** Per object: the axis-aligned box of its vertices (plain loop over the model's vertex ranges). */
function objectBoxes(m: Model, x: ArrayLike<number> = m.restPositions): Box[] {
  const boxes: Box[] = [];
  for (let o = 0; o < m.objectNames.length; o++) {
    const b = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
    for (let v = m.objectVertexOffsets[o]; v < m.objectVertexOffsets[o + 1]; v++) {
      for (let k = 0; k < 3; k++) {
        b.min[k] = Math.min(b.min[k], x[3 * v + k]);
        b.max[k] = Math.max(b.max[k], x[3 * v + k]);
      }
    }
    boxes.push(b);
  }
  return boxes;
}

function overlap(a: Box, b: Box, axes: number[] = [0, 1, 2]): boolean {
  return axes.every((k) => a.min[k] < b.max[k] && b.min[k] < a.max[k]);
}

/** Pairs of objects whose boxes overlap (disjoint boxes: the objects cannot overlap). */
function overlappingPairs(m: Model, x?: ArrayLike<number>): [number, number][] {
  const boxes = objectBoxes(m, x);
  const out: [number, number][] = [];
  for (let a = 0; a < boxes.length; a++) for (let b = a + 1; b < boxes.length; b++) if (overlap(boxes[a], boxes[b])) out.push([a, b]);
  return out;
}

/** Vertices outside a collider plane's half-space n.x >= offset (n normalised here). */
function verticesOutside(setup: SceneSetup): number {
  const x = setup.model.restPositions;
  let outside = 0;
  for (const c of setup.colliders) {
    if (c.kind !== 'plane' || typeof c.offset !== 'number') continue;
    const len = Math.hypot(...c.normal);
    for (let v = 0; v < setup.model.vertexCount; v++) {
      const d = (c.normal[0] * x[3 * v] + c.normal[1] * x[3 * v + 1] + c.normal[2] * x[3 * v + 2]) / len;
      if (!(d > c.offset / len)) outside++;
    }
  }
  return outside;
}

/** The planes of an open box: ground +y and walls facing +x, -x, +z, -z. */
function isOpenBox(setup: SceneSetup): boolean {
  const normals = setup.colliders.filter((c) => c.kind === 'plane').map((c) => (c.kind === 'plane' ? c.normal.join(',') : ''));
  return ['0,1,0', '1,0,0', '-1,0,0', '0,0,1', '0,0,-1'].every((n) => normals.includes(n));
}

function minTetVolume(m: Model): number {
  const x = m.restPositions;
  let min = Infinity;
  for (let t = 0; t < m.tetCount; t++) {
    const [a, b, c, d] = [0, 1, 2, 3].map((i) => 3 * m.tets[4 * t + i]);
    const e = [b, c, d].map((p) => [x[p] - x[a], x[p + 1] - x[a + 1], x[p + 2] - x[a + 2]]);
    const det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
    min = Math.min(min, det / 6);
  }
  return min;
}

const octopusFile = readMeshFile(sharedMeshPath('octopus_2KFaces.t'));
const cubeFile = readMeshFile(sharedMeshPath('Cube.t'));

describe('collision scenes', () => {
  it('are in the registry; the pile takes the shared octopus as its default mesh, the others state their counts', () => {
    for (const name of ['octopus-pile', 'mesh-pile', 'cube-stack', 'noodle-recovery', 'squishy-squeeze']) expect(findScene(name).name).toBe(name);
    expect(octopusPile.defaultMeshFile).toBe('../shared/meshes/octopus_2KFaces.t');
    for (const s of [octopusPile, cubeStack, noodleRecovery, squishySqueeze]) {
      expect(s.defaultCounts, s.name).toBeDefined();
      expect(s.description, s.name).toContain(`${s.defaultCounts!.vertices} vertices, ${s.defaultCounts!.tets} tets`);
    }
    expect(new Set(scenes.map((s) => s.name)).size).toBe(scenes.length);
  });

  it('octopus-pile: stated counts, apart, inside the box, each octopus above the previous one', () => {
    const s = octopusPile.build({ mesh: octopusFile });
    const m = s.model;
    expect({ vertices: m.vertexCount, tets: m.tetCount }).toEqual(octopusPile.defaultCounts);
    const g = generateShape('octopus', PILE_OCTOPUS_SHAPE, PILE_OCTOPUS_RESOLUTION);
    expect({ vertices: g.positions.length / 3, tets: g.tets.length / 4 }).toEqual(PILE_GENERATED_OCTOPUS_COUNTS);
    expect(m.tetCount).toBe(2 * 4069 + 2 * PILE_GENERATED_OCTOPUS_COUNTS.tets);
    expect(m.tetCount).toBeGreaterThanOrEqual(1000);
    expect(m.tetCount).toBeLessThanOrEqual(20000);
    expect(m.objectNames).toHaveLength(4);
    expect(minTetVolume(m)).toBeGreaterThan(0);
    expect(overlappingPairs(m)).toEqual([]);
    expect(isOpenBox(s)).toBe(true);
    expect(verticesOutside(s)).toBe(0);
    // One column (4 octopi, one per layer): each one's footprint is over the one below.
    const boxes = objectBoxes(m);
    for (let o = 1; o < boxes.length; o++) {
      expect(boxes[o].min[1]).toBeGreaterThan(boxes[o - 1].max[1]);
      expect(overlap(boxes[o], boxes[o - 1], [0, 2])).toBe(true);
    }
    expect(s.params.collisions && s.params.selfCollision).toBe(true);
  });

  it('the overlap check finds two objects pushed into each other', () => {
    const s = cubeStack.build({ copies: 2 });
    const m = s.model;
    const x = Float64Array.from(m.restPositions);
    // Move the second cube down onto the first one.
    const gap = objectBoxes(m)[1].min[1] - objectBoxes(m)[0].min[1];
    for (let v = m.objectVertexOffsets[1]; v < m.objectVertexOffsets[2]; v++) x[3 * v + 1] -= gap;
    expect(overlappingPairs(m, x)).toEqual([[0, 1]]);
  });

  it('mesh-pile: N copies of a mesh file, the box growing with N; apart and inside', () => {
    for (const copies of [1, 3, 9, 16]) {
      const s = meshPile.build({ mesh: cubeFile, copies });
      const m = s.model;
      expect(m.vertexCount).toBe(copies * 100);
      expect(m.tetCount).toBe(copies * 234);
      expect(minTetVolume(m)).toBeGreaterThan(0);
      expect(overlappingPairs(m), `${copies} copies`).toEqual([]);
      expect(isOpenBox(s)).toBe(true);
      expect(verticesOutside(s), `${copies} copies`).toBe(0);
      // Every object above the first layer has an object below it whose footprint it overlaps.
      const boxes = objectBoxes(m);
      for (let o = 0; o < boxes.length; o++) {
        const below = boxes.filter((b) => b.max[1] < boxes[o].min[1]);
        if (below.length > 0) expect(below.some((b) => overlap(b, boxes[o], [0, 2])), `object ${o} of ${copies}`).toBe(true);
      }
    }
    // 16 copies: 2 x 2 cells per layer, 4 layers.
    const ys = new Set(objectBoxes(meshPile.build({ mesh: cubeFile, copies: 16 }).model).map((b) => b.min[1].toFixed(6)));
    expect(ys.size).toBe(4);
  });

  it('mesh-pile reads any of the loaders\' formats (TetGen pair, VTK)', () => {
    for (const file of ['octopus_2KFaces.1.node', 'octopus_2KFaces.1.vtk']) {
      const s = meshPile.build({ mesh: readMeshFile(sharedMeshPath(file)), copies: 2 });
      expect(s.model.tetCount).toBe(2 * 4069);
      expect(overlappingPairs(s.model)).toEqual([]);
      expect(verticesOutside(s)).toBe(0);
    }
    expect(() => meshPile.build({})).toThrow(/needs a mesh/);
  });

  it('cube-stack: stated counts, each cube above the previous and over it, all above the ground', () => {
    const s = cubeStack.build();
    const m = s.model;
    expect({ vertices: m.vertexCount, tets: m.tetCount }).toEqual(cubeStack.defaultCounts);
    expect(minTetVolume(m)).toBeGreaterThan(0);
    expect(overlappingPairs(m)).toEqual([]);
    expect(verticesOutside(s)).toBe(0);
    const boxes = objectBoxes(m);
    for (let o = 1; o < boxes.length; o++) {
      expect(boxes[o].min[1]).toBeGreaterThan(boxes[o - 1].max[1]);
      expect(overlap(boxes[o], boxes[o - 1], [0, 2])).toBe(true);
    }
    expect(cubeStack.build({ copies: 7 }).model.objectNames).toHaveLength(7);
  });

  it('noodle-recovery: stated counts, standing in the box, self-collision and recovery switched on at the stated frame', () => {
    const s = noodleRecovery.build();
    const m = s.model;
    expect({ vertices: m.vertexCount, tets: m.tetCount }).toEqual(noodleRecovery.defaultCounts);
    expect(minTetVolume(m)).toBeGreaterThan(0);
    expect(isOpenBox(s)).toBe(true);
    expect(verticesOutside(s)).toBe(0);
    const b = objectBoxes(m)[0];
    expect(b.max[1] - b.min[1]).toBeGreaterThan(3.9); // upright: its 4 units run along y
    expect(b.min[1]).toBeCloseTo(0.1, 9);
    const schedule = s.schedule!;
    expect(s.params.selfCollision).toBe(false);
    expect(s.params.recovery).toBe(false);
    const F = NOODLE_SWITCH_FRAME;
    expect(paramsDuring(s.params, schedule, F - 1)).toMatchObject({ selfCollision: false, recovery: false });
    expect(paramsDuring(s.params, schedule, F)).toMatchObject({ selfCollision: true, recovery: true });
    expect(changesAt(schedule, F - 1)).toBeUndefined();
    expect(changesAt(schedule, F)).toEqual({ selfCollision: true, recovery: true });
    // The runner's --self-collision-from moves the switch.
    const moved = noodleRecovery.build({ selfCollisionFrom: 12 }).schedule!;
    expect(changesAt(moved, 12)).toEqual({ selfCollision: true, recovery: true });
    expect(changesAt(moved, F)).toBeUndefined();
  });

  it('squishy-squeeze has self-collision on by default', () => {
    const s = squishySqueeze.build();
    expect(s.params.collisions && s.params.selfCollision).toBe(true);
    expect({ vertices: s.model.vertexCount, tets: s.model.tetCount }).toEqual(squishySqueeze.defaultCounts);
  });
});
