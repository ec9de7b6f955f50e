/**
 * The Table-1 row (paper 000 Table 1) of three hand-made frames, every number worked out by hand
 * below: frame times, mean collisions over the frames with counters, Q / Tr / Tet per query as
 * ratios of sums, the step size and its change, and the phase groups with sync = wall - phases
 * (0 when the phases exceed the wall time); the page's render time is not a group (it is drawn inside the wall time).
 */
import { describe, expect, it } from 'vitest';
import { emptyCollisionCounters, type CollisionFrameCounters } from '../../../src/collision/counters';
import { groupOfPhase, PHASE_GROUPS } from '../../../src/runner/phaseGroups';
import type { RecordedFrame } from '../../../src/runner/reportDocument';
import { table1Row } from '../../../src/runner/table1';
import { table1Cells, table1Text } from '../../../src/runner/table1Format';

function coll(contacts: number, vf: number, ee: number, queries: number, q: number, tr: number, tet: number): CollisionFrameCounters {
  const c = emptyCollisionCounters();
  Object.assign(c, { contacts, spbQueries: queries, bvhCandidates: q, traversals: tr, tetsVisited: tet });
  c.ccd.hitsVertexFace = vf;
  c.ccd.hitsEdgeEdge = ee;
  return c;
}

const counters = { dispatches: 1, constraintIterations: 1, readbacks: 1 };
const frames: RecordedFrame[] = [
  { frame: 1, time: 0.01, wallMs: 10, phasesMs: { material: 4, detect: 2, spb: 1 }, counters, renderMs: 2, collisions: coll(6, 3, 1, 4, 20, 8, 12) },
  { frame: 2, time: 0.02, wallMs: 8, phasesMs: { predict: 1, ccd: 3, bvh: 1, mystery: 1 }, counters },
  { frame: 3, time: 0.03, wallMs: 6, phasesMs: { material: 7 }, counters, renderMs: 1, collisions: coll(2, 0, 0, 6, 30, 4, 18), paramsChanged: { substeps: 4 } },
];
const params = { dt: 0.01, substeps: 2, iterations: 3 };

describe('Table-1 row', () => {
  const row = table1Row({ frames, counts: { vertices: 100, tets: 234 }, params });

  it('sizes, frame times, collisions and operations per query', () => {
    expect(row.vertices).toBe(100);
    expect(row.tets).toBe(234);
    expect(row.frames).toBe(3);
    // The wall times 10, 8, 6 (the page's render time is drawn inside them, not added).
    expect(row.frameMs.mean).toBeCloseTo(24 / 3, 12);
    expect(row.frameMs.max).toBe(10);
    // Frames 1 and 3 have counters: DCD (6 + 2) / 2, CCD (3 + 1 + 0) / 2.
    expect(row.collisions).toEqual({ dcd: 4, ccd: 2, all: 6, frames: 2 });
    // 10 queries: Q (20 + 30) / 10, Tr (8 + 4) / 10, Tet (12 + 18) / 10.
    expect(row.operations!.queries).toBe(10);
    expect(row.operations!.q).toBeCloseTo(5, 12);
    expect(row.operations!.tr).toBeCloseTo(1.2, 12);
    expect(row.operations!.tet).toBeCloseTo(3, 12);
  });

  it('step size of the first frame, marked as varying when a frame changed it', () => {
    expect(row.step).toEqual({ h: 0.005, substeps: 2, iterations: 3, varies: true });
    const steady = table1Row({ frames: frames.slice(0, 2), counts: { vertices: 1, tets: 1 }, params });
    expect(steady.step.varies).toBe(false);
    // A change on the first frame is the first frame's step.
    const changedFirst = table1Row({ frames: [frames[2]!], counts: { vertices: 1, tets: 1 }, params });
    expect(changedFirst.step).toEqual({ h: 0.0025, substeps: 4, iterations: 3, varies: false });
  });

  it('impact-adaptive substeps: the substeps the frames took (counters.substeps), mean and max, beside the parameters\'', () => {
    const taken = [2, 8, 5].map((substeps, i) => ({ ...frames[i]!, paramsChanged: undefined, counters: { ...counters, substeps } }));
    const r = table1Row({ frames: taken, counts: { vertices: 1, tets: 1 }, params });
    expect(r.step).toEqual({ h: 0.005, substeps: 2, iterations: 3, varies: false, impact: { meanSubsteps: 5, maxSubsteps: 8 } });
    expect(table1Cells(r).find((c) => c.label === 'Substeps')!.value).toBe('2 (on impact: mean 5.0, max 8)');
    // Frames that took their parameters' substeps report none.
    const plain = table1Row({ frames: taken.map((f) => ({ ...f, counters: { ...counters, substeps: 2 } })), counts: { vertices: 1, tets: 1 }, params });
    expect(plain.step.impact).toBeUndefined();
  });

  it('phase groups: mean ms per frame and shares of the summed time', () => {
    // Frame 1: material 4, detect 2, shortest path 1, sync 10 - 7 = 3 (its renderMs 2 is not a group).
    // Frame 2: material 1 (predict), CCD 3, BVH 1, other 1 (unknown name), sync 8 - 6 = 2.
    // Frame 3: material 7, sync max(0, 6 - 7) = 0.
    const sums: Record<string, number> = { material: 12, detect: 2, 'shortest path': 1, CCD: 3, BVH: 1, sync: 5, render: 0, other: 1 };
    const total = 25;
    expect(row.phases.map((p) => p.group)).toEqual([...PHASE_GROUPS]);
    for (const p of row.phases) {
      expect(p.meanMs, p.group).toBeCloseTo(sums[p.group]! / 3, 12);
      expect(p.share, p.group).toBeCloseTo(sums[p.group]! / total, 12);
    }
    expect(row.phases.reduce((a, p) => a + p.share, 0)).toBeCloseTo(1, 12);
  });

  it('no counters or no queries: n/a, as the paper writes N/A', () => {
    const bare = table1Row({ frames: [frames[1]!], counts: { vertices: 1, tets: 1 }, params });
    expect(bare.collisions).toBeNull();
    expect(bare.operations).toBeNull();
    const cells = Object.fromEntries(table1Cells(bare).map((c) => [c.label, c.value]));
    expect(cells['Q']).toBe('n/a');
    expect(cells['Collisions DCD']).toBe('n/a');
    expect(() => table1Row({ frames: [], counts: { vertices: 1, tets: 1 }, params })).toThrow(/no frames/);
  });

  it('text cells in the paper\'s order, with "h x iterations"', () => {
    const cells = Object.fromEntries(table1Cells(row).map((c) => [c.label, c.value]));
    expect(cells['Step x iter.']).toBe('5.0e-3 x 3 (changed during the run)');
    expect(cells['Q']).toBe('5.0');
    expect(cells['Frame max (ms)']).toBe('10.00');
    expect(cells['material %']).toBe((100 * 12 / 25).toFixed(1));
    const lines = table1Text(row).split('\n');
    expect(lines.length).toBe(2);
    expect(lines[0]!.length).toBe(lines[1]!.length);
  });

  it('phase names of the solver map onto the chart groups', () => {
    const expected: Record<string, string> = {
      predict: 'material', material: 'material', contacts: 'material', finalize: 'material', xpbd: 'material',
      detect: 'detect', spb: 'shortest path', ccd: 'CCD', bvh: 'BVH', sync: 'sync', anythingElse: 'other', toString: 'other',
    };
    for (const [phase, group] of Object.entries(expected)) expect(groupOfPhase(phase), phase).toBe(group);
  });
});
