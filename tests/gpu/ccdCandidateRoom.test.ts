/**
 * A frame whose CCD candidates do not fit one GPU buffer runs with the pairs that fit and counts
 * the rest (CcdStage.maxCandidatePairs, collision/gpu/candidateRoom.ts), where WebGPU refused the
 * whole frame before (two inflated octopi head-on at 30 m/s on SwiftShader asked for 1.88 GB).
 * Truths: the broad phase's own output, recorded as the worker job hands it over (every pair is
 * either tested or counted left out, each list keeping its share), and the momentum law through
 * the impact (contacts push in pairs, so leaving some out must not create momentum).
 */
import { describe, expect, it } from 'vitest';
import type { CcdTopology } from '../../src/collision/ccd/broadPhase';
import type { CollisionFrameCounters } from '../../src/collision/counters';
import { inThreadJobs, type CollisionWorkerJobs } from '../../src/collision/workerJobs';
import { GpuSolver } from '../../src/sim/gpuSolver';
import type { Model } from '../../src/sim/model';
import { testGpu } from '../support/gpu';
import { bodiesSetup, cubePart } from '../unit/collision/scenes';

function momentumOf(model: Model, v: Float32Array): number[] {
  const p = [0, 0, 0];
  for (let i = 0; i < model.vertexCount; i++) for (let k = 0; k < 3; k++) p[k] += v[3 * i + k] / model.invMass[i];
  return p;
}

describe('CCD candidates over the GPU buffer', () => {
  it('two cubes head-on with room for 40 pairs: each frame tests 40 and counts the rest, in the lists\' shares, says so, and keeps momentum', async () => {
    const ROOM = 40;
    const jobs: { vertexFace: number; edgeEdge: number }[] = [];
    const recording = (t: CcdTopology): CollisionWorkerJobs => {
      const base = inThreadJobs(t);
      return {
        ...base,
        broadPhase: async (x, v, bound, self, culling) => {
          const r = await base.broadPhase(x, v, bound, self, culling);
          jobs.push({ vertexFace: r.vertexFace.length / 2, edgeEdge: r.edgeEdge.length / 2 });
          return r;
        },
      };
    };
    const setup = bodiesSetup(
      [
        { part: cubePart(2, 0.2, [0, 0, 0]), velocity: [2, 0, 0] },
        { part: cubePart(2, 0.2, [0.3, 0.05, 0.04]), velocity: [-2, 0, 0] },
      ],
      { gravity: [0, 0, 0], substeps: 5, damping: 0, friction: 0, collisionMode: 'hybrid' },
    );
    const solver = new GpuSolver(await testGpu(), setup, { collisions: { workerJobs: recording } });
    try {
      const m = setup.model;
      const ccd = solver.collisions!.ccd;
      // The device's own room: SwiftShader's limits hold millions of pairs.
      expect(ccd.maxCandidatePairs).toBeGreaterThan(1e6);
      ccd.maxCandidatePairs = ROOM;
      const p0 = momentumOf(m, Float32Array.from(m.initialVelocities));
      const scale = Math.hypot(...momentumOf(m, Float32Array.from(m.initialVelocities, Math.abs)));
      const frames: CollisionFrameCounters[] = [];
      let drift = 0;
      for (let f = 0; f < 6; f++) {
        frames.push((await solver.stepFrame()).collisions!);
        const p = momentumOf(m, await solver.readVelocities());
        drift = Math.max(drift, Math.hypot(p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]) / scale);
      }
      const x = await solver.readPositions();
      console.log(`room ${ROOM}: jobs ${jobs.map((j) => `${j.vertexFace}+${j.edgeEdge}`).join(' ')}; frames tested ${frames.map((c) => `${c.ccd.candidatesVertexFace}+${c.ccd.candidatesEdgeEdge} (${c.ccd.candidatesLeftOut} out)`).join(' ')}; momentum drift ${drift.toExponential(2)}`);
      let over = 0;
      for (const [f, c] of frames.entries()) {
        const tested = c.ccd.candidatesVertexFace + c.ccd.candidatesEdgeEdge;
        if (tested === 0) continue;
        // The frame's pairs are one job's output: tested + left out, list by list.
        const job = jobs.find((j) => j.vertexFace + j.edgeEdge === tested + c.ccd.candidatesLeftOut && j.vertexFace >= c.ccd.candidatesVertexFace && j.edgeEdge >= c.ccd.candidatesEdgeEdge);
        expect(job, `frame ${f}: ${tested} tested + ${c.ccd.candidatesLeftOut} left out is no job's output`).toBeDefined();
        const total = job!.vertexFace + job!.edgeEdge;
        expect(tested, `frame ${f}`).toBe(Math.min(ROOM, total));
        if (total > ROOM) {
          over++;
          expect(c.ccd.candidatesVertexFace, `frame ${f}`).toBe(Math.floor((job!.vertexFace * ROOM) / total));
          expect(c.warnings.some((w) => w.includes(`${c.ccd.candidatesLeftOut} of ${total} broad-phase pairs left out`)), `frame ${f}: ${c.warnings.join(' | ')}`).toBe(true);
        } else {
          expect(c.ccd.candidatesLeftOut, `frame ${f}`).toBe(0);
        }
      }
      expect(over).toBeGreaterThan(1);
      expect(x.every(Number.isFinite)).toBe(true);
      expect(drift).toBeLessThan(1e-4);
    } finally {
      solver.destroy();
    }
  });
});
