import { describe, expect, it } from 'vitest';
import { buildSurfaceBvh, queryNearestTriangles, refitSurfaceBvh } from '../../../src/bvh';
import { pointTriangleDistance2 } from './support/pointTriangle';
import { rng } from '../../support/random';
import { deform, triangleSoup, uvSphere } from './support/surfaces';

interface Surface {
  positions: Float32Array;
  triangles: Uint32Array;
}

/** Brute-force minimum over triangles accepted by `valid` (returns [distance2, triangle]). */
function bruteForce(s: Surface, px: number, py: number, pz: number, valid: (t: number) => boolean): [number, number] {
  let best = Infinity;
  let arg = -1;
  for (let t = 0; t < s.triangles.length / 3; t++) {
    if (!valid(t)) continue;
    const d2 = pointTriangleDistance2(s.positions, s.triangles, t, px, py, pz);
    if (d2 < best) {
      best = d2;
      arg = t;
    }
  }
  return [best, arg];
}

/**
 * Runs the shrinking-radius query where only `valid` triangles shrink the radius (as a valid
 * path does in Alg. 3) and checks it against brute force: same minimum, and every triangle
 * nearer than the answer was visited (nothing pruned wrongly).
 */
function checkPoints(s: Surface, points: Float64Array, valid: (t: number) => boolean): { visits: number } {
  const bvh = buildSurfaceBvh(s.positions, s.triangles);
  const visited = new Uint8Array(s.triangles.length / 3);
  let visits = 0;
  let mismatches = 0;
  for (let i = 0; i < points.length; i += 3) {
    const px = points[i], py = points[i + 1], pz = points[i + 2];
    visited.fill(0);
    let best = -1;
    let bestD2 = Infinity;
    const complete = queryNearestTriangles(bvh, px, py, pz, Infinity, (t, r2) => {
      visited[t]++;
      visits++;
      if (!valid(t)) return r2;
      const d2 = pointTriangleDistance2(s.positions, s.triangles, t, px, py, pz);
      if (d2 < bestD2) {
        bestD2 = d2;
        best = t;
      }
      return Math.min(r2, d2);
    });
    expect(complete).toBe(true);
    const [truth, arg] = bruteForce(s, px, py, pz, valid);
    if (bestD2 !== truth || (best !== arg && pointTriangleDistance2(s.positions, s.triangles, best, px, py, pz) !== truth)) mismatches++;
    for (let t = 0; t < visited.length; t++) {
      if (visited[t] > 1) mismatches++; // visited at most once
      if (!visited[t] && pointTriangleDistance2(s.positions, s.triangles, t, px, py, pz) < truth) mismatches++;
    }
  }
  expect(mismatches).toBe(0);
  return { visits };
}

function randomPoints(n: number, lo: number, hi: number, seed: number): Float64Array {
  const r = rng(seed);
  const out = new Float64Array(3 * n);
  for (let i = 0; i < out.length; i++) out[i] = lo + (hi - lo) * r();
  return out;
}

describe('queryNearestTriangles', () => {
  it('finds the brute-force nearest triangle of a sphere for 2,000 points, visiting few triangles', () => {
    const s = uvSphere(48, 32, 1);
    const nTri = s.triangles.length / 3;
    const points = randomPoints(2000, -1.2, 1.2, 1);
    const { visits } = checkPoints(s, points, () => true);
    // Nearest-first with a shrinking radius prunes almost everything.
    expect(visits / 2000).toBeLessThan(nTri / 20);
  });

  it('finds the nearest VALID triangle when only some triangles shrink the radius (Alg. 3)', () => {
    const s = uvSphere(32, 24, 1);
    const points = randomPoints(1000, -0.9, 0.9, 2);
    checkPoints(s, points, (t) => t % 3 === 0);
  });

  it('is exact on a random soup and after a deformation plus refit', () => {
    const soup = triangleSoup(1500, 4, 0.6, 5);
    checkPoints(soup, randomPoints(500, -1, 5, 6), () => true);
    const sphere = uvSphere(40, 30, 1.5);
    const bvh = buildSurfaceBvh(sphere.positions, sphere.triangles);
    const moved = deform(sphere.positions, 1.5, 0.7, 3);
    refitSurfaceBvh(bvh, moved);
    // Query the refitted tree against brute force on the moved surface.
    const r = rng(8);
    let wrong = 0;
    for (let i = 0; i < 800; i++) {
      const px = (r() - 0.5) * 4, py = (r() - 0.5) * 4, pz = (r() - 0.5) * 4;
      let bestD2 = Infinity;
      queryNearestTriangles(bvh, px, py, pz, Infinity, (t, r2) => {
        const d2 = pointTriangleDistance2(moved, sphere.triangles, t, px, py, pz);
        bestD2 = Math.min(bestD2, d2);
        return Math.min(r2, d2);
      });
      const [truth] = bruteForce({ positions: moved, triangles: sphere.triangles }, px, py, pz, () => true);
      if (bestD2 !== truth) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it('respects a finite starting radius: visits exactly the leaves that may hold triangles within it', () => {
    const s = uvSphere(32, 24, 1);
    const bvh = buildSurfaceBvh(s.positions, s.triangles);
    const r2 = 0.05;
    const seen = new Set<number>();
    queryNearestTriangles(bvh, 0.9, 0.1, 0.2, r2, (t, rr) => {
      seen.add(t);
      return rr;
    });
    for (let t = 0; t < s.triangles.length / 3; t++) {
      if (pointTriangleDistance2(s.positions, s.triangles, t, 0.9, 0.1, 0.2) <= r2) expect(seen.has(t)).toBe(true);
    }
    expect(seen.size).toBeLessThan(s.triangles.length / 3);
  });

  it('reports an incomplete query when the caller-supplied stack is too small', () => {
    const s = triangleSoup(4000, 10, 0.5, 11);
    const bvh = buildSurfaceBvh(s.positions, s.triangles);
    const ok = queryNearestTriangles(bvh, 5, 5, 5, Infinity, (_t, r2) => r2, new Int32Array(2));
    expect(ok).toBe(false);
    expect(queryNearestTriangles(bvh, 5, 5, 5, Infinity, (_t, r2) => r2, new Int32Array(bvh.depth + 1))).toBe(true);
  });
});
