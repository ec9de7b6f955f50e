/**
 * No tunnelling with the hybrid of supplement Alg. 5 (CCD for free points, DCD + shortest path for
 * the ones already inside), checked every frame by the brute-force intersection counter
 * (tests/support/intersectionCounter.ts, no code shared with detection or CCD):
 *   - the shared Cube.t shot at 50 m/s at a fixed wall 4 cm thick (the shoot scene): hybrid and
 *     CCD only never have a vertex inside the wall, and the cube rebounds (hybrid); DCD only at the
 *     same substeps has cube vertices inside the wall (the checks can fail);
 *   - two Cube.t head-on at 30 m/s each (the head-on scene): likewise, and the bodies rebound;
 *   - paper Fig. 9: penetrations already there at a substep's start (what an unresolved solve
 *     leaves) persist under CCD only, which cannot see them, and are resolved by the hybrid.
 */
import { describe, expect, it } from 'vitest';
import { readMeshFile } from '../../src/runner/meshFile';
import { findScene } from '../../src/scenes/registry';
import type { CollisionMode, SolverParams } from '../../src/contract/params';
import { GpuSolver } from '../../src/sim/gpuSolver';
import type { Model } from '../../src/sim/model';
import type { SimSetup } from '../../src/sim/setup';
import { countIntersections } from '../support/intersectionCounter';
import { testGpu } from '../support/gpu';
import { bodiesSetup, cubePart } from '../unit/collision/scenes';

const CUBE = readMeshFile('../shared/meshes/Cube.t');

function inside(model: Model, x: Float32Array): number {
  return countIntersections({ positions: Float64Array.from(x), tets: model.tets, tetObject: model.tetObject }).inter;
}

/** Mean x velocity of an object's vertices. */
function meanVx(model: Model, v: Float32Array, object: number): number {
  const a = model.objectVertexOffsets[object], b = model.objectVertexOffsets[object + 1];
  let s = 0;
  for (let i = a; i < b; i++) s += v[3 * i];
  return s / (b - a);
}

interface Run {
  /** Per frame: boundary vertices inside another object. */
  inside: number[];
  /** Mean x velocity of object 0 at the end. */
  endVx: number;
  maxX: number;
  ccdHits: number;
  /** Per frame: the horizon (s) its CCD candidates' boxes held (counters.ccd.horizon). */
  horizons: number[];
}

async function run(setup: SimSetup, mode: CollisionMode, frames: number, substeps: number, extra: Partial<SolverParams> = {}): Promise<Run> {
  const ctx = await testGpu();
  setup.params = { ...setup.params, collisionMode: mode, substeps, ...extra };
  const solver = new GpuSolver(ctx, setup);
  const m = setup.model;
  const out: Run = { inside: [], endVx: 0, maxX: -Infinity, ccdHits: 0, horizons: [] };
  try {
    for (let f = 0; f < frames; f++) {
      const r = await solver.stepFrame();
      out.ccdHits += (r.collisions?.ccd.hitsVertexFace ?? 0) + (r.collisions?.ccd.hitsEdgeEdge ?? 0);
      out.horizons.push(r.collisions?.ccd.horizon ?? 0);
      const x = await solver.readPositions();
      out.inside.push(inside(m, x));
      for (let v = 0; v < m.objectVertexOffsets[1]; v++) out.maxX = Math.max(out.maxX, x[3 * v]);
    }
    out.endVx = meanVx(m, await solver.readVelocities(), 0);
  } finally {
    solver.destroy();
  }
  return out;
}

describe('no tunnelling with CCD (issue 9)', () => {
  it('a cube shot at 50 m/s at a 4 cm wall: hybrid and CCD only never inside the wall, and the hybrid rebounds; DCD only gets inside', async () => {
    const build = () => findScene('shoot').build({ mesh: CUBE, speed: 50 });
    const wallFront = -0.02; // Cube.t is 2 long: the wall is 2 % of that thick, centred at x = 0
    // 3 frames: the front reaches the wall in the second (1 m at 50 m/s) and the rebound is over
    // by the third's end. Measured (5 frames): hybrid and CCD hit the wall in frames 2 and 3 only,
    // the hybrid's mean vx 50, -1.7, -28.4, -28.6, -28.3 m/s; DCD 15 vertices inside and the front
    // at x = 0.375 in frame 2 (since, with 2 frames: 16 inside in frame 2, the front at 0.128).
    // CCD only and the latency-0 hybrid run 2 frames: the impact is the second (their hits are
    // there) and the rebound, checked on the hybrid, is the third. In this scene no point is ever
    // inside the wall at a substep's start, so the hybrid's free points take CCD's path throughout;
    // measured over 3 frames the three runs ended alike (front -0.0315 m, end vx -24.4 m/s).
    const hybrid = await run(build(), 'hybrid', 3, 10);
    const ccd = await run(build(), 'ccd', 2, 10);
    // DCD alone with its contacts once a substep, the schedule under which it lets the cube in. With
    // them after every iteration ('contacts', what 'auto' takes between bodies) it held the front
    // at x = 0.032, past the wall's front but not through it (docs/collisions.md "Contacts after
    // every iteration by default between bodies"). 2 frames: its vertices are inside and its front
    // past x = 0.1 in the second (the impact's frame), which is all it is checked for (measured:
    // 16 inside, the front at x = 0.128, through the wall's back at 0.02).
    const dcd = await run(build(), 'dcd', 2, 10, { collideEvery: 'substep' });
    // The hybrid with CCD's job started for the next frame (ccdJobLatency '0'): boxes over one frame's motion.
    const waiting = await run(build(), 'hybrid', 2, 10, { ccdJobLatency: '0' });
    console.log(`shoot 50 m/s, 10 substeps: inside per frame hybrid [${hybrid.inside}] ccd [${ccd.inside}] dcd [${dcd.inside}] hybrid at latency 0 [${waiting.inside}]; ` +
      `front reached x = ${hybrid.maxX.toFixed(4)} / ${ccd.maxX.toFixed(4)} / ${dcd.maxX.toFixed(4)} / ${waiting.maxX.toFixed(4)} (wall front ${wallFront}); ` +
      `end vx ${hybrid.endVx.toFixed(1)} / ${ccd.endVx.toFixed(1)} / ${dcd.endVx.toFixed(1)} / ${waiting.endVx.toFixed(1)} m/s`);
    const dt = build().params.dt;
    expect(hybrid.horizons.every((h) => Math.abs(h - 2 * dt) < 1e-9)).toBe(true);
    expect(waiting.horizons.every((h) => Math.abs(h - dt) < 1e-9)).toBe(true);
    for (const r of [hybrid, ccd, waiting]) {
      expect(r.ccdHits).toBeGreaterThan(0);
      expect(Math.max(...r.inside)).toBe(0);
      expect(r.maxX).toBeLessThan(wallFront);
    }
    expect(hybrid.endVx).toBeLessThan(-10);
    expect(Math.max(...dcd.inside)).toBeGreaterThan(0);
    expect(dcd.maxX).toBeGreaterThan(0.1);
  });

  it('two cubes head-on at 30 m/s each: hybrid never has a vertex inside the other cube and they rebound; DCD only does not', async () => {
    const build = () => findScene('head-on').build({ mesh: CUBE, speed: 30 });
    // 4 frames: the cubes (1 m apart, closing at 60 m/s) touch in the first and part during the
    // fourth. Measured (5 frames): hybrid CCD hits in frames 1-4 and none in the 5th, mean vx of
    // the first cube -16.3 m/s after 4 frames; DCD 2 and 1 vertices inside in frames 2 and 3.
    const hybrid = await run(build(), 'hybrid', 4, 10);
    // DCD alone once a substep (with 'contacts', the default between bodies, no vertex ended inside);
    // 2 frames hold the first of its frames with vertices inside (2 and 3).
    const dcd = await run(build(), 'dcd', 2, 10, { collideEvery: 'substep' });
    console.log(`head-on 2 x 30 m/s, 10 substeps: inside per frame hybrid [${hybrid.inside}] dcd [${dcd.inside}]; end vx of the first cube ${hybrid.endVx.toFixed(1)} / ${dcd.endVx.toFixed(1)} m/s`);
    expect(hybrid.ccdHits).toBeGreaterThan(0);
    expect(Math.max(...hybrid.inside)).toBe(0);
    expect(hybrid.endVx).toBeLessThan(-5);
    expect(Math.max(...dcd.inside)).toBeGreaterThan(0);
  });

  it('Fig. 9: penetrations present at the start persist under CCD only and are resolved by the hybrid', async () => {
    // A cube resting 3 cm deep in another (what an unresolved solve leaves behind), under gravity.
    const setup = (): SimSetup =>
      bodiesSetup([{ part: cubePart(3, 0.2, [0, 0, 0]) }, { part: cubePart(3, 0.2, [0.02, 0.17, 0.01]) }], { gravity: [0, -9.81, 0], substeps: 10, damping: 1 });
    const counts: Record<string, number[]> = {};
    for (const mode of ['ccd', 'hybrid'] as const) {
      const s = setup();
      const ctx = await testGpu();
      s.params = { ...s.params, collisionMode: mode };
      const solver = new GpuSolver(ctx, s);
      try {
        counts[mode] = [inside(s.model, await solver.readPositions())];
        // 3 frames (30 substeps): the hybrid has 19 and 8 inside after the first two and none after
        // the third; CCD only keeps all 18 at the same 3 cm depth every frame (measured over 8
        // frames; hybrid measured 18 at the start, 19, 8 over 2 frames, so 2 are not enough).
        for (let f = 0; f < 3; f++) {
          await solver.stepFrame();
          counts[mode].push(inside(s.model, await solver.readPositions()));
        }
      } finally {
        solver.destroy();
      }
    }
    console.log(`overlapping cubes, inside per frame: ccd only [${counts.ccd}], hybrid [${counts.hybrid}]`);
    expect(counts.ccd[0]).toBeGreaterThan(0);
    expect(counts.ccd.at(-1)!).toBeGreaterThan(0);
    expect(counts.hybrid.at(-1)).toBe(0);
  });
});
