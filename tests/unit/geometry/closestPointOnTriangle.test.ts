import { describe, expect, it } from 'vitest';
import {
  CPT_OUT_LENGTH,
  FEATURE_EDGE01,
  FEATURE_FACE,
  closestPointOnTriangle,
  projectedBarycentrics,
  isEdgeFeature,
  isVertexFeature,
} from '../../../src/geometry/closestPointOnTriangle';
import { rng } from '../../support/random';

type V = [number, number, number];

const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const dist = (a: V, b: V): number => Math.sqrt(dot(sub(a, b), sub(a, b)));

function segmentClosest(p: V, a: V, b: V): V {
  const e = sub(b, a);
  const ee = dot(e, e);
  const t = ee > 0 ? Math.min(1, Math.max(0, dot(sub(p, a), e) / ee)) : 0;
  return [a[0] + t * e[0], a[1] + t * e[1], a[2] + t * e[2]];
}

/**
 * Independent oracle: solve the 2x2 normal equations for the plane projection (Cramer), keep it
 * when inside, otherwise the best of the three segments.
 */
function oracle(p: V, a: V, b: V, c: V): V {
  const e0 = sub(b, a), e1 = sub(c, a), d = sub(p, a);
  const a00 = dot(e0, e0), a01 = dot(e0, e1), a11 = dot(e1, e1);
  const det = a00 * a11 - a01 * a01;
  if (det > 1e-12 * a00 * a11) {
    const r0 = dot(d, e0), r1 = dot(d, e1);
    const u = (r0 * a11 - r1 * a01) / det;
    const v = (a00 * r1 - a01 * r0) / det;
    if (u >= 0 && v >= 0 && u + v <= 1) return [a[0] + u * e0[0] + v * e1[0], a[1] + u * e0[1] + v * e1[1], a[2] + u * e0[2] + v * e1[2]];
  }
  let best: V = a;
  for (const q of [segmentClosest(p, a, b), segmentClosest(p, b, c), segmentClosest(p, c, a)]) if (dist(p, q) < dist(p, best)) best = q;
  return best;
}

function run(p: V, a: V, b: V, c: V, out: Float64Array): { q: V; feature: number } {
  const feature = closestPointOnTriangle(p[0], p[1], p[2], a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2], out);
  return { q: [out[0], out[1], out[2]], feature };
}

describe('closestPointOnTriangle', () => {
  const out = new Float64Array(CPT_OUT_LENGTH);

  it('matches an independent plane-projection/segment oracle on random triangles at many scales', () => {
    const r = rng(1);
    for (let i = 0; i < 20000; i++) {
      const scale = Math.pow(10, -3 + 5 * r());
      const off = (r() - 0.5) * 20;
      const pt = (): V => [off + scale * (r() - 0.5), off + scale * (r() - 0.5), off + scale * (r() - 0.5)];
      const a = pt(), b = pt(), c = pt();
      const p: V = [off + 3 * scale * (r() - 0.5), off + 3 * scale * (r() - 0.5), off + 3 * scale * (r() - 0.5)];
      const { q } = run(p, a, b, c, out);
      const o = oracle(p, a, b, c);
      // Same distance (the closest point is unique for a non-degenerate triangle, so also same point).
      expect(Math.abs(dist(p, q) - dist(p, o))).toBeLessThan(1e-9 * scale);
      expect(dist(q, o)).toBeLessThan(1e-6 * scale);
      // Barycentrics reproduce the point and sum to 1.
      expect(Math.abs(out[3] + out[4] + out[5] - 1)).toBeLessThan(1e-12);
      const bq: V = [
        out[3] * a[0] + out[4] * b[0] + out[5] * c[0],
        out[3] * a[1] + out[4] * b[1] + out[5] * c[1],
        out[3] * a[2] + out[4] * b[2] + out[5] * c[2],
      ];
      expect(dist(bq, q)).toBeLessThan(1e-9 * (scale + Math.abs(off)));
    }
  });

  it('is never beaten by dense sampling of the triangle', () => {
    const r = rng(7);
    for (let i = 0; i < 200; i++) {
      const a: V = [r(), r(), r()], b: V = [r(), r(), r()], c: V = [r(), r(), r()];
      const p: V = [2 * r() - 0.5, 2 * r() - 0.5, 2 * r() - 0.5];
      const { q } = run(p, a, b, c, out);
      const dq = dist(p, q);
      const n = 60;
      let sampled = Infinity;
      for (let s = 0; s <= n; s++) {
        for (let t = 0; s + t <= n; t++) {
          const u = s / n, v = t / n, w = 1 - u - v;
          const x: V = [w * a[0] + u * b[0] + v * c[0], w * a[1] + u * b[1] + v * c[1], w * a[2] + u * b[2] + v * c[2]];
          sampled = Math.min(sampled, dist(p, x));
        }
      }
      expect(sampled).toBeGreaterThanOrEqual(dq - 1e-12);
    }
  });

  it('reports the feature the point lies on', () => {
    const a: V = [0, 0, 0], b: V = [1, 0, 0], c: V = [0, 1, 0];
    expect(run([-1, -1, 0.5], a, b, c, out).feature).toBe(0);
    expect(run([2, -0.5, 0.5], a, b, c, out).feature).toBe(1);
    expect(run([-0.2, 3, -1], a, b, c, out).feature).toBe(2);
    expect(run([0.5, -1, 2], a, b, c, out).feature).toBe(FEATURE_EDGE01);
    expect(run([1, 1, 0.3], a, b, c, out).feature).toBe(FEATURE_EDGE01 + 1);
    expect(run([-1, 0.5, 0], a, b, c, out).feature).toBe(FEATURE_EDGE01 + 2);
    expect(run([0.2, 0.2, -4], a, b, c, out).feature).toBe(FEATURE_FACE);
    // Exactly on region borders: the lower-dimensional feature wins.
    expect(run([0, -1, 0], a, b, c, out).feature).toBe(0);
    expect(run([1, 0, 7], a, b, c, out).feature).toBe(1);
    // The point on the vertex itself.
    expect(run([0, 1, 0], a, b, c, out).feature).toBe(2);
  });

  it('feature agrees with the oracle point: on a vertex, on an edge, or strictly inside', () => {
    const r = rng(3);
    for (let i = 0; i < 5000; i++) {
      const a: V = [r(), r(), r()], b: V = [r(), r(), r()], c: V = [r(), r(), r()];
      const p: V = [3 * r() - 1, 3 * r() - 1, 3 * r() - 1];
      const { q, feature } = run(p, a, b, c, out);
      const verts = [a, b, c];
      if (isVertexFeature(feature)) expect(dist(q, verts[feature])).toBe(0);
      else if (isEdgeFeature(feature)) {
        const k = feature - FEATURE_EDGE01;
        expect(out[3 + ((k + 2) % 3)]).toBe(0);
        expect(out[3 + k]).toBeGreaterThan(0);
        expect(out[3 + ((k + 1) % 3)]).toBeGreaterThan(0);
      } else {
        expect(Math.min(out[3], out[4], out[5])).toBeGreaterThan(0);
      }
    }
  });

  it('handles degenerate triangles: collinear, coincident and tiny', () => {
    // Collinear: the closest point is on the hull segment.
    let res = run([0.5, 1, 0], [0, 0, 0], [1, 0, 0], [2, 0, 0], out);
    expect(dist(res.q, [0.5, 0, 0])).toBeLessThan(1e-15);
    expect(isEdgeFeature(res.feature)).toBe(true);
    res = run([3, 1, 0], [0, 0, 0], [1, 0, 0], [2, 0, 0], out);
    expect(dist(res.q, [2, 0, 0])).toBe(0);
    expect(res.feature).toBe(2);
    // All three vertices coincide.
    res = run([1, 2, 3], [5, 5, 5], [5, 5, 5], [5, 5, 5], out);
    expect(dist(res.q, [5, 5, 5])).toBe(0);
    expect(isVertexFeature(res.feature)).toBe(true);
    // Two vertices coincide.
    res = run([0.5, 0.5, 1], [0, 0, 0], [1, 0, 0], [1, 0, 0], out);
    expect(dist(res.q, [0.5, 0, 0])).toBeLessThan(1e-15);
    // A well-shaped but tiny triangle (1e-9) far from the origin is not treated as degenerate.
    const s = 1e-9;
    res = run([10 + 0.2 * s, 10 + 0.2 * s, 10 + 5 * s], [10, 10, 10], [10 + s, 10, 10], [10, 10 + s, 10], out);
    expect(res.feature).toBe(FEATURE_FACE);
    // Nearly collinear sliver: finite, on the triangle, matches the oracle distance.
    const p: V = [0.3, 0.7, 0.1], a: V = [0, 0, 0], b: V = [1, 1e-9, 0], c: V = [2, 0, 0];
    res = run(p, a, b, c, out);
    for (const x of res.q) expect(Number.isFinite(x)).toBe(true);
    expect(Math.abs(dist(p, res.q) - dist(p, oracle(p, a, b, c)))).toBeLessThan(1e-8);
  });
});

describe('projectedBarycentrics', () => {
  it('a point built from random barycentrics and lifted off the plane along the normal gives them back, outside the triangle too', () => {
    const rand = rng(7);
    const out = new Float64Array(2);
    for (let k = 0; k < 200; k++) {
      const a: V = [rand() - 0.5, rand() - 0.5, rand() - 0.5], b: V = [rand() - 0.5, rand() - 0.5, rand() - 0.5], c: V = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      const u = sub(b, a), v = sub(c, a);
      const n: V = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
      if (dot(n, n) < 1e-6) continue;
      // Weights in [-1, 2): points inside and outside the triangle alike.
      const wb = 3 * rand() - 1, wc = 3 * rand() - 1, lift = rand() - 0.5;
      const d: V = [0, 1, 2].map((i) => wb * u[i] + wc * v[i] + lift * n[i]) as V;
      projectedBarycentrics(u[0], u[1], u[2], v[0], v[1], v[2], d[0], d[1], d[2], out);
      expect(out[0]).toBeCloseTo(wb, 8);
      expect(out[1]).toBeCloseTo(wc, 8);
    }
  });

  it('a degenerate triangle gives (0, 0)', () => {
    const out = new Float64Array([5, 5]);
    projectedBarycentrics(1, 0, 0, 2, 0, 0, 0.3, 0.4, 0, out);
    expect([out[0], out[1]]).toEqual([0, 0]);
  });
});
