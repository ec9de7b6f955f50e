import { describe, expect, it } from 'vitest';
import { CpuCollisionStage } from '../../../src/collision/cpu/cpuCollisionStage';
import { PIN_INTER, PIN_RELEASED } from '../../../src/collision/pinMark';
import { defaultParams } from '../../../src/contract/params';
import { bodiesSetup, countOn, cubePart } from './scenes';

/**
 * Pin release (SolverParams.pinRelease; docs/collisions.md "A Pin point outside at detection"),
 * one substep of the float64 collision stage driven by hand. A fixed 10 cm cube B and a free cube A
 * above it, its bottom face 3 offsets above B's top; the middle vertex p of A's bottom face starts
 * the substep 3 mm inside B (Pin), the material (positions set by the test) carries it out to half
 * an offset above B before detection, and the later iterations carry it back 4 mm in before the
 * next contact round (solveAgain), the sequence traced on the 4-octopus box. The truth is the
 * brute-force counter (tests/support/intersectionCounter.ts, no code shared with src/collision): no
 * vertex of A inside B after the round. With Alg. 5 as written (release off) p gets no contact
 * (no tet holds it at detection, and CCD skips a Pin point's pairs) and ends inside: the check can fail.
 */
function pinnedVertexCarriedOutAndBack(pinRelease: boolean) {
  const setup = bodiesSetup([{ part: cubePart(2, 0.1, [0.011, 0, 0.013]) }, { part: cubePart(2, 0.1, [0, 0.1, 0]) }], { gravity: [0, 0, 0] });
  const m = setup.model;
  const stage = new CpuCollisionStage(m);
  const params = defaultParams({ collisionMode: 'hybrid', selfCollision: false, friction: 0, gravity: [0, 0, 0], pinRelease });
  const delta = stage.offsetOf(params);
  const lift = 3 * delta;
  const firstA = m.objectVertexOffsets[1];
  const x0 = Float64Array.from(m.restPositions);
  for (let v = firstA; v < m.vertexCount; v++) x0[3 * v + 1] += lift;
  // p: the vertex of A at (0.05, 0.1, 0.05) at rest, the middle of its bottom face.
  let p = -1;
  for (let v = firstA; v < m.vertexCount; v++) {
    const r = m.restPositions;
    if (Math.abs(r[3 * v] - 0.05) + Math.abs(r[3 * v + 1] - 0.1) + Math.abs(r[3 * v + 2] - 0.05) < 1e-9) p = v;
  }
  x0[3 * p + 1] = 0.1 - 0.003;
  const x = Float64Array.from(x0);
  x[3 * p + 1] = 0.1 + 0.5 * delta;
  const w = Float64Array.from(m.invMass);
  w.fill(0, 0, firstA);
  // The offset opens from each contact's starting gap, as the solver sets it per substep.
  stage.offsetRamp = 0.25 * delta;
  const counters = stage.step(x, x0, w, params);
  const mark = stage.pin[p];
  const released = stage.pin.filter((k) => k === PIN_RELEASED).length;
  const exitOffsets: number[] = [];
  for (const i of stage.ccd.exitContacts) exitOffsets.push(stage.contacts.offset[i]);
  // The later iterations carry p back in, deeper than it started.
  x[3 * p + 1] = 0.1 - 0.004;
  stage.solveAgain(x, x0, w, params);
  return { inside: countOn(m, x).inter, pY: x[3 * p + 1], delta, mark, released, counters, exitOffsets };
}

describe('Pin release: a Pin vertex carried out before detection keeps out of the faces it left through', () => {
  it('released, it gets exit contacts and ends outside; with Alg. 5 as written it ends back inside', () => {
    const on = pinnedVertexCarriedOutAndBack(true);
    const off = pinnedVertexCarriedOutAndBack(false);
    console.log(`pin release on: p at y ${on.pY.toFixed(5)} (offset ${on.delta.toExponential(2)}), ${on.counters.pinReleased} released, ${on.counters.ccd.exitContacts} exit contacts, offsets ${on.exitOffsets.map((o) => o.toExponential(2)).join(' ')}, ${on.inside} inside; off: p at ${off.pY.toFixed(5)}, ${off.inside} inside`);
    expect(on.mark).toBe(PIN_RELEASED);
    // p, and a vertex of B that A's tets stretched down around p held at the start.
    expect(on.counters.pinReleased).toBe(on.released);
    expect(on.released).toBeGreaterThanOrEqual(1);
    expect(on.counters.ccd.exitContacts).toBeGreaterThan(0);
    expect(on.counters.ccd.exitContacts).toBe(on.exitOffsets.length);
    // Each opens from p's gap at detection (half an offset) by one ramp step: it holds p outside.
    for (const o of on.exitOffsets) expect(o).toBeGreaterThan(0);
    expect(on.inside).toBe(0);
    expect(on.pY).toBeGreaterThan(0.1);
    // Alg. 5 as written: still Pin, no contact, back inside.
    expect(off.mark).toBe(PIN_INTER);
    expect(off.counters.pinReleased).toBe(0);
    expect(off.counters.ccd.exitContacts).toBe(0);
    expect(off.inside).toBeGreaterThan(0);
  });
});
