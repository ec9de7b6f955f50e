/**
 * A small run built with the runner's own builders (frameEntry, summarize, table1Row) from
 * hand-made frame stats: every collision counter distinct and non-zero, GPU phases, a sampled
 * state, a scheduled change, a warning with a comma and quotes (CSV quoting), so the CSV and the
 * reader see every field the runner writes.
 */
import { emptyCollisionCounters, type CollisionFrameCounters } from '../../../../src/collision/counters';
import type { StateMeasures } from '../../../../src/runner/measure';
import { frameEntry, summarize } from '../../../../src/runner/report';
import type { RunReport } from '../../../../src/runner/reportDocument';
import { table1Row } from '../../../../src/runner/table1';
import { defaultParams } from '../../../../src/contract/params';
import type { FrameStats } from '../../../../src/sim/simulation';

export function counters(seed: number): CollisionFrameCounters {
  const c = emptyCollisionCounters();
  let k = seed;
  const next = (): number => (k += 1);
  for (const key of Object.keys(c.dcdHits) as (keyof typeof c.dcdHits)[]) c.dcdHits[key] = next();
  for (const key of Object.keys(c) as (keyof CollisionFrameCounters)[]) if (typeof c[key] === 'number') (c[key] as number) = next();
  for (const key of Object.keys(c.ccd) as (keyof typeof c.ccd)[]) c.ccd[key] = next() + 0.25 * (key === 'jobMs' || key === 'waitMs' || key === 'margin' || key === 'horizon' ? 1 : 0);
  c.bvhRebuildMs = 1.5;
  c.mode = 'hybrid';
  return c;
}

export function stats(frame: number, wallMs: number, phases: Record<string, number> | null, collisions?: CollisionFrameCounters): FrameStats {
  return {
    frame,
    time: (frame + 1) / 60,
    wallMs,
    encodeMs: 1.25 + 0.5 * frame,
    blockingReadbacks: frame % 2,
    gpuPhasesMs: phases,
    timing: phases ? 'timestamp-query' : 'cpu-wall',
    dispatches: 40 + frame,
    dispatchesByPhase: { predict: 2, material: 30 + frame, finalize: 8 },
    passes: 6,
    substeps: 2,
    iterations: 3,
    collisionRounds: 1,
    detectionRounds: 1,
    constraintIterations: 600,
    stopped: [],
    collisions: collisions ?? null,
  };
}

export function state(total: number): StateMeasures {
  return {
    energy: { kinetic: 1.25, elastic: 0.5, gravitational: total - 1.75, total },
    lowestPoint: 0.125,
    boundingBox: { min: [-1, 0.125, -1], max: [1, 2, 1] },
    centreOfMass: [0, 1, 1e-9],
    momentum: [0, -0.5, 0],
    angularMomentum: [3e-7, 0, -2],
    volume: 0.999,
    totalMass: 12,
    nonFiniteVertices: 0,
  };
}

/** Three frames as scripts/sim.ts writes them (the same builders, the same document type). */
export function sampleReport(): RunReport {
  const params = defaultParams();
  const c2 = counters(100);
  c2.warnings = ['broad phase failed: "boom", retried'];
  const frames = [
    frameEntry(stats(0, 5.5, { predict: 0.25, material: 2, detect: 1, spb: 0.5, ccd: 0.75, contacts: 0.125, finalize: 0.0625 }, counters(0)), undefined),
    frameEntry(stats(1, 6.25, { predict: 0.25, material: 2.5, detect: 1.5, spb: 0.25, ccd: 1, contacts: 0.125, finalize: 0.0625 }, c2), state(10), { selfCollision: false }),
    frameEntry(stats(2, 4, { predict: 0.25, material: 1.5, bvh: 0.5, contacts: 0.125, finalize: 0.0625 }, counters(200)), state(9.5)),
  ];
  const initial = state(10.5);
  const counts = { vertices: 100, tets: 234, edges: 400, tetColours: 8, edgeColours: 9 };
  return {
    source: 'runner',
    scene: 'drop',
    mesh: 'Cube.t',
    adapter: 'test adapter',
    timing: 'timestamp-query',
    params,
    schedule: [{ frame: 1, params: { selfCollision: false } }],
    materials: [{ object: 'cube', youngsModulus: 1e6, poissonRatio: 0.3, density: 1000 }],
    colliders: ['ground'],
    every: 1,
    dump: null,
    counts,
    buildMs: 12,
    initial: { frame: 0, time: 0, state: initial },
    frames,
    summary: summarize(frames, initial, frames[2]!.state!, []),
    table1: table1Row({ frames, counts, params }),
  };
}
