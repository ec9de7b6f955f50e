/**
 * The intersection display (src/collision/gpu/intersectionDisplay.ts: the data behind the page's
 * blue tint) against a brute-force float64 oracle written here, sharing no code with detection or
 * the shortest path: boundary faces from face counts, point-in-tet by signed volumes, point-
 * triangle distance by Voronoi regions (Ericson 5.1.5).
 *  - Convex bodies overlapping: for a boundary vertex inside another (convex) body the shortest
 *    path to boundary is the Euclidean one, so depth = distance to that body's boundary surface
 *    and the target lies on it; every other vertex reads (x, 0).
 *  - A self-overlapping ring with self-collision and collisions OFF: depth > 0 exactly at the
 *    boundary vertices the oracle finds inside a non-incident tet of the ring, target on the
 *    surface, depth between the Euclidean distance to the surface and the half thickness.
 *  - Overlay readers: BVH boxes of every level equal the boxes of their subtrees' triangles at the
 *    frame's end positions; CCD contacts of a one-substep frame as many as the frame counted.
 *  - Display off: nothing written; frame counters equal with it on and off, positions to the
 *    run-to-run noise of the contacts' f32 accumulation.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { GpuSolver } from '../../src/sim/gpuSolver';
import type { Model } from '../../src/sim/model';
import { defaultParams, type SolverParams } from '../../src/contract/params';
import type { SimSetup } from '../../src/sim/setup';
import { IntersectionDisplay } from '../../src/collision/gpu/intersectionDisplay';
import { SpatialHash } from '../../src/collision/gpu/spatialHash';
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS } from '../../src/bvh/surfaceBvh';
import { overlappingCubes, overlappingRing, stackedCubes } from '../support/collisionScenes';
import { bodiesSetup, cubePart } from '../unit/collision/scenes';
import { readBuffer, testGpu } from '../support/gpu';

const summary: string[] = [];
afterAll(() => console.log(summary.join('\n')));

type V3 = [number, number, number];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const add = (a: V3, b: V3, s: number): V3 => [a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]];
const dist = (a: V3, b: V3): number => Math.hypot(...sub(a, b));

/** Closest point of triangle abc to p (Ericson, Real-Time Collision Detection 5.1.5). */
function closestOnTriangle(p: V3, a: V3, b: V3, c: V3): V3 {
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b);
  const d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return add(a, ab, d1 / (d1 - d3));
  const cp = sub(p, c);
  const d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return add(a, ac, d2 / (d2 - d6));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return add(b, sub(c, b), (d4 - d3) / (d4 - d3 + (d5 - d6)));
  const denom = 1 / (va + vb + vc);
  return add(add(a, ab, vb * denom), ac, vc * denom);
}

/** The oracle's view of a model at positions x (f64): boundary faces by counting, per-tet containment. */
class Oracle {
  readonly faces: number[][] = [];
  readonly boundary = new Set<number>();
  constructor(
    readonly model: Model,
    readonly x: Float64Array,
  ) {
    const count = new Map<string, number[]>();
    const T = model.tets;
    for (let t = 0; t < model.tetCount; t++) {
      const v = [T[4 * t], T[4 * t + 1], T[4 * t + 2], T[4 * t + 3]];
      for (let skip = 0; skip < 4; skip++) {
        const f = v.filter((_, k) => k !== skip);
        const key = [...f].sort((p, q) => p - q).join(',');
        const seen = count.get(key);
        if (seen) seen.push(-1);
        else count.set(key, [...f, model.tetObject[t]]);
      }
    }
    for (const f of count.values()) {
      if (f.length !== 4) continue;
      this.faces.push(f);
      for (const v of f.slice(0, 3)) this.boundary.add(v);
    }
  }

  at(v: number): V3 {
    return [this.x[3 * v], this.x[3 * v + 1], this.x[3 * v + 2]];
  }

  /** Smallest barycentric sub-volume of p in tet t over its volume (> 0 strictly inside), NaN when t is not positive. */
  inside(t: number, p: V3): number {
    const c = [0, 1, 2, 3].map((k) => this.at(this.model.tets[4 * t + k]));
    const vol = (a: V3, b: V3, d: V3, e: V3) => dot(sub(b, a), cross(sub(d, a), sub(e, a)));
    const total = vol(c[0], c[1], c[2], c[3]);
    if (!(total > 0)) return NaN;
    return Math.min(vol(p, c[1], c[2], c[3]), vol(c[0], p, c[2], c[3]), vol(c[0], c[1], p, c[3]), vol(c[0], c[1], c[2], p)) / total;
  }

  /** Lowest object (other than `self` unless allowSelf) with a tet strictly containing vertex v (not incident); and the closest margin seen. */
  container(v: number, allowSelf: boolean): { object: number; margin: number } {
    const p = this.at(v);
    const T = this.model.tets;
    let object = -1, margin = Infinity;
    for (let t = 0; t < this.model.tetCount; t++) {
      if (T[4 * t] === v || T[4 * t + 1] === v || T[4 * t + 2] === v || T[4 * t + 3] === v) continue;
      const o = this.model.tetObject[t];
      if (!allowSelf && o === this.model.vertexObject[v]) continue;
      const m = this.inside(t, p);
      if (Number.isNaN(m)) throw new Error(`oracle: tet ${t} is not positively oriented (the scene is meant to have none)`);
      margin = Math.min(margin, Math.abs(m));
      if (m > 0 && (object < 0 || o < object)) object = o;
    }
    return { object, margin };
  }

  /** Euclidean distance from p to the boundary faces of `object` not incident to `exclude`. */
  surfaceDistance(p: V3, object: number, exclude = -1): number {
    let best = Infinity;
    for (const f of this.faces) {
      if (f[3] !== object || f[0] === exclude || f[1] === exclude || f[2] === exclude) continue;
      best = Math.min(best, dist(p, closestOnTriangle(p, this.at(f[0]), this.at(f[1]), this.at(f[2]))));
    }
    return best;
  }
}

function setupOf(model: Model, params: Partial<SolverParams>): SimSetup {
  return { model, colliders: [], handles: [], params: defaultParams({ gravity: [0, 0, 0], ...params }) };
}

/** The display on the solver's current positions; the depth buffer and the positions it saw. */
async function display(solver: GpuSolver): Promise<{ depth: Float32Array; x: Float64Array }> {
  const ctx = await testGpu();
  const d = solver.intersectionDisplay!;
  const encoder = ctx.device.createCommandEncoder();
  d.encode(encoder, solver.state);
  ctx.device.queue.submit([encoder.finish()]);
  const depth = new Float32Array(await readBuffer(ctx, d.depthBuffer));
  const x = Float64Array.from(await solver.readPositions());
  return { depth, x };
}

/** Free and interior vertices: (x, 0) exactly. */
function expectFree(depth: Float32Array, x: Float64Array, v: number): void {
  expect(depth[4 * v + 3], `vertex ${v} depth`).toBe(0);
  for (let k = 0; k < 3; k++) expect(depth[4 * v + k]).toBe(Math.fround(x[3 * v + k]));
}

describe('intersection display (blue tint data)', () => {
  it('convex bodies: depth = Euclidean distance to the other body\'s surface at every boundary vertex inside it, (x, 0) elsewhere', async () => {
    const ctx = await testGpu();
    for (const [name, model] of [['overlapping cubes + slab', overlappingCubes()], ['stacked cubes 0.2 deep', stackedCubes(0.2)]] as const) {
      const solver = new GpuSolver(ctx, setupOf(model, { collisions: false, selfCollision: false }));
      try {
        const { depth, x } = await display(solver);
        const o = new Oracle(model, x);
        let inside = 0, ambiguous = 0, worst = 0;
        for (let v = 0; v < model.vertexCount; v++) {
          if (!o.boundary.has(v)) {
            expectFree(depth, x, v);
            continue;
          }
          const c = o.container(v, false);
          const p = o.at(v);
          const expected = c.object >= 0 ? o.surfaceDistance(p, c.object) : 0;
          // f32 decides containment and the path: points within 1e-4 of a tet face or the surface may go either way.
          if (c.margin < 1e-4 || (c.object >= 0 && expected < 1e-4)) {
            ambiguous++;
            continue;
          }
          if (c.object < 0) {
            expectFree(depth, x, v);
            continue;
          }
          inside++;
          const w = depth[4 * v + 3];
          const target: V3 = [depth[4 * v], depth[4 * v + 1], depth[4 * v + 2]];
          expect(w, `vertex ${v} inside object ${c.object}`).toBeGreaterThan(0);
          expect(Math.abs(w - expected), `vertex ${v}: depth ${w} vs oracle ${expected}`).toBeLessThan(2e-5);
          expect(Math.abs(dist(p, target) - w)).toBeLessThan(2e-6);
          expect(o.surfaceDistance(target, c.object), `vertex ${v}: target off the surface`).toBeLessThan(2e-5);
          worst = Math.max(worst, Math.abs(w - expected));
        }
        summary.push(`${name}: ${inside} boundary vertices inside another body, depth vs oracle within ${worst.toExponential(1)}, ${ambiguous} f32-ambiguous left out`);
        expect(inside).toBeGreaterThan(10);
        expect(ambiguous).toBeLessThan(3);
      } finally {
        solver.destroy();
      }
    }
  });

  it('self-overlapping ring with self-collision and collisions off: depth > 0 exactly where the brute-force point-in-tet finds the vertex inside', async () => {
    const ctx = await testGpu();
    const model = overlappingRing();
    const solver = new GpuSolver(ctx, setupOf(model, { collisions: false, selfCollision: false }));
    try {
      const { depth, x } = await display(solver);
      const o = new Oracle(model, x);
      let inside = 0, ambiguous = 0, deepest = 0;
      for (let v = 0; v < model.vertexCount; v++) {
        if (!o.boundary.has(v)) {
          expectFree(depth, x, v);
          continue;
        }
        const c = o.container(v, true);
        if (c.margin < 1e-4) {
          ambiguous++;
          continue;
        }
        if (c.object < 0) {
          expectFree(depth, x, v);
          continue;
        }
        inside++;
        const p = o.at(v);
        const w = depth[4 * v + 3];
        const target: V3 = [depth[4 * v], depth[4 * v + 1], depth[4 * v + 2]];
        expect(w, `vertex ${v} inside the ring`).toBeGreaterThan(0);
        expect(Math.abs(dist(p, target) - w)).toBeLessThan(2e-6);
        expect(o.surfaceDistance(target, 0, v), `vertex ${v}: target off the surface`).toBeLessThan(2e-5);
        // A path is never shorter than the straight line to the surface, and the straight line
        // to the nearer flat face (z = 0 or 0.3) of the ring's first turn is a path: at most 0.15.
        expect(w).toBeGreaterThanOrEqual(o.surfaceDistance(p, 0, v) - 2e-6);
        expect(w).toBeLessThanOrEqual(0.15 + 1e-5);
        deepest = Math.max(deepest, w);
      }
      summary.push(`ring (self, selfCollision off): ${inside} boundary vertices inside the ring, deepest ${deepest.toFixed(4)}, ${ambiguous} f32-ambiguous left out`);
      expect(inside).toBeGreaterThan(5);
      expect(ambiguous).toBeLessThan(3);
    } finally {
      solver.destroy();
    }
  });

  /** Every number of `got` within 5 % (+2) of `want`'s, strings and booleans equal. */
  function expectCountsClose(got: unknown, want: unknown, where: string): void {
    if (typeof want === 'number') {
      expect(typeof got, where).toBe('number');
      expect(Math.abs((got as number) - want), where).toBeLessThanOrEqual(0.05 * Math.abs(want) + 2);
    } else if (want && typeof want === 'object') {
      expect(Object.keys(got as object).sort(), where).toEqual(Object.keys(want).sort());
      for (const [k, v] of Object.entries(want)) expectCountsClose((got as Record<string, unknown>)[k], v, `${where}.${k}`);
    } else {
      expect(got, where).toEqual(want);
    }
  }

  it('display off writes nothing; frame counters and positions are the same with it on and off', async () => {
    const ctx = await testGpu();
    // contactOffset 0: resting contacts converge from below, so a few vertices stay inside after
    // each frame and the display has something to show (a positive offset clears them all).
    const params: Partial<SolverParams> = { substeps: 2, collisionMode: 'dcd', contactOffset: 0 };
    const off = new GpuSolver(ctx, setupOf(stackedCubes(0.1), params));
    const on = new GpuSolver(ctx, setupOf(stackedCubes(0.1), params));
    try {
      const n = off.model.vertexCount;
      const sentinel = new Float32Array(4 * n).fill(-7);
      const offBuffer = off.intersectionDepthBuffer!;
      ctx.device.queue.writeBuffer(offBuffer, 0, sentinel);
      on.showIntersections = true;
      // Paused, before any frame: the display on the rest state.
      on.refreshIntersections();
      const atRest = await on.readIntersections();
      expect(atRest.vertexIds.length).toBeGreaterThan(0);
      const strip = (c: unknown) => JSON.stringify(c, (k, v) => (k.endsWith('Ms') ? undefined : v));
      for (let f = 0; f < 3; f++) {
        const a = await off.stepFrame();
        const b = await on.stepFrame();
        // Each substep after the first starts from positions that differ by the contacts' f32
        // accumulation order (atomics; see below), so a hit or two may come or go between two runs
        // even without the display: counts agree within 5 % (+2), the fields exactly.
        expectCountsClose(JSON.parse(strip(b.collisions)), JSON.parse(strip(a.collisions)), `frame ${f}`);
        // The contacts' f32 accumulation order varies from run to run (two solvers with the display
        // off differ by up to 7e-7 here): positions agree to that, not to the bit.
        const xa = await off.readPositions(), xb = await on.readPositions();
        let diff = 0;
        for (let i = 0; i < xa.length; i++) diff = Math.max(diff, Math.abs(xa[i] - xb[i]));
        expect(diff).toBeLessThan(1e-5);
        if (f === 0) expect(a.collisions!.dcdHits.vertexInter).toBeGreaterThan(0);
      }
      expect(Array.from(new Float32Array(await readBuffer(ctx, offBuffer)))).toEqual(Array.from(sentinel));
      expect(off.intersectionDisplay!.passes).toBe(0);
      expect(on.intersectionDisplay!.passes).toBe(4); // the refresh at rest and 3 frames
      const r = await on.readIntersections();
      expect(r.vertexIds.length).toBeGreaterThan(0);
      expect(r.depths.every((d) => d > 0)).toBe(true);
      // A reset shows the rest state's intersections again, not the last frame's.
      on.reset();
      const afterReset = await on.readIntersections();
      expect(Array.from(afterReset.vertexIds)).toEqual(Array.from(atRest.vertexIds));
      expect(Array.from(afterReset.depths)).toEqual(Array.from(atRest.depths));
      expect(Array.from(afterReset.targets)).toEqual(Array.from(atRest.targets));
      summary.push(`stacked cubes 0.1 deep, 3 frames: counters and positions equal with the display on and off; ${atRest.vertexIds.length} vertices inside at rest, ${r.vertexIds.length} after them (of ${r.detected} detected), at rest again after a reset`);
    } finally {
      off.destroy();
      on.destroy();
    }
  });

  it('overlay readers: BVH level boxes = boxes of their subtrees\' triangles at the end positions; CCD contacts as counted', async () => {
    const ctx = await testGpu();
    const setup = bodiesSetup(
      [
        { part: cubePart(3, 0.2, [0, 0, 0]), velocity: [2, 0, 0] },
        { part: cubePart(3, 0.2, [0.3, 0.05, 0.04]), velocity: [-2, 0, 0] },
      ],
      // One substep a frame, impact substeps off: the frame's hit counters are then the last
      // substep's, which is what readCcdContacts reads.
      { gravity: [0, 0, 0], substeps: 1, damping: 0, impactSubsteps: 0 },
    );
    const solver = new GpuSolver(ctx, setup);
    try {
      solver.showIntersections = true;
      let hits = 0;
      for (let f = 0; f < 8 && hits === 0; f++) {
        const r = await solver.stepFrame();
        hits = r.collisions!.ccd.hitsVertexFace + r.collisions!.ccd.hitsEdgeEdge;
      }
      expect(hits).toBeGreaterThan(0);
      const ccd = await solver.readCcdContacts();
      expect(ccd.kinds.length).toBe(hits);
      const x = await solver.readPositions();
      const at = (v: number): V3 => [x[3 * v], x[3 * v + 1], x[3 * v + 2]];
      for (let c = 0; c < ccd.kinds.length; c++) {
        expect(Math.hypot(ccd.normals[3 * c], ccd.normals[3 * c + 1], ccd.normals[3 * c + 2])).toBeCloseTo(1, 5);
        if (ccd.kinds[c] !== 0) continue;
        // A vertex-face contact's point is a vertex: exactly some vertex's end position.
        const p: V3 = [ccd.points[3 * c], ccd.points[3 * c + 1], ccd.points[3 * c + 2]];
        let nearest = Infinity;
        for (let v = 0; v < setup.model.vertexCount; v++) nearest = Math.min(nearest, dist(p, at(v)));
        expect(nearest).toBe(0);
      }
      // BVH: the CPU tree's shape, boxes recomputed here from the triangles under each node.
      const bvh = solver.collisions!.spb.mesh.bvhGpu.bvh;
      const box = (node: number): [V3, V3] => {
        const lo: V3 = [Infinity, Infinity, Infinity], hi: V3 = [-Infinity, -Infinity, -Infinity];
        const walk = (n: number): void => {
          const link = bvh.nodeWords[BVH_NODE_WORDS * n + BVH_LINK], count = bvh.nodeWords[BVH_NODE_WORDS * n + BVH_COUNT];
          if (count === 0) return walk(link), walk(link + 1);
          for (let k = link; k < link + count; k++) {
            for (let j = 0; j < 3; j++) {
              const p = at(bvh.triangles[3 * bvh.triangleOrder[k] + j]);
              for (let a = 0; a < 3; a++) (lo[a] = Math.min(lo[a], p[a])), (hi[a] = Math.max(hi[a], p[a]));
            }
          }
        };
        walk(node);
        return [lo, hi];
      };
      const root = await solver.readBvhLevel(0);
      expect(Array.from(root.nodes)).toEqual([0]);
      let boxes = 0;
      for (let level = 0; level < root.levelCount; level++) {
        const r = await solver.readBvhLevel(level);
        for (let i = 0; i < r.nodes.length; i++, boxes++) {
          const [lo, hi] = box(r.nodes[i]);
          expect(Array.from(r.lo.subarray(3 * i, 3 * i + 3))).toEqual(lo);
          expect(Array.from(r.hi.subarray(3 * i, 3 * i + 3))).toEqual(hi);
        }
      }
      expect(boxes).toBe(bvh.nodeCount);
      await expect(solver.readBvhLevel(root.levelCount)).rejects.toThrow(/level must be an integer/);
      summary.push(`head-on cubes, 1 substep: ${ccd.kinds.length} CCD contacts read = the frame's count; ${boxes} BVH boxes over ${root.levelCount} levels equal to their triangles' boxes`);
    } finally {
      solver.destroy();
    }
  });

  it('a hash pool too small for the pass: drops reported, the pool grown, the next pass complete', async () => {
    const ctx = await testGpu();
    const model = overlappingCubes();
    const solver = new GpuSolver(ctx, setupOf(model, { collisions: false }));
    const c = solver.collisions!;
    const hash = new SpatialHash(ctx.device, c.mesh, { poolCapacity: 64 });
    const small = new IntersectionDisplay(ctx.device, c.topology, c.spb, hash, () => solver.params);
    try {
      const full = await display(solver);
      const pass = async () => {
        const encoder = ctx.device.createCommandEncoder();
        small.encode(encoder, solver.state);
        ctx.device.queue.submit([encoder.finish()]);
        return small.readIntersections(solver.state);
      };
      const first = await pass();
      expect(first.hashDropped).toBeGreaterThan(0);
      expect(hash.poolCapacity).toBeGreaterThan(64);
      const second = await pass();
      expect(second.hashDropped).toBe(0);
      const again = new Float32Array(await readBuffer(ctx, small.depthBuffer));
      expect(Array.from(again)).toEqual(Array.from(full.depth));
      summary.push(`pool of 64 entries: ${first.hashDropped} dropped and ${first.vertexIds.length} of ${second.vertexIds.length} penetrating vertices found; grown to ${hash.poolCapacity}, then all`);
    } finally {
      small.destroy();
      hash.destroy();
      solver.destroy();
    }
  });
});
