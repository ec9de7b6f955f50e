/**
 * CCD's schedule widens the boxes that escaped, and only those: world boxes (pairs of different
 * objects) by the world escapes, own-frame boxes (pairs within one object) by the own-frame ones.
 * Before, one scale served both, and a pile of octopi landing (own-frame escapes only: the lower
 * part stops while the mean still falls) widened every world box too.
 */
import { describe, expect, it } from 'vitest';
import { CcdSchedule, type BroadPhaseRunner } from '../../../src/collision/ccd/ccdSchedule';
import type { MotionBound } from '../../../src/collision/ccd/broadPhase';

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
});
