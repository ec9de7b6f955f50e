/**
 * The air mesh (paper 004) as built and as optimised, against geometry computed here:
 *   - objects and air tile the container: the air's volume plus the objects' is the container's
 *     (float64, own determinant), every tet of either positively oriented at rest, no face used
 *     by more than two tets of the union;
 *   - it conforms: every object boundary face (found by counting faces here) is a face of
 *     exactly one air tet, or lies on the container's floor;
 *   - bad input is refused naming the object;
 *   - the optimisation (edge and multi-face removal) keeps the tiling of a sheared state (the
 *     signed volumes still sum to the region's) and every object face, never inverts a tet and
 *     never lowers the worst quality;
 *   - both Gauss-Seidel orders of the passes are race-free (brute force), the small air mesh
 *     swept as one cell in the coloured order, a large tet set cut into cells;
 *   - the constraint's projection conserves momentum (eq. 2's gradients sum to zero) and with
 *     friction too, and brings a lone inverted tet to a flat one.
 */
import { describe, expect, it } from 'vitest';
import { AirConstraintCpu, colourAirTets, fixedAirVertices, orderAirTets, type AirOrder } from '../../../src/collision/air/airConstraintCpu';
import { airPositions, airVertexCount, type AirMesh } from '../../../src/collision/air/airMesh';
import { buildAirMesh } from '../../../src/collision/air/buildAirMesh';
import { optimizeAirMesh } from '../../../src/collision/air/optimizeAirMesh';
import { hexGridBox } from '../../../src/mesh/procedural/hexGridBox';
import { airBoxesLayout } from '../../../src/scenes/airBoxes';
import { buildModel, type Model } from '../../../src/sim/model';
import { det, faceUses } from '../../support/tetOracle';

const MATERIAL = { youngsModulus: 1e5, poissonRatio: 0.3, density: 400 };

function stack(): { model: Model; layout: ReturnType<typeof airBoxesLayout> } {
  const layout = airBoxesLayout(2, 2);
  return { model: buildModel(layout.objects), layout };
}

describe('air mesh generation', () => {
  const { model, layout } = stack();
  const built = buildAirMesh(model, layout.air);
  const mesh = built.mesh;
  const p = airPositions(mesh, model.restPositions);

  it('fills the container with the objects: volumes add up, every tet positive, no face in three tets', () => {
    let air = 0, objects = 0;
    for (let t = 0; t < mesh.tets.length / 4; t++) {
      const d = det(p, mesh.tets[4 * t], mesh.tets[4 * t + 1], mesh.tets[4 * t + 2], mesh.tets[4 * t + 3]) / 6;
      expect(d).toBeGreaterThan(0);
      air += d;
    }
    for (let t = 0; t < model.tetCount; t++) objects += det(model.restPositions, model.tets[4 * t], model.tets[4 * t + 1], model.tets[4 * t + 2], model.tets[4 * t + 3]) / 6;
    const c = layout.air;
    const container = (c.max[0] - c.min[0]) * (c.max[1] - c.min[1]) * (c.max[2] - c.min[2]);
    expect(Math.abs(air + objects - container) / container).toBeLessThan(1e-12);
    const uses = faceUses(model.tets, faceUses(mesh.tets));
    for (const n of uses.values()) expect(n).toBeLessThanOrEqual(2);
    console.log(`air mesh of 2 boxes: ${built.stats.airTets} air tets for ${model.tetCount} object tets, ${built.stats.fixedPoints} wall points, ${built.stats.particles} particles, ${built.stats.buildMs.toFixed(0)} ms`);
  });

  it('conforms: each object boundary face is a face of one air tet or lies on the floor', () => {
    const objectUses = faceUses(model.tets);
    const airUses = faceUses(mesh.tets);
    let onFloor = 0, shared = 0;
    for (const [f, n] of objectUses) {
      if (n !== 1) continue;
      const ids = f.split(',').map(Number);
      if (ids.every((v) => model.restPositions[3 * v + 1] === 0)) { onFloor++; continue; }
      expect(airUses.get(f), `object face ${f}`).toBe(1);
      shared++;
    }
    expect(shared).toBeGreaterThan(0);
    expect(onFloor).toBeGreaterThan(0);
  });

  it('refuses objects off its lattice and outside its container, naming the object', () => {
    const box = hexGridBox([0.3, 0.15, 0.3], [2, 1, 2], [0.013, 0.2, 0]);
    const off = buildModel([{ name: 'shifted', positions: box.positions, tets: box.tets, material: MATERIAL }]);
    expect(() => buildAirMesh(off, { min: [-0.6, 0, -0.6], max: [0.6, 0.6, 0.6], cell: 0.15 })).toThrow(/object 0 \(shifted\).*off the air lattice/);
    const inside = hexGridBox([0.3, 0.15, 0.3], [2, 1, 2], [0, 0.225, 0]);
    const m = buildModel([{ name: 'tall', positions: inside.positions, tets: inside.tets, material: MATERIAL }]);
    expect(() => buildAirMesh(m, { min: [-0.6, 0, -0.6], max: [0.6, 0.15, 0.6], cell: 0.15 })).toThrow(/object 0 \(tall\).*outside the air container/);
    expect(() => buildAirMesh(m, { min: [-0.6, 0, -0.6], max: [0.6, 0.6, 0.65], cell: 0.15 })).toThrow(/not a whole number/);
  });
});

describe('air mesh optimisation', () => {
  it('keeps the tiling and the object faces of a sheared state, and never lowers the worst quality', () => {
    const { model, layout } = stack();
    const { mesh } = buildAirMesh(model, layout.air);
    // Shear the top box sideways by 1.5 cells: air tets beside it flatten or invert (locking).
    const x = Float64Array.from(model.restPositions);
    for (let v = model.objectVertexOffsets[1]; v < model.objectVertexOffsets[2]; v++) x[3 * v] += 1.5 * layout.cell;
    const p = airPositions(mesh, x);
    const signed = (tets: Uint32Array) => { let s = 0; for (let t = 0; t < tets.length / 4; t++) s += det(p, tets[4 * t], tets[4 * t + 1], tets[4 * t + 2], tets[4 * t + 3]); return s; };
    const r = optimizeAirMesh({ mesh, positions: p, fixed: fixedAirVertices(mesh, model.invMass), qualityTarget: 0.3, maxPasses: 4 });
    expect(r.stats.edgeRemovals + r.stats.multiFaceRemovals).toBeGreaterThan(0);
    expect(Math.abs(signed(r.tets) - signed(mesh.tets))).toBeLessThan(1e-12 * Math.abs(signed(mesh.tets)));
    expect(r.stats.minQualityAfter).toBeGreaterThanOrEqual(r.stats.minQualityBefore);
    expect(r.stats.invertedAfter).toBeLessThanOrEqual(r.stats.invertedBefore);
    const before = faceUses(mesh.tets), after = faceUses(r.tets);
    for (const [f, n] of faceUses(model.tets)) if (n === 1 && before.get(f) === 1) expect(after.get(f), `object face ${f}`).toBe(1);
    for (const n of faceUses(model.tets, faceUses(r.tets)).values()) expect(n).toBeLessThanOrEqual(2);
    expectRaceFree(r.tets, fixedAirVertices(mesh, model.invMass), r.orders);
    console.log(`optimisation of a sheared stack: ${r.stats.edgeRemovals} edge removals, ${r.stats.multiFaceRemovals} multi-face removals, worst quality ${r.stats.minQualityBefore.toFixed(3)} -> ${r.stats.minQualityAfter.toFixed(3)}, ${r.stats.ms.toFixed(0)} ms`);
  });
});

describe('air constraint (eq. 2)', () => {
  // Two tets sharing a face, all vertices free, pushed through each other.
  const mesh: AirMesh = { modelVertexCount: 5, points: new Float64Array(0), pointInvMass: new Float64Array(0), tets: Uint32Array.from([0, 1, 2, 3, 1, 0, 2, 4]) };
  const w = [1, 0.5, 2, 1.5, 0.8];
  const start = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.3, -0.4, 0.3, 0.2, -0.1];

  for (const friction of [0, 0.5]) {
    it(`conserves momentum${friction ? ' with friction' : ''}`, () => {
      const x = Float64Array.from(start);
      const x0 = Float64Array.from(start.map((v, i) => v - 0.01 * ((i * 7) % 5)));
      const c = new AirConstraintCpu(mesh, colourAirTets(mesh, w, start));
      expect(c.countInverted(x)).toBeGreaterThan(0);
      c.project(x, w, 3, mesh.points, friction, x0);
      for (let k = 0; k < 3; k++) {
        let m0 = 0, m1 = 0;
        for (let v = 0; v < 5; v++) { m0 += start[3 * v + k] / w[v]; m1 += x[3 * v + k] / w[v]; }
        expect(Math.abs(m1 - m0)).toBeLessThan(1e-12);
      }
    });
  }

  it('flattens a lone inverted tet, leaves positive ones alone, and holds it against a fixed point', () => {
    const one: AirMesh = { modelVertexCount: 3, points: Float64Array.from([0.2, 0.3, -0.5]), pointInvMass: Float64Array.from([0]), tets: Uint32Array.from([0, 1, 2, 3]) };
    const x = Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0]);
    const c = new AirConstraintCpu(one, colourAirTets(one, [1, 1, 1], x));
    expect(c.det(0, x)).toBeLessThan(0);
    c.project(x, [1, 1, 1], 20);
    expect(Math.abs(c.det(0, x))).toBeLessThan(1e-9);
    expect(c.countInverted(x)).toBe(0);
    // Below the fixed point the tet is positive: nothing moves.
    for (let v = 0; v < 3; v++) x[3 * v + 2] = -1;
    const before = Float64Array.from(x);
    expect(c.det(0, x)).toBeGreaterThan(0);
    c.project(x, [1, 1, 1], 2);
    expect(Array.from(x)).toEqual(Array.from(before));
    expect(airVertexCount(one)).toBe(4);
  });
});

/**
 * Both orders are valid: no two tets one dispatch runs at once share a moving vertex (brute
 * force over the tets' vertices): a colour of the colouring; in the partitioned order, two cells
 * of one pass, or one local colour of a cell or one leftover colour. Each order holds every tet once.
 */
function expectRaceFree(tets: Uint32Array, fixed: Uint8Array, orders: AirOrder): void {
  const shared = (groups: number[][]): number => {
    let clashes = 0;
    for (const group of groups) {
      const seen = new Set<number>();
      for (const t of group) for (let q = 0; q < 4; q++) {
        const v = tets[4 * t + q];
        if (fixed[v]) continue;
        if (seen.has(v)) clashes++;
        seen.add(v);
      }
    }
    return clashes;
  };
  const all = Array.from({ length: tets.length / 4 }, (_, t) => t);
  const c = orders.colouring;
  expect(shared(Array.from({ length: c.colourCount }, (_, k) => Array.from(c.order.subarray(c.offsets[k], c.offsets[k + 1]))))).toBe(0);
  expect([...c.order].sort((a, b) => a - b)).toEqual(all);
  const part = orders.partition;
  const cellTets = (cell: number) => Array.from(part.order.subarray(part.colourStarts[part.cells[2 * cell]], part.colourStarts[part.cells[2 * cell] + part.cells[2 * cell + 1]]));
  const owner = new Map<number, number>();
  let crossCell = 0;
  for (const g of part.passes) {
    owner.clear();
    for (let cell = g.cellBase; cell < g.cellBase + g.cellCount; cell++) for (const t of cellTets(cell)) for (let q = 0; q < 4; q++) {
      const v = tets[4 * t + q];
      if (fixed[v]) continue;
      if ((owner.get(v) ?? cell) !== cell) crossCell++;
      owner.set(v, cell);
    }
  }
  expect(crossCell).toBe(0);
  const localColours: number[][] = [];
  for (let cell = 0; cell < part.cells.length / 2; cell++) for (let k = 0; k < part.cells[2 * cell + 1]; k++) {
    localColours.push(Array.from(part.order.subarray(part.colourStarts[part.cells[2 * cell] + k], part.colourStarts[part.cells[2 * cell] + k + 1])));
  }
  for (let k = 0; k < part.leftoverColourCount; k++) localColours.push(Array.from(part.order.subarray(part.leftoverOffsets[k], part.leftoverOffsets[k + 1])));
  expect(shared(localColours)).toBe(0);
  expect(localColours.flat().sort((a, b) => a - b)).toEqual(all);
}

describe('air tet orders', () => {
  it('sweeps a small air mesh as one cell in the coloured order, and cuts a large one into race-free cells', () => {
    const { model, layout } = stack();
    const { mesh } = buildAirMesh(model, layout.air);
    const small = colourAirTets(mesh, model.invMass, model.restPositions);
    expect(Array.from(small.partition.order)).toEqual(Array.from(small.colouring.order));
    expect(small.partition.passes.filter((g) => g.cellCount > 0).length).toBe(1);
    expectRaceFree(mesh.tets, fixedAirVertices(mesh, model.invMass), small);
    // A lattice of 16 x 8 x 16 cubes (6 tets each, 12,288 tets) standing in for a large air mesh, its floor fixed.
    const grid = hexGridBox([1.6, 0.8, 1.6], [16, 8, 16], [0, 0.4, 0]);
    const n = grid.positions.length / 3;
    const fixed = new Uint8Array(n);
    for (let v = 0; v < n; v++) fixed[v] = grid.positions[3 * v + 1] < 1e-9 ? 1 : 0;
    const large = orderAirTets(grid.tets, n, grid.positions, fixed);
    expect(large.partition.passes.reduce((s, g) => s + g.cellCount, 0)).toBeGreaterThan(4);
    expectRaceFree(grid.tets, fixed, large);
  });
});
