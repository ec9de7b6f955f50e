/**
 * The time step's motion bound for self-collision culling (deviationMonitor.ts) against motions
 * whose deviation from the linear prediction is known in closed form: a rigid translation with any
 * acceleration (deviation 0 after the object's common translation is removed), a rotation (the
 * chord of the circle: r (1 - cos(w t)) radially), and a sudden push of one vertex (an escape).
 */
import { describe, expect, it } from 'vitest';
import { DeviationMonitor } from '../../../src/collision/selfCulling/deviationMonitor';

/** A ring of n vertices (radius r, in the xy plane), one object, boundary edges between neighbours. */
function ring(n: number) {
  const edges: number[] = [];
  for (let i = 0; i < n; i++) edges.push(i, (i + 1) % n);
  return { vertexCount: n, boundaryVertices: Uint32Array.from({ length: n }, (_, i) => i), vertexObject: new Uint32Array(n), edges: Uint32Array.from(edges) };
}

/** Positions and velocities (vec4) of the ring turned by angle a at angular speed w, shifted by (sx, 0, 0) moving at vx. */
function state(n: number, r: number, a: number, w: number, sx: number, vx: number): { p: Float32Array; v: Float32Array } {
  const p = new Float32Array(4 * n), v = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) {
    const t = a + (2 * Math.PI * i) / n;
    p[4 * i] = sx + r * Math.cos(t);
    p[4 * i + 1] = r * Math.sin(t);
    v[4 * i] = vx - w * r * Math.sin(t);
    v[4 * i + 1] = w * r * Math.cos(t);
  }
  return { p, v };
}

describe('DeviationMonitor', () => {
  const n = 32, r = 1, dt = 1 / 60;

  it('no bound until a snapshot two frames back is known; a falling rigid ring gets the floor', () => {
    const m = new DeviationMonitor(ring(n), { floor: 1e-3 });
    // Free fall (x = -g t^2 / 2 along x): the whole ring deviates alike, which a common translation absorbs.
    const at = (f: number) => state(n, r, 0, 0, -0.5 * 9.81 * (f * dt) ** 2, -9.81 * f * dt);
    expect(m.observe(0, at(0).p, at(0).v, dt).bound).toBeNull();
    expect(m.observe(1, at(1).p, at(1).v, dt).bound).toBeNull();
    const third = m.observe(2, at(2).p, at(2).v, dt);
    expect(third.bound).not.toBeNull();
    expect(third.observation.maxResidual).toBeLessThan(1e-6);
    expect(Math.max(...third.bound!)).toBeCloseTo(1e-3, 6);
    expect(third.observation.escapes).toBe(0);
    expect(Math.max(...third.edgeBound!)).toBeCloseTo(1e-3, 6);
  });

  it('a turning ring: the bound is twice the chord deviation over two frames, and it holds', () => {
    const w = 3;
    const m = new DeviationMonitor(ring(n), { floor: 1e-6 });
    const at = (f: number) => state(n, r, w * f * dt, w, 0, 0);
    let last = m.observe(0, at(0).p, at(0).v, dt);
    for (let f = 1; f <= 6; f++) last = m.observe(f, at(f).p, at(f).v, dt);
    // Over 2 frames the prediction x + v t misses the circle by |r (cos(wt) - 1), r (sin(wt) - wt)|, at most in x or y.
    const wt = 2 * w * dt;
    const exact = r * Math.max(1 - Math.cos(wt), wt - Math.sin(wt));
    expect(last.observation.maxResidual).toBeGreaterThan(0.9 * exact);
    expect(last.observation.maxResidual).toBeLessThan(1.5 * exact);
    expect(last.observation.escapes).toBe(0);
    expect(Math.max(...last.bound!)).toBeGreaterThanOrEqual(2 * last.observation.maxResidual * 0.99);
    // An edge of the ring (length 2 sin(pi / n)) turns rigidly: its vector strays from v t by the same
    // chord as a vertex, scaled by its length over the radius.
    const edge = 2 * Math.sin(Math.PI / n);
    expect(Math.max(...last.edgeBound!)).toBeLessThan(0.3 * Math.max(...last.bound!) * (edge / r) * 4);
  });

  it('a vertex pushed away counts as an escape, with its two edges, and its neighbours get its bound', () => {
    const m = new DeviationMonitor(ring(n), { floor: 1e-4 });
    const still = () => state(n, r, 0, 0, 0, 0);
    for (let f = 0; f <= 3; f++) m.observe(f, still().p, still().v, dt);
    const pushed = still();
    pushed.p[4 * 5 + 2] += 0.05;
    const seen = m.observe(4, pushed.p, pushed.v, dt);
    expect(seen.observation.escapes).toBe(3);
    // Its edges' vectors changed by 0.05: their bounds and their neighbours' follow.
    expect(seen.edgeBound![4]).toBeGreaterThan(0.09);
    expect(seen.edgeBound![5]).toBeGreaterThan(0.09);
    expect(seen.edgeBound![3]).toBeGreaterThan(0.09);
    expect(seen.edgeBound![12]).toBeCloseTo(1e-4, 8);
    expect(seen.bound![5]).toBeGreaterThan(0.09);
    expect(seen.bound![4]).toBeGreaterThan(0.09);
    expect(seen.bound![6]).toBeGreaterThan(0.09);
    expect(seen.bound![9]).toBeCloseTo(1e-4, 8);
  });

  it('forgets across a change of dt and after reset', () => {
    const m = new DeviationMonitor(ring(n), { floor: 1e-3 });
    const s = state(n, r, 0, 0, 0, 0);
    m.observe(0, s.p, s.v, dt);
    m.observe(1, s.p, s.v, dt);
    expect(m.observe(2, s.p, s.v, dt / 2).bound).toBeNull();
    m.reset();
    expect(m.observe(3, s.p, s.v, dt).bound).toBeNull();
  });
});
