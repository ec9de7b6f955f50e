/**
 * Each culling condition of paper 002 (section 5.1) against surfaces and contours built here whose
 * answer is known by construction: a flat disk cannot touch itself (culled), a cap of the sphere
 * past pi/2 has normals no cone under pi/2 holds (condition 1 fails), a quarter circle is a
 * monotone chain and a half circle past pi is not (condition 2), two arcs of a circle are apart
 * and a chain that sweeps through another in the middle of the motion is not, even though it is
 * apart at both ends (condition 3, continuous), and a strip that spirals over its own start and
 * through it is not culled, while every contact the exact CCD finds in it stays a candidate (the
 * plain method, which ignores internal boundary edges, loses some of them there).
 */
import { describe, expect, it } from 'vitest';
import { ccdCandidates } from '../../../src/collision/ccd/broadPhase';
import { CONE_FLOATS, FULL_ANGLE, mergeCone, setBallCone } from '../../../src/collision/selfCulling/cones';
import { ContourTest } from '../../../src/collision/selfCulling/contourTest';
import { mergeEdgeDirection, triangleNormalCone, type CullingMotion } from '../../../src/collision/selfCulling/motionCones';
import { SelfCulling } from '../../../src/collision/selfCulling/selfCulling';
import { bruteForceContacts, candidateKeys } from '../../support/bruteForceContacts';
import { disk, sphericalCap, spiralStrip, type OpenSurface } from '../../support/openSurfaces';
import { rng } from '../../support/random';

/** Per vertex the box of its positions at both ends, grown by `margin` (6 floats: lo, hi). */
function motionBoxes(a: Float64Array, b: Float64Array, margin: number): Float32Array {
  const n = a.length / 3, out = new Float32Array(6 * n);
  for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) {
    out[6 * v + k] = Math.min(a[3 * v + k], b[3 * v + k]) - margin;
    out[6 * v + 3 + k] = Math.max(a[3 * v + k], b[3 * v + k]) + margin;
  }
  return out;
}

function still(s: OpenSurface): CullingMotion {
  return { start: s.positions, move: new Float64Array(s.positions.length), deviation: null };
}

/** Every vertex-triangle pair (v not a corner of t) and edge-edge pair (no common vertex) of one surface. */
function allPairs(s: OpenSurface): { vertexFace: Uint32Array; edgeEdge: Uint32Array } {
  const T = s.topology.triangles, E = s.topology.edges, n = s.topology.vertexCount;
  const vf: number[] = [], ee: number[] = [];
  for (let v = 0; v < n; v++) for (let t = 0; t < T.length / 3; t++) if (T[3 * t] !== v && T[3 * t + 1] !== v && T[3 * t + 2] !== v) vf.push(v, t);
  for (let a = 0; a < E.length / 2; a++) for (let b = a + 1; b < E.length / 2; b++) {
    if (E[2 * a] === E[2 * b] || E[2 * a] === E[2 * b + 1] || E[2 * a + 1] === E[2 * b] || E[2 * a + 1] === E[2 * b + 1]) continue;
    ee.push(a, b);
  }
  return { vertexFace: Uint32Array.from(vf), edgeEdge: Uint32Array.from(ee) };
}

describe('filter drops exactly the pairs within one culled node', () => {
  it('a 100-degree cap culled in several patches: every pair as the definition says (vertex-face: t in a culled node one of v\'s triangles is in; edge-edge: a node both edges border)', () => {
    const s = sphericalCap((100 * Math.PI) / 180, 8, 32);
    const culling = new SelfCulling(s.topology);
    culling.cull(still(s), 'enhanced');
    const by = culling.culledBy;
    expect(new Set([...by].filter((c) => c >= 0)).size).toBeGreaterThan(2);
    // The definition, from the topology alone: the nodes of each vertex's and each edge's triangles.
    const T = s.topology.triangles, E = s.topology.edges;
    const vertexNodes = new Map<number, Set<number>>(), edgeNodes: Set<number>[] = [];
    for (let t = 0; t < T.length / 3; t++) for (let k = 0; k < 3; k++) {
      if (!vertexNodes.has(T[3 * t + k])) vertexNodes.set(T[3 * t + k], new Set());
      if (by[t] >= 0) vertexNodes.get(T[3 * t + k])!.add(by[t]);
    }
    for (let e = 0; e < E.length / 2; e++) {
      edgeNodes.push(new Set());
      for (let t = 0; t < T.length / 3; t++) {
        const corners = [T[3 * t], T[3 * t + 1], T[3 * t + 2]];
        if (by[t] >= 0 && corners.includes(E[2 * e]) && corners.includes(E[2 * e + 1])) edgeNodes[e].add(by[t]);
      }
    }
    const pairs = allPairs(s);
    const want = { vf: [] as string[], ee: [] as string[] };
    let culledVf = 0, culledEe = 0;
    for (let i = 0; i < pairs.vertexFace.length; i += 2) {
      const v = pairs.vertexFace[i], t = pairs.vertexFace[i + 1];
      if (by[t] >= 0 && vertexNodes.get(v)?.has(by[t])) culledVf++;
      else want.vf.push(`${v},${t}`);
    }
    for (let i = 0; i < pairs.edgeEdge.length; i += 2) {
      const a = pairs.edgeEdge[i], b = pairs.edgeEdge[i + 1];
      if ([...edgeNodes[a]].some((c) => edgeNodes[b].has(c))) culledEe++;
      else want.ee.push(`${a},${b}`);
    }
    expect(culledVf).toBeGreaterThan(100);
    expect(culledEe).toBeGreaterThan(100);
    expect(want.vf.length).toBeGreaterThan(100);
    const kept = culling.filter(pairs);
    const got = (p: Uint32Array): string[] => Array.from({ length: p.length / 2 }, (_, i) => `${p[2 * i]},${p[2 * i + 1]}`);
    expect(got(kept.vertexFace)).toEqual(want.vf);
    expect(got(kept.edgeEdge)).toEqual(want.ee);
  });
});

describe('cones', () => {
  it('a merged cone holds both cones, and one wider than pi/2 is full', () => {
    const c = new Float64Array(2 * CONE_FLOATS);
    setBallCone(c, 0, 1, 0, 0, 0);
    setBallCone(c, 4, 0, 1, 0, Math.sin(0.1));
    mergeCone(c, 0, c, 4);
    expect(c[3]).toBeCloseTo((Math.PI / 2 + 0.1) / 2, 9);
    // The axis bisects the span from the x axis to 0.1 rad past the y axis.
    expect(Math.acos(c[0])).toBeCloseTo(c[3], 9);
    setBallCone(c, 4, -1, -0.2, 0, 0);
    mergeCone(c, 0, c, 4);
    expect(c[3]).toBe(FULL_ANGLE);
  });
});

describe('condition 1: the surface normal cone (theta_n < pi/2)', () => {
  it('a flat disk has theta_n 0 and is culled whole: every pair within it is dropped', () => {
    const s = disk(6, 24);
    const culling = new SelfCulling(s.topology);
    const stats = culling.cull(still(s), 'enhanced');
    expect(stats.culledNodes).toBe(1);
    expect(stats.culledTriangles).toBe(s.topology.triangles.length / 3);
    const kept = culling.filter(allPairs(s));
    expect(kept.vertexFace.length + kept.edgeEdge.length).toBe(0);
  });

  it('a cap of the sphere up to 80 degrees passes at its root, one up to 100 degrees fails there', () => {
    // The normals of the 80-degree cap's triangles reach 75 degrees from +z (the last ring's middle).
    const below = sphericalCap((80 * Math.PI) / 180, 8, 32);
    const c1 = new SelfCulling(below.topology);
    c1.cull(still(below), 'enhanced');
    const [ax, ay, az, theta] = c1.nodeCone(0, 0);
    expect(theta).toBeLessThan(Math.PI / 2);
    expect(theta).toBeGreaterThan((70 * Math.PI) / 180);
    expect(az).toBeCloseTo(1, 6);
    expect(Math.hypot(ax, ay)).toBeLessThan(1e-6);
    const past = sphericalCap((100 * Math.PI) / 180, 8, 32);
    const c2 = new SelfCulling(past.topology);
    const stats = c2.cull(still(past), 'enhanced');
    expect(c2.nodeCone(0, 0)[3]).toBe(FULL_ANGLE);
    expect(stats.nodes.normalCone).toBeGreaterThan(0);
    // Not culled whole: smaller patches of it are.
    expect(new Set(c2.culledBy).size).toBeGreaterThan(1);
    expect(stats.culledNodes).toBeGreaterThan(1);
  });

  it("a triangle's normal cone holds its normal at every time of a rotation and within the deviation", () => {
    // Triangle in the xy plane turning about x by 60 degrees over the motion (end points linear).
    const a = [0, 0, 0], b = [1, 0, 0], c = [0, 1, 0];
    const cEnd = [0, Math.cos(Math.PI / 3), Math.sin(Math.PI / 3)];
    const start = Float64Array.from([...a, ...b, ...c]);
    const move = Float64Array.from([0, 0, 0, 0, 0, 0, cEnd[0] - c[0], cEnd[1] - c[1], cEnd[2] - c[2]]);
    const cone = new Float64Array(CONE_FLOATS);
    const deviation = Float64Array.from([0.01, 0.01, 0.01]);
    triangleNormalCone(cone, 0, { start, move, deviation }, 0, 1, 2);
    let worst = 0;
    for (let i = 0; i <= 100; i++) {
      const s = i / 100;
      // Corner c at time s moved by the largest deviation in the worst direction for the angle: sample a few.
      for (const d of [[0.01, 0.01, 0.01], [-0.01, 0.01, -0.01], [0.01, -0.01, 0.01]]) {
        const cy = c[1] + s * (cEnd[1] - c[1]) + d[1], cz = c[2] + s * (cEnd[2] - c[2]) + d[2];
        // n = (b - a) x (c - a) with b - a = (1, 0, 0)
        const nx = 0, ny = -cz, nz = cy;
        const len = Math.hypot(nx, ny, nz);
        const angle = Math.acos((nx * cone[0] + ny * cone[1] + nz * cone[2]) / len);
        worst = Math.max(worst, angle - cone[3]);
      }
    }
    expect(worst).toBeLessThanOrEqual(0);
    expect(cone[3]).toBeLessThan(Math.PI / 4);
  });
});

describe('per-edge deviation bounds', () => {
  it('narrow the normal cone, which still holds every normal the edges can take', () => {
    const start = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]), move = new Float64Array(9);
    const wide = new Float64Array(CONE_FLOATS), narrow = new Float64Array(CONE_FLOATS);
    const deviation = Float64Array.from([0.02, 0.02, 0.02]);
    triangleNormalCone(wide, 0, { start, move, deviation }, 0, 1, 2, 0, 2);
    // Edges ab (index 0) and ca (index 2) may change by 0.005 only.
    const edgeDeviation = Float64Array.from([0.005, 1, 0.005]);
    triangleNormalCone(narrow, 0, { start, move, deviation, edgeDeviation }, 0, 1, 2, 0, 2);
    expect(narrow[3]).toBeLessThan(0.3 * wide[3]);
    const r = rng(7);
    for (let i = 0; i < 200; i++) {
      // e1 = (1, 0, 0) + d1, e2 = (0, 1, 0) + d2 with |d| <= 0.005.
      const d = Array.from({ length: 6 }, () => r() - 0.5);
      const l1 = Math.hypot(d[0], d[1], d[2]) / 0.005, l2 = Math.hypot(d[3], d[4], d[5]) / 0.005;
      const e1 = [1 + d[0] / l1, d[1] / l1, d[2] / l1], e2 = [d[3] / l2, 1 + d[4] / l2, d[5] / l2];
      const n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      const angle = Math.acos((n[0] * narrow[0] + n[1] * narrow[1] + n[2] * narrow[2]) / Math.hypot(...n));
      expect(angle).toBeLessThanOrEqual(narrow[3]);
    }
  });
});

describe('condition 2: each chain of the contour is monotone (|A_n . A_c| < cos theta_c)', () => {
  const arc = (from: number, to: number, pieces: number): CullingMotion & { count: number } => {
    const p: number[] = [];
    for (let i = 0; i <= pieces; i++) {
      const a = from + ((to - from) * i) / pieces;
      p.push(Math.cos(a), Math.sin(a), 0);
    }
    return { start: Float64Array.from(p), move: new Float64Array(p.length), deviation: null, count: pieces + 1 };
  };
  const chainCone = (m: CullingMotion, count: number): Float64Array => {
    const cone = new Float64Array(CONE_FLOATS);
    for (let i = 0; i + 1 < count; i++) mergeEdgeDirection(cone, 0, m, i, i + 1, i === 0);
    return cone;
  };
  it('a quarter circle passes seen along z; a half circle and more does not', () => {
    const q = arc(0, Math.PI / 2, 12);
    const c = chainCone(q, q.count);
    expect(c[3]).toBeLessThan(Math.PI / 4 + 1e-9);
    expect(Math.abs(c[2])).toBeLessThan(Math.cos(c[3]));
    const h = arc(0, Math.PI * 1.05, 24);
    expect(chainCone(h, h.count)[3]).toBe(FULL_ANGLE);
  });
  it('a straight chain seen along its own direction fails', () => {
    const m: CullingMotion = { start: Float64Array.from([0, 0, 0, 0, 0, 1, 0, 0, 2]), move: new Float64Array(9), deviation: null };
    const c = new Float64Array(CONE_FLOATS);
    mergeEdgeDirection(c, 0, m, 0, 1, true);
    mergeEdgeDirection(c, 0, m, 1, 2, false);
    expect(Math.abs(c[2])).toBeGreaterThanOrEqual(Math.cos(c[3]));
  });
});

describe('condition 3: the chains stay apart in projection (continuous contour test)', () => {
  /**
   * A closed loop through `points` (xyz each) in order, back to the first, cut into chains at the
   * given point indices; `move` per point (default still). Returns what ContourTest reads.
   */
  function loop(points: number[][], cuts: number[], move?: number[][]) {
    const n = points.length;
    const from = Uint32Array.from({ length: n }, (_, i) => i), to = Uint32Array.from({ length: n }, (_, i) => (i + 1) % n);
    return {
      m: { start: Float64Array.from(points.flat()), move: Float64Array.from((move ?? points.map(() => [0, 0, 0])).flat()), deviation: null } as CullingMotion,
      from, to,
      cs: Uint32Array.from(cuts), ce: Uint32Array.from(cuts.map((_, k) => (k + 1 < cuts.length ? cuts[k + 1] : n))),
    };
  }
  const test = new ContourTest();
  const apart = (k: ReturnType<typeof loop>): boolean => test.chainsApart(k.m, 0, 0, 1, k.from, k.to, 0, k.from.length, k.cs, k.ce, 0, k.cs.length);
  /** Points from (x0, y0) toward (x1, y1), n steps, the end left out (it starts the next side). */
  const side = (x0: number, y0: number, x1: number, y1: number, n: number, z = 0): number[][] =>
    Array.from({ length: n }, (_, i) => [x0 + ((x1 - x0) * i) / n, y0 + ((y1 - y0) * i) / n, z]);
  /** A rectangle [0, 1] x [0, h]: chain 0 the bottom and right sides, chain 1 the top and left. */
  const rectangle = (h: number) => [...side(0, 0, 1, 0, 5), ...side(1, 0, 1, h, 2), ...side(1, h, 0, h, 5), ...side(0, h, 0, 0, 2)];

  it('a rectangle\'s two halves pass; a bow tie whose halves cross fails', () => {
    expect(apart(loop(rectangle(0.5), [0, 7]))).toBe(true);
    const bowTie = [...side(0, 0, 1, 1, 4), ...side(1, 1, 1, 0, 2), ...side(1, 0, 0, 1, 4), ...side(0, 1, 0, 0, 2)];
    expect(apart(loop(bowTie, [0, 6]))).toBe(false);
  });
  it('a side that sweeps through the other during the motion fails, though apart at both ends', () => {
    const r = rectangle(0.5);
    // The rectangle flattens: every point moves down in proportion to its height (the top by `d`).
    const flatten = (d: number): number[][] => r.map((p) => [0, (-d * p[1]) / 0.5, 0]);
    // Down by 1: the top crosses the bottom at s = 1/2.
    expect(apart(loop(r, [0, 7], flatten(1)))).toBe(false);
    // Stopping short (down by 0.4) it stays apart.
    expect(apart(loop(r, [0, 7], flatten(0.4)))).toBe(true);
  });
  it('a deviation that lets the sides touch makes them fail', () => {
    const k = loop(rectangle(0.1), [0, 7]);
    expect(apart(k)).toBe(true);
    k.m.deviation = new Float64Array(k.m.start.length / 3).fill(0.03);
    expect(apart(k)).toBe(false);
  });
  it('per-edge bounds: a small change of each edge keeps a wide rectangle apart where the same per-vertex bound would not', () => {
    const k = loop(rectangle(0.1), [0, 7]);
    const edgeOf = Uint32Array.from({ length: k.from.length }, (_, i) => i);
    k.m.deviation = new Float64Array(k.m.start.length / 3).fill(0.03);
    expect(test.chainsApart(k.m, 0, 0, 1, k.from, k.to, 0, k.from.length, k.cs, k.ce, 0, k.cs.length, edgeOf)).toBe(false);
    // Each edge's vector changes by at most 0.002: the sides 0.1 apart stay apart (the loop's sum between
    // facing points is at most 2 + 1 edges' worth near the corners, 0.012 over a side: far from 0.1).
    k.m.edgeDeviation = new Float64Array(k.from.length).fill(0.002);
    expect(test.chainsApart(k.m, 0, 0, 1, k.from, k.to, 0, k.from.length, k.cs, k.ce, 0, k.cs.length, edgeOf)).toBe(true);
    // ... and not when the edges may change by 0.02 (a side may bend into the other).
    k.m.edgeDeviation.fill(0.02);
    expect(test.chainsApart(k.m, 0, 0, 1, k.from, k.to, 0, k.from.length, k.cs, k.ce, 0, k.cs.length, edgeOf)).toBe(false);
  });
  it('projected along the axis: a loop whose halves lie one above the other meets itself', () => {
    // Out along y = 0 at z = 0, back from (1, -0.02) to (0, 0.02) at z = 0.5: apart in space, crossing seen from above.
    const stacked = [...side(0, 0, 1, 0, 4), [1, -0.01, 0.25], ...side(1, -0.02, 0, 0.02, 4, 0.5), [0, 0.01, 0.25]];
    expect(apart(loop(stacked, [0, 5]))).toBe(false);
  });
});

describe('the three conditions together on a spiral strip (the normal cone test, section 3.3)', () => {
  it('a strip that spirals over its start and through it is not culled whole, and its contacts stay candidates (plain loses some)', () => {
    // 2 pi + 90 degrees, falling so that the last quarter passes through the first (z from 0 to -0.2... ):
    // rise -0.02 per radian puts the overlap 0.13 below the start; the motion lifts the whole strip's
    // second turn through the first.
    const s = spiralStrip(2 * Math.PI + Math.PI / 2, 0.3, -0.02, 44);
    const n = s.topology.vertexCount;
    const move = new Float64Array(3 * n);
    for (let v = 0; v < n; v++) {
      const z = s.positions[3 * v + 2];
      if (z < -0.02 * 2 * Math.PI) move[3 * v + 2] = 0.3; // the overlapping end rises through the start
    }
    const culling = new SelfCulling(s.topology);
    const stats = culling.cull({ start: s.positions, move, deviation: null }, 'enhanced');
    expect(culling.culledBy[0]).not.toBe(culling.culledBy[culling.culledBy.length - 1]);
    expect(stats.nodes.contour + stats.nodes.chainCone + stats.nodes.normalCone).toBeGreaterThan(0);
    const end = s.positions.map((x, i) => x + move[i]);
    const hits = bruteForceContacts(s.topology, s.positions, end);
    expect(hits.size).toBeGreaterThan(10);
    const pairs = allPairs(s);
    const kept = candidateKeys(culling.filter(pairs));
    expect([...hits].filter((h) => !kept.has(h))).toEqual([]);
    // Plain (Heo et al.: the binormal cones of the strip's own rims only, no internal boundary
    // edges) culls nodes that hold parts of both turns, and loses contacts there (section 4.3, the
    // overlapping layers of Fig. 4's cloth).
    const plain = new SelfCulling(s.topology);
    plain.cull({ start: s.positions, move, deviation: null }, 'plain');
    const keptPlain = candidateKeys(plain.filter(pairs));
    expect([...hits].filter((h) => !keptPlain.has(h)).length).toBeGreaterThan(0);
    // Of the pairs whose boxes over the motion meet, a good share is culled (the strip is flat away from the overlap).
    const boxPairs = ccdCandidates(s.topology, motionBoxes(s.positions, end, 0.05), 'all');
    const keptBox = culling.filter(boxPairs);
    expect(keptBox.vertexFace.length + keptBox.edgeEdge.length).toBeLessThan(0.7 * (boxPairs.vertexFace.length + boxPairs.edgeEdge.length));
  });
});
