import { describe, expect, it } from 'vitest';
import { hexGridBox } from '../../../src/mesh/procedural/hexGridBox';
import { readMeshFile } from '../../../src/runner/meshFile';
import { defaultParams } from '../../../src/contract/params';
import { centredAt, impactMaterial } from '../../../src/scenes/impact';
import { WALL_CELLS } from '../../../src/scenes/shoot';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { fixedHandle } from '../../../src/sim/handles';
import { buildModel } from '../../../src/sim/model';
import { countOn } from './scenes';

/**
 * The degenerate alignment of issue 19: the shoot scene's cube (shared Cube.t) at 50 m/s at the
 * fixed thin wall, but with the wall's grid NOT shifted, so the cube's edges lie on the wall's
 * grid lines (vertex-on-vertex and edge-on-edge hits). In hybrid mode it once went 0.22 m through
 * the wall (Pin points took a shortest path out of the wall's far side). On the float64 CPU
 * reference with every collision stage: no cube vertex is ever inside the wall (the brute-force
 * counter), no vertex passes the wall's far face, and the cube rebounds.
 */
describe('a cube shot at a wall with its edges on the wall\'s grid lines does not tunnel (50 m/s, hybrid)', () => {
  it('nothing inside the wall in any frame, nothing beyond it, and the cube comes back', () => {
    const mesh = readMeshFile('../shared/meshes/Cube.t');
    const speed = 50;
    const probe = centredAt(mesh.positions, [0, 0, 0]);
    const [lx, ly, lz] = probe.extent;
    const across = 3 * Math.max(lx, ly, lz);
    const thickness = 0.02 * lx;
    const body = centredAt(mesh.positions, [-(thickness / 2 + lx), 0, 0]);
    const wall = hexGridBox([thickness, across, across], [1, WALL_CELLS, WALL_CELLS]);
    const model = buildModel([
      { name: 'cube', positions: body.positions, tets: mesh.tets, material: impactMaterial(speed), velocity: [speed, 0, 0] },
      { name: 'wall', positions: wall.positions, tets: wall.tets, material: impactMaterial(speed), handleOfVertex: new Int32Array(wall.positions.length / 3) },
    ]);
    const s = new CpuSolver({
      model, colliders: [], handles: [fixedHandle],
      params: defaultParams({ gravity: [0, 0, 0], damping: 0, friction: 0.2, collisions: true, selfCollision: true, collisionMode: 'hybrid' }),
    });
    const a = model.objectVertexOffsets[0], b = model.objectVertexOffsets[1];
    const inside: number[] = [];
    let farthest = -Infinity;
    for (let f = 0; f < 8; f++) {
      s.stepFrame();
      inside.push(countOn(model, s.x).inter);
      for (let i = a; i < b; i++) farthest = Math.max(farthest, s.x[3 * i]);
    }
    let vx = 0;
    for (let i = a; i < b; i++) vx += s.v[3 * i] / (b - a);
    console.log(`aligned shoot: inside per frame ${inside.join(',')}; farthest cube x ${(farthest * 1000).toFixed(2)} mm (wall ${(-thickness / 2 * 1000).toFixed(2)} to ${(thickness / 2 * 1000).toFixed(2)} mm); mean vx at the end ${vx.toFixed(2)} m/s`);
    expect(inside.every((n) => n === 0)).toBe(true);
    expect(farthest).toBeLessThan(thickness / 2);
    expect(vx).toBeLessThan(0);
  });
});
