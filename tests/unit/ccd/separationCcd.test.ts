/**
 * The CPU reference's CCD with a separation (src/collision/ccd/separationCcd.ts), against the
 * public benchmark queries of Wang et al. 2021 (exact ground truth by others) at separation 0, and
 * against analytic motions whose first time within the separation is known in closed form.
 */
import { describe, expect, it } from 'vitest';
import { ccdWithin } from '../../../src/collision/ccd/separationCcd';
import { ccdQuerySets, readCcdQueries } from '../../support/ccdQueryFiles';

describe('ccdWithin (float64, with a separation)', () => {
  it('never misses a contact of the shared benchmark queries at separation 0', () => {
    let positives = 0, falsePositives = 0, total = 0;
    for (const set of ccdQuerySets()) {
      for (const kind of ['vertex-face', 'edge-edge'] as const) {
        const { queries, truth, names } = readCcdQueries(set, kind);
        for (let i = 0; i < truth.length; i++) {
          const toi = ccdWithin(kind === 'vertex-face', queries.subarray(24 * i, 24 * i + 24), 0);
          total++;
          if (truth[i]) {
            positives++;
            expect(toi, `${set}/${kind} ${names[i]}`).toBeGreaterThanOrEqual(0);
          } else if (toi >= 0) falsePositives++;
        }
      }
    }
    console.log(`ccdWithin at separation 0: ${total} queries, ${positives} contacts all found, ${falsePositives} false positives`);
    expect(total).toBeGreaterThan(5000);
  });

  it('a vertex falling onto a triangle: first within the separation at (h - sep) / speed, never later', () => {
    for (const [h, speed, sep] of [[0.3, 1, 0.01], [0.05, 2, 0.001], [1, 1.5, 0.2]]) {
      // Triangle in the plane y = 0 (large), vertex above its interior falling along -y over t in [0, 1].
      const q = [0.1, h, 0.2, -1, 0, -1, 2, 0, -1, -1, 0, 2, 0.1, h - speed, 0.2, -1, 0, -1, 2, 0, -1, -1, 0, 2];
      const exact = (h - sep) / speed;
      const toi = ccdWithin(true, q, sep);
      expect(toi).toBeLessThanOrEqual(exact);
      // Early by at most (2 err + 3 delta) / speed (separationCcd.ts header), delta here 2 % of the separation.
      expect(toi).toBeGreaterThan(exact - 0.06 * sep / speed - 1e-3);
    }
    // Missing by more than the separation: no contact.
    expect(ccdWithin(true, [0.1, 0.3, 0.2, -1, 0, -1, 2, 0, -1, -1, 0, 2, 0.1, 0.02, 0.2, -1, 0, -1, 2, 0, -1, -1, 0, 2], 0.01)).toBe(-1);
  });

  it('two crossing edges closing at speed 1: first within the separation at (gap - sep), never later', () => {
    // Edge A along x at y = gap (moving down at 1), edge B along z at y = 0.
    const gap = 0.4, sep = 0.05;
    const q = [-1, gap, 0, 1, gap, 0, 0, 0, -1, 0, 0, 1, -1, gap - 1, 0, 1, gap - 1, 0, 0, 0, -1, 0, 0, 1];
    const toi = ccdWithin(false, q, sep);
    expect(toi).toBeLessThanOrEqual(gap - sep);
    expect(toi).toBeGreaterThan(gap - sep - 0.06 * sep - 1e-3);
    // Already within the separation at the start: toi 0.
    expect(ccdWithin(false, [-1, 0.01, 0, 1, 0.01, 0, 0, 0, -1, 0, 0, 1, -1, 0.01, 0, 1, 0.01, 0, 0, 0, -1, 0, 0, 1], sep)).toBe(0);
  });

  it('pairs near and apart, moving every way: never -1 where a dense sample of the motion comes within the separation', () => {
    // A brute-force oracle sharing no code with ccdWithin: |F(t, u, w)|_inf on a grid of t, u, w
    // (an upper bound of the true minimum), F the gap between a point of each primitive. The pairs
    // start 0-8 separations apart, one closing on the other by up to 10 separations, each point
    // moving by up to 3 more on its own (a shared translation of up to 40 on top), so that many of them close from beyond any bound on the gap at t = 0 to within
    // the separation: a bound on the motion that left out some of it would miss those.
    let seed = 12345;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const sep = 0.01;
    const T = 40, U = 16;
    let misses = 0, apart = 0, contacts = 0;
    for (let pair = 0; pair < 240; pair++) {
      const vertexFace = pair % 2 === 0;
      // Primitive B about the origin (unit size); A placed `gap` from a point c of B along a random
      // direction n, closing along -n by up to 10 separations, each point also moving on its own.
      const q = new Float64Array(24);
      const onA = (p: number): boolean => (vertexFace ? p === 0 : p < 2);
      const bPoints = vertexFace ? [1, 2, 3] : [2, 3];
      for (const p of bPoints) for (let k = 0; k < 3; k++) q[3 * p + k] = random() - 0.5;
      const weights = bPoints.map(() => random());
      const weightSum = weights.reduce((a, b) => a + b, 0);
      const n = [random() - 0.5, random() - 0.5, random() - 0.5];
      const nLen = Math.hypot(n[0], n[1], n[2]);
      const gap = 8 * sep * random();
      const closing = 10 * sep * random();
      const along = [random() - 0.5, random() - 0.5, random() - 0.5];
      const shared = [40 * sep * (random() - 0.5), 40 * sep * (random() - 0.5), 40 * sep * (random() - 0.5)];
      for (let k = 0; k < 3; k++) {
        let c = 0;
        bPoints.forEach((p, i) => (c += (weights[i] / weightSum) * q[3 * p + k]));
        const a = c + (n[k] / nLen) * gap;
        if (vertexFace) q[k] = a;
        else { q[k] = a - 0.4 * along[k]; q[3 + k] = a + 0.4 * along[k]; }
      }
      for (let p = 0; p < 4; p++) {
        for (let k = 0; k < 3; k++) {
          const approach = onA(p) ? -(n[k] / nLen) * closing : 0;
          q[12 + 3 * p + k] = q[3 * p + k] + shared[k] + approach + 3 * sep * (random() - 0.5);
        }
      }
      let sampled = Infinity;
      for (let it = 0; it <= T; it++) {
        const t = it / T;
        const at = (p: number, k: number): number => (1 - t) * q[3 * p + k] + t * q[12 + 3 * p + k];
        for (let iu = 0; iu <= U; iu++) {
          for (let iw = 0; iw <= U; iw++) {
            const u = iu / U, w = iw / U;
            if (vertexFace && u + w > 1) continue;
            let norm = 0;
            for (let k = 0; k < 3; k++) {
              const f = vertexFace
                ? at(0, k) - (at(1, k) + u * (at(2, k) - at(1, k)) + w * (at(3, k) - at(1, k)))
                : at(0, k) + u * (at(1, k) - at(0, k)) - (at(2, k) + w * (at(3, k) - at(2, k)));
              norm = Math.max(norm, Math.abs(f));
            }
            sampled = Math.min(sampled, norm);
          }
        }
      }
      const toi = ccdWithin(vertexFace, q, sep);
      if (toi < 0) apart++;
      if (sampled <= sep) {
        contacts++;
        if (toi < 0) misses++;
      }
    }
    console.log(`random pairs: ${contacts} within the separation by the sample, ${apart} answered -1, ${misses} missed`);
    expect(contacts).toBeGreaterThan(20);
    expect(apart).toBeGreaterThan(20);
    expect(misses).toBe(0);
  });
});
