/**
 * CCD in the rounds that only solve the contacts again (SolverParams.ccdEveryRound, collideEvery
 * 'contacts'; docs/collisions.md "CCD in every round") on the GPU: the later rounds' narrow-phase
 * dispatch over the frame's candidates. The scene of the CPU test (tests/unit/collision/
 * ccdEveryRound.test.ts): a squeezed cube springs out during the substep's material iterations,
 * its first iteration short of a second cube, the next four past that cube's face (the float64
 * reference with collisions off places the cube). Independent truths: the brute-force intersection
 * counter at the frame's end, and momentum (no gravity, no colliders). The float64 twin's counts
 * beside the GPU's: both find the crossing only in the later rounds.
 */
import { describe, expect, it } from 'vitest';
import { CpuSolver } from '../../src/sim/cpuSolver';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { readBuffer, testGpu } from '../support/gpu';
import type { GpuContext } from '../../src/gpu/device';
import type { SolverParams } from '../../src/contract/params';
import type { SimSetup } from '../../src/sim/setup';
import { countIntersections } from '../support/intersectionCounter';
import { momentum, springingCube, springingFaceAfter } from '../unit/collision/scenes';

/** Depth (m) below which a vertex counts as on the surface (f32 ties; the edges are 5 cm). */
const ON_SURFACE = 1e-5;

/** One frame of springingCube on the GPU from its squeezed start: the frame's record, end positions and velocities (float64 copies), and the setup. */
async function squeezedFrame(ctx: GpuContext, wallAt: number, params: Partial<SolverParams>, farCube = false, nearListLimit?: number, substepBoxes?: boolean) {
  const { setup, squeezeA } = springingCube(wallAt, params, 0.7, farCube);
  const solver = new GpuSolver(ctx, setup);
  if (nearListLimit !== undefined) solver.collisions!.ccd.nearListLimit = nearListLimit;
  if (substepBoxes !== undefined) solver.collisions!.ccd.substepBoxes = substepBoxes;
  try {
    const vec4 = new Float32Array(await readBuffer(ctx, solver.positionBuffer));
    squeezeA(vec4, 4);
    ctx.device.queue.writeBuffer(solver.positionBuffer, 0, vec4);
    const frame = await solver.stepFrame();
    // On a software adapter each CCD round sweeps the candidates' boxes first (CcdStage.substepBoxes): one dispatch more a round.
    const sweeps = solver.collisions!.ccd.substepBoxes ? 1 : 0;
    return { setup, squeezeA, frame, sweeps, x: Float64Array.from(await solver.readPositions()), v: Float64Array.from(await solver.readVelocities()) };
  } finally {
    solver.destroy();
  }
}

/**
 * Two plans of the same frame end alike: positions within f32 rounding (contacts appended in
 * another order, by atomics, solve in another order) and nothing inside in either.
 */
function expectSameEnds(a: { x: Float64Array; inside: number }, b: { x: Float64Array; inside: number }): void {
  let most = 0;
  for (let i = 0; i < a.x.length; i++) most = Math.max(most, Math.abs(a.x[i] - b.x[i]));
  expect(most).toBeLessThan(1e-5);
  expect(a.inside).toBe(0);
  expect(b.inside).toBe(0);
}

/** Boundary vertices deeper than ON_SURFACE inside another tet (the brute-force counter). */
function insideHits(setup: SimSetup, x: Float64Array) {
  return countIntersections({ positions: x, tets: setup.model.tets, tetObject: setup.model.tetObject }, { depth: true }).hits.filter((h) => h.depth > ON_SURFACE);
}

describe('CCD in every collision round on the GPU (collideEvery contacts)', () => {
  it('the later rounds add the contacts of a face the material carries into another body: nothing inside at the frame end, a vertex inside without the switch; momentum kept', async () => {
    const ctx = await testGpu();
    const wallAt = (springingFaceAfter(1) + springingFaceAfter(5)) / 2;
    const runs = [];
    for (const ccdEveryRound of [true, false]) {
      const { setup, squeezeA, frame, sweeps, x, v } = await squeezedFrame(ctx, wallAt, { ccdEveryRound });
      const m = setup.model;
      const hits = insideHits(setup, x);
      const p = momentum(m, v);
      let scale = 0;
      for (let i = 0; i < m.vertexCount; i++) scale += Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]) / m.invMass[i];
      const cpu = new CpuSolver(springingCube(wallAt, { ccdEveryRound }).setup);
      squeezeA(cpu.x, 3);
      cpu.stepFrame();
      runs.push({ ccdEveryRound, hits, ccd: frame.collisions!.ccd, cpu: cpu.collisionCounters.ccd, drift: Math.hypot(...p) / scale, dispatches: frame.dispatchesByPhase?.ccd ?? 0, sweeps });
    }
    console.log(runs.map((r) => `ccdEveryRound ${r.ccdEveryRound}: ${r.hits.length} vertices inside (deepest ${Math.max(0, ...r.hits.map((h) => h.depth)).toExponential(2)} m); GPU CCD hits ${r.ccd.hitsVertexFace} + ${r.ccd.hitsEdgeEdge}, ${r.ccd.laterRoundHits} in later rounds (float64: ${r.cpu.hitsVertexFace} + ${r.cpu.hitsEdgeEdge}, ${r.cpu.laterRoundHits}); ccd dispatches ${r.dispatches}; momentum ${r.drift.toExponential(1)} of sum m|v|`).join('\n'));
    const [on, off] = runs;
    expect(off.hits.length).toBeGreaterThan(0);
    expect(off.ccd.laterRoundHits).toBe(0);
    expect(on.ccd.laterRoundHits).toBeGreaterThan(0);
    expect(on.cpu.laterRoundHits).toBeGreaterThan(0);
    // Round 0's motion met nothing on either twin: every contact is a later round's.
    expect(on.ccd.laterRoundHits).toBe(on.ccd.hitsVertexFace + on.ccd.hitsEdgeEdge);
    expect(on.hits).toEqual([]);
    // In each of the 4 later rounds the retirement of the edge-edge contacts only their own round
    // solves, then one narrow-phase dispatch (with a sweep before it on a software adapter);
    // without the switch the retirement alone, in the first later round (docs/collisions.md "Apart
    // pairs in the later rounds"); with it also the later rounds' grid over the near list, once a substep.
    expect(on.sweeps).toBe(off.sweeps);
    expect(on.dispatches - off.dispatches).toBe(4 * (2 + on.sweeps) - 1 + 1);
    for (const r of runs) expect(r.drift).toBeLessThan(1e-4);
    // Both twins count the boundary vertices that moved beyond the later rounds' reach (the far
    // pairs' bound, collision/ccd/laterRounds.ts): the springing faces do here.
    expect(on.ccd.laterRoundBeyondReach).toBeGreaterThan(0);
    expect(on.cpu.laterRoundBeyondReach).toBeGreaterThan(0);
  }, 120_000);

  it("the later rounds skip the pairs farther apart at the detecting round than they can close: a third cube 2 cm away adds frame candidates the detecting round tests and the later rounds do not", async () => {
    const ctx = await testGpu();
    const wallAt = (springingFaceAfter(1) + springingFaceAfter(5)) / 2;
    const tests: Record<string, number> = {};
    let inside = -1;
    for (const ccdEveryRound of [false, true]) {
      const { setup, frame, x } = await squeezedFrame(ctx, wallAt, { ccdEveryRound }, true);
      tests[String(ccdEveryRound)] = frame.collisions!.ccd.tests;
      if (ccdEveryRound) {
        expect(frame.collisions!.ccd.laterRoundHits).toBeGreaterThan(0);
        inside = insideHits(setup, x).length;
      }
    }
    const detecting = tests.false, later = tests.true - tests.false;
    console.log(`narrow-phase tests: detecting round ${detecting}, 4 later rounds ${later}; vertices inside at the end ${inside}`);
    // Round 0 makes no contact here, so without the far rule each later round would test every pair again.
    expect(later).toBeGreaterThan(0);
    expect(later).toBeLessThan(4 * detecting);
    expect(inside).toBe(0);
  }, 120_000);

  it('the later rounds run over the near list the detecting round built: the same tests and contacts as scanning every candidate (a list of no room), over fewer pairs, nothing inside', async () => {
    const ctx = await testGpu();
    const wallAt = (springingFaceAfter(1) + springingFaceAfter(5)) / 2;
    const runs = [];
    for (const nearListLimit of [undefined, 0]) {
      const { setup, frame, x } = await squeezedFrame(ctx, wallAt, { ccdEveryRound: true }, true, nearListLimit);
      const c = frame.collisions!.ccd;
      runs.push({ nearListLimit, c, x, inside: insideHits(setup, x).length });
    }
    const [list, scan] = runs;
    const candidates = list.c.candidatesVertexFace + list.c.candidatesEdgeEdge;
    console.log(runs.map((r) => `near list ${r.nearListLimit === 0 ? 'of no room (scan)' : 'default'}: listed ${r.c.laterRoundListed} of ${candidates} candidates; tests ${r.c.tests}, hits ${r.c.hitsVertexFace} + ${r.c.hitsEdgeEdge} (${r.c.laterRoundHits} in later rounds); ${r.inside} vertices inside`).join('\n'));
    // The third cube's pairs are far: the list holds fewer pairs than the candidates, and the
    // detecting round lists the same pairs whether or not the list has room.
    expect(list.c.laterRoundListed).toBeGreaterThan(0);
    expect(list.c.laterRoundListed).toBeLessThan(candidates);
    expect(scan.c.laterRoundListed).toBe(list.c.laterRoundListed);
    expect(list.c.tests).toBe(scan.c.tests);
    expect(list.c.laterRoundHits).toBeGreaterThan(0);
    expect(list.c.laterRoundHits).toBe(scan.c.laterRoundHits);
    expect([list.c.hitsVertexFace, list.c.hitsEdgeEdge]).toEqual([scan.c.hitsVertexFace, scan.c.hitsEdgeEdge]);
    expect(list.c.laterRoundBeyondReach).toBe(scan.c.laterRoundBeyondReach);
    expectSameEnds(list, scan);
  }, 120_000);

  it("each round's sweep of the motion's boxes (a software adapter's plan) and one narrow-phase dispatch (a GPU's) give the same tests, apart pairs, hits and contacts, and only the solve's grid differs", async () => {
    const ctx = await testGpu();
    const wallAt = (springingFaceAfter(1) + springingFaceAfter(5)) / 2;
    const runs = [];
    for (const substepBoxes of [true, false]) {
      const { setup, frame, x } = await squeezedFrame(ctx, wallAt, { ccdEveryRound: true }, true, undefined, substepBoxes);
      runs.push({ substepBoxes, c: frame.collisions!.ccd, x, dispatches: frame.dispatchesByPhase?.ccd ?? 0, inside: insideHits(setup, x).length });
    }
    const [swept, direct] = runs;
    console.log(runs.map((r) => `${r.substepBoxes ? 'sweep, then solve' : 'one dispatch'}: tests ${r.c.tests} (boxes apart ${r.c.motionBoxesApart}), hits ${r.c.hitsVertexFace} + ${r.c.hitsEdgeEdge} (${r.c.laterRoundHits} in later rounds); ccd dispatches ${r.dispatches}; ${r.inside} vertices inside`).join('\n'));
    // The third cube 2 cm away: most of its pairs' boxes are apart over a substep.
    expect(direct.c.motionBoxesApart).toBeGreaterThan(0);
    expect(direct.c.motionBoxesApart).toBeLessThan(direct.c.tests);
    for (const k of ['tests', 'motionBoxesApart', 'skippedPin', 'hitsVertexFace', 'hitsEdgeEdge', 'laterRoundHits', 'laterRoundListed', 'laterRoundBeyondReach', 'escaped'] as const) {
      expect(swept.c[k], k).toBe(direct.c[k]);
    }
    // One sweep more in the detecting round and in each of the 4 later rounds.
    expect(swept.dispatches - direct.dispatches).toBe(5);
    expectSameEnds(swept, direct);
  }, 120_000);
});
