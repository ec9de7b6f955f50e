import { describe, expect, it } from 'vitest';
import { readMeshFile } from '../../../src/runner/meshFile';
import { shootSetup } from '../../../src/scenes/shoot';
import { CpuSolver } from '../../../src/sim/cpuSolver';
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
    const setup = shootSetup(readMeshFile('../shared/meshes/Cube.t'), 50, undefined, true);
    setup.params.collisionMode = 'hybrid';
    const s = new CpuSolver(setup);
    const model = setup.model;
    // The wall (object 1) spans x in [-thickness / 2, thickness / 2].
    let thickness = 0;
    for (let i = model.objectVertexOffsets[1]; i < model.objectVertexOffsets[2]; i++) thickness = Math.max(thickness, 2 * model.restPositions[3 * i]);
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
