/**
 * Physical and geometric truths of the paper's scripted scenes (issue 10), each computed here
 * from the scene's output without the scene's code:
 *  - rods-twist: the handle-encoded positions of the moving ends are the rotation by omega t
 *    about the x axis (cos / sin written here) shifted toward the fixed ends; the fixed ends stay;
 *  - rod-knot: the handles move the tails apart at the stated speed and stop; the centre line
 *    is an overhand knot: the knot determinant |Delta(-1)| of its diagram (Fox colouring
 *    matrix, computed here) is 3, as for the trefoil (1 for an unknotted curve, checked too),
 *    and the meshed rod spans the centre line's ends;
 *  - squishy-head-on: total momentum of the initial velocities is zero (masses from the tets'
 *    volumes, computed here), the balls approach each other and start apart;
 *  - noodle-bowl / squishy-bowl: every vertex starts above the bowl's bottom and within its rim
 *    radius of its axis, so whatever falls lands in the bowl; the balls start apart;
 *  - cube-on-cuboid: once bent, the end faces' centres are the chord L sin a / a apart and the
 *    ends' axes point along (cos a, +-sin a) (a circular arc of length L turning by 2a);
 *  - squishy-recovery: self-collision and recovery switch on while the plane still holds the
 *    ball at 1/20 of its radius, and the plane lets go later.
 */
import { describe, expect, it } from 'vitest';
import { knotRodCurve } from '../../../src/mesh/procedural/shapes/knotRod';
import { readMeshFile } from '../../../src/runner/meshFile';
import { BEND_ANGLE, BEND_TIME, cubeOnCuboid } from '../../../src/scenes/cubeOnCuboid';
import { NOODLE_BOWL_RADIUS, noodleBowl } from '../../../src/scenes/noodleBowl';
import { KNOT_SHAPE, PULL_SPEED, PULL_TIME, rodKnot } from '../../../src/scenes/rodKnot';
import { APPROACH_SPEED, APPROACH_TIME, rodsTwist, TWIST_RATE } from '../../../src/scenes/rodsTwist';
import { paramsDuring } from '../../../src/scenes/schedule';
import { squishyBowl } from '../../../src/scenes/squishyBowl';
import { squishyHeadOn } from '../../../src/scenes/squishyHeadOn';
import { SQUISHY_RECOVERY_RELEASE, SQUISHY_RECOVERY_SWITCH_FRAME, squishyRecovery } from '../../../src/scenes/squishyRecovery';
import { SQUISHY_RADIUS } from '../../../src/scenes/squishySqueeze';
import type { SceneSetup } from '../../../src/scenes/types';
import { COLLIDER_STRIDE, encodeCollider } from '../../../src/sim/colliders';
import { encodeHandle, HANDLE_STRIDE } from '../../../src/sim/handles';
import type { Model } from '../../../src/sim/model';
import { sharedMeshPath } from '../../support/sharedMeshes';

/** Where handle h puts rest point p at time t, read from the encoded 16 numbers. */
function handled(setup: SceneSetup, h: number, t: number, p: number[]): number[] {
  const e = new Float64Array(HANDLE_STRIDE);
  encodeHandle(setup.handles[h], t, e, 0);
  return [0, 1, 2].map((i) => e[i] * p[0] + e[4 + i] * p[1] + e[8 + i] * p[2] + e[12 + i]);
}

function vertex(m: Model, v: number): number[] {
  return [m.restPositions[3 * v], m.restPositions[3 * v + 1], m.restPositions[3 * v + 2]];
}

/** Lumped masses from the tets' signed volumes (density x volume / 4 per vertex). */
function masses(m: Model): Float64Array {
  const out = new Float64Array(m.vertexCount);
  const x = m.restPositions;
  for (let t = 0; t < m.tetCount; t++) {
    const p = [0, 1, 2, 3].map((i) => m.tets[4 * t + i]);
    const e = [1, 2, 3].map((i) => [0, 1, 2].map((k) => x[3 * p[i] + k] - x[3 * p[0] + k]));
    const vol = (e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])) / 6;
    const obj = m.objectTetOffsets.findIndex((_, o) => t >= m.objectTetOffsets[o] && t < m.objectTetOffsets[o + 1]);
    for (const v of p) out[v] += (m.materials[obj].density * vol) / 4;
  }
  return out;
}

function objectBox(m: Model, o: number): { min: number[]; max: number[] } {
  const b = { min: [Infinity, Infinity, Infinity], max: [-Infinity, -Infinity, -Infinity] };
  for (let v = m.objectVertexOffsets[o]; v < m.objectVertexOffsets[o + 1]; v++) {
    for (let k = 0; k < 3; k++) {
      b.min[k] = Math.min(b.min[k], m.restPositions[3 * v + k]);
      b.max[k] = Math.max(b.max[k], m.restPositions[3 * v + k]);
    }
  }
  return b;
}

/** Every vertex within `radius` of the bowl's vertical axis and above its bottom: what falls lands in it. */
function insideBowlFootprint(setup: SceneSetup): { bowlRadius: number; worst: number; lowest: number } {
  const bowl = setup.colliders.find((c) => c.kind === 'bowl');
  if (!bowl || bowl.kind !== 'bowl') throw new Error('no bowl collider');
  const x = setup.model.restPositions;
  let worst = 0, lowest = Infinity;
  for (let v = 0; v < setup.model.vertexCount; v++) {
    worst = Math.max(worst, Math.hypot(x[3 * v] - bowl.center[0], x[3 * v + 2] - bowl.center[2]));
    lowest = Math.min(lowest, x[3 * v + 1] - (bowl.center[1] - bowl.radius));
  }
  return { bowlRadius: bowl.radius, worst, lowest };
}

/**
 * Knot determinant of a polyline, from its diagram in the projection (x, y + 0.3 z), depth
 * z - 0.3 y; where strands cross they must be more than 2 r apart in depth. `closeBelow`: an
 * open curve whose ends lie at the extremes of x, closed by a path down from its last point,
 * across far below everything and up to its first point (no crossing added); otherwise the
 * last point is joined straight to the first.
 */
function knotDeterminant(open: Float64Array, r: number, closeBelow: boolean): number {
  const pts = Array.from(open);
  const n0 = open.length / 3;
  let low = Infinity;
  for (let i = 0; i < n0; i++) low = Math.min(low, open[3 * i + 1] + 0.3 * open[3 * i + 2]);
  const [xa, xb] = [open[0], open[3 * (n0 - 1)]];
  if (closeBelow) pts.push(xb, low - 10, 0, xa, low - 10, 0);
  const n = pts.length / 3; // a closed polygon: segment i joins point i and (i + 1) mod n
  const u = (i: number): number => pts[3 * (i % n)], w = (i: number): number => pts[3 * (i % n) + 1] + 0.3 * pts[3 * (i % n) + 2];
  const depth = (i: number): number => pts[3 * (i % n) + 2] - 0.3 * pts[3 * (i % n) + 1];
  const crossings: { over: number; under: number }[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 2; j < n; j++) {
      if (i === 0 && j === n - 1) continue; // adjacent through the closing point
      const [ax, ay, bx, by] = [u(i), w(i), u(i + 1), w(i + 1)];
      const [cx, cy, dx, dy] = [u(j), w(j), u(j + 1), w(j + 1)];
      const den = (bx - ax) * (dy - cy) - (by - ay) * (dx - cx);
      if (den === 0) continue;
      const s1 = ((cx - ax) * (dy - cy) - (cy - ay) * (dx - cx)) / den;
      const s2 = ((cx - ax) * (by - ay) - (cy - ay) * (bx - ax)) / den;
      if (s1 < 0 || s1 >= 1 || s2 < 0 || s2 >= 1) continue;
      const di = depth(i) + s1 * (depth(i + 1) - depth(i));
      const dj = depth(j) + s2 * (depth(j + 1) - depth(j));
      if (!(Math.abs(di - dj) > 2 * r)) throw new Error(`strands ${i} and ${j} cross ${Math.abs(di - dj)} apart`);
      crossings.push(di > dj ? { over: i + s1, under: j + s2 } : { over: j + s2, under: i + s1 });
    }
  }
  const m = crossings.length;
  if (m === 0) return 1;
  // Arcs run from one under-pass to the next along the closed curve; arc k starts after the k-th under-pass.
  const unders = crossings.map((c) => c.under).sort((a, b) => a - b);
  const arcOf = (at: number): number => {
    let k = unders.filter((x) => x < at).length - 1; // the last under-pass before `at`
    if (k < 0) k = m - 1; // before the first under-pass: still the arc that wraps around
    return k;
  };
  const a = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  crossings.forEach((c, row) => {
    const after = unders.indexOf(c.under);
    const before = (after - 1 + m) % m;
    a[row][arcOf(c.over)] += 2;
    a[row][before] -= 1;
    a[row][after] -= 1;
  });
  // Determinant of the minor without the last row and column (Gaussian elimination, partial pivoting).
  const k = m - 1;
  const b = a.slice(0, k).map((row) => row.slice(0, k));
  let det = 1;
  for (let col = 0; col < k; col++) {
    let piv = col;
    for (let r2 = col + 1; r2 < k; r2++) if (Math.abs(b[r2][col]) > Math.abs(b[piv][col])) piv = r2;
    if (b[piv][col] === 0) return 0;
    if (piv !== col) [b[piv], b[col]] = [b[col], b[piv]];
    det *= b[col][col];
    for (let r2 = col + 1; r2 < k; r2++) {
      const f = b[r2][col] / b[col][col];
      for (let c2 = col; c2 < k; c2++) b[r2][c2] -= f * b[col][c2];
    }
  }
  return Math.round(Math.abs(det));
}

describe('paper scenes: scripted motion and starting states', () => {
  it('rods-twist: the moving ends turn by omega t about the common axis and close in; the fixed ends stay', () => {
    const s = rodsTwist.build({ size: rodsTwist.size!.small });
    const m = s.model;
    const moving: number[] = [], fixed: number[] = [];
    for (let v = 0; v < m.vertexCount; v++) (m.handleOfVertex[v] === 1 ? moving : m.handleOfVertex[v] === 0 ? fixed : []).push(v);
    expect(moving.length).toBeGreaterThan(10);
    expect(fixed.length).toBeGreaterThan(10);
    for (const t of [0, 0.1, 0.37, 1.25, 4.5, 7]) {
      const a = TWIST_RATE * t;
      const shift = APPROACH_SPEED * Math.min(t, APPROACH_TIME);
      for (const v of moving) {
        const [x, y, z] = vertex(m, v);
        const want = [x - shift, Math.cos(a) * y - Math.sin(a) * z, Math.sin(a) * y + Math.cos(a) * z];
        const got = handled(s, 1, t, [x, y, z]);
        for (let k = 0; k < 3; k++) expect(got[k]).toBeCloseTo(want[k], 12);
      }
      for (const v of fixed) expect(handled(s, 0, t, vertex(m, v))).toEqual(vertex(m, v));
    }
    // Both rods' moving ends turn about the same axis: after half a turn rod A's end is where rod B's was.
    const tHalf = Math.PI / TWIST_RATE;
    const zA = moving.filter((v) => m.vertexObject[v] === 0).map((v) => handled(s, 1, tHalf, vertex(m, v))[2]);
    expect(Math.max(...zA)).toBeLessThan(0);
  });

  it('rod-knot: the tails are pulled apart at the stated speed, then held; the centre line is an overhand knot', () => {
    const s = rodKnot.build({ size: rodKnot.size!.small });
    const m = s.model;
    const p = [0.3, -0.2, 0.1];
    for (const t of [0, 1, 3.9, 4, 6]) {
      const d = PULL_SPEED * Math.min(t, PULL_TIME);
      const a = handled(s, 0, t, p), b = handled(s, 1, t, p);
      expect(a[0]).toBeCloseTo(p[0] - d, 12);
      expect(b[0]).toBeCloseTo(p[0] + d, 12);
      expect([a[1], a[2], b[1], b[2]]).toEqual([p[1], p[2], p[1], p[2]]);
    }
    // Handle 0 holds the left tail's end, handle 1 the right one's.
    const xs = (h: number): number[] => Array.from(m.handleOfVertex).flatMap((x, v) => (x === h ? [m.restPositions[3 * v]] : []));
    expect(Math.max(...xs(0))).toBeLessThan(Math.min(...xs(1)));

    // The knot's determinant |Delta(-1)| from a diagram of the centre line closed far below
    // (projection (x, y + 0.3 z), depth z - 0.3 y; the closing path runs below everything, so
    // it adds no crossing): per crossing a row of the Fox colouring matrix, 2 at the over-arc
    // and -1 at each of the two under-arcs; any (n-1) minor's determinant is the knot's
    // determinant: 1 for no knot, 3 for the overhand knot (trefoil), 5 for a figure-eight.
    expect(knotDeterminant(knotRodCurve(KNOT_SHAPE.scale, KNOT_SHAPE.tail, KNOT_SHAPE.radius), KNOT_SHAPE.radius, true)).toBe(3);
    // The computation itself on known closed knots: figure-eight 5, trefoil 3, a circle 1.
    const closed = (f: (t: number) => number[]): Float64Array => Float64Array.from(Array.from({ length: 400 }, (_, i) => f((2 * Math.PI * (i + 0.37)) / 400)).flat());
    expect(knotDeterminant(closed((t) => [(2 + Math.cos(2 * t)) * Math.cos(3 * t), (2 + Math.cos(2 * t)) * Math.sin(3 * t), Math.sin(4 * t)]), 0, false)).toBe(5);
    expect(knotDeterminant(closed((t) => [Math.sin(t) + 2 * Math.sin(2 * t), Math.cos(t) - 2 * Math.cos(2 * t), -Math.sin(3 * t)]), 0, false)).toBe(3);
    expect(knotDeterminant(closed((t) => [Math.cos(t), Math.sin(t), 0.2 * Math.sin(3 * t)]), 0, false)).toBe(1);
    const c = knotRodCurve(KNOT_SHAPE.scale, KNOT_SHAPE.tail, KNOT_SHAPE.radius);
    const n = c.length / 3;
    // The mesh follows the centre line from end to end.
    let minX = Infinity, maxX = -Infinity;
    for (let v = 0; v < m.vertexCount; v++) {
      minX = Math.min(minX, m.restPositions[3 * v]);
      maxX = Math.max(maxX, m.restPositions[3 * v]);
    }
    expect(minX).toBeCloseTo(c[0] - KNOT_SHAPE.radius, 1);
    expect(maxX).toBeCloseTo(c[3 * (n - 1)] + KNOT_SHAPE.radius, 1);
  });

  it('squishy-head-on: zero total momentum, the balls approach each other, they start apart', () => {
    const s = squishyHeadOn.build({ size: squishyHeadOn.size!.small });
    const m = s.model;
    const mass = masses(m);
    const p = [0, 0, 0];
    let total = 0;
    for (let v = 0; v < m.vertexCount; v++) {
      total += mass[v];
      for (let k = 0; k < 3; k++) p[k] += mass[v] * m.initialVelocities[3 * v + k];
    }
    const speed = Math.hypot(m.initialVelocities[0], m.initialVelocities[1], m.initialVelocities[2]);
    expect(speed).toBe(25);
    for (let k = 0; k < 3; k++) expect(Math.abs(p[k])).toBeLessThan(1e-9 * total * speed);
    const [a, b] = [objectBox(m, 0), objectBox(m, 1)];
    expect(b.min[0] - a.max[0]).toBeCloseTo(2.5, 6);
    const va = m.initialVelocities[3 * m.objectVertexOffsets[0]], vb = m.initialVelocities[3 * m.objectVertexOffsets[1]];
    expect((b.min[0] - a.min[0]) * (vb - va)).toBeLessThan(0);
    expect(vb - va).toBe(-50); // the paper's relative speed
    expect(s.params.gravity).toEqual([0, 0, 0]);
  });

  it('noodle-bowl: the noodle stands over the bowl, inside its rim: its landing spot is in the bowl', () => {
    const s = noodleBowl.build({ size: noodleBowl.size!.small });
    const f = insideBowlFootprint(s);
    expect(f.bowlRadius).toBe(NOODLE_BOWL_RADIUS);
    expect(f.worst).toBeLessThan(0.5 * f.bowlRadius);
    expect(f.lowest).toBeGreaterThan(0);
    const b = objectBox(s.model, 0);
    expect(b.max[1] - b.min[1]).toBeGreaterThan(5.9); // upright
  });

  it('squishy-bowl: every ball starts above the rim and within it, apart from the others', () => {
    for (const n of [1, 3, 9]) {
      const s = squishyBowl.build({ size: n });
      const f = insideBowlFootprint(s);
      expect(f.worst, `${n} balls`).toBeLessThan(f.bowlRadius);
      const bowl = s.colliders.find((c) => c.kind === 'bowl')!;
      const m = s.model;
      expect(m.objectNames).toHaveLength(n);
      for (let o = 0; o < n; o++) {
        const b = objectBox(m, o);
        if (bowl.kind === 'bowl') expect(b.min[1], `${n} balls, ball ${o}`).toBeGreaterThan(bowl.center[1]);
        for (let q = 0; q < o; q++) {
          const c = objectBox(m, q);
          expect([0, 1, 2].every((k) => b.min[k] < c.max[k] && c.min[k] < b.max[k]), `${n} balls: ${o} and ${q} overlap`).toBe(false);
        }
      }
    }
  });

  it('cube-on-cuboid: once bent the ends are a circular arc\'s chord apart and tilted by the bend angle', () => {
    const meshes = { cuboid: readMeshFile(sharedMeshPath('Cuboid.t')), cube: readMeshFile(sharedMeshPath('Cube.t')) };
    const s = cubeOnCuboid.build({ meshes });
    const m = s.model;
    const L = 6;
    const left = Array.from({ length: m.vertexCount }, (_, v) => v).filter((v) => m.handleOfVertex[v] === 0);
    const right = Array.from({ length: m.vertexCount }, (_, v) => v).filter((v) => m.handleOfVertex[v] === 1);
    const centre = (vs: number[]): number[] => [0, 1, 2].map((k) => vs.reduce((a, v) => a + m.restPositions[3 * v + k], 0) / vs.length);
    const faceL = centre(left.filter((v) => m.restPositions[3 * v] === -3));
    const faceR = centre(right.filter((v) => m.restPositions[3 * v] === 3));
    expect(faceL[0]).toBe(-3);
    for (const t of [BEND_TIME, 2 * BEND_TIME]) {
      const a = handled(s, 0, t, faceL), b = handled(s, 1, t, faceR);
      expect(Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2])).toBeCloseTo((L * Math.sin(BEND_ANGLE)) / BEND_ANGLE, 9);
      // Direction of the cuboid's axis at each end: the handle's image of +x, minus its image of 0.
      const dirL = [0, 1, 2].map((k) => handled(s, 0, t, [1, 0, 0])[k] - handled(s, 0, t, [0, 0, 0])[k]);
      const dirR = [0, 1, 2].map((k) => handled(s, 1, t, [1, 0, 0])[k] - handled(s, 1, t, [0, 0, 0])[k]);
      expect(dirL[0]).toBeCloseTo(Math.cos(BEND_ANGLE), 12);
      expect(dirL[1]).toBeCloseTo(Math.sin(BEND_ANGLE), 12);
      expect(dirR[1]).toBeCloseTo(-Math.sin(BEND_ANGLE), 12);
    }
    expect(handled(s, 0, 0, faceL)).toEqual(faceL);
    // The cube starts above the cuboid, near a quarter of its length, apart from it.
    const [cuboid, cube] = [objectBox(m, 0), objectBox(m, 1)];
    expect(cube.min[1]).toBeGreaterThan(cuboid.max[1]);
    expect((cube.min[0] + cube.max[0]) / 2).toBeCloseTo(L / 4, 9);
  });

  it('squishy-recovery: self-collision and recovery switch on while the plane holds the ball flat, released later', () => {
    const s = squishyRecovery.build({ size: squishyRecovery.size!.min });
    const F = SQUISHY_RECOVERY_SWITCH_FRAME;
    expect(paramsDuring(s.params, s.schedule!, F - 1)).toMatchObject({ selfCollision: false, recovery: false, collisions: true });
    expect(paramsDuring(s.params, s.schedule!, F)).toMatchObject({ selfCollision: true, recovery: true });
    const top = s.colliders.find((c) => c.kind === 'plane' && c.normal[1] === -1)!;
    const e = new Float64Array(COLLIDER_STRIDE);
    encodeCollider(top, F * s.params.dt, e, 0);
    expect(e[1]).toBe(1); // active
    expect(-e[7]).toBeCloseTo(SQUISHY_RADIUS / 20, 12); // its height: the ball is flat
    encodeCollider(top, SQUISHY_RECOVERY_RELEASE + 0.01, e, 0);
    expect(e[1]).toBe(0);
    expect(squishyRecovery.build({ size: squishyRecovery.size!.min, selfCollisionFrom: 10 }).schedule).toEqual([{ frame: 10, params: { selfCollision: true, recovery: true } }]);
  });
});
