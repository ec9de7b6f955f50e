import { describe, expect, it } from 'vitest';
import { CpuCollisionStage } from '../../../src/collision/cpu/cpuCollisionStage';
import { GROUP_POINT_FACE } from '../../../src/collision/cpu/contactsCpu';
import { defaultParams, type SolverParams } from '../../../src/contract/params';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { bodiesSetup, cubePart, latticePart } from './scenes';
import { frictionlessSlide, slideVelocity } from '../../support/slideScene';

/**
 * CCD contacts on a triangle's edge or vertex take their normal from the feature's normal cone on
 * the surface (src/collision/ccd/featureNormal.ts). The truth is the geometry: a flat surface has
 * one normal everywhere, its internal edges and vertices included, and a convex 90-degree edge
 * has the quarter circle between its two faces' normals. A 10 cm block slides 5 mm along a flat
 * slab (top at y = 5 cm, split into triangles along lattice diagonals) 0.8 mm above it, within the
 * 2 mm contact offset, over one substep in CCD mode; its front edge passes over a column of slab
 * vertices. Before the rule the block's vertices crossing internal edges of the slab got normals
 * leaning up to 60 degrees back against the slide (a block on a slab at 35 degrees then braked at
 * up to 2.75 m/s^2 with no friction, docs/collisions.md "Friction"). The other side's cone too
 * (src/collision/ccd/mutualCone.ts): a slab vertex or an internal slab edge lies on a flat surface
 * and has one normal, up, so whatever reaches it pushes it straight down.
 */
function slide(coneNormals: boolean, mutualCones = true) {
  const slab = latticePart([8, 1, 2], (u, v, w) => [u / 8 - 0.2, v * 0.05, w / 8 - 0.125]);
  const block = cubePart(2, 0.1, [0.072, 0.0508, -0.05]);
  const setup = bodiesSetup([{ part: slab }, { part: block }], { gravity: [0, 0, 0], selfCollision: false });
  const m = setup.model;
  const stage = new CpuCollisionStage(m);
  stage.ccd.coneNormals = coneNormals;
  stage.ccd.mutualCones = mutualCones;
  const x0 = Float64Array.from(m.restPositions);
  const x = Float64Array.from(x0);
  const blockFirst = m.objectVertexOffsets[1];
  for (let v = blockFirst; v < m.vertexCount; v++) x[3 * v] += 0.005;
  const w = Float64Array.from(m.invMass);
  const params = defaultParams({ collisionMode: 'ccd', selfCollision: false, contactOffset: 0.002, contactIterations: 1, friction: 0 });
  const counters = stage.step(x, x0, w, params);
  const c = stage.contacts;
  const onSlab: number[][] = [], onBlock: number[][] = [], edgeEdge: number[][] = [];
  for (let i = 0; i < c.count; i++) {
    const n = [c.normal[3 * i], c.normal[3 * i + 1], c.normal[3 * i + 2]];
    if (c.group[i] !== GROUP_POINT_FACE) {
      edgeEdge.push(n);
      continue;
    }
    // Block vertex on a slab triangle, or slab vertex on a block triangle.
    (c.pointVertex[4 * i] >= blockFirst ? onSlab : onBlock).push(n);
  }
  return { onSlab, onBlock, edgeEdge, apart: counters.ccd.edgeEdgeApart };
}

describe('CCD contact normals at edges and vertices stay in the surface feature\'s normal cone', () => {
  it('a block sliding over a flat slab: every contact pushes straight up or down, block vertices and slab vertices alike', () => {
    const { onSlab, onBlock, edgeEdge, apart } = slide(true);
    expect(onSlab.length).toBeGreaterThan(8);
    const worst = Math.max(...onSlab.map((n) => Math.hypot(n[0], n[1] - 1, n[2])));
    const worstSlab = Math.max(...onBlock.map((n) => Math.hypot(n[0], n[1] + 1, n[2])));
    const worstEdge = Math.max(0, ...edgeEdge.map((n) => Math.hypot(n[0], Math.abs(n[1]) - 1, n[2])));
    console.log(`flat slab: ${onSlab.length} block-vertex contacts, largest deviation from the slab's normal ${worst.toExponential(2)}; ${onBlock.length} slab-vertex contacts on the block, ${worstSlab.toExponential(2)} from straight down; ${edgeEdge.length} edge-edge, ${worstEdge.toExponential(2)} from vertical, ${apart} apart`);
    expect(worst).toBeLessThan(1e-9);
    // Slab vertices under the block and at its front bottom edge: the slab's one normal, reversed.
    expect(onBlock.length).toBeGreaterThan(0);
    expect(worstSlab).toBeLessThan(1e-9);
    expect(worstEdge).toBeLessThan(1e-9);
  });

  it('without the other side\'s cone the block\'s rounded front edge pushes slab vertices ahead of it forward (the check can fail)', () => {
    const { onBlock } = slide(true, false);
    // Along the quarter circle between -y and +x: forward on the slab, back on the block.
    expect(onBlock.some((n) => n[0] > 0.1 && n[1] < -0.1)).toBe(true);
    for (const n of onBlock) expect(n[0]).toBeGreaterThanOrEqual(-1e-9);
  });

  it('without the rule (the path direction alone) block vertices crossing the slab\'s internal edges lean back (the check can fail)', () => {
    const { onSlab } = slide(false);
    const worst = Math.max(...onSlab.map((n) => Math.hypot(n[0], n[1] - 1, n[2])));
    console.log(`path direction alone: largest deviation ${worst.toFixed(3)}`);
    expect(worst).toBeGreaterThan(0.1);
  });
});

describe('a block sliding without friction on a flat slab keeps its speed (no force along a flat surface)', () => {
  function run(rules: boolean, collideEvery?: SolverParams['collideEvery']): number[] {
    const setup = frictionlessSlide();
    if (collideEvery) setup.params = { ...setup.params, collideEvery };
    const s = new CpuSolver(setup);
    const speeds: number[] = [];
    for (let f = 0; f < 15; f++) {
      s.stepFrame();
      s.collisionStage!.ccd.coneNormals = rules;
      s.collisionStage!.ccd.mutualCones = rules;
      speeds.push(slideVelocity(setup.model, s.v));
    }
    return speeds;
  }

  it('2.5 m/s for 0.25 s over the slab\'s internal edges: above 98.5% of it at the end, once a substep and with contacts after every iteration (hybrid, offset auto, float64 CPU)', () => {
    const speeds = run(true, 'substep');
    const coupled = run(true, 'contacts');
    const without = run(false, 'substep');
    console.log(`frictionless slide (CPU): once a substep ${speeds.map((v) => v.toFixed(3)).join(' ')}; after every iteration ${coupled.map((v) => v.toFixed(3)).join(' ')}; without the cone rules ${without.map((v) => v.toFixed(3)).join(' ')}`);
    expect(speeds[speeds.length - 1]).toBeGreaterThan(0.98 * 2.5);
    // Measured 2.475 (2.369 while the later rounds solved the edge-edge contacts whose two cones
    // do not meet again, with their own normal; 2.036 before the point side's cone): such a
    // contact is solved by its own round only (docs/collisions.md "Apart pairs in the later rounds").
    expect(coupled[coupled.length - 1]).toBeGreaterThan(0.985 * 2.5);
    // The check can fail: without the rules the internal edges brake it (measured 2.013 m/s; 1.81
    // while CCD took a pair within the separation at the substep's end at time 0).
    expect(without[without.length - 1]).toBeLessThan(0.9 * 2.5);
  });
});

describe('at a contact offset of several element edges, a point over a flat top gets only the top\'s normal', () => {
  /**
   * A 10 cm block hovers 2 mm over the flat top of a 20 x 15 x 20 cm slab (5 cm cells), inside its
   * footprint by one cell, and moves down 1 mm in one CCD substep at a contact offset of 12 cm (2.4
   * cells). The truth is the geometry: the slab's surface point nearest each block vertex lies
   * straight below it on the top face, so every contact of a block vertex on a slab triangle pushes
   * it straight up. Within 12 cm of the block's lowest vertices lie also the internal edges of the
   * slab's side faces one and two rows below the top, and the top's internal vertices beside each
   * one: as triangle features they are nearest points of their own triangles, not of the surface.
   * Clamped to the side's normal they pushed the block's vertices sideways by the whole offset, and
   * taken from a vertex beside the one below, along the top (`cube-stack --copies 2 --contact-offset
   * 0.2`: 1,054 J of elastic energy in 20 frames; docs/collisions.md "Several element edges between
   * bodies").
   */
  function hover() {
    const slab = latticePart([4, 3, 4], (u, v, w) => [u * 0.05, v * 0.05, w * 0.05]);
    const block = cubePart(2, 0.1, [0.05, 0.152, 0.05]);
    const setup = bodiesSetup([{ part: slab }, { part: block }], { gravity: [0, 0, 0], selfCollision: false });
    const m = setup.model;
    const stage = new CpuCollisionStage(m);
    const x0 = Float64Array.from(m.restPositions);
    const x = Float64Array.from(x0);
    const blockFirst = m.objectVertexOffsets[1];
    for (let v = blockFirst; v < m.vertexCount; v++) x[3 * v + 1] -= 0.001;
    const params = defaultParams({ collisionMode: 'ccd', selfCollision: false, contactOffset: 0.12, contactIterations: 1, friction: 0 });
    const counters = stage.step(x, x0, Float64Array.from(m.invMass), params);
    const c = stage.contacts;
    const normals: number[][] = [];
    const touched = new Set<number>();
    for (let i = 0; i < c.count; i++) {
      const p = c.pointVertex[4 * i];
      if (c.group[i] !== GROUP_POINT_FACE || p < blockFirst) continue;
      normals.push([c.normal[3 * i], c.normal[3 * i + 1], c.normal[3 * i + 2]]);
      touched.add(p);
    }
    let lowest = 0;
    for (let v = blockFirst; v < m.vertexCount; v++) if (m.restPositions[3 * v + 1] < 0.1521) lowest++;
    return { normals, touched, lowest, offFeature: counters.ccd.offFeature };
  }

  it('every block-vertex contact pushes straight up, each of the block\'s lowest vertices has one, and the rule says what it left out', () => {
    const { normals, touched, lowest, offFeature } = hover();
    const worst = Math.max(...normals.map((n) => Math.hypot(n[0], n[1] - 1, n[2])));
    console.log(`hovering block at offset 0.12: ${normals.length} block-vertex contacts on ${touched.size} vertices, largest deviation from straight up ${worst.toExponential(2)}; ${offFeature} pairs beside no feature of their triangle`);
    expect(worst).toBeLessThan(1e-9);
    // The 9 vertices of the block's lowest layer are 2 mm above the top: each within the offset.
    expect(lowest).toBe(9);
    expect(touched.size).toBeGreaterThanOrEqual(lowest);
    expect(offFeature).toBeGreaterThan(0);
  });
});

/**
 * A 10 cm block (5 cm cells) over the flat top of a 20 x 15 x 20 cm slab whose bottom is pinned,
 * its lowest layer `gap` above the top (at 0.15), at a contact offset of 12 cm (2.4 cells), with no
 * friction: E 1e6, 10 substeps, no damping, hybrid collisions. Returns the block's sideways drift
 * of its vertices' mean and the height range of its lowest layer after each frame.
 */
function blockOverLayer(gap: number, frames: number): { drift: number[]; low: number[]; high: number[] } {
  const slab = latticePart([4, 3, 4], (u, v, w) => [u * 0.05, v * 0.05, w * 0.05]);
  const block = cubePart(2, 0.1, [0.05, 0.15 + gap, 0.05]);
  const setup = bodiesSetup([{ part: slab, youngsModulus: 1e6 }, { part: block, youngsModulus: 1e6 }], { substeps: 10, damping: 0, friction: 0, collisionMode: 'hybrid', selfCollision: false, contactOffset: 0.12 });
  const m = setup.model;
  for (let v = 0; v < m.objectVertexOffsets[1]; v++) if (m.restPositions[3 * v + 1] === 0) m.invMass[v] = 0;
  const s = new CpuSolver(setup);
  const first = m.objectVertexOffsets[1], last = m.objectVertexOffsets[2];
  const centre = (): [number, number] => {
    let x = 0, z = 0;
    for (let v = first; v < last; v++) { x += s.x[3 * v]; z += s.x[3 * v + 2]; }
    return [x / (last - first), z / (last - first)];
  };
  const [x0, z0] = centre();
  const out = { drift: [] as number[], low: [] as number[], high: [] as number[] };
  for (let f = 0; f < frames; f++) {
    s.stepFrame();
    const [x1, z1] = centre();
    let low = Infinity, high = -Infinity;
    for (let v = first; v < last; v++) {
      if (m.restPositions[3 * v + 1] > 0.15 + gap + 1e-4) continue;
      low = Math.min(low, s.x[3 * v + 1]);
      high = Math.max(high, s.x[3 * v + 1]);
    }
    out.drift.push(Math.hypot(x1 - x0, z1 - z0));
    out.low.push(low);
    out.high.push(high);
  }
  return out;
}

describe('a block resting on a contact layer of several element edges, with no friction, stays where it landed', () => {
  it('dropped onto a slab from 5 mm above a 12 cm layer (2.4 cells): it rests on the layer, level, and drifts < 2 mm sideways in 20 frames', () => {
    // Truth: a flat top pushes straight up, so with no friction nothing moves the block sideways,
    // and by symmetry nothing tilts it. Before the feature cones left out the vertices beside no
    // feature of their triangle, the top's internal vertices beside the one below each block vertex
    // pushed it along the top: it drifted 15 mm in these 20 frames (45 mm by frame 40), its lowest
    // layer 1.8 mm out of level.
    const { drift, low, high } = blockOverLayer(0.125, 20);
    const f = drift.length - 1;
    console.log(`block on a 12 cm layer: drift ${(drift[f] * 1e3).toFixed(2)} mm, lowest layer at ${low[f].toFixed(4)}-${high[f].toFixed(4)} m (the slab's top plus the offset: 0.27)`);
    expect(drift[f]).toBeLessThan(0.002);
    expect(Math.abs(low[f] - 0.27)).toBeLessThan(0.002);
    expect(high[f] - low[f]).toBeLessThan(0.001);
  });

  it('placed 2 mm over the top, it rises level at the offset\'s opening speed as the layer opens under it, without sliding', () => {
    // Truth: the same flat top, and the layer opens at SolverParams.contactOffsetSpeed (default 0.1
    // m/s): after 30 frames (0.5 s) the lowest layer stands 2 mm + 5 cm over the top. Before the
    // point side was asked too (featureNormal.ts nearestOnPointSide), the cones were taken strictly
    // across the thick layer (mutualCone.ts) and edge-edge pairs whose cones do not meet made no
    // contact there, the block's bottom corner reached the slab's side vertices a row below the rim,
    // a slab rim edge held the block's side normals along itself, and those contacts pushed
    // diagonally: in these 30 frames the lowest layer rose to 0.231-0.253 m, tilted by up to 21.7
    // mm, and the block drifted 37 mm (now 0.2019-0.2024 m, 0.62 mm and 0.66 mm; with the
    // edge-edge pairs whose cones do not meet still contacts, 2.3 mm of drift).
    // By frame 80 it had slid 73 mm (now 3.9 mm).
    const { drift, low, high } = blockOverLayer(0.002, 30);
    const f = drift.length - 1;
    const tilt = Math.max(...high.map((h, i) => h - low[i]));
    console.log(`block opening a 12 cm layer: drift ${(drift[f] * 1e3).toFixed(2)} mm (most ${(Math.max(...drift) * 1e3).toFixed(2)}), lowest layer at ${low[f].toFixed(4)}-${high[f].toFixed(4)} m after 0.5 s (opening at 0.1 m/s: 0.202), most tilt ${(tilt * 1e3).toFixed(2)} mm`);
    expect(Math.abs(low[f] - 0.202)).toBeLessThan(0.002);
    expect(tilt).toBeLessThan(0.001);
    expect(Math.max(...drift)).toBeLessThan(0.002);
  });
});
