/**
 * A cube dropped on a deformed cuboid (paper 000 Fig. 22 setup): the shared Cuboid.t
 * (6 x 1.6 x 2, 568 vertices, 2136 tets) with its end bands (3 % of its length) held by
 * handles that bend it into an arch over BEND_TIME: each end turns by BEND_ANGLE about the
 * z axis through its face centre (the left one up, the right one down) and moves inward by
 * (L - L sin a / a) / 2, the chord of a circular arc of length L turning by 2a, so the arch
 * is not stretched. BEND_TIME is two periods of the cuboid's first bending mode (about 2 Hz
 * at E = 2e6) so that it bends nearly statically instead of swinging. The shared Cube.t
 * scaled to side CUBE_SIDE (--copies N cubes, default 1) starts just above the cuboid at a
 * quarter of its length; the arch rises under it and its slope there reaches 22 degrees,
 * steeper than friction 0.2 holds, so the cube slides down: with the rest-shape closest
 * point it would be pulled up (Fig. 22c). Ground y = 0 under it. Settings: dt 1/60, 20
 * substeps x 3 iterations, damping 2.
 */
import { buildModel, type SimObjectDesc } from '../sim/model';
import type { HandleScript } from '../sim/handles';
import { defaultParams } from '../contract/params';
import { boundsOf } from './place';
import { sceneMesh, sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const BEND_ANGLE = 0.7;
export const BEND_TIME = 1;
export const CUBE_SIDE = 0.8;
/** Height of the cuboid's bottom above the ground at rest. */
const CUBOID_LIFT = 0.3;
const SIZE: SceneSize = { label: 'cubes', option: 'copies', min: 1, max: 4, step: 1, default: 1, small: 1, paper: 1, note: 'paper Fig. 22: one cube on the deformed Cuboid.t' };
const CUBOID = { vertices: 568, tets: 2136 };
const CUBE = { vertices: 100, tets: 234 };

/** Bend angle at time t: eased from 0 to BEND_ANGLE over BEND_TIME (smoothstep), then held. */
export function bendAngle(t: number): number {
  const s = Math.min(1, Math.max(0, t / BEND_TIME));
  return BEND_ANGLE * s * s * (3 - 2 * s);
}

/**
 * The end at x = end (side -1 left, +1 right) of a straight bar of length `length` lying along
 * x through height `y`: turned by -side a(t) about z through (end, y, 0) and moved inward by
 * (length - chord) / 2.
 */
export function bendingEnd(end: number, y: number, side: -1 | 1, length: number): HandleScript {
  return (t) => {
    const a = -side * bendAngle(t);
    const c = Math.cos(a), s = Math.sin(a);
    const turn = Math.abs(a);
    const inward = turn > 1e-12 ? (length - (length * Math.sin(turn)) / turn) / 2 : 0;
    // Column-major rotation about z; b = p - R p + shift keeps the face centre p on its path.
    const matrix = [c, s, 0, -s, c, 0, 0, 0, 1];
    const rx = c * end - s * y, ry = s * end + c * y;
    return { matrix, translation: [end - rx - side * inward, y - ry, 0] };
  };
}

function scaledCentred(positions: ArrayLike<number>, scale: number, at: readonly [number, number, number]): Float64Array {
  const b = boundsOf(positions);
  const out = new Float64Array(positions.length);
  for (let i = 0; i < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) out[i + k] = (positions[i + k] - 0.5 * (b.min[k] + b.max[k])) * scale + at[k];
  }
  return out;
}

export const cubeOnCuboid: SceneDefinition = {
  name: 'cube-on-cuboid',
  description:
    `The shared Cuboid.t (${CUBOID.vertices} vertices, ${CUBOID.tets} tets) bent into an arch by handles at its ends, with the shared Cube.t ` +
    `(${CUBE.vertices} vertices, ${CUBE.tets} tets, scaled to side ${CUBE_SIDE}; --copies N) dropped on it; it slides down the slope. ` +
    `Default: ${CUBOID.vertices + CUBE.vertices} vertices, ${CUBOID.tets + CUBE.tets} tets.`,
  accepts: ['copies'],
  size: SIZE,
  meshFiles: { cuboid: '../shared/meshes/Cuboid.t', cube: '../shared/meshes/Cube.t' },
  defaultCounts: { vertices: CUBOID.vertices + CUBE.vertices, tets: CUBOID.tets + CUBE.tets },
  build(options = {}) {
    const cuboidMesh = sceneMesh(cubeOnCuboid, options, 'cuboid');
    const cubeMesh = sceneMesh(cubeOnCuboid, options, 'cube');
    const n = sizedValue('cube-on-cuboid', SIZE, options);
    const cb = boundsOf(cuboidMesh.positions);
    const [lx, ly] = [cb.max[0] - cb.min[0], cb.max[1] - cb.min[1]];
    const centreY = CUBOID_LIFT + ly / 2;
    const cuboid = scaledCentred(cuboidMesh.positions, 1, [0, centreY, 0]);
    const band = 0.03 * lx;
    const handleOfVertex = new Int32Array(cuboid.length / 3);
    for (let v = 0; v < handleOfVertex.length; v++) {
      const x = cuboid[3 * v];
      handleOfVertex[v] = x < -lx / 2 + band ? 0 : x > lx / 2 - band ? 1 : -1;
    }
    const kb = boundsOf(cubeMesh.positions);
    const scale = CUBE_SIDE / Math.max(kb.max[0] - kb.min[0], kb.max[1] - kb.min[1], kb.max[2] - kb.min[2]);
    // The cubes start just above the straight cuboid (the first a fifth of a side up, the others
    // a side and a half higher each) at x = 0.25 L, -0.25 L, 0.08 L, -0.08 L: the arch rises and
    // tilts under them as it forms, and they slide down its slopes.
    const xs = [0.25, -0.25, 0.08, -0.08];
    // E = 2e6: the clamped cuboid's own-weight sag rho g L^4 / (32 E h^2) is 0.08, well clear
    // of the ground 0.3 below it (2e5 let it sag onto the ground).
    const objects: SimObjectDesc[] = [{ name: 'cuboid', positions: cuboid, tets: cuboidMesh.tets, material: { youngsModulus: 2e6, poissonRatio: 0.4, density: 1000 }, handleOfVertex }];
    for (let i = 0; i < n; i++) {
      const bottom = CUBOID_LIFT + ly + 0.2 * CUBE_SIDE + i * 1.5 * CUBE_SIDE;
      objects.push({ name: `cube ${i + 1}`, positions: scaledCentred(cubeMesh.positions, scale, [xs[i] * lx, bottom + CUBE_SIDE / 2, 0]), tets: cubeMesh.tets, material: { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 } });
    }
    return {
      model: buildModel(objects),
      colliders: [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
      handles: [bendingEnd(-lx / 2, centreY, -1, lx), bendingEnd(lx / 2, centreY, 1, lx)],
      params: defaultParams({ dt: 1 / 60, substeps: 20, iterations: 3, friction: 0.2, damping: 2, collisions: true, selfCollision: true }),
    };
  },
};
