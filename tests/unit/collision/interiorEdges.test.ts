import { describe, expect, it } from 'vitest';
import { CpuCollisionStage } from '../../../src/collision/cpu/cpuCollisionStage';
import { GROUP_EDGE_EDGE } from '../../../src/collision/cpu/contactsCpu';
import { ccdWithin } from '../../../src/collision/ccd/separationCcd';
import { EE_END_PARAM, interiorEdgeQuery } from '../../../src/collision/ccd/interiorEdges';
import { defaultParams } from '../../../src/contract/params';
import { countSurfaceCrossings } from '../../support/surfaceCrossings';
import { rng } from '../../support/random';
import { bodiesSetup, RIDGE_CONTACT_OFFSET, ridgeAndTippingEdge } from './scenes';

/**
 * Edge-edge CCD over the edges' interiors (SolverParams.ccdEdgeInterior, src/collision/ccd/
 * interiorEdges.ts; docs/collisions.md "Edges searched inside their ends").
 *
 * The scene (scenes.ts ridgeAndTippingEdge): a fixed tet whose top edge is a ridge along z (faces y = -|x| beside it), and a free
 * tet whose 4 cm edge PQ starts with P 0.5 mm from the ridge (within the 1 mm contact offset) and
 * rises away from it at 35 degrees; over one substep P slides 1.4 mm and the edge tips 40 degrees,
 * ending across the ridge 1.1 mm below its top (at 1.5 mm from P), P and Q just outside the two
 * slopes: the edge sweeps down through the ridge while neither end enters the fixed tet. Over
 * whole edges the pair's first time within the separation is 0 with its closest point at P, and
 * the pair went to P's vertex-face pairs, which hold P but not the edge; searched inside the ends,
 * the pair gets its edge-edge contact. The truth is a brute-force count of crossing triangle pairs
 * (tests/support/surfaceCrossings.ts) after the CCD stage and its contact passes. The GPU twin:
 * tests/gpu/interiorEdges.test.ts.
 */
function ridgeCrossing(interiorEdges: boolean) {
  const { parts, end } = ridgeAndTippingEdge();
  const setup = bodiesSetup(parts.map((part) => ({ part })), { gravity: [0, 0, 0], selfCollision: false });
  const m = setup.model;
  const stage = new CpuCollisionStage(m);
  const x0 = Float64Array.from(m.restPositions);
  const x = Float64Array.from(x0);
  const free = m.objectVertexOffsets[1];
  x.set(end, 3 * free);
  const w = Float64Array.from(m.invMass);
  w.fill(0, 0, free);
  const params = defaultParams({ collisionMode: 'ccd', selfCollision: false, contactOffset: RIDGE_CONTACT_OFFSET, friction: 0, gravity: [0, 0, 0], ccdEdgeInterior: interiorEdges });
  const counters = stage.step(x, x0, w, params);
  const crossings = countSurfaceCrossings({ positions: x, tets: m.tets, tetObject: m.tetObject }).interPairs;
  const c = stage.contacts;
  let edgeEdge = 0;
  for (let i = 0; i < c.count; i++) if (c.group[i] === GROUP_EDGE_EDGE) edgeEdge++;
  return { crossings, edgeEdge, atEnd: counters.ccd.edgeEdgeAtEnd };
}

/**
 * The smallest inf-norm distance at time t between points of edge a (q's points 0, 1) and edge b
 * (2, 3) inside their ends, over an (n + 1) x (n + 1) grid of parameters in [EE_END_PARAM,
 * 1 - EE_END_PARAM]; q as ccdWithin's (the points at t = 0, then at t = 1).
 */
function nearestInside(q: number[], t: number, n: number): number {
  const p = (j: number, k: number) => q[3 * j + k] + t * (q[12 + 3 * j + k] - q[3 * j + k]);
  const param = (i: number) => EE_END_PARAM + (1 - 2 * EE_END_PARAM) * (i / n);
  let best = Infinity;
  for (let iu = 0; iu <= n; iu++) {
    for (let iw = 0; iw <= n; iw++) {
      const u = param(iu), w = param(iw);
      let d = 0;
      for (let k = 0; k < 3; k++) d = Math.max(d, Math.abs(p(0, k) + u * (p(1, k) - p(0, k)) - p(2, k) - w * (p(3, k) - p(2, k))));
      best = Math.min(best, d);
    }
  }
  return best;
}

describe('edge-edge CCD searches the edges inside their ends', () => {
  it('an edge swept down through a ridge while its end stays beside it gets its contact, and no edge passes through', () => {
    const inside = ridgeCrossing(true);
    // The contact at P's end of the interior takes the gap's direction, and it is counted.
    expect(inside.atEnd).toBeGreaterThan(0);
    const whole = ridgeCrossing(false);
    console.log(`ridge: inside the ends ${inside.edgeEdge} edge-edge contacts, ${inside.crossings} crossings; whole edges ${whole.edgeEdge} contacts, ${whole.atEnd} left to an end, ${whole.crossings} crossings`);
    expect(inside.edgeEdge).toBeGreaterThan(0);
    expect(inside.crossings).toBe(0);
    // The check can fail: over whole edges the pair goes to its end and the ridge passes through.
    expect(whole.atEnd).toBeGreaterThan(0);
    expect(whole.crossings).toBeGreaterThan(0);
  });

  it('the first time is when two points inside both edges first come within the separation (brute-force sampling)', () => {
    const rand = rng(24);
    let hits = 0, earlierOverWhole = 0;
    for (let trial = 0; trial < 30; trial++) {
      const q = Array.from({ length: 24 }, () => rand() * 0.01);
      // Each point moves up to 1 cm, so many pairs meet within the substep.
      for (let i = 12; i < 24; i++) q[i] = q[i - 12] + (rand() - 0.5) * 0.02;
      const sep = 0.001;
      const toi = ccdWithin(false, interiorEdgeQuery(q, new Float64Array(24)), sep);
      // Oracle: the first sampled time at which sampled points inside both edges are within the separation.
      const T = 200;
      let first = -1;
      for (let it = 0; it <= T && first < 0; it++) if (nearestInside(q, it / T, 40) <= sep) first = it / T;
      if (first >= 0) {
        hits++;
        // Never later than a sampled contact (no contact is missed) ...
        expect(toi).toBeGreaterThanOrEqual(0);
        expect(toi).toBeLessThanOrEqual(first + 1e-9);
      }
      if (toi >= 0) {
        // ... and two points inside both edges are within the separation then (up to the grid's
        // spacing: edges within 3 cm per axis, 1/400 of each; and the search's time tolerance).
        expect(nearestInside(q, toi, 400)).toBeLessThanOrEqual(sep + 0.06 / 400 + 1e-5);
        if (ccdWithin(false, q, sep) < toi) earlierOverWhole++;
      }
    }
    console.log(`${hits} of 30 random pairs come within the separation inside their ends; ${earlierOverWhole} were within it earlier over whole edges`);
    expect(hits).toBeGreaterThan(10);
  });
});
