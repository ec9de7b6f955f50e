/**
 * The sliver floor on the GPU (SolverParams.sliverFloor; shaders/inversionFloor.wgsl
 * liftSliversByColour), against the law it enforces and its float64 twin: slivers of the shared
 * octopus (a real mesh made by others) turned inside out by reflecting a corner through the plane
 * of the other three, the body (soft: 1 Pa) at rest with no gravity, one substep with collisions on. With the
 * floor every sliver ends the substep at about the floor (signed volumes computed here); off (on
 * the CPU engine), the reflected ones stay inverted, so the check can fail; the lifted corners
 * land where the CPU engine's liftSlivers puts them. With the floor's own threshold
 * (sliverFloorQuality 0.07) it holds the low-quality tets below it too, and not those above
 * (relative qualities computed here). With sliverLift 'with-contacts', a sliver apex lifted toward
 * another body (tests/support/sliverUnderBox.ts) ends outside it by a brute-force point-in-tet
 * test, the sliver right side out, near where the CPU engine puts it; lifted after the contacts
 * (the CPU engine's test shows) it passes into the body; the contacts' one-workgroup sweep, run a
 * pass at a time with the lift between, gives the frame of the grid dispatches in fewer dispatches.
 * With sliverLift 'holding-contacts', an apex that a contact pushes out of the other body (its
 * CONTACT_PUSHED touch bit) is held still while the free corners lift the sliver to the floor: it
 * ends outside the body, as on the CPU engine, where every corner free carries it back in
 * (tests/unit/collision/sliverLiftHolding.test.ts), and a sliver whose four corners were all pushed
 * still ends at the floor, lifted with them free. With sliverLift 'clipped-to-contacts', the
 * contacts sum the way they push each vertex out of the other body (its push-direction words) and
 * the lift keeps every corner's gradient off it: the pushed apex ends outside the body and the sliver
 * at the floor, and where all four corners were pushed, none of them ends inside and the sliver
 * reaches the floor, as on the CPU engine (tests/unit/collision/sliverLiftClipped.test.ts, where
 * every corner free carries the apex back in). In every material sweep (sliverFloorInSweeps)
 * the reflected slivers end at the floor too, the lift moving the positions alone: each lifted
 * corner's velocity is its move over the substep (from rest, no gravity or damping), where the lift
 * after the contacts leaves them nearly still; the corners land where the CPU engine puts them, in
 * one dispatch more a material iteration.
 */
import { describe, expect, it } from 'vitest';
import { meshDrop } from '../../src/scenes/meshDrop';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { sliverTets } from '../../src/sim/model';
import type { SimSetup } from '../../src/sim/setup';
import { readBuffer, testGpu } from '../support/gpu';
import { reflectCorners, relativeQualityOracle, signedVolume6 as vol6 } from '../support/invertedTets';
import { loadSharedTetArrays } from '../support/sharedMeshes';
import { cpuFrameFrom, pointInTet, sliverCornersInside, sliverUnderBox } from '../support/sliverUnderBox';

function setup(sliverFloor: boolean, sliverFloorQuality = 0, sliverFloorInSweeps = false): SimSetup {
  const mesh = loadSharedTetArrays('octopus_2KFaces.t');
  // Soft (1 Pa) so that in one substep the material barely moves the reflected corners: what
  // turns them back is the floor alone.
  const s = meshDrop.build({ mesh: { name: 'octopus_2KFaces.t', positions: mesh.positions, tets: mesh.tets }, height: 0.5, material: { youngsModulus: 1 } });
  s.params = { ...s.params, collisions: true, gravity: [0, 0, 0], substeps: 1, damping: 0, sliverFloor, sliverQuality: 0.04, sliverFloorQuality, sliverFloorInSweeps };
  return s;
}

/**
 * One frame of the GPU engine from positions x (at rest: start positions the same); its positions,
 * the tets it lifted, its contacts (DCD and CCD) and its contact-phase dispatches.
 */
async function gpuFrame(ctx: Awaited<ReturnType<typeof testGpu>>, s: SimSetup, x: Float64Array): Promise<{ x: Float32Array; v: Float32Array; lifted: number; contacts: number; contactDispatches: number; materialDispatches: number }> {
  const gpu = new GpuSolver(ctx, s);
  try {
    // Positions and start positions x, each buffer's w (inverse mass, object id) kept.
    gpu.writePositions(x);
    const r = await gpu.stepFrame();
    const c = r.collisions;
    return {
      x: await gpu.readPositions(), v: await gpu.readVelocities(), lifted: c?.inversionFloorTets ?? 0,
      contacts: c ? c.contacts + c.ccd.hitsVertexFace + c.ccd.hitsEdgeEdge : 0, contactDispatches: r.dispatchesByPhase.contacts ?? 0, materialDispatches: r.dispatchesByPhase.material ?? 0,
    };
  } finally {
    gpu.destroy();
  }
}

describe('the sliver floor on the GPU', () => {
  it("inside-out slivers of the shared octopus come back to the floor in one substep, where the CPU engine's lift puts them; off, they stay inverted", async () => {
    const s = setup(true);
    const model = s.model;
    const { x, inverted: chosen } = reflectCorners(model.restPositions, model.tets, sliverTets(model));
    const { x: gpuX, lifted: gpuLifted } = await gpuFrame(await testGpu(), s, x);
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

  it('in every material sweep (sliverFloorInSweeps): the slivers come back on the positions alone, the lift becoming the corners\' velocity, where the CPU engine puts them; one dispatch more an iteration', async () => {
    const s = setup(true, 0, true);
    const model = s.model;
    const { x, inverted: chosen } = reflectCorners(model.restPositions, model.tets, sliverTets(model));
    const ctx = await testGpu();
    const gpu = await gpuFrame(ctx, s, x);
    const plain = await gpuFrame(ctx, setup(true), x);
    const cpu = new CpuSolver(setup(true, 0, true));
    cpu.x.set(x);
    cpu.x0.set(x);
    cpu.stepFrame();
    const rest6 = (t: number) => vol6(model.restPositions, model.tets, t);
    const ratios = chosen.map((t) => vol6(gpu.x, model.tets, t) / rest6(t));
    // One substep from rest with no gravity and no damping: a free vertex's velocity is its move
    // over the substep, (x - x_start) / h, unless the lift moved its start position too (the lift
    // after the contacts does: no velocity).
    const h = s.params.dt / s.params.substeps;
    let lift = 0, velocityError = 0, cpuDiff = 0, plainSpeed = 0;
    for (const t of chosen) {
      for (let k = 0; k < 4; k++) {
        const v = model.tets[4 * t + k];
        for (let j = 0; j < 3; j++) {
          const move = gpu.x[3 * v + j] - x[3 * v + j];
          lift = Math.max(lift, Math.abs(move));
          velocityError = Math.max(velocityError, Math.abs(gpu.v[3 * v + j] * h - move));
          cpuDiff = Math.max(cpuDiff, Math.abs(gpu.x[3 * v + j] - cpu.x[3 * v + j]));
          plainSpeed = Math.max(plainSpeed, Math.abs(plain.v[3 * v + j]));
        }
      }
    }
    const iterations = s.params.iterations * s.params.substeps;
    console.log(`${chosen.length} slivers turned inside out; in every sweep: lowest volume / rest ${Math.min(...ratios).toFixed(3)}, largest corner move ${lift.toExponential(2)} m, |v h - move| at most ${velocityError.toExponential(2)} m (lifted after the contacts only: corner speeds up to ${plainSpeed.toExponential(2)} m/s), largest GPU - CPU difference ${cpuDiff.toExponential(2)} m; below the floor after the contacts ${gpu.lifted} (CPU ${cpu.collisionCounters.inversionFloorTets}; lifted after the contacts only ${plain.lifted}); material dispatches ${gpu.materialDispatches}, without ${plain.materialDispatches}, ${iterations} iterations`);
    for (const r of ratios) expect(r).toBeGreaterThan(0.8 * s.params.inversionFloor);
    expect(lift).toBeGreaterThan(1e-4);
    expect(velocityError).toBeLessThan(0.01 * lift);
    // The split-impulse lift gives them almost none: the check above can fail.
    expect(plainSpeed * h).toBeLessThan(0.1 * lift);
    expect(cpuDiff).toBeLessThan(Math.max(1e-6, 0.05 * lift));
    // The lift after the contacts finds them at the floor, up to f32 rounding of the last sweep's lift.
    expect(plain.lifted).toBeGreaterThanOrEqual(chosen.length / 2);
    expect(gpu.lifted).toBeLessThan(chosen.length / 4);
    expect(gpu.materialDispatches - plain.materialDispatches).toBe(iterations);
  });

  it("with its own threshold the floor lifts the inside-out tets below it and leaves those above, as the CPU engine does", async () => {
    const s = setup(true, 0.07);
    const model = s.model;
    const quality = relativeQualityOracle(model.restPositions, model.tets);
    const low = quality.map((q, t) => ({ q, t })).filter((e) => e.q < 0.1).sort((a, b) => a.q - b.q).map((e) => e.t);
    const { x, inverted } = reflectCorners(model.restPositions, model.tets, low);
    const { x: gpuX, lifted: gpuLifted } = await gpuFrame(await testGpu(), s, x);
    const cpu = new CpuSolver(setup(true, 0.07));
    cpu.x.set(x);
    cpu.x0.set(x);
    cpu.stepFrame();
    const ratio = (t: number) => vol6(gpuX, model.tets, t) / vol6(model.restPositions, model.tets, t);
    const held = inverted.filter((t) => quality[t] < 0.07), above = inverted.filter((t) => quality[t] >= 0.07);
    console.log(`${held.length} inside-out tets below 0.07 (of them ${held.filter((t) => quality[t] < 0.04).length} slivers), ${above.length} in 0.07-0.1; GPU: lowest volume / rest of those held ${Math.min(...held.map(ratio)).toFixed(3)}, ${above.filter((t) => ratio(t) < 0).length} above still inverted; lifted ${gpuLifted} (CPU ${cpu.collisionCounters.inversionFloorTets})`);
    expect(held.filter((t) => quality[t] >= 0.04).length).toBeGreaterThan(5);
    expect(above.length).toBeGreaterThan(5);
    for (const t of held) expect(ratio(t)).toBeGreaterThan(0.8 * s.params.inversionFloor);
    expect(above.filter((t) => ratio(t) < 0).length).toBeGreaterThan(0.8 * above.length);
    expect(gpuLifted).toBe(cpu.collisionCounters.inversionFloorTets);
  });

  it("with the contacts, a sliver apex lifted toward another body stops at its face: CCD and the contacts see the lift, as on the CPU engine", async () => {
    const { setup: s, start, apex, boxTets } = sliverUnderBox('with-contacts');
    const model = s.model;
    const { x, lifted } = await gpuFrame(await testGpu(), s, start);
    const gpuX = Float64Array.from(x);
    const p = [0, 1, 2].map((k) => gpuX[3 * apex + k]);
    const inBox = boxTets.filter((t) => pointInTet(gpuX, model.tets, t, p));
    const cpu = cpuFrameFrom(s, start);
    const startLowest = Math.min(...boxTets.flatMap((t) => [0, 1, 2, 3].map((k) => start[3 * model.tets[4 * t + k] + 1])));
    const ratio = vol6(gpuX, model.tets, 0) / vol6(model.restPositions, model.tets, 0);
    console.log(`GPU: apex y = ${(p[1] * 1000).toFixed(4)} mm, CPU ${(cpu.x[3 * apex + 1] * 1000).toFixed(4)} mm (the box started at ${(startLowest * 1000).toFixed(4)} mm); lifted ${lifted}; sliver volume / rest ${ratio.toFixed(3)}; inside the box's tets ${inBox.join(', ') || 'none'}`);
    expect(lifted).toBe(1);
    expect(p[1]).toBeGreaterThan(startLowest);
    expect(inBox).toEqual([]);
    expect(ratio).toBeGreaterThan(0);
    expect(Math.abs(p[1] - cpu.x[3 * apex + 1])).toBeLessThan(1e-6);
  });

  it("holding the contacts' corners, an apex a contact pushed out of another body stays out while the free corners lift the sliver to the floor, as on the CPU engine", async () => {
    const { setup: s, start, apex, boxTets } = sliverUnderBox('holding-contacts', 3e-5);
    const model = s.model;
    const { x, lifted } = await gpuFrame(await testGpu(), s, start);
    const gpuX = Float64Array.from(x);
    const p = [0, 1, 2].map((k) => gpuX[3 * apex + k]);
    const cpu = cpuFrameFrom(s, start);
    const ratio = vol6(gpuX, model.tets, 0) / vol6(model.restPositions, model.tets, 0);
    const inBox = boxTets.filter((t) => pointInTet(gpuX, model.tets, t, p));
    const startInBox = boxTets.filter((t) => pointInTet(start, model.tets, t, [0, 1, 2].map((k) => start[3 * apex + k])));
    console.log(`GPU: apex y = ${(p[1] * 1000).toFixed(4)} mm, CPU ${(cpu.x[3 * apex + 1] * 1000).toFixed(4)} mm; inside the box's tets ${inBox.join(', ') || 'none'} (at the start ${startInBox.join(', ')}); lifted ${lifted}; sliver volume / rest ${ratio.toFixed(3)}`);
    expect(startInBox.length).toBeGreaterThan(0);
    expect(lifted).toBe(1);
    expect(inBox).toEqual([]);
    expect(ratio).toBeGreaterThan(0.99 * s.params.inversionFloor);
    expect(Math.abs(p[1] - cpu.x[3 * apex + 1])).toBeLessThan(1e-6);
  });

  it("holding the contacts' corners, a sliver whose four corners the contacts all pushed still ends at the floor, as on the CPU engine", async () => {
    const { setup: s, start } = sliverUnderBox('holding-contacts', 2.5e-5, 3e-5, true);
    const model = s.model;
    const { x, lifted } = await gpuFrame(await testGpu(), s, start);
    const gpuX = Float64Array.from(x);
    const cpu = cpuFrameFrom(s, start);
    const rest = vol6(model.restPositions, model.tets, 0);
    const ratio = vol6(gpuX, model.tets, 0) / rest;
    let diff = 0;
    for (let i = 0; i < gpuX.length; i++) diff = Math.max(diff, Math.abs(gpuX[i] - cpu.x[i]));
    console.log(`GPU: sliver volume / rest ${(vol6(start, model.tets, 0) / rest).toFixed(3)} at the start, ${ratio.toFixed(3)} after the substep (CPU ${(vol6(cpu.x, model.tets, 0) / rest).toFixed(3)}); lifted ${lifted} (CPU ${cpu.collisionCounters.inversionFloorTets}); largest position difference from the CPU ${diff.toExponential(2)} m`);
    expect(vol6(start, model.tets, 0)).toBeLessThan(0);
    expect(ratio).toBeGreaterThan(0.99 * s.params.inversionFloor);
    expect(lifted).toBe(cpu.collisionCounters.inversionFloorTets);
    expect(diff).toBeLessThan(1e-6);
  });

  it("clipped to the contacts' pushes, an apex pushed out of another body stays out and a sliver whose four corners were pushed reaches the floor with none inside, as on the CPU engine", async () => {
    const ctx = await testGpu();
    for (const [apexY, baseY, coverBase] of [[3e-5, 0, false], [2.5e-5, 3e-5, true]] as const) {
      const { setup: s, start, boxTets } = sliverUnderBox('clipped-to-contacts', apexY, baseY, coverBase);
      const model = s.model;
      const { x, lifted } = await gpuFrame(ctx, s, start);
      const gpuX = Float64Array.from(x);
      const cpu = cpuFrameFrom(s, start);
      const inside = (at: ArrayLike<number>) => sliverCornersInside(at, model.tets, boxTets);
      const rest = vol6(model.restPositions, model.tets, 0);
      const ratio = vol6(gpuX, model.tets, 0) / rest;
      let diff = 0;
      for (let i = 0; i < gpuX.length; i++) diff = Math.max(diff, Math.abs(gpuX[i] - cpu.x[i]));
      console.log(`GPU, ${coverBase ? 'four corners' : 'the apex'} inside at the start (${inside(start).length}): corners inside after ${inside(gpuX).join(', ') || 'none'}; sliver volume / rest ${ratio.toFixed(3)} (CPU ${(vol6(cpu.x, model.tets, 0) / rest).toFixed(3)}); lifted ${lifted}; largest position difference from the CPU ${diff.toExponential(2)} m`);
      expect(inside(start).length).toBe(coverBase ? 4 : 1);
      expect(lifted).toBe(1);
      expect(inside(gpuX)).toEqual([]);
      expect(ratio).toBeGreaterThan(0.99 * s.params.inversionFloor);
      expect(diff).toBeLessThan(1e-6);
    }
  });

  it('with the contacts, the one-workgroup sweep (a sweep a pass, the lift between) gives the frame of the grid dispatches, in fewer dispatches', async () => {
    const ctx = await testGpu();
    const run = (contactDispatch: 'workgroup' | 'grid') => {
      const { setup: s, start } = sliverUnderBox('with-contacts');
      s.params = { ...s.params, contactDispatch };
      return gpuFrame(ctx, s, start);
    };
    const swept = await run('workgroup');
    const grid = await run('grid');
    let diff = 0;
    for (let i = 0; i < swept.x.length; i++) diff = Math.max(diff, Math.abs(swept.x[i] - grid.x[i]));
    console.log(`sweep: ${swept.contactDispatches} contact-phase dispatches, grid ${grid.contactDispatches}; contacts (DCD and CCD) ${swept.contacts} / ${grid.contacts}; largest position difference ${diff.toExponential(2)} m`);
    expect(swept.contacts).toBeGreaterThan(0);
    expect(swept.contacts).toBe(grid.contacts);
    expect(diff).toBeLessThan(1e-6);
    expect(swept.contactDispatches).toBeLessThan(grid.contactDispatches);
  });

  it("the clipped lift's push directions are the last substep's: the apex's points away from the box after the contact, and every word is 0 after a substep with no contact", async () => {
    const { setup: s, start, apex } = sliverUnderBox('clipped-to-contacts', 3e-5, 0, false);
    const m = s.model;
    const gpu = new GpuSolver(await testGpu(), s);
    // Three words a vertex after the object words and the collider-touch words (shaders/lib/pushDirection.wgsl).
    const pushWords = async () => new Int32Array(await readBuffer(await testGpu(), gpu.objectStatusBuffer)).subarray(m.objectNames.length + m.vertexCount, m.objectNames.length + 4 * m.vertexCount);
    try {
      gpu.writePositions(start);
      const first = await gpu.stepFrame();
      const afterContact = Int32Array.from(await pushWords());
      // Body A moved 1 m below B, at rest: nothing can meet in the next substep.
      const apart = Float64Array.from(await gpu.readPositions());
      for (let v = 0; v < m.vertexCount; v++) if (m.vertexObject[v] === 0) apart[3 * v + 1] -= 1;
      gpu.writePositions(apart);
      const second = await gpu.stepFrame();
      const afterNone = await pushWords();
      const contactsOf = (r: typeof first) => (r.collisions ? r.collisions.contacts + r.collisions.ccd.hitsVertexFace + r.collisions.ccd.hitsEdgeEdge : 0);
      const a = afterContact.subarray(3 * apex, 3 * apex + 3);
      console.log(`push words: apex ${Array.from(a)} after ${contactsOf(first)} contacts; nonzero words after a substep with ${contactsOf(second)} contacts: ${afterNone.filter((w) => w !== 0).length}`);
      expect(contactsOf(first)).toBeGreaterThan(0);
      // B's bottom face pushes the apex down, out of B: its summed direction is along -y.
      expect(a[1]).toBeLessThan(0);
      expect(Math.hypot(a[0], a[2])).toBeLessThan(0.1 * Math.abs(a[1]));
      expect(contactsOf(second)).toBe(0);
      expect(afterNone.every((w) => w === 0)).toBe(true);
    } finally {
      gpu.destroy();
    }
  });
});
