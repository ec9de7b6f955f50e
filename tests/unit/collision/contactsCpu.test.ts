import { describe, expect, it } from 'vitest';
import { CpuContacts } from '../../../src/collision/cpu/contactsCpu';
import { CpuQueryList, KIND_EDGE, KIND_VERTEX } from '../../../src/collision/cpu/queryList';
import { CpuSpbResults } from '../../../src/collision/cpu/spbCpu';
import { FEATURE_FACE } from '../../../src/geometry/closestPointOnTriangle';
import { createSpbMeshData, QUERY_FOUND } from '../../../src/spb';
import { cubePart, sceneOf, type Part } from './scenes';

/**
 * One contact of eq. 6 against the analytic projection of a single linear constraint
 * (C(x + dx) = 0 with the least mass-weighted correction, dx_i = -w_i grad_i C C / sum w |grad C|^2),
 * momentum (sum m dx = 0), and Coulomb friction's static and kinetic cases.
 */

// Object A: a unit cube (one Kuhn cell); object B: one tet whose vertex 0 dips into A's top.
const tetB: Part = { positions: Float64Array.from([0.4, 0.97, 0.45, 0.9, 1.3, 0.5, 0.5, 1.4, 0.9, 0.3, 1.5, 0.2]), tets: Uint32Array.from([0, 1, 3, 2]) };

function setup() {
  const scene = sceneOf([cubePart(1, 1, [0, 0, 0]), tetB]);
  const data = createSpbMeshData(scene.mesh);
  const v = 8; // B's vertex 0
  const w = new Float64Array(scene.mesh.vertexCount).fill(1);
  w.set([0.5, 2, 1.5, 0.7, 1.2, 0.9, 3, 0.4]); // A's corners: arbitrary masses
  return { scene, data, v, w };
}

/** The top (y = 1) boundary triangle of A containing (x, z) in projection. */
function topTriangle(data: ReturnType<typeof createSpbMeshData>, x: Float64Array, px: number, pz: number): number {
  for (let f = 0; f < data.triangleCount; f++) {
    const t = [0, 1, 2].map((k) => data.triangles[3 * f + k]);
    if (!t.every((i) => i < 8 && x[3 * i + 1] === 1)) continue;
    const P = t.map((i) => [x[3 * i], x[3 * i + 2]]);
    const side = (a: number[], b: number[]) => (b[0] - a[0]) * (pz - a[1]) - (b[1] - a[1]) * (px - a[0]);
    const s = [side(P[0], P[1]), side(P[1], P[2]), side(P[2], P[0])];
    if (s.every((c) => c >= 0) || s.every((c) => c <= 0)) return f;
  }
  throw new Error('no top triangle');
}

function oneContact(kind: number, param: number) {
  const { scene, data, v, w } = setup();
  const x = scene.x;
  const list = new CpuQueryList();
  const res = new CpuSpbResults();
  const edge = (() => {
    const e = scene.mesh.boundaryEdges;
    for (let i = 0; i < e.length / 2; i++) if (e[2 * i] === v || e[2 * i + 1] === v) return i;
    throw new Error('no edge');
  })();
  const a = kind === KIND_EDGE ? scene.mesh.boundaryEdges[2 * edge] : v;
  const b = kind === KIND_EDGE ? scene.mesh.boundaryEdges[2 * edge + 1] : v;
  const wp = kind === KIND_EDGE ? [1 - param, param] : [1, 0];
  const p = [0, 1, 2].map((k) => wp[0] * x[3 * a + k] + wp[1] * x[3 * b + k]);
  list.push(p[0], p[1], p[2], 0, a, kind === KIND_EDGE ? b : -1, kind, kind === KIND_EDGE ? edge : v, true, false, kind === KIND_EDGE ? param : 0);
  res.reserve(1);
  res.status[0] = QUERY_FOUND;
  res.triangle[0] = topTriangle(data, x, p[0], p[2]);
  res.feature[0] = FEATURE_FACE;
  res.s.set([p[0], 1, p[2]], 0);
  const contacts = new CpuContacts(scene.mesh, data);
  expect(contacts.build(x, list, res)).toBe(1);
  const tri = [0, 1, 2].map((k) => data.triangles[3 * res.triangle[0] + k]);
  return { x, w, contacts, tri, points: kind === KIND_EDGE ? [a, b] : [v], wp: kind === KIND_EDGE ? wp : [1] };
}

describe('CPU contacts (eq. 6)', () => {
  for (const [name, kind, param] of [['vertex point', KIND_VERTEX, 0], ['edge point', KIND_EDGE, 0.05]] as const) {
    it(`${name}: one pass is the least mass-weighted projection of C = (x - s) . n onto 0; momentum is unchanged`, () => {
      const { x, w, contacts, tri, points, wp } = oneContact(kind, param);
      expect(Array.from(contacts.normal.slice(0, 3))).toEqual([0, 1, 0]);
      const b = Array.from(contacts.triBary.slice(0, 3));
      const before = Float64Array.from(x);
      const C0 = points.reduce((s, v, i) => s + wp[i] * x[3 * v + 1], 0) - tri.reduce((s, v, k) => s + b[k] * x[3 * v + 1], 0);
      expect(C0).toBeLessThan(-0.005);
      // Analytic: grad C = wp_i n on the point, -b_k n on the triangle.
      const denom = points.reduce((s, v, i) => s + wp[i] * wp[i] * w[v], 0) + tri.reduce((s, v, k) => s + b[k] * b[k] * w[v], 0);
      contacts.solve(x, Float64Array.from(x), w, 0, 1);
      points.forEach((v, i) => expect(x[3 * v + 1] - before[3 * v + 1]).toBeCloseTo((w[v] * wp[i] * -C0) / denom, 14));
      tri.forEach((v, k) => expect(x[3 * v + 1] - before[3 * v + 1]).toBeCloseTo((-w[v] * b[k] * -C0) / denom, 14));
      const C1 = points.reduce((s, v, i) => s + wp[i] * x[3 * v + 1], 0) - tri.reduce((s, v, k) => s + b[k] * x[3 * v + 1], 0);
      expect(Math.abs(C1)).toBeLessThan(1e-14);
      for (let k = 0; k < 3; k++) {
        let p = 0;
        for (let i = 0; i < w.length; i++) p += (x[3 * i + k] - before[3 * i + k]) / w[i];
        expect(Math.abs(p)).toBeLessThan(1e-15);
      }
      expect(contacts.lambdaN[0]).toBeCloseTo(-C0, 14);
    });
  }

  it('friction: a relative slide within mu x the normal push is cancelled (static), a longer one cut by mu x the push (kinetic)', () => {
    for (const [mu, expectedLeft] of [[10, 0], [0.1, 'kinetic']] as const) {
      const { x, w, contacts, tri, points } = oneContact(KIND_VERTEX, 0);
      const v = points[0];
      const b = Array.from(contacts.triBary.slice(0, 3));
      // Substep start: the point 1 cm further back along x (it slid by 1 cm relative to A).
      const x0 = Float64Array.from(x);
      x0[3 * v] -= 0.01;
      const depth = -(x[3 * v + 1] - 1);
      contacts.solve(x, x0, w, mu, 1);
      const slide = x[3 * v] - x0[3 * v] - tri.reduce((s, u, k) => s + b[k] * (x[3 * u] - x0[3 * u]), 0);
      if (expectedLeft === 0) expect(Math.abs(slide)).toBeLessThan(1e-15);
      else expect(slide).toBeCloseTo(0.01 - mu * depth, 14);
    }
  });
});
