/**
 * CCD in the rounds that only solve the contacts again (SolverParams.ccdEveryRound, collideEvery
 * 'contacts'; docs/collisions.md "CCD in every round"), on the float64 CPU reference. A squeezed
 * cube springs out during the substep's material iterations: its first iteration (round 0, the
 * detecting round) leaves its face short of a second cube, the next four carry it past that
 * cube's face (measured here with collisions off). Independent truths: the brute-force
 * intersection counter at the substep's end, and momentum (no gravity, no colliders: contacts
 * and material exchange it only).
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { countIntersections } from '../../support/intersectionCounter';
import { momentum, springingCube, springingFaceAfter } from './scenes';

describe('CCD in every collision round (collideEvery contacts)', () => {
  it('a face the later material iterations carry into another body gets its contacts in that substep: nothing inside at its end, none without the switch', () => {
    const first = springingFaceAfter(1), all = springingFaceAfter(5);
    // The scene does what it is for: the later iterations move the face on by millimetres.
    expect(all - first).toBeGreaterThan(2e-3);
    const wallAt = (first + all) / 2;
    const runs = [true, false].map((ccdEveryRound) => {
      const { setup, squeezeA } = springingCube(wallAt, { ccdEveryRound });
      const solver = new CpuSolver(setup);
      squeezeA(solver.x, 3);
      solver.stepFrame();
      const m = solver.model;
      const hits = countIntersections({ positions: solver.x, tets: m.tets, tetObject: m.tetObject }, { depth: true }).hits;
      const p = momentum(m, solver.v);
      let scale = 0;
      for (let i = 0; i < m.vertexCount; i++) scale += Math.hypot(solver.v[3 * i], solver.v[3 * i + 1], solver.v[3 * i + 2]) / m.invMass[i];
      return { ccdEveryRound, hits, ccd: solver.collisionCounters.ccd, drift: Math.hypot(...p) / scale };
    });
    const [on, off] = runs;
    console.log(runs.map((r) => `ccdEveryRound ${r.ccdEveryRound}: ${r.hits.length} vertices inside (deepest ${Math.max(0, ...r.hits.map((h) => h.depth)).toExponential(2)} m), CCD hits ${r.ccd.hitsVertexFace} + ${r.ccd.hitsEdgeEdge}, ${r.ccd.laterRoundHits} in later rounds, momentum ${r.drift.toExponential(1)} of sum m|v|`).join('\n'));
    expect(off.ccd.hitsVertexFace + off.ccd.hitsEdgeEdge).toBe(0);
    expect(off.ccd.laterRoundHits).toBe(0);
    expect(off.hits.filter((h) => !h.self).length).toBeGreaterThan(0);
    expect(Math.max(...off.hits.map((h) => h.depth))).toBeGreaterThan(5e-4);
    expect(on.ccd.laterRoundHits).toBeGreaterThan(0);
    // Every CCD contact of this substep came from a later round (round 0's motion met nothing).
    expect(on.ccd.laterRoundHits).toBe(on.ccd.hitsVertexFace + on.ccd.hitsEdgeEdge);
    expect(on.hits).toEqual([]);
    for (const r of runs) expect(r.drift).toBeLessThan(1e-9);
  });

  it('a pair keeps one contact a substep: the later rounds test the pairs again but add none for pairs already in contact', () => {
    // The second cube just past where the first iteration leaves the face: round 0 makes contacts,
    // which hold through the later rounds; those test the other candidates again.
    const wallAt = springingFaceAfter(1) - 1e-4;
    const [on, off] = [true, false].map((ccdEveryRound) => {
      const { setup, squeezeA } = springingCube(wallAt, { ccdEveryRound });
      const solver = new CpuSolver(setup);
      squeezeA(solver.x, 3);
      solver.stepFrame();
      return solver;
    });
    const c = on.collisionCounters.ccd;
    expect(c.tests).toBeGreaterThan(off.collisionCounters.ccd.tests);
    expect(c.hitsVertexFace + c.hitsEdgeEdge).toBeGreaterThan(c.laterRoundHits);
    const contacts = on.collisionStage!.contacts;
    const keys = new Set<string>();
    for (let i = 0; i < contacts.count; i++) {
      if (!contacts.active[i]) continue;
      const key = `${contacts.group[i]}:${Array.from(contacts.pointVertex.subarray(4 * i, 4 * i + 4)).join(',')}:${Array.from(contacts.triVertex.subarray(3 * i, 3 * i + 3)).join(',')}`;
      expect(keys.has(key)).toBe(false);
      keys.add(key);
    }
    expect(keys.size).toBeGreaterThan(0);
  });
});
