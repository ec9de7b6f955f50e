/**
 * The sliver floor outside recovery (SolverParams.sliverFloor; collision/cpu/inversionFloor.ts
 * liftSlivers, colourSlivers). Checked against laws and a brute-force oracle written here:
 *   - the colours partition the slivers and no two tets of a colour share a corner;
 *   - a cluster of flat tets sharing corners, some pushed inside out, comes back above the floor
 *     with no momentum and no velocity added (a volume is invariant under rigid motion; split
 *     impulse), and nothing outside the cluster moves;
 *   - the shared octopus (a real mesh made by others, 20 slivers) thrown onto the ground at 5 m/s
 *     with collisions on: with the floor no sliver ends a frame inside out and the total energy
 *     never rises; with it off its slivers 4049 and 4068 end the landing frame inverted;
 *   - with the floor in every material sweep too (SolverParams.sliverFloorInSweeps; the lift on the
 *     positions alone moves the corners the lift with x0 moves), the thrown octopus ends no frame
 *     with a sliver inverted and its energy never rises, and the lift after the contacts finds its
 *     slivers at a quarter of the depth below the floor, or less, that it finds without;
 *   - the floor's own threshold (SolverParams.sliverFloorQuality): of the shared octopus's tets
 *     turned inside out, those whose relative quality (computed here) is below the larger of the
 *     two thresholds come back to the floor in one substep, and the others stay inside out.
 */
import { describe, expect, it } from 'vitest';
import { colourSlivers, liftSlivers, restVolumes6 } from '../../../src/collision/cpu/inversionFloor';
import { meshDrop } from '../../../src/scenes/meshDrop';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import { sliverTets } from '../../../src/sim/model';
import { reflectCorners, relativeQualityOracle, signedVolume6 as vol6 } from '../../support/invertedTets';
import { loadSharedTetArrays } from '../../support/sharedMeshes';
import { displacementMomentum } from '../../support/displacementMomentum';
import { rng } from '../../support/random';
import { thrownOctopus } from '../../support/thrownOctopus';

describe('the sliver floor', () => {
  it('colours: every sliver once, no two tets of a colour sharing a corner (the shared octopus, and random tets of it)', () => {
    const mesh = loadSharedTetArrays('octopus_2KFaces.t');
    const setup = meshDrop.build({ mesh: { name: 'octopus_2KFaces.t', positions: mesh.positions, tets: mesh.tets } });
    const r = rng(3);
    const random = Array.from(new Set(Array.from({ length: 300 }, () => Math.floor(r() * setup.model.tetCount)))).sort((a, b) => a - b);
    for (const list of [sliverTets(setup.model), random]) {
      const { order, colourStart } = colourSlivers(setup.model.tets, list);
      expect(Array.from(order).sort((a, b) => a - b)).toEqual(list);
      expect(colourStart[0]).toBe(0);
      expect(colourStart[colourStart.length - 1]).toBe(list.length);
      for (let c = 0; c + 1 < colourStart.length; c++) {
        const corners = new Set<number>();
        for (let i = colourStart[c]; i < colourStart[c + 1]; i++) {
          for (let k = 0; k < 4; k++) {
            const v = setup.model.tets[4 * order[i] + k];
            expect(corners.has(v)).toBe(false);
            corners.add(v);
          }
        }
      }
      if (list === random) expect(colourStart.length - 1).toBeGreaterThan(1);
    }
  });

  it('a cluster of flat tets sharing corners, pushed inside out, comes back above the floor with no momentum and no velocity added', () => {
    // A fan of 6 flat tets around the z axis: apex pairs 1 mm above and below a 0.1 m hexagon,
    // every tet sharing the centre vertex and two rim vertices with its neighbours.
    const positions: number[] = [0, 0, 0];
    for (let k = 0; k < 6; k++) positions.push(0.1 * Math.cos((k * Math.PI) / 3), 0.1 * Math.sin((k * Math.PI) / 3), 0);
    positions.push(0, 0, 1e-3); // 7: the apex above
    const tets: number[] = [];
    for (let k = 0; k < 6; k++) tets.push(0, 1 + k, 1 + ((k + 1) % 6), 7);
    positions.push(5, 5, 5, 5.1, 5, 5, 5, 5.1, 5, 5, 5, 5.1); // 8-11: a tet outside the cluster
    tets.push(8, 9, 10, 11);
    const rest = Float64Array.from(positions);
    const tetArr = Uint32Array.from(tets);
    const rest6 = restVolumes6(rest, tetArr);
    for (let t = 0; t < 7; t++) expect(rest6[t]).toBeGreaterThan(0);
    const n = rest.length / 3;
    const r = rng(11);
    const mass = Array.from({ length: n }, () => 0.5 + r());
    const w = Float64Array.from(mass, (m) => 1 / m);
    // The apex pushed 3 mm down through the hexagon and a rim vertex up: every fan tet inverted.
    const x = Float64Array.from(rest);
    x[3 * 7 + 2] -= 3e-3;
    x[3 * 2 + 2] += 0.5e-3;
    for (let t = 0; t < 6; t++) expect(vol6(x, tetArr, t)).toBeLessThan(0);
    const velocity = Float64Array.from(x, () => r() - 0.5);
    const x0 = Float64Array.from(x, (c, i) => c - 1e-3 * velocity[i]);
    const before = Float64Array.from(x);
    const fan = [0, 1, 2, 3, 4, 5];
    const { order } = colourSlivers(tetArr, fan);
    const floor = 0.1;
    const lifted = liftSlivers(x, x0, w, tetArr, rest6, floor, order, new Float64Array(12));
    // Counted as the first sweep reaches them: a lift can bring a later neighbour up with it.
    expect(lifted).toBeGreaterThan(0);
    expect(lifted).toBeLessThanOrEqual(6);
    // Each fan tet at the floor, within what 8 sweeps of the cubic volume leave.
    for (const t of fan) expect(vol6(x, tetArr, t)).toBeGreaterThan(0.9 * floor * rest6[t]);
    // The tet outside the cluster did not move.
    for (let i = 3 * 8; i < x.length; i++) expect(x[i]).toBe(before[i]);
    // Momentum of the displacement is zero; angular momentum about the start positions is zero to
    // second order (each projection keeps it about its own start).
    const { p, L, scale } = displacementMomentum(mass, before, x);
    console.log(`sliver fan: lifted ${lifted}, volumes / floor ${fan.map((t) => (vol6(x, tetArr, t) / (floor * rest6[t])).toFixed(3)).join(' ')}; momentum ${p.map((q) => q.toExponential(1)).join(', ')}, angular ${L.map((q) => q.toExponential(1)).join(', ')}, mass-weighted lift ${scale.toExponential(2)}`);
    expect(scale).toBeGreaterThan(1e-4);
    for (let k = 0; k < 3; k++) expect(Math.abs(p[k])).toBeLessThan(1e-9 * scale);
    for (let k = 0; k < 3; k++) expect(Math.abs(L[k])).toBeLessThan(1e-6 * scale);
    // Split impulse: x - x0 (the substep's velocity) is what it was.
    for (let i = 0; i < x.length; i++) expect((x[i] - x0[i]) / 1e-3).toBeCloseTo(velocity[i], 6);
    // On the positions alone (x0 null: sliverFloorInSweeps, inside the material sweeps): the same
    // corners, the start positions left where they were, so the lift is the substep's velocity.
    const alone = Float64Array.from(before);
    liftSlivers(alone, null, w, tetArr, rest6, floor, order, new Float64Array(12));
    expect(alone).toEqual(x);
    // Above the floor already: nothing moves.
    const again = Float64Array.from(x);
    expect(liftSlivers(again, Float64Array.from(x0), w, tetArr, rest6, 0.5 * floor, order, new Float64Array(12))).toBe(0);
    expect(again).toEqual(x);
  });

  it('the shared octopus thrown onto the ground: with the floor no sliver ends a frame inside out and the energy never rises; without, slivers stay inverted; in every material sweep too, the lift after the contacts finds them far less deep', () => {
    const run = (sliverFloor: boolean, sliverFloorInSweeps = false) => {
      const setup = thrownOctopus({ collisions: true, sliverFloor, sliverFloorInSweeps });
      const solver = new CpuSolver(setup);
      const m = setup.model;
      const slivers = sliverTets(m);
      const rest6 = slivers.map((t) => vol6(m.restPositions, m.tets, t));
      const energy = () => totalEnergy(m, solver.x, solver.v, { constraint: solver.params.constraint, springCompliance: solver.params.springCompliance, gravity: solver.params.gravity }).total;
      const start = energy();
      let lowest = start, rise = 0, lifted = 0;
      const inverted: number[][] = [];
      // What the lift after the contacts finds in the landing frame: the lowest sliver volume / rest
      // volume as it starts (volumes computed here), per substep.
      const found: number[] = [];
      // Frame 2 is the landing: the lowest tentacles reach the ground in the first.
      for (let f = 0; f < 2; f++) {
        solver.stepFrame();
        const stage = solver.collisionStage!;
        if (f === 0) {
          const lift = stage.liftSlivers.bind(stage);
          stage.liftSlivers = (x, x0, w, params, list, into) => {
            found.push(Math.min(...slivers.map((t, i) => vol6(x, m.tets, t) / rest6[i])));
            lift(x, x0, w, params, list, into);
          };
        }
        lifted += solver.collisionCounters.inversionFloorTets;
        const e = energy();
        rise = Math.max(rise, e - lowest);
        lowest = Math.min(lowest, e);
        inverted.push(slivers.filter((t) => !(vol6(solver.x, m.tets, t) > 0)));
      }
      return { inverted, rise, released: start - lowest, lifted, slivers: slivers.length, deepest: Math.min(...found) };
    };
    const on = run(true);
    const off = run(false);
    const inSweeps = run(true, true);
    console.log(`octopus thrown at 5 m/s, ${on.slivers} slivers: inverted at frame ends with the floor ${JSON.stringify(on.inverted)} (${on.lifted} lifts, energy rise ${on.rise.toFixed(4)} J of ${on.released.toFixed(2)} J released), without ${JSON.stringify(off.inverted)}, with it in every sweep too ${JSON.stringify(inSweeps.inverted)} (energy rise ${inSweeps.rise.toFixed(4)} J of ${inSweeps.released.toFixed(2)} J); the lowest sliver volume / rest the lift after the contacts found in the landing frame: ${on.deepest.toFixed(3)}, in every sweep too ${inSweeps.deepest.toFixed(3)}`);
    expect(on.slivers).toBeGreaterThan(10);
    expect(on.inverted.flat()).toEqual([]);
    expect(on.lifted).toBeGreaterThan(0);
    expect(on.released).toBeGreaterThan(5);
    expect(on.rise).toBeLessThanOrEqual(0.01 * on.released);
    expect(off.inverted.flat().length).toBeGreaterThan(0);
    // In every sweep too: the same laws, and the material no longer pulls the slivers back deep
    // inside out between the lifts after the contacts (the tug of war, docs/collisions.md).
    expect(inSweeps.inverted.flat()).toEqual([]);
    expect(inSweeps.released).toBeGreaterThan(5);
    expect(inSweeps.rise).toBeLessThanOrEqual(0.01 * inSweeps.released);
    expect(on.deepest).toBeLessThan(-1);
    expect(inSweeps.deepest).toBeGreaterThan(on.deepest / 4);
  });

  it("the floor's own threshold: inside-out tets of the shared octopus below max(sliverQuality, sliverFloorQuality) come back, the ones above stay inverted", () => {
    const mesh = loadSharedTetArrays('octopus_2KFaces.t');
    const build = (sliverFloorQuality: number) => {
      // Soft (1 Pa), no gravity, one substep: what turns a tet back is the floor alone.
      const s = meshDrop.build({ mesh: { name: 'octopus_2KFaces.t', positions: mesh.positions, tets: mesh.tets }, height: 0.5, material: { youngsModulus: 1 } });
      s.params = { ...s.params, collisions: true, gravity: [0, 0, 0], substeps: 1, damping: 0, sliverFloor: true, sliverQuality: 0.04, sliverFloorQuality };
      return s;
    };
    const model = build(0).model;
    const quality = relativeQualityOracle(model.restPositions, model.tets);
    // The softened slivers and the low-quality tets above them, flattest first.
    const low = quality.map((q, t) => ({ q, t })).filter((e) => e.q < 0.12).sort((a, b) => a.q - b.q).map((e) => e.t);
    const { x, inverted } = reflectCorners(model.restPositions, model.tets, low);
    const floor = build(0).params.inversionFloor;
    const run = (sliverFloorQuality: number) => {
      const cpu = new CpuSolver(build(sliverFloorQuality));
      cpu.x.set(x);
      cpu.x0.set(x);
      cpu.stepFrame();
      const ratio = inverted.map((t) => vol6(cpu.x, model.tets, t) / vol6(model.restPositions, model.tets, t));
      return { ratio, lifted: cpu.collisionCounters.inversionFloorTets };
    };
    const bands = { slivers: inverted.filter((t) => quality[t] < 0.04).length, '0.04-0.07': inverted.filter((t) => quality[t] >= 0.04 && quality[t] < 0.07).length, '0.07-0.1': inverted.filter((t) => quality[t] >= 0.07 && quality[t] < 0.1).length, '0.1-0.12': inverted.filter((t) => quality[t] >= 0.1).length };
    console.log(`shared octopus, tets turned inside out by relative quality: ${JSON.stringify(bands)}`);
    for (const n of Object.values(bands)) expect(n).toBeGreaterThan(2);
    // Thresholds below the slivers' (the floor still holds them), between the bands, and above them.
    for (const threshold of [0, 0.02, 0.07, 0.1]) {
      const { ratio, lifted } = run(threshold);
      const holds = Math.max(0.04, threshold);
      const held = inverted.map((t, i) => ({ q: quality[t], r: ratio[i] })).filter((e) => e.q < holds);
      const left = inverted.map((t, i) => ({ q: quality[t], r: ratio[i] })).filter((e) => e.q >= holds);
      console.log(`sliverFloorQuality ${threshold}: ${lifted} lifted; held ${held.length}, lowest volume / rest ${Math.min(...held.map((e) => e.r)).toFixed(3)}; above the threshold ${left.length}, ${left.filter((e) => e.r < 0).length} still inverted`);
      for (const e of held) expect(e.r).toBeGreaterThan(0.8 * floor);
      expect(lifted).toBeGreaterThanOrEqual(held.length);
      // Above the threshold the floor does not act; the soft material and the contacts turn few back.
      expect(left.filter((e) => e.r < 0).length).toBeGreaterThan(0.8 * left.length);
    }
  });
});
