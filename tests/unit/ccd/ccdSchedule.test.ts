/**
 * CCD's schedule widens the boxes that escaped, and only those: world boxes (pairs of different
 * objects) by the world escapes, own-frame boxes (pairs within one object) by the own-frame ones.
 * Before, one scale served both, and a pile of octopi landing (own-frame escapes only: the lower
 * part stops while the mean still falls) widened every world box too.
 */
import { describe, expect, it } from 'vitest';
import { CcdSchedule, type BroadPhaseRunner } from '../../../src/collision/ccd/ccdSchedule';
import type { CcdTopology, MotionBound } from '../../../src/collision/ccd/broadPhase';

describe('CcdSchedule margins', () => {
  it('own-frame escapes widen the own-frame boxes only, world escapes the world boxes only; both shrink back without escapes', async () => {
    const bounds: MotionBound[] = [];
    const runner: BroadPhaseRunner = async (_x, _v, bound) => {
      bounds.push(bound);
      return { vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0), jobMs: 0 };
    };
    const base = 0.01;
    const schedule = new CcdSchedule(runner, base, { latency: 0 });
    const snapshot = { positions: new Float32Array(8), velocities: new Float32Array(8) };
    const p = { dt: 1 / 60, gravity: [0, -9.81, 0] as [number, number, number], selfCollision: true };
    const margins = async (frame: number): Promise<[number, number]> => {
      const input = await schedule.inputFor(frame, p, async () => snapshot);
      const b = bounds[bounds.length - 1]!;
      expect([input.margin, input.ownMargin]).toEqual([b.margin, b.ownMargin]);
      return [b.margin, b.ownMargin!];
    };
    expect(await margins(0)).toEqual([base, base]);
    schedule.noteEscapes(0, 120); // a body landing: its own-frame boxes escaped
    expect(await margins(1)).toEqual([base, 2 * base]);
    schedule.noteEscapes(0, 7);
    expect(await margins(2)).toEqual([base, 4 * base]);
    schedule.noteEscapes(3, 0); // a fast impact between bodies
    const [world, own] = await margins(3);
    expect(world).toBe(2 * base);
    expect(own).toBeCloseTo(0.95 * 4 * base, 12);
    for (let f = 4; f < 200; f++) schedule.noteEscapes(0, 0);
    expect(await margins(200)).toEqual([base, base]);
  });

  it('with the topology, own-frame escapes widen the flagged objects\' boxes only (bit o % 64), all objects\' when no flags are given', async () => {
    const bounds: MotionBound[] = [];
    const runner: BroadPhaseRunner = async (_x, _v, bound) => {
      bounds.push(bound);
      return { vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0), jobMs: 0 };
    };
    // 66 objects of one vertex each: objects 1 and 65 share flag bit 1.
    const n = 66;
    const topology: CcdTopology = {
      vertexCount: n, boundaryVertices: Uint32Array.from({ length: n }, (_, i) => i), triangles: new Uint32Array(0), edges: new Uint32Array(0),
      vertexObject: Uint32Array.from({ length: n }, (_, i) => i),
    };
    const base = 0.01;
    const schedule = new CcdSchedule(runner, base, { latency: 0 }, topology);
    const snapshot = { positions: new Float32Array(4 * n), velocities: new Float32Array(4 * n) };
    const p = { dt: 1 / 60, gravity: [0, -9.81, 0] as [number, number, number], selfCollision: true };
    const ownMargins = async (frame: number): Promise<number[]> => {
      const input = await schedule.inputFor(frame, p, async () => snapshot);
      const b = bounds[bounds.length - 1]!;
      expect(input.ownMargin).toBe(Math.max(...Array.from(b.ownMargins!)));
      return Array.from(b.ownMargins!);
    };
    expect(await ownMargins(0)).toEqual(new Array(n).fill(base));
    schedule.noteEscapes(0, 12, Uint32Array.of(0b10, 0)); // object 1 (and 65) escaped
    const after = await ownMargins(1);
    expect([after[0], after[1], after[2], after[64], after[65]]).toEqual([base, 2 * base, base, base, 2 * base]);
    schedule.noteEscapes(0, 3, Uint32Array.of(0, 1)); // bit 32: object 32
    const next = await ownMargins(2);
    expect(next[32]).toBe(2 * base);
    expect(next[1]).toBeCloseTo(0.95 * 2 * base, 12);
    expect(next[0]).toBe(base);
    schedule.noteEscapes(0, 5); // no flags: every object's
    expect((await ownMargins(3)).every((m) => m >= 1.9 * base)).toBe(true);
  });

  it('escapes double the margin the escaping frame\'s job used, not one already widened for a frame still in flight', () => {
    const runner: BroadPhaseRunner = async () => ({ vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0), jobMs: 0 });
    const base = 0.01;
    const topology: CcdTopology = {
      vertexCount: 2, boundaryVertices: Uint32Array.of(0, 1), triangles: new Uint32Array(0), edges: new Uint32Array(0), vertexObject: Uint32Array.of(0, 1),
    };
    const schedule = new CcdSchedule(runner, base, { latency: 1 }, topology);
    // Frames k and k + 1 both ran jobs swept at the base margins (started before the first escape).
    const used = { margin: base, ownMargin: base, ownMargins: Float64Array.of(base, base) };
    schedule.noteEscapes(1, 5, Uint32Array.of(0b01, 0), used);
    schedule.noteEscapes(1, 5, Uint32Array.of(0b01, 0), used);
    expect(schedule.margin).toBe(2 * base);
    expect(Array.from(schedule.ownMargins!)).toEqual([2 * base, base]);
    // A job at the widened margin that still escapes doubles again.
    schedule.noteEscapes(1, 5, Uint32Array.of(0b01, 0), { margin: 2 * base, ownMargin: 2 * base, ownMargins: Float64Array.of(2 * base, base) });
    expect(schedule.margin).toBe(4 * base);
    expect(schedule.ownMargins![0]).toBe(4 * base);
  });

  it('an escape widens the margin by twice how far it lay outside, at most doubling: motion deviating as far again fits, and a small escape does not double the boxes', () => {
    const runner: BroadPhaseRunner = async () => ({ vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0), jobMs: 0 });
    const base = 0.0078;
    // A vertex whose path deviates from the ballistic one by e stays in a box of margin m iff
    // e <= m, and otherwise lies e - m outside it (the box oracle, no schedule code).
    for (const used of [base, 4 * base, 10.6 * base]) {
      for (const ratio of [1.001, 1.01, 1.1, 1.5, 1.9, 2, 2.5, 4]) {
        const schedule = new CcdSchedule(runner, base, { latency: 1 });
        const e = ratio * used;
        schedule.noteEscapes(1, 1, undefined, { margin: used, ownMargin: used }, { world: e - used, own: e - used });
        for (const m of [schedule.margin, schedule.ownMargin]) {
          // Never wider than doubling, as before ...
          expect(m).toBeLessThanOrEqual(2 * used * (1 + 1e-12));
          // ... the same deviation fits whenever doubling would have fitted it ...
          if (e <= 2 * used) expect(m).toBeGreaterThanOrEqual(e * (1 - 1e-12));
          // ... and never more than the needed margin plus what it lacked.
          expect(m).toBeLessThanOrEqual((e + (e - used)) * (1 + 1e-12));
        }
      }
    }
    // The H100 trace: one world escape 0.6 mm outside boxes of 83 mm.
    const schedule = new CcdSchedule(runner, base, { latency: 1 });
    schedule.noteEscapes(1, 0, undefined, { margin: 0.083, ownMargin: base }, { world: 0.0006, own: 0 });
    expect(schedule.margin).toBeCloseTo(0.0842, 6);
    // Without a measured distance (zero, absent), an escape doubles.
    schedule.noteEscapes(1, 0, undefined, { margin: 0.0842, ownMargin: base }, { world: 0, own: 0 });
    expect(schedule.margin).toBeCloseTo(0.1684, 6);
    schedule.noteEscapes(0, 3, undefined, { margin: 0.1684, ownMargin: base });
    expect(schedule.ownMargin).toBeCloseTo(2 * base, 12);
  });

  it('with the GPU\'s list of escaped vertices, only those vertices\' boxes widen; a full list widens the scales too; vertex margins shrink back and vanish', async () => {
    const bounds: MotionBound[] = [];
    const runner: BroadPhaseRunner = async (_x, _v, bound) => {
      bounds.push(bound);
      return { vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0), jobMs: 0 };
    };
    // Two objects of two vertices.
    const topology: CcdTopology = {
      vertexCount: 4, boundaryVertices: Uint32Array.of(0, 1, 2, 3), triangles: new Uint32Array(0), edges: new Uint32Array(0), vertexObject: Uint32Array.of(0, 0, 1, 1),
    };
    const base = 0.01;
    const schedule = new CcdSchedule(runner, base, { latency: 0 }, topology);
    const snapshot = { positions: new Float32Array(16), velocities: new Float32Array(16) };
    const p = { dt: 1 / 60, gravity: [0, -9.81, 0] as [number, number, number], selfCollision: true };
    const job = async (frame: number): Promise<MotionBound> => {
      const input = await schedule.inputFor(frame, p, async () => snapshot);
      expect(input.vertexMargins).toEqual(bounds[bounds.length - 1]!.vertexMargins);
      return bounds[bounds.length - 1]!;
    };
    const first = await job(0);
    expect(first.vertexMargins).toBeUndefined();
    const used = { margin: base, ownMargin: base, ownMargins: Float64Array.of(base, base) };
    // Vertex 1 escaped 4 mm (its own-frame box), vertex 2 0.2 mm (its world box).
    schedule.noteEscapes(1, 1, Uint32Array.of(0b01, 0), used, { world: 0.0002, own: 0.004 }, { vertices: [1, 2], distances: [0.004, 0.0002], overflowed: false });
    const after = await job(1);
    expect([after.margin, Array.from(after.ownMargins!)]).toEqual([base, [base, base]]);
    expect(Array.from(after.vertexMargins!).map((m) => +m.toFixed(6))).toEqual([0, 0.018, 0.0104, 0]);
    // A full list names only some of the escaped: the scales widen as well.
    schedule.noteEscapes(1, 0, undefined, { ...used, vertexMargins: after.vertexMargins }, { world: 0.003, own: 0 }, { vertices: [3], distances: [0.003], overflowed: true });
    const full = await job(2);
    expect(full.margin).toBeCloseTo(0.016, 9);
    expect(full.vertexMargins![3]).toBeCloseTo(0.016, 6);
    expect(full.vertexMargins![1]).toBeCloseTo(0.95 * 0.018, 6);
    // Without escapes they shrink by 5 % a frame and are dropped under the base margin.
    for (let f = 3; f < 40; f++) schedule.noteEscapes(0, 0, undefined, undefined, undefined, { vertices: [], distances: [], overflowed: false });
    expect((await job(40)).vertexMargins).toBeUndefined();
  });
});


describe('CcdSchedule closing speed at the frame\'s start (impact substeps)', () => {
  // Vertex 0 (object 0) and triangle (1, 2, 3) of object 1 in the plane x = 0.02; the vertex at the origin.
  const topology: CcdTopology = {
    vertexCount: 4, boundaryVertices: Uint32Array.of(0, 1, 2, 3), triangles: Uint32Array.of(1, 2, 3), edges: new Uint32Array(0),
    vertexObject: Uint32Array.of(0, 1, 1, 1),
  };
  const positions = Float32Array.of(0, 0, 0, 0, 0.02, -0.1, -0.1, 0, 0.02, 0.1, -0.1, 0, 0.02, 0, 0.1, 0);
  const p = { dt: 1 / 60, gravity: [0, 0, 0] as [number, number, number], selfCollision: false };
  /** The job's own figure is a sentinel: any other value read back was measured again. */
  const JOB_FIGURE = 123;
  const runner: BroadPhaseRunner = async () => ({ vertexFace: Uint32Array.of(0, 0), edgeEdge: new Uint32Array(0), jobMs: 0, closingSpeed: JOB_FIGURE });
  const atRest = { positions, velocities: new Float32Array(16) };
  // The vertex moves toward the triangle's plane at 5 m/s: 2 cm closes in 4 ms, within the frame.
  const closing = { positions, velocities: Float32Array.of(5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0) };

  it('latency 1: the job from frame k - 2\'s end is measured again on frame k - 1\'s end (5 m/s, head-on), unless asked not to', async () => {
    const schedule = new CcdSchedule(runner, 0.01, { latency: 1 }, topology);
    const never = async () => { throw new Error('no blocking snapshot expected'); };
    schedule.schedule(0, atRest, p); // the job for frame 2
    schedule.schedule(1, closing, p); // the job for frame 3; the newest snapshot
    expect((await schedule.inputFor(2, p, never)).closingSpeed).toBeCloseTo(5, 5);
    schedule.schedule(2, atRest, p);
    expect((await schedule.inputFor(3, p, never)).closingSpeed).toBe(0); // at rest at frame 3's start
    schedule.schedule(3, closing, p);
    schedule.schedule(4, closing, p);
    expect((await schedule.inputFor(5, p, never, { closingSpeed: false })).closingSpeed).toBe(JOB_FIGURE);
  });

  it('no newer snapshot than the job\'s (latency 0, a blocking job, after a reset): the job\'s figure stands', async () => {
    const schedule = new CcdSchedule(runner, 0.01, { latency: 0 }, topology);
    schedule.schedule(0, closing, p); // the job for frame 1, from the newest snapshot itself
    expect((await schedule.inputFor(1, p, async () => closing)).closingSpeed).toBe(JOB_FIGURE);
    const late = new CcdSchedule(runner, 0.01, { latency: 1 }, topology);
    late.schedule(0, atRest, p);
    late.schedule(1, closing, p);
    late.reset();
    expect((await late.inputFor(2, p, async () => closing)).closingSpeed).toBe(JOB_FIGURE);
  });
});
