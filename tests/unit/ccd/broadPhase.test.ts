/**
 * CCD broad phase against independent truths: a brute-force all-pairs box-overlap oracle written
 * here (its own union boxes, its own overlap and exclusion rules), the exact narrow phase
 * (every pair vertexFaceCcd / edgeEdgeCcd report as a hit must be a candidate), and the ballistic
 * path x + v t + g t^2 / 2 sampled over the horizon (it must lie in the swept box).
 */
import { describe, expect, it } from 'vitest';
import { edgeEdgeCcd, vertexFaceCcd } from '../../../src/collision/ccd';
import { ccdCandidates, ownFrameBoxes, sweptCandidates, sweptVertexBoxes, type CcdTopology, type MotionBound } from '../../../src/collision/ccd/broadPhase';
import { rng } from '../../support/random';
import { copies as sharedCopies } from '../../support/ccdPairOracle';

/** The oracle's copies (tests/support/ccdPairOracle.ts) with xyz float64 rest positions. */
function copies(name: string, offsets: [number, number, number][]): CcdTopology & { rest: Float64Array } {
  const scene = sharedCopies(name, offsets);
  const rest = new Float64Array(3 * scene.vertexCount);
  for (let i = 0; i < scene.vertexCount; i++) for (let k = 0; k < 3; k++) rest[3 * i + k] = scene.rest[4 * i + k];
  return { ...scene, rest };
}

/**
 * CCD queries (24 numbers: 4 points at t0, then at t1) of the linear motion between each vertex's
 * start x0 (vec4) and its ballistic end point after the bound's horizon: both inside its swept box.
 */
function ballisticQueries(x0: Float32Array, v: Float32Array, bound: MotionBound): (ids: number[]) => Float64Array {
  const n = x0.length / 4, H = bound.horizon;
  const p0 = new Float64Array(3 * n), p1 = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) {
    p0[3 * i + k] = x0[4 * i + k];
    p1[3 * i + k] = x0[4 * i + k] + v[4 * i + k] * H + 0.5 * bound.gravity[k] * H * H;
  }
  return (ids) => {
    const q = new Float64Array(24);
    ids.forEach((id, j) => {
      for (let k = 0; k < 3; k++) {
        q[3 * j + k] = p0[3 * id + k];
        q[12 + 3 * j + k] = p1[3 * id + k];
      }
    });
    return q;
  };
}

/** All-pairs oracle: sorted keys v * T + t and a * E + b of overlapping, non-adjacent (and, unless self, inter-object) pairs. */
/** The topology's tets as a set of sorted corner lists: `isTet(four ids)` (always false without tets). */
function tetSet(topo: CcdTopology): (ids: number[]) => boolean {
  const keys = new Set<string>();
  const t = topo.tets ?? new Uint32Array(0);
  for (let i = 0; i < t.length; i += 4) keys.add([t[i], t[i + 1], t[i + 2], t[i + 3]].sort((x, y) => x - y).join(','));
  return (ids) => keys.has([...ids].sort((x, y) => x - y).join(','));
}

function oracle(topo: CcdTopology, boxes: Float32Array, self: boolean): { vf: number[]; ee: number[] } {
  const unionBoxes = (ids: Uint32Array, per: number): Float64Array => {
    const out = new Float64Array((6 * ids.length) / per);
    for (let e = 0; e < ids.length / per; e++) for (let k = 0; k < 3; k++) {
      let lo = Infinity, hi = -Infinity;
      for (let c = 0; c < per; c++) {
        lo = Math.min(lo, boxes[6 * ids[per * e + c] + k]);
        hi = Math.max(hi, boxes[6 * ids[per * e + c] + 3 + k]);
      }
      out[6 * e + k] = lo;
      out[6 * e + 3 + k] = hi;
    }
    return out;
  };
  const meets = (a: ArrayLike<number>, i: number, b: ArrayLike<number>, j: number): boolean =>
    a[6 * i] <= b[6 * j + 3] && b[6 * j] <= a[6 * i + 3] && a[6 * i + 1] <= b[6 * j + 4] && b[6 * j + 1] <= a[6 * i + 4] && a[6 * i + 2] <= b[6 * j + 5] && b[6 * j + 2] <= a[6 * i + 5];
  const T = topo.triangles, E = topo.edges, obj = topo.vertexObject;
  const nt = T.length / 3, ne = E.length / 2;
  const isTet = tetSet(topo);
  const triBoxes = unionBoxes(T, 3), vertBoxes = unionBoxes(Uint32Array.from({ length: topo.vertexCount }, (_, i) => i), 1), edgeBoxes = unionBoxes(E, 2);
  const vf: number[] = [];
  for (const v of topo.boundaryVertices) for (let t = 0; t < nt; t++) {
    if (T[3 * t] === v || T[3 * t + 1] === v || T[3 * t + 2] === v || (!self && obj[v] === obj[T[3 * t]])) continue;
    // Boxes first: the tet lookup builds a string key, too slow for every pair.
    if (meets(vertBoxes, v, triBoxes, t) && !isTet([v, T[3 * t], T[3 * t + 1], T[3 * t + 2]])) vf.push(v * nt + t);
  }
  const ee: number[] = [];
  for (let a = 0; a < ne; a++) for (let b = a + 1; b < ne; b++) {
    const a0 = E[2 * a], a1 = E[2 * a + 1], b0 = E[2 * b], b1 = E[2 * b + 1];
    if (a0 === b0 || a0 === b1 || a1 === b0 || a1 === b1 || (!self && obj[a0] === obj[b0])) continue;
    if (meets(edgeBoxes, a, edgeBoxes, b) && !isTet([a0, a1, b0, b1])) ee.push(a * ne + b);
  }
  return { vf: vf.sort((x, y) => x - y), ee: ee.sort((x, y) => x - y) };
}

/** The same keys from candidate pairs (first * count + second), sorted: duplicates would show. */
function pairKeys(pairs: Uint32Array, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) out.push(pairs[i] * count + pairs[i + 1]);
  return out.sort((x, y) => x - y);
}

/** Where two sorted key lists differ (at most 5 entries), so a mismatch reads clearly and the check stays fast. */
function differences(got: number[], want: number[]): string[] {
  const out: string[] = [];
  if (got.length !== want.length) out.push(`${got.length} pairs, expected ${want.length}`);
  for (let i = 0; i < Math.max(got.length, want.length) && out.length < 5; i++) {
    if (got[i] !== want[i]) out.push(`sorted pair ${i}: key ${got[i]}, expected ${want[i]}`);
  }
  return out;
}

function keys(pairs: Uint32Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < pairs.length; i += 2) out.push(`${pairs[i]},${pairs[i + 1]}`);
  return out.sort();
}

function vec4(xyz: ArrayLike<number>): Float32Array {
  const out = new Float32Array((xyz.length / 3) * 4);
  for (let i = 0; i < xyz.length / 3; i++) for (let k = 0; k < 3; k++) out[4 * i + k] = xyz[3 * i + k];
  return out;
}

describe('sweptVertexBoxes', () => {
  it('contains the ballistic path at sample times, and is no larger than the gravity arc\'s hull grown by margin + |v| H', () => {
    const r = rng(5);
    const n = 500;
    const x = new Float32Array(4 * n), v = new Float32Array(4 * n);
    for (let i = 0; i < 4 * n; i++) {
      x[i] = (r() - 0.5) * 20;
      v[i] = (r() - 0.5) * (i % 7 === 0 ? 0.01 : 8); // some nearly at rest: the gravity arc dominates
    }
    const bound: MotionBound = { horizon: 0.25, gravity: [0.3, -9.81, 1.2], margin: 0.01 };
    const boxes = sweptVertexBoxes(x, v, bound);
    const H = bound.horizon, g = bound.gravity;
    let outside = 0, tooLarge = 0;
    for (let i = 0; i < n; i++) {
      const speed = Math.hypot(v[4 * i], v[4 * i + 1], v[4 * i + 2]);
      for (let k = 0; k < 3; k++) {
        const lo = boxes[6 * i + k], hi = boxes[6 * i + 3 + k];
        for (let s = 0; s <= 64; s++) {
          const t = (s / 64) * H;
          const p = x[4 * i + k] + v[4 * i + k] * t + 0.5 * g[k] * t * t;
          if (p < lo || p > hi) outside++;
        }
        const end = x[4 * i + k] + 0.5 * g[k] * H * H;
        const grow = bound.margin + speed * H;
        const slack = 1e-5 * (1 + Math.abs(end) + Math.abs(x[4 * i + k]) + grow);
        if (lo < Math.min(x[4 * i + k], end) - grow - slack || hi > Math.max(x[4 * i + k], end) + grow + slack) tooLarge++;
      }
    }
    expect(outside).toBe(0);
    expect(tooLarge).toBe(0);
  });

  it('contains paths that rebound or turn at any time without speeding up (speed apart from gravity <= |v|), and is 2 |v| H + 2 margin long along the motion', () => {
    // Oracle: paths integrated here, x + g t^2/2 + d(t), d piecewise linear with legs of speed
    // <= |v| in random directions (a rebound or turn at random times), checked at every corner and
    // in between; nothing shared with the box code but the bound's numbers.
    const r = rng(7);
    const n = 300;
    const x = new Float32Array(4 * n), v = new Float32Array(4 * n);
    for (let i = 0; i < 4 * n; i++) {
      x[i] = (r() - 0.5) * 10;
      v[i] = (r() - 0.5) * 12;
    }
    const bound: MotionBound = { horizon: 0.2, gravity: [0.5, -9.81, -0.3], margin: 0.004 };
    const boxes = sweptVertexBoxes(x, v, bound);
    const H = bound.horizon, g = bound.gravity;
    let outside = 0;
    for (let i = 0; i < n; i++) {
      const speed = Math.hypot(v[4 * i], v[4 * i + 1], v[4 * i + 2]);
      for (let path = 0; path < 20; path++) {
        const turns = [0, ...Array.from({ length: 1 + Math.floor(r() * 3) }, () => r() * H).sort((a, b) => a - b), H];
        const d = [0, 0, 0];
        // First leg the ballistic velocity; later legs any direction at any speed up to |v|.
        let u = [v[4 * i], v[4 * i + 1], v[4 * i + 2]];
        for (let leg = 0; leg + 1 < turns.length; leg++) {
          for (let s = 0; s <= 8; s++) {
            const t = turns[leg] + ((turns[leg + 1] - turns[leg]) * s) / 8;
            for (let k = 0; k < 3; k++) {
              const p = x[4 * i + k] + d[k] + u[k] * (t - turns[leg]) + 0.5 * g[k] * t * t;
              if (p < boxes[6 * i + k] || p > boxes[6 * i + 3 + k]) outside++;
            }
          }
          for (let k = 0; k < 3; k++) d[k] += u[k] * (turns[leg + 1] - turns[leg]);
          const dir = [r() - 0.5, r() - 0.5, r() - 0.5];
          const len = Math.hypot(dir[0], dir[1], dir[2]);
          const legSpeed = speed * (leg % 2 === 0 ? 1 : r());
          u = dir.map((c) => (c / len) * legSpeed);
        }
      }
      // Along each axis: |v| H on both sides of the gravity arc, plus the margin.
      for (let k = 0; k < 3; k++) {
        const arc = 0.5 * g[k] * H * H;
        const want = Math.abs(arc) + 2 * (speed * H + bound.margin);
        const got = boxes[6 * i + 3 + k] - boxes[6 * i + k];
        expect(got, `vertex ${i}, axis ${k}`).toBeGreaterThanOrEqual(want - 1e-5);
        expect(got, `vertex ${i}, axis ${k}`).toBeLessThanOrEqual(want + 1e-4);
      }
    }
    expect(outside).toBe(0);
  });

  it('at rest and without gravity, the box is the point grown by the margin (rounded outward)', () => {
    const boxes = sweptVertexBoxes(Float32Array.of(0.1, 2, -3, 0), new Float32Array(4), { horizon: 1, gravity: [0, 0, 0], margin: 0.5 });
    expect(boxes[0]).toBeLessThanOrEqual(0.1 - 0.5);
    expect(boxes[0]).toBeCloseTo(-0.4, 6);
    expect(boxes[3]).toBeGreaterThanOrEqual(Math.fround(0.1) + 0.5);
    expect(Array.from(boxes.subarray(1, 3))).toEqual([1.5, -3.5]);
    expect(Array.from(boxes.subarray(4, 6))).toEqual([2.5, -2.5]);
  });

  it('a vertex margin widens that vertex\'s world and own-frame boxes only, to the larger of the two margins; a vertex that escaped by d then pairs with a face d away', () => {
    // Two objects: a vertex (object 0) 0.05 above a triangle (object 1), both at rest, no gravity.
    const topo: CcdTopology = {
      vertexCount: 4, boundaryVertices: Uint32Array.of(0, 1, 2, 3), triangles: Uint32Array.of(1, 2, 3), edges: new Uint32Array(0), vertexObject: Uint32Array.of(0, 1, 1, 1),
    };
    const x = Float32Array.of(0.2, 0.05, 0.2, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0);
    const v = new Float32Array(16);
    const bound: MotionBound = { horizon: 0.1, gravity: [0, 0, 0], margin: 0.01 };
    // The box oracle: a point at rest grown by m on every side; boxes overlap iff their gap is <= 0.
    expect(sweptCandidates(topo, x, v, bound, false).vertexFace.length).toBe(0);
    const widened = { ...bound, vertexMargins: Float32Array.of(0.03, 0, 0.005, 0) };
    const boxes = sweptVertexBoxes(x, v, widened);
    expect(boxes[1]).toBeCloseTo(0.05 - 0.03, 6); // vertex 0: its own margin, the larger
    expect(boxes[6 + 1]).toBeCloseTo(-0.01, 6); // vertex 1: the bound's margin
    expect(boxes[12 + 4]).toBeCloseTo(0.01, 6); // vertex 2: 0.005 < 0.01, the bound's margin
    // 0.05 apart: margins 0.03 (vertex) + 0.01 (face) leave a gap; 0.045 + 0.01 close it.
    expect(sweptCandidates(topo, x, v, widened, false).vertexFace.length).toBe(0);
    expect(Array.from(sweptCandidates(topo, x, v, { ...bound, vertexMargins: Float32Array.of(0.045, 0, 0, 0) }, false).vertexFace)).toEqual([0, 0]);
    // The own-frame boxes take it too.
    const own = ownFrameBoxes(topo, x, v, { ...bound, ownMargin: 0.002, vertexMargins: Float32Array.of(0.03, 0, 0, 0) });
    expect(own[1]).toBeCloseTo(0.05 - 0.03, 6);
    expect(own[6 + 1]).toBeCloseTo(-0.002, 6);
    expect(() => sweptVertexBoxes(x, v, { ...bound, vertexMargins: Float32Array.of(0, 0, NaN, 0) })).toThrow('bound.vertexMargins[2] (vertex 2) must be a finite number >= 0, got NaN');
    expect(() => sweptVertexBoxes(x, v, { ...bound, vertexMargins: new Float32Array(3) })).toThrow('bound.vertexMargins has 3 entries, expected one per vertex (4)');
  });

  it('refuses malformed input, naming it', () => {
    const b: MotionBound = { horizon: 0.1, gravity: [0, -9.8, 0], margin: 0 };
    expect(() => sweptVertexBoxes(new Float32Array(6), new Float32Array(6), b)).toThrow('positions has length 6, not 4 per vertex');
    expect(() => sweptVertexBoxes(new Float32Array(8), new Float32Array(4), b)).toThrow('velocities has length 4, positions 8');
    expect(() => sweptVertexBoxes(new Float32Array(8), new Float32Array(8), b, new Float32Array(6))).toThrow('out has length 6, expected 12');
    expect(() => sweptVertexBoxes(Float32Array.of(0, 0, 0, 0, 0, NaN, 0, 0), new Float32Array(8), b)).toThrow('vertex 1: position (0, NaN, 0)');
    expect(() => sweptVertexBoxes(new Float32Array(4), new Float32Array(4), { ...b, horizon: -1 })).toThrow('bound.horizon');
  });
});

describe('ccdCandidates equals the all-pairs box-overlap oracle', () => {
  it('random topology and random boxes (touching faces, points, oversized boxes), self on and off', () => {
    const r = rng(17);
    const n = 400;
    const boundaryVertices = Uint32Array.from({ length: n }, (_, i) => i).filter(() => r() < 0.8);
    const pick = (): number => boundaryVertices[Math.floor(r() * boundaryVertices.length)];
    const tri: number[] = [], edg: number[] = [];
    while (tri.length < 3 * 500) {
      const a = pick(), b = pick(), c = pick();
      if (a !== b && b !== c && a !== c) tri.push(a, b, c);
    }
    while (edg.length < 2 * 700) {
      const a = pick(), b = pick();
      if (a !== b) edg.push(Math.min(a, b), Math.max(a, b));
    }
    const topo: CcdTopology = {
      vertexCount: n,
      boundaryVertices,
      triangles: Uint32Array.from(tri),
      edges: Uint32Array.from(edg),
      vertexObject: Uint32Array.from({ length: n }, () => Math.floor(r() * 3)),
    };
    const boxes = new Float32Array(6 * n);
    for (let i = 0; i < n; i++) {
      const u = r();
      // Quarter-unit grid values make exact touching common; 1% of boxes are huge (oversized path).
      const half = u < 0.1 ? 0 : u < 0.99 ? Math.floor(r() * 3) * 0.25 : 4 + 4 * r();
      for (let k = 0; k < 3; k++) {
        const c = Math.floor(r() * 40) * 0.25;
        boxes[6 * i + k] = c - half;
        boxes[6 * i + 3 + k] = c + half;
      }
    }
    for (const self of [true, false]) {
      const got = ccdCandidates(topo, boxes, self);
      const want = oracle(topo, boxes, self);
      console.log(`random boxes, self ${self}: ${want.vf.length} vertex-face, ${want.ee.length} edge-edge candidates`);
      expect(want.vf.length).toBeGreaterThan(100);
      expect(want.ee.length).toBeGreaterThan(100);
      expect(differences(pairKeys(got.vertexFace, topo.triangles.length / 3), want.vf)).toEqual([]);
      expect(differences(pairKeys(got.edgeEdge, topo.edges.length / 2), want.ee)).toEqual([]);
      let unordered = 0;
      for (let i = 0; i < got.edgeEdge.length; i += 2) if (got.edgeEdge[i] >= got.edgeEdge[i + 1]) unordered++;
      expect(unordered).toBe(0);
    }
  });

  it('two overlapping copies of octopus_2KFaces.t, swept boxes of a fall, self on and off', () => {
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [0.35, 0.1, 0.05]]);
    const r = rng(3);
    const x = vec4(scene.rest);
    const v = new Float32Array(x.length);
    for (let i = 0; i < v.length; i++) if (i % 4 !== 3) v[i] = (i % 4 === 1 ? -0.3 : 0) + (r() - 0.5) * 0.2;
    const boxes = sweptVertexBoxes(x, v, { horizon: 1 / 60, gravity: [0, -9.81, 0], margin: 0.002 });
    const counts: number[] = [];
    for (const self of [true, false]) {
      const got = ccdCandidates(scene, boxes, self);
      const want = oracle(scene, boxes, self);
      expect(differences(pairKeys(got.vertexFace, scene.triangles.length / 3), want.vf)).toEqual([]);
      expect(differences(pairKeys(got.edgeEdge, scene.edges.length / 2), want.ee)).toEqual([]);
      counts.push(want.vf.length, want.ee.length);
      console.log(`octopus x2, self ${self}: ${want.vf.length} vertex-face, ${want.ee.length} edge-edge candidates`);
    }
    // Self-collision adds the pairs within each octopus; the inter-object pairs alone are many too.
    expect(counts[2]).toBeGreaterThan(50);
    expect(counts[3]).toBeGreaterThan(50);
    expect(counts[0]).toBeGreaterThan(counts[2]);
    expect(counts[1]).toBeGreaterThan(counts[3]);
  });
});

describe('ccdCandidates between objects equals the oracle when most objects are apart', () => {
  it('three octopus_2KFaces.t copies, two overlapping and one far off, a few oversized boxes: inter and all pairs as the oracle', () => {
    // Only elements whose boxes reach another object's box are hashed for pairs of different
    // objects (broadPhase.ts nearOtherObjects): the far copy's, and most of the other two's, are not.
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [0.3, 0.05, 0], [3, 0, 0]]);
    const x = vec4(scene.rest);
    const v = new Float32Array(x.length);
    for (let i = 1; i < v.length; i += 4) v[i] = -1;
    const boxes = sweptVertexBoxes(x, v, { horizon: 1 / 60, gravity: [0, -9.81, 0], margin: 0.002 });
    // Oversized boxes (the direct path): one vertex of each copy grown across the first two.
    const perCopy = scene.vertexCount / 3;
    for (const c of [0, 1, 2]) {
      const o = 6 * (c * perCopy + scene.boundaryVertices[5]);
      for (let k = 0; k < 3; k++) {
        boxes[o + k] -= 0.3;
        boxes[o + 3 + k] += 0.3;
      }
    }
    for (const self of [false, true]) {
      const got = ccdCandidates(scene, boxes, self);
      const want = oracle(scene, boxes, self);
      console.log(`octopus x3 (one apart), self ${self}: ${want.vf.length} vertex-face, ${want.ee.length} edge-edge candidates`);
      expect(want.vf.length).toBeGreaterThan(50);
      expect(want.ee.length).toBeGreaterThan(50);
      expect(differences(pairKeys(got.vertexFace, scene.triangles.length / 3), want.vf)).toEqual([]);
      expect(differences(pairKeys(got.edgeEdge, scene.edges.length / 2), want.ee)).toEqual([]);
    }
  });
});

describe('ccdCandidates for a range of objects (a part of a job split across workers)', () => {
  it('same-object pairs of objects lo..hi-1 only, as the oracle\'s, and the ranges of a split together give each pair once', () => {
    // A part boxes and hashes its own objects' elements only (broadPhase.ts elementBoxes `only`).
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [0.3, 0.05, 0], [0.1, -0.2, 0.1]]);
    const x = vec4(scene.rest);
    const v = new Float32Array(x.length);
    for (let i = 0; i < v.length; i += 4) {
      v[i] = 0.5 * Math.sin(7 * x[i + 1]);
      v[i + 1] = -1 + 0.5 * Math.cos(5 * x[i]);
    }
    const boxes = sweptVertexBoxes(x, v, { horizon: 1 / 60, gravity: [0, -9.81, 0], margin: 0.002 });
    const nt = scene.triangles.length / 3, ne = scene.edges.length / 2;
    const all = oracle(scene, boxes, true);
    const obj = scene.vertexObject;
    const vfObject = (key: number): number[] => [obj[Math.floor(key / nt)], obj[scene.triangles[3 * (key % nt)]]];
    const eeObject = (key: number): number[] => [obj[scene.edges[2 * Math.floor(key / ne)]], obj[scene.edges[2 * (key % ne)]]];
    const within = ([lo, hi]: [number, number], [a, b]: number[]): boolean => a === b && a >= lo && a < hi;
    for (const split of [[[0, 3]], [[0, 1], [1, 3]], [[0, 1], [1, 2], [2, 3]]] as [number, number][][]) {
      const vf: number[] = [], ee: number[] = [];
      for (const range of split) {
        const got = ccdCandidates(scene, boxes, 'self', range);
        const wantVf = all.vf.filter((k) => within(range, vfObject(k)));
        const wantEe = all.ee.filter((k) => within(range, eeObject(k)));
        expect(wantVf.length).toBeGreaterThan(50 * (range[1] - range[0]));
        expect(differences(pairKeys(got.vertexFace, nt), wantVf)).toEqual([]);
        expect(differences(pairKeys(got.edgeEdge, ne), wantEe)).toEqual([]);
        for (const k of pairKeys(got.vertexFace, nt)) vf.push(k);
        for (const k of pairKeys(got.edgeEdge, ne)) ee.push(k);
      }
      // Together: every same-object pair of the oracle once.
      expect(differences(vf.sort((a, b) => a - b), all.vf.filter((k) => within([0, 3], vfObject(k))))).toEqual([]);
      expect(differences(ee.sort((a, b) => a - b), all.ee.filter((k) => within([0, 3], eeObject(k))))).toEqual([]);
    }
  });
});

describe('ownFrameBoxes with a margin per object', () => {
  it('each object translating rigidly: every vertex\'s own-frame box is the point grown by its object\'s margin; bad margins refused, naming the object', () => {
    const scene = copies('octopus_2KFaces.t', [[0, 0, 0], [2, 0, 0]]);
    const x = vec4(scene.rest);
    const v = new Float32Array(x.length);
    for (let i = 0; i < scene.vertexCount; i++) {
      v[4 * i] = scene.vertexObject[i] === 0 ? 3 : -1; // one velocity per object: no motion relative to its mean
      v[4 * i + 1] = -2;
    }
    const margins = [0.01, 0.03];
    const bound: MotionBound = { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.5, ownMargin: 0.5, ownMargins: margins };
    const boxes = ownFrameBoxes(scene, x, v, bound);
    let worst = 0;
    for (let i = 0; i < scene.vertexCount; i++) {
      const m = margins[scene.vertexObject[i]]!;
      for (let k = 0; k < 3; k++) {
        // Relative velocities are float32 sums: |v - mean| H is rounding noise, far below 1e-6.
        worst = Math.max(worst, Math.abs(x[4 * i + k] - m - boxes[6 * i + k]), Math.abs(boxes[6 * i + 3 + k] - (x[4 * i + k] + m)));
        expect(boxes[6 * i + k]).toBeLessThanOrEqual(x[4 * i + k] - m);
        expect(boxes[6 * i + 3 + k]).toBeGreaterThanOrEqual(x[4 * i + k] + m);
      }
    }
    expect(worst).toBeLessThan(1e-6);
    expect(() => ownFrameBoxes(scene, x, v, { ...bound, ownMargins: [0.01] })).toThrow(/ownMargins has 1 entries, expected one per object \(2\)/);
    expect(() => ownFrameBoxes(scene, x, v, { ...bound, ownMargins: [0.01, Number.NaN] })).toThrow(/ownMargins\[1\] \(object 1\)/);
  });
});

/**
 * Same-object oracle, object by object (all pairs within one object only, so it stays cheap on
 * whole octopi): sorted keys as `oracle`'s, for the boxes given.
 */
function selfOracle(topo: CcdTopology, boxes: Float32Array): { vf: number[]; ee: number[] } {
  const T = topo.triangles, E = topo.edges, obj = topo.vertexObject;
  const nt = T.length / 3, ne = E.length / 2;
  const isTet = tetSet(topo);
  // Union boxes of each element's corners, in float64 (6 per element).
  const union = (ids: Uint32Array, per: number): Float64Array => {
    const out = new Float64Array((6 * ids.length) / per);
    for (let e = 0; e < ids.length / per; e++) for (let k = 0; k < 3; k++) {
      out[6 * e + k] = Math.min(...Array.from({ length: per }, (_, c) => boxes[6 * ids[per * e + c] + k]));
      out[6 * e + 3 + k] = Math.max(...Array.from({ length: per }, (_, c) => boxes[6 * ids[per * e + c] + 3 + k]));
    }
    return out;
  };
  const tb = union(T, 3), eb = union(E, 2), vb = union(topo.boundaryVertices, 1);
  const meets = (a: Float64Array, i: number, b: Float64Array, j: number): boolean =>
    a[6 * i] <= b[6 * j + 3] && b[6 * j] <= a[6 * i + 3] && a[6 * i + 1] <= b[6 * j + 4] && b[6 * j + 1] <= a[6 * i + 4] && a[6 * i + 2] <= b[6 * j + 5] && b[6 * j + 2] <= a[6 * i + 5];
  const vf: number[] = [], ee: number[] = [];
  topo.boundaryVertices.forEach((v, q) => {
    for (let t = 0; t < nt; t++) {
      if (obj[v] !== obj[T[3 * t]] || T[3 * t] === v || T[3 * t + 1] === v || T[3 * t + 2] === v) continue;
      if (meets(vb, q, tb, t) && !isTet([v, T[3 * t], T[3 * t + 1], T[3 * t + 2]])) vf.push(v * nt + t);
    }
  });
  for (let a = 0; a < ne; a++) for (let b = a + 1; b < ne; b++) {
    const a0 = E[2 * a], a1 = E[2 * a + 1], b0 = E[2 * b], b1 = E[2 * b + 1];
    if (obj[a0] !== obj[b0] || a0 === b0 || a0 === b1 || a1 === b0 || a1 === b1) continue;
    if (meets(eb, a, eb, b) && !isTet([a0, a1, b0, b1])) ee.push(a * ne + b);
  }
  return { vf: vf.sort((x, y) => x - y), ee: ee.sort((x, y) => x - y) };
}

describe('sweptCandidates keeps same-object pairs across jobs (ownPairCache.ts)', () => {
  it('over a sequence of jobs (a long fall, a small wobble, one body folded, a margin widened) every job\'s own pairs are the oracle\'s, and kept lists are reused only while they may be', () => {
    const scene = copies('Beam_1k.t', [[0, 0, 0], [0.5, 0.4, 0.1]]);
    const rest = vec4(scene.rest);
    const n = scene.vertexCount, obj = scene.vertexObject;
    const nt = scene.triangles.length / 3, ne = scene.edges.length / 2;
    const r = rng(7);
    const v = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) v[4 * i + k] = (k === 1 ? -3 : 0) + 0.2 * (r() - 0.5);
    const base: MotionBound = { horizon: 1 / 30, gravity: [0, -9.81, 0], margin: 0.02, ownMargins: [0.02, 0.02], selfPairSkin: 0.5 };
    const ownPairs = (c: { vertexFace: Uint32Array; edgeEdge: Uint32Array }): { vf: number[]; ee: number[] } => {
      const vf: number[] = [], ee: number[] = [];
      for (let i = 0; i < c.vertexFace.length; i += 2) if (obj[c.vertexFace[i]] === obj[scene.triangles[3 * c.vertexFace[i + 1]]]) vf.push(c.vertexFace[i] * nt + c.vertexFace[i + 1]);
      for (let i = 0; i < c.edgeEdge.length; i += 2) if (obj[scene.edges[2 * c.edgeEdge[i]]] === obj[scene.edges[2 * c.edgeEdge[i + 1]]]) ee.push(c.edgeEdge[i] * ne + c.edgeEdge[i + 1]);
      return { vf: vf.sort((a, b) => a - b), ee: ee.sort((a, b) => a - b) };
    };
    // Each job: positions, the bound, and how many objects may reuse their kept lists.
    const at = (shift: [number, number, number], wobble: number, fold?: number): Float32Array => {
      const x = rest.slice();
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) x[4 * i + k] += shift[k] + wobble * (r() - 0.5);
      if (fold !== undefined) {
        // Object 1 folded in two at its middle (the far half mirrored onto the near one): its
        // boxes leave their kept ones, and elements that were apart now overlap (new pairs).
        let lo = Infinity, hi = -Infinity;
        for (let i = 0; i < n; i++) if (obj[i] === 1) {
          lo = Math.min(lo, x[4 * i]);
          hi = Math.max(hi, x[4 * i]);
        }
        const mid = lo + fold * (hi - lo);
        for (let i = 0; i < n; i++) if (obj[i] === 1 && x[4 * i] > mid) x[4 * i] = 2 * mid - x[4 * i];
      }
      return x;
    };
    const jobs: { x: Float32Array; bound: MotionBound; reused: number }[] = [
      { x: at([0, 0, 0], 0), bound: base, reused: 0 },
      // 40 m down and sideways, each vertex wobbling by up to 1 mm (the skin is 10 mm): both reused.
      { x: at([3, -40, 1], 0.002), bound: base, reused: 2 },
      { x: at([3, -41, 1], 0.002), bound: base, reused: 2 },
      // Object 1 folded at its middle: it is joined again, object 0 reused.
      { x: at([3, -42, 1], 0.002, 0.5), bound: base, reused: 1 },
      // Object 0's own margin doubled (an escape): its boxes grow past the kept ones.
      { x: at([3, -43, 1], 0.002, 0.5), bound: { ...base, ownMargins: [0.04, 0.02] }, reused: 1 },
      // Object 1 folding on (its lists now live a job or two): joined again without a skin, and
      // those pairs are used as joined.
      { x: at([3, -44, 1], 0.002, 0.6), bound: { ...base, ownMargins: [0.04, 0.02] }, reused: 1 },
      { x: at([3, -45, 1], 0.002, 0.7), bound: { ...base, ownMargins: [0.04, 0.02] }, reused: 1 },
    ];
    let reusedPairs = 0;
    jobs.forEach(({ x, bound, reused }, j) => {
      const job = sweptCandidates(scene, x, v, bound, true);
      const got = ownPairs(job);
      const want = selfOracle(scene, ownFrameBoxes(scene, x, v, bound));
      expect(want.vf.length + want.ee.length, `job ${j}`).toBeGreaterThan(200);
      expect(differences(got.vf, want.vf), `job ${j} vertex-face`).toEqual([]);
      expect(differences(got.ee, want.ee), `job ${j} edge-edge`).toEqual([]);
      expect(job.keptPairs?.reused, `job ${j}: objects whose kept lists were used`).toBe(reused);
      if (reused > 0) reusedPairs += got.vf.length + got.ee.length;
    });
    expect(reusedPairs).toBeGreaterThan(1000);
    // A skin of 0 keeps nothing: the same pairs, joined afresh.
    const last = jobs[jobs.length - 1]!;
    const fresh = ownPairs(sweptCandidates(scene, last.x, v, { ...last.bound, selfPairSkin: 0 }, true));
    expect(fresh).toEqual(selfOracle(scene, ownFrameBoxes(scene, last.x, v, last.bound)));
    expect(() => sweptCandidates(scene, last.x, v, { ...base, selfPairSkin: -1 }, true)).toThrow(/selfPairSkin must be a finite number >= 0, got -1/);
  });
});

describe('ccdCandidates misses no contact of the exact CCD', () => {
  it('random ballistic motions of two beams: every CCD hit is a candidate, and most pairs are pruned', () => {
    const scene = copies('Beam_lowRes.t', [[0, 0, 0], [0.3, 0.25, 0.2]]);
    const isTet = tetSet(scene);
    const r = rng(29);
    const bound: MotionBound = { horizon: 0.1, gravity: [0, -9.81, 0], margin: 0 };
    const x0 = vec4(scene.rest);
    const n = scene.vertexCount;
    let vfHits = 0, eeHits = 0, vfPairs = 0, eePairs = 0, vfCandidates = 0, eeCandidates = 0;
    for (let trial = 0; trial < 4; trial++) {
      // Each vertex gets its own velocity, so the beams deform and pass through each other.
      const v = new Float32Array(4 * n);
      for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) v[4 * i + k] = (r() - 0.5) * 8;
      const boxes = sweptVertexBoxes(x0, v, bound);
      // The CCD's linear motion between the ballistic end points (both inside the boxes).
      const query = ballisticQueries(x0, v, bound);
      const got = ccdCandidates(scene, boxes, true);
      const vf = new Set(keys(got.vertexFace)), ee = new Set(keys(got.edgeEdge));
      vfCandidates += vf.size;
      eeCandidates += ee.size;
      const T = scene.triangles, E = scene.edges;
      // A vertex crossing its own tet's opposite face (or a tet's opposite edges crossing) is that
      // tet inverting, left to the material: no candidate by design.
      for (const vtx of scene.boundaryVertices) for (let t = 0; t < T.length / 3; t++) {
        const tv = [T[3 * t], T[3 * t + 1], T[3 * t + 2]];
        if (tv.includes(vtx) || isTet([vtx, ...tv])) continue;
        vfPairs++;
        if (!vertexFaceCcd(query([vtx, ...tv])).hit) continue;
        vfHits++;
        expect(vf.has(`${vtx},${t}`), `vertex ${vtx} / triangle ${t} collide but are no candidate`).toBe(true);
      }
      for (let a = 0; a < E.length / 2; a++) for (let b = a + 1; b < E.length / 2; b++) {
        const ev = [E[2 * a], E[2 * a + 1], E[2 * b], E[2 * b + 1]];
        if (ev[0] === ev[2] || ev[0] === ev[3] || ev[1] === ev[2] || ev[1] === ev[3] || isTet(ev)) continue;
        eePairs++;
        if (!edgeEdgeCcd(query(ev)).hit) continue;
        eeHits++;
        expect(ee.has(`${a},${b}`), `edges ${a} / ${b} collide but are no candidate`).toBe(true);
      }
    }
    console.log(`broadPhase vs exact CCD: ${vfHits} vertex-face and ${eeHits} edge-edge hits; candidates ${vfCandidates} of ${vfPairs} / ${eeCandidates} of ${eePairs} pairs`);
    // The motions really produce contacts, and the boxes still prune most pairs.
    expect(vfHits).toBeGreaterThan(20);
    expect(eeHits).toBeGreaterThan(20);
    expect(vfCandidates).toBeLessThan(0.5 * vfPairs);
    expect(eeCandidates).toBeLessThan(0.5 * eePairs);
  });
});

describe('ccdCandidates on degenerate scenes', () => {
  it('no primitives, or all boxes at one point: the oracle\'s answer, no failure', () => {
    const empty: CcdTopology = { vertexCount: 0, boundaryVertices: new Uint32Array(0), triangles: new Uint32Array(0), edges: new Uint32Array(0), vertexObject: new Uint32Array(0) };
    expect(ccdCandidates(empty, new Float32Array(0), true)).toEqual({ vertexFace: new Uint32Array(0), edgeEdge: new Uint32Array(0) });
    // Two triangles and their edges, every box the same point: everything overlaps.
    const topo: CcdTopology = { vertexCount: 6, boundaryVertices: Uint32Array.of(0, 1, 2, 3, 4, 5), triangles: Uint32Array.of(0, 1, 2, 3, 4, 5), edges: Uint32Array.of(0, 1, 1, 2, 0, 2, 3, 4, 4, 5, 3, 5), vertexObject: Uint32Array.of(0, 0, 0, 1, 1, 1) };
    const boxes = new Float32Array(36).fill(0.5);
    for (const self of [true, false]) {
      const got = ccdCandidates(topo, boxes, self);
      const want = oracle(topo, boxes, self);
      expect(pairKeys(got.vertexFace, 2)).toEqual(want.vf);
      expect(pairKeys(got.edgeEdge, 6)).toEqual(want.ee);
      expect(want.vf.length).toBe(6); // each vertex against the other object's triangle
      expect(want.ee.length).toBe(9);
    }
  });
});

describe('ccdCandidates refuses malformed input, naming the array and index', () => {
  const topo: CcdTopology = { vertexCount: 4, boundaryVertices: Uint32Array.of(0, 1, 2, 3), triangles: Uint32Array.of(0, 1, 2), edges: Uint32Array.of(0, 1, 2, 3), vertexObject: new Uint32Array(4) };
  const boxes = new Float32Array(24);
  it('lengths and ids', () => {
    expect(() => ccdCandidates(topo, new Float32Array(18), true)).toThrow('boxes has length 18, expected 24');
    expect(() => ccdCandidates({ ...topo, triangles: Uint32Array.of(0, 1) }, boxes, true)).toThrow('triangles has length 2, not 3 per triangle');
    expect(() => ccdCandidates({ ...topo, edges: Uint32Array.of(0, 1, 2, 9) }, boxes, true)).toThrow('edges[3] (element 1) = vertex 9, out of range [0, 4)');
    expect(() => ccdCandidates({ ...topo, boundaryVertices: Uint32Array.of(0, 7) }, boxes, true)).toThrow('boundaryVertices[1] (entry) = vertex 7, out of range [0, 4)');
    expect(() => ccdCandidates({ ...topo, vertexObject: new Uint32Array(3) }, boxes, true)).toThrow('vertexObject has length 3, expected 4');
  });
  it('boxes that are not finite intervals', () => {
    const bad = boxes.slice();
    bad[6 * 2 + 4] = -1; // vertex 2: max y below min y
    expect(() => ccdCandidates(topo, bad, true)).toThrow('boxes of vertex 2, axis y: [0, -1] is not a finite interval');
    bad[6 * 2 + 4] = NaN;
    expect(() => ccdCandidates(topo, bad, true)).toThrow('boxes of vertex 2, axis y');
  });
});

describe('sweptCandidates (self pairs in each object\'s own frame) misses no contact of the exact CCD', () => {
  it('two beams flying at each other fast while deforming: every CCD hit is a candidate, self hits included; flying rigidly, far fewer pairs than world boxes give', () => {
    const scene = copies('Beam_lowRes.t', [[0, 0, 0], [0.3, 0.25, 0.2]]);
    const isTet = tetSet(scene);
    const r = rng(41);
    const bound: MotionBound = { horizon: 0.05, gravity: [0, -9.81, 0], margin: 0.002 };
    const x0 = vec4(scene.rest);
    const n = scene.vertexCount;
    let hits = 0, selfHits = 0, pairs = 0, worldPairs = 0;
    for (let trial = 0; trial < 2; trial++) {
      // A common velocity per beam (toward each other, 280 m/s: the beam is 10 units long) plus each vertex's own (deformation up to 100 m/s, 5 units in the horizon: self contacts).
      const v = new Float32Array(4 * n);
      for (let i = 0; i < n; i++) {
        const sign = scene.vertexObject[i] === 0 ? 1 : -1;
        for (let k = 0; k < 3; k++) v[4 * i + k] = sign * [200, 150, 120][k] + (r() - 0.5) * 120;
      }
      const got = sweptCandidates(scene, x0, v, bound, true);
      const world = ccdCandidates(scene, sweptVertexBoxes(x0, v, bound), true);
      pairs += (got.vertexFace.length + got.edgeEdge.length) / 2;
      worldPairs += (world.vertexFace.length + world.edgeEdge.length) / 2;
      const vf = new Set(keys(got.vertexFace)), ee = new Set(keys(got.edgeEdge));
      const query = ballisticQueries(x0, v, bound);
      const T = scene.triangles, E = scene.edges, obj = scene.vertexObject;
      for (const vtx of scene.boundaryVertices) for (let t = 0; t < T.length / 3; t++) {
        const tv = [T[3 * t], T[3 * t + 1], T[3 * t + 2]];
        if (tv.includes(vtx) || isTet([vtx, ...tv]) || !vertexFaceCcd(query([vtx, ...tv])).hit) continue;
        hits++;
        if (obj[vtx] === obj[tv[0]]) selfHits++;
        expect(vf.has(`${vtx},${t}`), `vertex ${vtx} / triangle ${t} collide but are no candidate`).toBe(true);
      }
      for (let a = 0; a < E.length / 2; a++) for (let b = a + 1; b < E.length / 2; b++) {
        const ev = [E[2 * a], E[2 * a + 1], E[2 * b], E[2 * b + 1]];
        if (ev[0] === ev[2] || ev[0] === ev[3] || ev[1] === ev[2] || ev[1] === ev[3] || isTet(ev) || !edgeEdgeCcd(query(ev)).hit) continue;
        hits++;
        if (obj[ev[0]] === obj[ev[2]]) selfHits++;
        expect(ee.has(`${a},${b}`), `edges ${a} / ${b} collide but are no candidate`).toBe(true);
      }
    }
    // Flying fast without deforming: the beams' own pairs shrink to their margin-sized boxes.
    const rigid = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) rigid[4 * i + k] = (scene.vertexObject[i] === 0 ? 1 : -1) * [200, 150, 120][k];
    const own = sweptCandidates(scene, x0, rigid, bound, true);
    const ownWorld = ccdCandidates(scene, sweptVertexBoxes(x0, rigid, bound), true);
    const T = scene.triangles, E = scene.edges, obj = scene.vertexObject;
    const selfPairs = (c: { vertexFace: Uint32Array; edgeEdge: Uint32Array }): number => {
      let k = 0;
      for (let i = 0; i < c.vertexFace.length; i += 2) if (obj[c.vertexFace[i]] === obj[T[3 * c.vertexFace[i + 1]]]) k++;
      for (let i = 0; i < c.edgeEdge.length; i += 2) if (obj[E[2 * c.edgeEdge[i]]] === obj[E[2 * c.edgeEdge[i + 1]]]) k++;
      return k;
    };
    const rigidPairs = selfPairs(own), rigidWorld = selfPairs(ownWorld);
    console.log(`sweptCandidates vs exact CCD: ${hits} hits (${selfHits} within one beam), ${pairs} candidate pairs (world boxes alone: ${worldPairs}); rigid flight ${rigidPairs} pairs within one beam (world boxes alone: ${rigidWorld})`);
    expect(hits).toBeGreaterThan(20);
    expect(selfHits).toBeGreaterThan(20);
    expect(pairs).toBeLessThanOrEqual(worldPairs);
    expect(rigidPairs).toBeLessThan(0.2 * rigidWorld);
  });
});
