/**
 * Air mode on the float64 CPU reference (paper 004), against truths computed here:
 *   - a small air-boxes stack pressed flat by a plate and released: every state finite, no
 *     boundary vertex of one box inside another deeper than rounding (the brute-force counter,
 *     tests/support/intersectionCounter.ts, which shares no code with the solver), and the
 *     boxes' centroid order along each axis the same as at the start (Fig. 8's memory);
 *   - the same scene in hybrid mode (the CPU reference's DCD + shortest path), compared:
 *     penetrating vertices and order after release;
 *   - without pressing, no air tet inverted at the end of any substep (the method's invariant),
 *     though the boxes collide;
 *   - locking (Fig. 6 in 3D): a box spinning inside a frame turns freely with the mesh
 *     optimisation on and is stopped with it off (angle measured from its vertices).
 * A short version of the scene (3 boxes of 2 cells, a press over 0.9 s, 10 substeps); the
 * 360-frame run is bench/airMesh.ts.
 */
import { describe, expect, it } from 'vitest';
import { hexGridBox } from '../../../src/mesh/procedural/hexGridBox';
import { airBoxesLayout } from '../../../src/scenes/airBoxes';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { buildModel } from '../../../src/sim/model';
import { defaultParams, type CollisionMode } from '../../../src/contract/params';
import type { SimSetup } from '../../../src/sim/setup';
import { countIntersections } from '../../support/intersectionCounter';
import { pressedAirStack } from '../../support/pressedAirStack';

/** The pressed stack (tests/support/pressedAirStack.ts) in a collision mode. */
function pressedStack(mode: CollisionMode, press = true): SimSetup {
  return pressedAirStack({ collisionMode: mode }, press);
}

function centroids(s: CpuSolver): number[][] {
  const m = s.model;
  return m.objectNames.map((_, o) => {
    const c = [0, 0, 0];
    const n = m.objectVertexOffsets[o + 1] - m.objectVertexOffsets[o];
    for (let v = m.objectVertexOffsets[o]; v < m.objectVertexOffsets[o + 1]; v++) for (let k = 0; k < 3; k++) c[k] += s.x[3 * v + k] / n;
    return c;
  });
}

/** Per axis, the objects' ids sorted by centroid coordinate. */
function orderOf(c: number[][]): number[][] {
  return [0, 1, 2].map((k) => c.map((_, o) => o).sort((a, b) => c[a][k] - c[b][k]));
}

/**
 * A vertex inside another box by less than this (1e-6 m, 2.5e-6 of a box's side) is touching it:
 * boxes resting on each other flatten the air tets between them to zero volume, and the brute-force
 * counter then finds 1-3 vertices "inside" in most frames at 1e-18 to 5e-7 m, in either
 * collideEvery schedule (frame 75 happened to have none once a substep; it has 2, at 6e-16 m, after
 * every iteration).
 */
const TOUCHING = 1e-6;

interface Outcome { finite: boolean; penetrating: number; order: number[][]; start: number[][]; /** The highest centroid at 0.5 s (pressed). */ lowestDuringPress: number }

function runPress(mode: CollisionMode, frames: number): Outcome {
  const s = new CpuSolver(pressedStack(mode));
  const start = orderOf(centroids(s));
  let lowest = Infinity;
  for (let f = 0; f < frames; f++) {
    s.stepFrame();
    if (f === 30) lowest = Math.max(...centroids(s).map((c) => c[1]));
  }
  const finite = s.x.every(Number.isFinite);
  const hits = finite ? countIntersections({ positions: s.x, tets: s.model.tets, tetObject: s.model.tetObject }, { self: false, depth: true }) : undefined;
  return { finite, penetrating: hits ? hits.hits.filter((h) => !h.self && h.depth > TOUCHING).length : Infinity, order: orderOf(centroids(s)), start, lowestDuringPress: lowest };
}

describe('air-boxes pressed flat and released (CPU reference)', () => {
  const air = runPress('air', 75);

  it('air mode: finite, no box inside another, the centroid order of the start on every axis', () => {
    expect(air.finite).toBe(true);
    // The press did flatten the stack: at 0.5 s every centroid is below the plate's quarter of the stack's height.
    expect(air.lowestDuringPress).toBeLessThan(0.25 * airBoxesLayout(3, 2).top);
    expect(air.penetrating).toBe(0);
    expect(air.order).toEqual(air.start);
  });

  it('hybrid mode on the same scene, compared: no more penetrating vertices nor a better kept order than air mode', () => {
    const hybrid = runPress('hybrid', 75);
    const kept = (o: Outcome) => o.order.filter((axis, k) => axis.join() === o.start[k].join()).length;
    console.log(`after release: air ${air.penetrating} penetrating vertices, order kept on ${kept(air)} of 3 axes; hybrid ${hybrid.penetrating} penetrating, order kept on ${kept(hybrid)} of 3 axes`);
    expect(hybrid.finite).toBe(true);
    expect(air.penetrating).toBeLessThanOrEqual(hybrid.penetrating);
    expect(kept(air)).toBeGreaterThanOrEqual(kept(hybrid));
  });
});

describe('the air invariant', () => {
  it('no air tet is inverted at the end of a substep while the boxes fall onto each other', () => {
    const setup = pressedStack('air', false);
    // Thrown down onto each other: the air between them is flattened hard.
    const m = setup.model;
    for (let v = m.objectVertexOffsets[1]; v < m.vertexCount; v++) m.initialVelocities[3 * v + 1] = -2;
    const s = new CpuSolver(setup);
    let inverted = 0;
    for (let f = 0; f < 20; f++) {
      s.stepFrame();
      const c = s.collisionCounters.air!;
      inverted += c.inverted;
      expect(c.invertedAfter, `frame ${f}`).toBe(0);
    }
    expect(inverted).toBeGreaterThan(0);
  });
});

describe('locking (Fig. 6): a box spinning inside a frame', () => {
  /** A 2 x 1 x 2-cell box in a 6 x 3 x 6-cell container, no gravity, spun about y at `omega`. */
  function spinning(optimizeEvery: number, omega: number): SimSetup {
    const cell = 0.1;
    const box = hexGridBox([2 * cell, cell, 2 * cell], [2, 1, 2], [0, 1.5 * cell, 0]);
    const model = buildModel([{ name: 'box', positions: box.positions, tets: box.tets, material: { youngsModulus: 1e5, poissonRatio: 0.3, density: 400 } }]);
    for (let v = 0; v < model.vertexCount; v++) {
      const x = model.restPositions[3 * v], z = model.restPositions[3 * v + 2];
      model.initialVelocities[3 * v] = -omega * z;
      model.initialVelocities[3 * v + 2] = omega * x;
    }
    return {
      model, colliders: [], handles: [],
      air: { min: [-3 * cell, 0, -3 * cell], max: [3 * cell, 3 * cell, 3 * cell], cell },
      params: defaultParams({ gravity: [0, 0, 0], substeps: 10, friction: 0, collisionMode: 'air', airOptimizeFrames: optimizeEvery }),
    };
  }

  /** Angle turned about y: of the box's corner 0 about its centroid, unwrapped frame by frame. */
  function turned(optimizeEvery: number, frames: number, omega: number): number {
    const s = new CpuSolver(spinning(optimizeEvery, omega));
    const angle = () => {
      let cx = 0, cz = 0;
      const n = s.model.vertexCount;
      for (let v = 0; v < n; v++) { cx += s.x[3 * v] / n; cz += s.x[3 * v + 2] / n; }
      return Math.atan2(s.x[2] - cz, s.x[0] - cx);
    };
    let last = angle(), total = 0;
    for (let f = 0; f < frames; f++) {
      s.stepFrame();
      const a = angle();
      let d = a - last;
      if (d > Math.PI) d -= 2 * Math.PI;
      if (d < -Math.PI) d += 2 * Math.PI;
      total += d;
      last = a;
    }
    return Math.abs(total);
  }

  it('turns freely with the optimisation on and locks with it off', () => {
    const omega = Math.PI; // half a turn per second: a half turn in 60 frames
    const free = omega * 1;
    const on = turned(1, 60, omega);
    const off = turned(0, 60, omega);
    console.log(`spinning box, 60 frames at ${omega.toFixed(2)} rad/s (free: ${free.toFixed(2)} rad): optimisation on ${on.toFixed(2)} rad, off ${off.toFixed(2)} rad`);
    expect(on).toBeGreaterThan(0.8 * free);
    expect(off).toBeLessThan(0.4 * free);
  });
});
