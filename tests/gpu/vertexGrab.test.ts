/**
 * Dragging a vertex (src/sim/vertexGrab.ts) on the GPU solver, without gravity or colliders:
 *  - while grabbed, the vertex is where the drag put it at the frame's end (exactly: a handle);
 *  - the body follows (its centre of mass moves toward the drag), and stays finite;
 *  - released, nothing external acts on it any more, so its linear momentum stays constant
 *    frame after frame (a physical law the solver's internal forces must keep);
 *  - a pinned vertex cannot be grabbed, and a reset lets go.
 */
import { describe, expect, it } from 'vitest';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { fixedHandle } from '../../src/sim/handles';
import { vertexMasses } from '../../src/sim/model';
import { buildModel } from '../../src/sim/model';
import { defaultParams } from '../../src/contract/params';
import { testGpu } from '../support/gpu';
import { kuhnLattice } from '../support/kuhnLattice';

function cube(pinned = false) {
  const lattice = kuhnLattice(3, 3, 3, (u, v, w) => [u * 0.1, v * 0.1, w * 0.1]);
  const handleOfVertex = new Int32Array(lattice.positions.length / 3).fill(-1);
  if (pinned) handleOfVertex[0] = 0;
  const model = buildModel([{ name: 'cube', positions: lattice.positions, tets: lattice.tets, material: { youngsModulus: 2e4, poissonRatio: 0.3, density: 1000 }, handleOfVertex }]);
  return { model, colliders: [], handles: pinned ? [fixedHandle] : [], params: defaultParams({ gravity: [0, 0, 0], substeps: 10, iterations: 4, collisions: false, damping: 0 }) };
}

function momentum(mass: Float64Array, v: Float32Array): [number, number, number] {
  const p: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < mass.length; i++) for (let k = 0; k < 3; k++) p[k] += mass[i]! * v[3 * i + k]!;
  return p;
}

describe('dragging a vertex', () => {
  it('moves the grabbed vertex exactly, drags the body along, and conserves momentum once released', async () => {
    const ctx = await testGpu();
    const setup = cube();
    const solver = new GpuSolver(ctx, setup, { collisions: false });
    const corner = setup.model.vertexCount - 1; // (0.3, 0.3, 0.3)
    const x0 = await solver.readPositions();
    const start: [number, number, number] = [x0[3 * corner]!, x0[3 * corner + 1]!, x0[3 * corner + 2]!];
    solver.grab.grab(corner, start);
    const mass = vertexMasses(setup.model);
    const com = (x: Float32Array): number => {
      let m = 0, c = 0;
      for (let i = 0; i < mass.length; i++) { m += mass[i]!; c += mass[i]! * x[3 * i + 1]!; }
      return c / m;
    };
    const com0 = com(x0);
    for (let f = 1; f <= 5; f++) {
      const target: [number, number, number] = [start[0], start[1] + 0.02 * f, start[2]];
      solver.grab.moveTo(target);
      await solver.stepFrame();
      const x = await solver.readPositions();
      for (let k = 0; k < 3; k++) expect(x[3 * corner + k]).toBeCloseTo(target[k]!, 6);
    }
    const x5 = await solver.readPositions();
    expect(x5.every(Number.isFinite)).toBe(true);
    expect(com(x5) - com0).toBeGreaterThan(0.002);
    solver.grab.release();
    await solver.stepFrame();
    const p1 = momentum(mass, await solver.state.readVelocities());
    for (let f = 0; f < 5; f++) await solver.stepFrame();
    const p2 = momentum(mass, await solver.state.readVelocities());
    const scale = Math.hypot(...p1);
    expect(scale).toBeGreaterThan(0);
    for (let k = 0; k < 3; k++) expect(Math.abs(p2[k] - p1[k])).toBeLessThan(1e-3 * scale);
    solver.destroy();
  }, 60_000);

  it('refuses a pinned vertex, and a reset lets go', async () => {
    const ctx = await testGpu();
    const setup = cube(true);
    const solver = new GpuSolver(ctx, setup, { collisions: false });
    expect(() => solver.grab.grab(0, [0, 0, 0])).toThrow(/vertex 0 is pinned by handle 0/);
    expect(() => solver.grab.grab(10_000, [0, 0, 0])).toThrow(/not a vertex of the scene/);
    solver.grab.grab(5, [0, 0, 0]);
    expect(solver.grab.vertex).toBe(5);
    solver.reset();
    expect(solver.grab.vertex).toBe(-1);
    solver.destroy();
  }, 60_000);
});

/**
 * Moving a collider by hand (GpuSolver.setCollider, the page's Move menu): the frame after the
 * move the collider moves, so it carries what it moved into with it at once, as a scripted plane
 * does. A body placed inside a static collider instead leaves it at the depenetration speed
 * (1 m/s by default: 1.7 cm a frame at 60 fps). Same cube, same ground 5 cm up; only whether the
 * ground got there by a move differs.
 */
describe('moving a collider by hand', () => {
  const lowestAfterOneFrame = async (moved: boolean): Promise<number> => {
    const ctx = await testGpu();
    const lattice = kuhnLattice(3, 3, 3, (u, v, w) => [u * 0.1, v * 0.1, w * 0.1]);
    const model = buildModel([{ name: 'cube', positions: lattice.positions, tets: lattice.tets, material: { youngsModulus: 2e5, poissonRatio: 0.3, density: 1000 } }]);
    const ground = (offset: number) => ({ kind: 'plane' as const, normal: [0, 1, 0] as const, offset });
    const setup = { model, colliders: [ground(moved ? 0 : 0.05)], handles: [], params: defaultParams({ gravity: [0, 0, 0], substeps: 10, iterations: 4, collisions: false, damping: 0 }) };
    const solver = new GpuSolver(ctx, setup, { collisions: false });
    try {
      if (moved) solver.setCollider(0, ground(0.05));
      await solver.stepFrame();
      const x = await solver.readPositions();
      let lowest = Infinity;
      for (let i = 1; i < x.length; i += 3) lowest = Math.min(lowest, x[i]!);
      return lowest;
    } finally {
      solver.destroy();
    }
  };

  it('carries what it moved into out at once; a body placed inside leaves at the depenetration speed', async () => {
    const moved = await lowestAfterOneFrame(true);
    const placed = await lowestAfterOneFrame(false);
    console.log(`ground moved 5 cm up into a cube: lowest vertex after one frame ${(moved * 100).toFixed(2)} cm; ground placed there: ${(placed * 100).toFixed(2)} cm`);
    expect(moved).toBeGreaterThan(0.05 - 1e-3);
    expect(placed).toBeLessThan(0.05 - 0.02);
    expect(placed).toBeGreaterThan(0);
  }, 60_000);
});
