/**
 * The sliver floor on the GPU (SolverParams.sliverFloor; shaders/inversionFloor.wgsl
 * liftSliversByColour), against the law it enforces and its float64 twin: slivers of the shared
 * octopus (a real mesh made by others) turned inside out by reflecting a corner through the plane
 * of the other three, the body (soft: 1 Pa) at rest with no gravity, one substep with collisions on. With the
 * floor every sliver ends the substep at about the floor (signed volumes computed here); off (on
 * the CPU engine), the reflected ones stay inverted, so the check can fail; the lifted corners
 * land where the CPU engine's liftSlivers puts them.
 */
import { describe, expect, it } from 'vitest';
import { meshDrop } from '../../src/scenes/meshDrop';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { sliverTets } from '../../src/sim/model';
import type { SimSetup } from '../../src/sim/setup';
import { readBuffer, testGpu } from '../support/gpu';
import { loadSharedTetArrays } from '../support/sharedMeshes';

function vol6(x: ArrayLike<number>, tets: ArrayLike<number>, t: number): number {
  const p = (k: number) => [0, 1, 2].map((j) => x[3 * tets[4 * t + k] + j]);
  const [a, b, c, d] = [p(0), p(1), p(2), p(3)];
  const u = b.map((v, k) => v - a[k]), v = c.map((q, k) => q - a[k]), w = d.map((q, k) => q - a[k]);
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
}

function setup(sliverFloor: boolean): SimSetup {
  const mesh = loadSharedTetArrays('octopus_2KFaces.t');
  // Soft (1 Pa) so that in one substep the material barely moves the reflected corners: what
  // turns them back is the floor alone.
  const s = meshDrop.build({ mesh: { name: 'octopus_2KFaces.t', positions: mesh.positions, tets: mesh.tets }, height: 0.5, material: { youngsModulus: 1 } });
  s.params = { ...s.params, collisions: true, gravity: [0, 0, 0], substeps: 1, damping: 0, sliverFloor };
  return s;
}

/** The rest positions with corner 3 of each chosen sliver reflected through its other corners' plane. */
function invertSlivers(s: SimSetup): { x: Float64Array; inverted: number[] } {
  const m = s.model;
  const x = Float64Array.from(m.restPositions);
  const used = new Set<number>();
  const inverted: number[] = [];
  for (const t of sliverTets(m)) {
    const ids = [0, 1, 2, 3].map((k) => m.tets[4 * t + k]);
    if (ids.some((v) => used.has(v))) continue;
    ids.forEach((v) => used.add(v));
    const p = (v: number) => [0, 1, 2].map((j) => x[3 * v + j]);
    const [a, b, c, d] = ids.map(p);
    const e = b.map((q, j) => q - a[j]), f = c.map((q, j) => q - a[j]);
    const n = [e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]];
    const nn = Math.hypot(...n);
    const h = ((d[0] - a[0]) * n[0] + (d[1] - a[1]) * n[1] + (d[2] - a[2]) * n[2]) / nn;
    for (let j = 0; j < 3; j++) x[3 * ids[3] + j] -= (2 * h * n[j]) / nn;
    inverted.push(t);
  }
  return { x, inverted };
}

describe('the sliver floor on the GPU', () => {
  it("inside-out slivers of the shared octopus come back to the floor in one substep, where the CPU engine's lift puts them; off, they stay inverted", async () => {
    const ctx = await testGpu();
    const s = setup(true);
    const model = s.model;
    const { x, inverted: chosen } = invertSlivers(s);
    const gpu = new GpuSolver(ctx, s);
    let gpuX: Float32Array, gpuLifted: number;
    try {
      // The state's layout: xyz and the inverse mass per vertex, for positions and start positions.
      const raw = new Float32Array(await readBuffer(ctx, gpu.positionBuffer));
      for (let v = 0; v < model.vertexCount; v++) for (let j = 0; j < 3; j++) raw[4 * v + j] = x[3 * v + j];
      ctx.device.queue.writeBuffer(gpu.positionBuffer, 0, raw);
      ctx.device.queue.writeBuffer(gpu.prevBuffer, 0, raw);
      const r = await gpu.stepFrame();
      gpuX = await gpu.readPositions();
      gpuLifted = r.collisions?.inversionFloorTets ?? 0;
    } finally {
      gpu.destroy();
    }
    // The CPU engine from the same start, with the floor (the twin) and without.
    const cpuRun = (on: boolean): CpuSolver => {
      const c = setup(on);
      const cpu = new CpuSolver(c);
      cpu.x.set(x);
      cpu.x0.set(x);
      cpu.stepFrame();
      return cpu;
    };
    const cpu = cpuRun(true), cpuOff = cpuRun(false);
    const rest6 = (t: number) => vol6(model.restPositions, model.tets, t);
    const floor = s.params.inversionFloor;
    const ratios = (x: ArrayLike<number>) => chosen.map((t) => vol6(x, model.tets, t) / rest6(t));
    const on = ratios(gpuX), off = ratios(cpuOff.x), twin = ratios(cpu.x);
    console.log(`${chosen.length} slivers turned inside out; volume / rest after one substep: GPU with the floor ${on.map((r) => r.toFixed(3)).join(' ')}, CPU ${twin.map((r) => r.toFixed(3)).join(' ')}, CPU without ${off.map((r) => r.toFixed(3)).join(' ')}; lifted ${gpuLifted} (CPU ${cpu.collisionCounters.inversionFloorTets})`);
    expect(chosen.length).toBeGreaterThan(5);
    for (const r of on) expect(r).toBeGreaterThan(0.8 * floor);
    // Without the floor most stay inside out (a contact may turn one back).
    expect(off.filter((r) => r < 0).length).toBeGreaterThan(chosen.length / 2);
    expect(gpuLifted).toBe(cpu.collisionCounters.inversionFloorTets);
    expect(gpuLifted).toBeGreaterThanOrEqual(off.filter((r) => r < 0).length);
    // The lifted corners: where the float64 engine puts them, to f32 rounding of the lift.
    let worst = 0, lift = 0;
    for (const t of chosen) {
      for (let k = 0; k < 4; k++) {
        const v = model.tets[4 * t + k];
        for (let j = 0; j < 3; j++) {
          worst = Math.max(worst, Math.abs(gpuX[3 * v + j] - cpu.x[3 * v + j]));
          lift = Math.max(lift, Math.abs(cpu.x[3 * v + j] - cpuOff.x[3 * v + j]));
        }
      }
    }
    console.log(`largest GPU - CPU difference at their corners ${worst.toExponential(2)} m, largest lift ${lift.toExponential(2)} m`);
    expect(lift).toBeGreaterThan(0);
    expect(worst).toBeLessThan(Math.max(1e-6, 0.05 * lift));
  });
});
