import { describe, expect, it } from 'vitest';
import { CpuDetector, type DetectOptions } from '../../../src/collision/cpu/detectCpu';
import { CpuQueryList, KIND_CENTROID, KIND_EDGE, KIND_VERTEX, sourceEuclidean, sourceIndex, sourceKind } from '../../../src/collision/cpu/queryList';
import { countIntersections } from '../../support/intersectionCounter';
import { bentBeam, cubePart, sceneOf, type Scene } from './scenes';

/**
 * CPU detection (paper 000 section 4) against brute force sharing no code with it: the
 * intersection counter (tests/support) for the penetrating boundary vertices, and in this file
 * an all-pairs point-in-tet test for edges (sampled along each edge), recovery-mode vertices
 * and centroids.
 */

const EXACT: DetectOptions = { selfCollision: true, recovery: false, euclidean: false };

function detect(scene: Scene, opts: DetectOptions): CpuQueryList {
  const list = new CpuQueryList();
  new CpuDetector(scene.mesh).detect(scene.x, opts, list);
  return list;
}

function vertexHits(list: CpuQueryList): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < list.count; i++) if (sourceKind(list.source[i]) === KIND_VERTEX) out.set(sourceIndex(list.source[i]), list.tet[i]);
  return out;
}

/** Own brute force: strictly inside positive tet t (barycentric coordinates by Cramer's rule). */
function inside(x: Float64Array, tets: Uint32Array, t: number, p: number[]): boolean {
  const c = [0, 1, 2, 3].map((k) => [0, 1, 2].map((j) => x[3 * tets[4 * t + k] + j]));
  const e = [1, 2, 3].map((k) => [0, 1, 2].map((j) => c[k][j] - c[0][j]));
  const r = [0, 1, 2].map((j) => p[j] - c[0][j]);
  const d3 = (a: number[], b: number[], cc: number[]): number => a[0] * (b[1] * cc[2] - b[2] * cc[1]) - a[1] * (b[0] * cc[2] - b[2] * cc[0]) + a[2] * (b[0] * cc[1] - b[1] * cc[0]);
  const D = d3(e[0], e[1], e[2]);
  if (!(D > 0)) return false;
  const l1 = d3(r, e[1], e[2]) / D, l2 = d3(e[0], r, e[2]) / D, l3 = d3(e[0], e[1], r) / D;
  return l1 > 0 && l2 > 0 && l3 > 0 && 1 - l1 - l2 - l3 > 0;
}

function corners(tets: Uint32Array, t: number): number[] {
  return [tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], tets[4 * t + 3]];
}

const twoCubes = (objects?: number[]): Scene => sceneOf([cubePart(3, 1, [0, 0, 0]), cubePart(3, 1, [0.31, 0.43, 0.57])], objects);

describe('CPU detection', () => {
  it('two overlapping cubes: the penetrating boundary vertices are the counter\'s, all inter-object', () => {
    const scene = twoCubes();
    const list = detect(scene, EXACT);
    const truth = countIntersections({ positions: scene.x, tets: scene.mesh.tets, tetObject: scene.mesh.tetObject });
    const hits = vertexHits(list);
    expect(truth.inter).toBeGreaterThan(5);
    expect([...hits.keys()].sort((a, b) => a - b)).toEqual(truth.hits.map((h) => h.vertex).sort((a, b) => a - b));
    expect(list.hits[0]).toBe(0);
    expect(list.hits[1]).toBe(truth.inter);
    for (let i = 0; i < list.count; i++) {
      const p = [list.px[i], list.py[i], list.pz[i]];
      expect(inside(scene.x, scene.mesh.tets, list.tet[i], p)).toBe(true);
      expect(scene.mesh.tetObject[list.tet[i]]).not.toBe(scene.mesh.vertexObject[sourceKind(list.source[i]) === KIND_EDGE ? list.exclude[i] : sourceIndex(list.source[i])]);
    }
    // Euclidean switch: every (inter-object) query carries the bit.
    const eu = detect(scene, { ...EXACT, euclidean: true });
    expect(eu.count).toBe(list.count);
    for (let i = 0; i < eu.count; i++) expect(sourceEuclidean(eu.source[i])).toBe(true);
  });

  it('the same cubes as one object: self hits, none when self-collision is off', () => {
    const scene = twoCubes([0, 0]);
    const list = detect(scene, EXACT);
    const truth = countIntersections({ positions: scene.x, tets: scene.mesh.tets, tetObject: scene.mesh.tetObject });
    expect(list.hits[0]).toBe(truth.self);
    expect([list.hits[1], list.hits[3]]).toEqual([0, 0]);
    expect(detect(scene, { ...EXACT, selfCollision: false }).count).toBe(0);
  });

  it('a beam bent through 1.3 turns: self hits are exactly the counter\'s (no inverted tets)', () => {
    const { rest, bent } = bentBeam(40, 4, 0.2, 0.55, 1.3);
    const scene = sceneOf([rest]);
    scene.x.set(bent);
    const list = detect(scene, EXACT);
    const truth = countIntersections({ positions: scene.x, tets: scene.mesh.tets, tetObject: scene.mesh.tetObject });
    expect(truth.self).toBeGreaterThan(10);
    expect(truth.hits.some((h) => h.inverted)).toBe(false);
    expect([...vertexHits(list).keys()].sort((a, b) => a - b)).toEqual(truth.hits.map((h) => h.vertex).sort((a, b) => a - b));
    expect(list.hits[2]).toBeGreaterThan(0);
  });

  it('edge points: each one the centre of the part inside its tet, and every edge that sampling finds inside a tet is hit', () => {
    const { rest, bent } = bentBeam(40, 4, 0.2, 0.55, 1.3);
    const beam = sceneOf([rest]);
    beam.x.set(bent);
    for (const scene of [twoCubes(), beam]) {
      const list = detect(scene, EXACT);
      const { mesh, x } = scene;
      const edgeHit = new Set<number>();
      for (let i = 0; i < list.count; i++) {
        if (sourceKind(list.source[i]) !== KIND_EDGE) continue;
        const e = sourceIndex(list.source[i]);
        const a = mesh.boundaryEdges[2 * e], b = mesh.boundaryEdges[2 * e + 1];
        expect([list.exclude[i], list.exclude2[i]]).toEqual([a, b]);
        const u = list.param[i];
        const p = [0, 1, 2].map((k) => x[3 * a + k] + u * (x[3 * b + k] - x[3 * a + k]));
        expect(Math.hypot(p[0] - list.px[i], p[1] - list.py[i], p[2] - list.pz[i])).toBeLessThan(1e-12);
        expect(inside(x, mesh.tets, list.tet[i], p)).toBe(true);
        expect(corners(mesh.tets, list.tet[i])).not.toContain(a);
        expect(corners(mesh.tets, list.tet[i])).not.toContain(b);
        // Centre of the inside part (an interval: the tet is convex), its ends found by bisection.
        const inAt = (s: number): boolean => inside(x, mesh.tets, list.tet[i], [0, 1, 2].map((k) => x[3 * a + k] + s * (x[3 * b + k] - x[3 * a + k])));
        const end = (out: number): number => {
          if (inAt(out)) return out;
          let lo = u, hi = out;
          for (let it = 0; it < 50; it++) { const mid = 0.5 * (lo + hi); if (inAt(mid)) lo = mid; else hi = mid; }
          return lo;
        };
        expect(Math.abs(0.5 * (end(0) + end(1)) - u)).toBeLessThan(1e-9);
        edgeHit.add(e);
      }
      let sampledInside = 0;
      const lo = new Float64Array(3 * mesh.tetCount).fill(Infinity), hi = new Float64Array(3 * mesh.tetCount).fill(-Infinity);
      for (let t = 0; t < mesh.tetCount; t++) for (const v of corners(mesh.tets, t)) for (let k = 0; k < 3; k++) { lo[3 * t + k] = Math.min(lo[3 * t + k], x[3 * v + k]); hi[3 * t + k] = Math.max(hi[3 * t + k], x[3 * v + k]); }
      for (let e = 0; e < mesh.boundaryEdges.length / 2; e++) {
        const a = mesh.boundaryEdges[2 * e], b = mesh.boundaryEdges[2 * e + 1];
        let found = false;
        for (let s = 1; s < 12 && !found; s++) {
          const p = [0, 1, 2].map((k) => x[3 * a + k] + (s / 12) * (x[3 * b + k] - x[3 * a + k]));
          for (let t = 0; t < mesh.tetCount && !found; t++) {
            if (p[0] <= lo[3 * t] || p[1] <= lo[3 * t + 1] || p[2] <= lo[3 * t + 2] || p[0] >= hi[3 * t] || p[1] >= hi[3 * t + 1] || p[2] >= hi[3 * t + 2]) continue;
            const c = corners(mesh.tets, t);
            if (!c.includes(a) && !c.includes(b) && inside(x, mesh.tets, t, p)) found = true;
          }
        }
        if (found) { sampledInside++; expect(edgeHit.has(e)).toBe(true); }
      }
      expect(sampledInside).toBeGreaterThan(5);
    }
  });

  it('recovery mode: every vertex and every tet centroid inside a non-incident tet is a query point', () => {
    const scene = twoCubes();
    const { mesh, x } = scene;
    const list = detect(scene, { ...EXACT, recovery: true });
    const got = { vertex: new Set<number>(), centroid: new Set<number>() };
    for (let i = 0; i < list.count; i++) {
      const k = sourceKind(list.source[i]);
      if (k === KIND_VERTEX) got.vertex.add(sourceIndex(list.source[i]));
      if (k === KIND_CENTROID) got.centroid.add(sourceIndex(list.source[i]));
    }
    const want = { vertex: new Set<number>(), centroid: new Set<number>() };
    for (let v = 0; v < mesh.vertexCount; v++) {
      const p = [x[3 * v], x[3 * v + 1], x[3 * v + 2]];
      for (let t = 0; t < mesh.tetCount; t++) if (!corners(mesh.tets, t).includes(v) && inside(x, mesh.tets, t, p)) { want.vertex.add(v); break; }
    }
    for (let u = 0; u < mesh.tetCount; u++) {
      const cu = corners(mesh.tets, u);
      const p = [0, 1, 2].map((k) => cu.reduce((s, v) => s + x[3 * v + k], 0) / 4);
      for (let t = 0; t < mesh.tetCount; t++) if (!corners(mesh.tets, t).some((v) => cu.includes(v)) && inside(x, mesh.tets, t, p)) { want.centroid.add(u); break; }
    }
    // The interior vertices of a 3-cell cube (8) and many centroids are inside the other cube.
    expect(want.vertex.size).toBeGreaterThan(countIntersections({ positions: x, tets: mesh.tets, tetObject: mesh.tetObject }).inter);
    expect([...got.vertex].sort((a, b) => a - b)).toEqual([...want.vertex].sort((a, b) => a - b));
    expect([...got.centroid].sort((a, b) => a - b)).toEqual([...want.centroid].sort((a, b) => a - b));
    expect(list.hits[4] + list.hits[5]).toBe(want.centroid.size);
  });

  it('section 3.5: a vertex on an inverted boundary tet gets no self query; inter-object hits stay', () => {
    const { rest, bent } = bentBeam(40, 4, 0.2, 0.55, 1.3);
    const scene = sceneOf([rest]);
    scene.x.set(bent);
    const { mesh, x } = scene;
    const before = vertexHits(detect(scene, EXACT));
    // A self-hit vertex v; invert a boundary tet at v by reflecting another of its corners u
    // through the plane of the other three (v itself does not move).
    const [v, containing] = [...before.entries()][0];
    const f = mesh.vertexTriangles[mesh.vertexTriangleOffsets[v]];
    const T = mesh.boundaryTriangleTet[f];
    const c = corners(mesh.tets, T);
    const u = c.find((w) => w !== v && !corners(mesh.tets, containing).includes(w))!;
    const others = c.filter((w) => w !== u).map((w) => [0, 1, 2].map((k) => x[3 * w + k]));
    const n = [0, 1, 2].map((k) => ((others[1][(k + 1) % 3] - others[0][(k + 1) % 3]) * (others[2][(k + 2) % 3] - others[0][(k + 2) % 3]) - (others[1][(k + 2) % 3] - others[0][(k + 2) % 3]) * (others[2][(k + 1) % 3] - others[0][(k + 1) % 3])));
    const nn = Math.hypot(...n);
    const dist = [0, 1, 2].reduce((s, k) => s + (x[3 * u + k] - others[0][k]) * n[k] / nn, 0);
    for (let k = 0; k < 3; k++) x[3 * u + k] -= 2 * dist * n[k] / nn;
    const detector = new CpuDetector(mesh);
    const list = new CpuQueryList();
    detector.detect(x, EXACT, list);
    expect(detector.volume6[T]).toBeLessThan(0);
    expect(detector.invertedVertex[v]).toBe(1);
    expect(vertexHits(list).has(v)).toBe(false);
    for (let i = 0; i < list.count; i++) expect(list.tet[i]).not.toBe(T);
    // Against another object the rule does not apply: invert a boundary tet at a vertex of the
    // second cube that is inside the first; its inter-object query stays.
    const cubes = twoCubes();
    const inter = vertexHits(detect(cubes, EXACT));
    const w = [...inter.keys()].find((k) => cubes.mesh.vertexObject[k] === 1)!;
    const g = cubes.mesh.vertexTriangles[cubes.mesh.vertexTriangleOffsets[w]];
    const Tw = cubes.mesh.boundaryTriangleTet[g];
    const cw = corners(cubes.mesh.tets, Tw);
    // Swap two corners' positions that are not w: the tet turns inside out.
    const [p, q] = cw.filter((k) => k !== w);
    for (let k = 0; k < 3; k++) { const t = cubes.x[3 * p + k]; cubes.x[3 * p + k] = cubes.x[3 * q + k]; cubes.x[3 * q + k] = t; }
    const d2 = new CpuDetector(cubes.mesh);
    const l2 = new CpuQueryList();
    d2.detect(cubes.x, EXACT, l2);
    expect(d2.invertedVertex[w]).toBe(1);
    expect(vertexHits(l2).get(w)).toBe(inter.get(w));
  });
});
