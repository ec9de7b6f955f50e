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
});
