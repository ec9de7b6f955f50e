import { describe, expect, it } from 'vitest';
import { cellRanges, FIT_ALL_GROWTH, LEFTOVER_CELL_LIMIT, PASS_COUNT, partitionedColouring, type PartitionedColouring } from '../../../src/mesh/partitionedColouring';
import { loadSharedTetArrays } from '../../support/sharedMeshes';

/**
 * Brute-force checks of the partitioned Gauss-Seidel order, written without the builder's
 * data structures: every element exactly once; inside one pass no two cells share a dynamic
 * vertex (they run at once on the GPU); inside one local colour of a cell, and inside one
 * leftover colour, no two elements share a dynamic vertex; and the geometric promise: an
 * element narrower than cellSize / PASS_COUNT on every axis is never left over.
 */
function check(p: PartitionedColouring, elements: Uint32Array, arity: number, positions: ArrayLike<number>, vertexCount: number, fixed?: Uint8Array): void {
  const count = elements.length / arity;
  const dynamic = (v: number) => !fixed || !fixed[v];
  const seen = new Uint8Array(count);
  for (const e of p.order) { expect(seen[e]).toBe(0); seen[e] = 1; }
  expect(seen.every((s) => s === 1)).toBe(true);
  const cellCount = p.cells.length / 2;
  expect(p.passes.length).toBe(PASS_COUNT + (p.leftoverPass ? 1 : 0));
  // Leftovers: swept as one cell up to the limit, else one dispatch per colour; either way the last leftoverCount of the order.
  if (!p.leftoverPass) expect(p.leftoverColourCount > 0).toBe(p.leftoverCount > 0);
  if (p.leftoverPass) {
    expect(p.leftoverCount).toBeGreaterThan(0);
    expect(p.leftoverCount).toBeLessThanOrEqual(LEFTOVER_CELL_LIMIT);
    expect(p.passes[PASS_COUNT].cellCount).toBe(1);
    expect(p.leftoverColourCount).toBe(0);
  }
  const independent = (ids: ArrayLike<number>) => {
    const owner = new Map<number, number>();
    for (let i = 0; i < ids.length; i++) {
      for (let k = 0; k < arity; k++) {
        const v = elements[arity * ids[i] + k];
        if (!dynamic(v)) continue;
        const o = owner.get(v);
        // Two elements of one set may share a vertex only if they are the same element (a repeated id).
        if (o !== undefined && o !== ids[i]) return false;
        owner.set(v, ids[i]);
      }
    }
    return true;
  };
  let covered = 0;
  for (const pass of p.passes) {
    const cellOfVertex = new Map<number, number>();
    for (let c = pass.cellBase; c < pass.cellBase + pass.cellCount; c++) {
      const first = p.cells[2 * c], colours = p.cells[2 * c + 1];
      expect(colours).toBeLessThanOrEqual(pass.maxColours);
      for (let k = 0; k < colours; k++) {
        const ids = p.order.subarray(p.colourStarts[first + k], p.colourStarts[first + k + 1]);
        expect(ids.length).toBeGreaterThan(0);
        expect(independent(ids)).toBe(true);
        covered += ids.length;
        for (const e of ids) {
          for (let j = 0; j < arity; j++) {
            const v = elements[arity * e + j];
            if (!dynamic(v)) continue;
            const owner = cellOfVertex.get(v);
            expect(owner === undefined || owner === c).toBe(true);
            cellOfVertex.set(v, c);
          }
        }
      }
    }
  }
  expect(cellCount).toBe(p.passes.reduce((s, q) => s + q.cellCount, 0));
  for (let c = 0; c + 1 < p.leftoverOffsets.length; c++) {
    const ids = p.order.subarray(p.leftoverOffsets[c], p.leftoverOffsets[c + 1]);
    expect(independent(ids)).toBe(true);
    covered += ids.length;
  }
  expect(covered).toBe(count);
  // Narrow elements are never left over.
  const leftover = new Set(p.order.subarray(count - p.leftoverCount));
  for (let e = 0; e < count; e++) {
    let w = 0;
    for (let a = 0; a < 3; a++) {
      const xs: number[] = [];
      for (let k = 0; k < arity; k++) { const v = elements[arity * e + k]; if (dynamic(v)) xs.push(positions[3 * v + a]); }
      if (xs.length) w = Math.max(w, Math.max(...xs) - Math.min(...xs));
    }
    if (w < p.cellSize / PASS_COUNT) expect(leftover.has(e)).toBe(false);
  }
  void vertexCount;
}

describe('partitionedColouring', () => {
  it('orders every tet of the shared octopus into race-free passes with nothing left over', () => {
    const { positions, tets } = loadSharedTetArrays('octopus_2KFaces.t');
    const n = positions.length / 3;
    const p = partitionedColouring(tets, 4, positions, n);
    check(p, tets, 4, positions, n);
    // The 99th-percentile tet fits; the wider ones are at most a few leftover colours.
    expect(p.leftoverCount).toBeLessThanOrEqual(Math.ceil(0.01 * (tets.length / 4)) + 1);
    expect(p.passes.every((q) => q.cellCount > 1)).toBe(true);
  });

  it('balance valence spreads each vertex\'s tets over the passes: no pass holds more than 1.5x a quarter of the largest valence at one vertex, and each needs at least that many rounds (the clique bound)', () => {
    // A cell's rounds on the GPU are its local colours, and the tets of one pass at one vertex
    // all share it: a pass needs at least as many colours as its busiest vertex holds tets
    // (brute-force count here). Spread evenly, a vertex of valence V holds V / PASS_COUNT tets
    // in each pass. The default rule (the least loaded pass by count) gives the shared octopus
    // 25 at one vertex of valence 44 and the knot 50 of 74, about twice a quarter.
    for (const file of ['octopus_2KFaces.t', 'OverhandKnot.t']) {
      const { positions, tets } = loadSharedTetArrays(file);
      const n = positions.length / 3;
      const valence = new Uint32Array(n);
      for (const v of tets) valence[v]++;
      const fairShare = Math.ceil(Math.max(...valence) / PASS_COUNT);
      const p = partitionedColouring(tets, 4, positions, n, undefined, { balance: 'valence' });
      check(p, tets, 4, positions, n);
      for (let g = 0; g < PASS_COUNT; g++) {
        const pass = p.passes[g];
        const load = new Uint32Array(n);
        for (let c = pass.cellBase; c < pass.cellBase + pass.cellCount; c++) {
          const first = p.cells[2 * c], colours = p.cells[2 * c + 1];
          for (let i = p.colourStarts[first]; i < p.colourStarts[first + colours]; i++) for (let k = 0; k < 4; k++) load[tets[4 * p.order[i] + k]]++;
        }
        const busiest = Math.max(...load);
        expect(pass.maxColours, `${file} pass ${g}`).toBeGreaterThanOrEqual(busiest);
        expect(busiest, `${file} pass ${g}: most tets at one vertex against a quarter of the largest valence, ${fairShare}`).toBeLessThanOrEqual(1.5 * fairShare);
      }
    }
  });

  it('treats fixed vertices as no conflict and handles edges, larger cells and a quantile of 1', () => {
    const { positions, tets } = loadSharedTetArrays('Beam.t');
    const n = positions.length / 3;
    const fixed = new Uint8Array(n);
    for (let v = 0; v < n; v++) fixed[v] = positions[3 * v] < -4.5 ? 1 : 0;
    const edgeSet = new Set<string>();
    const edges: number[] = [];
    for (let t = 0; t < tets.length / 4; t++) {
      for (let a = 0; a < 4; a++) for (let b = a + 1; b < 4; b++) {
        const i = Math.min(tets[4 * t + a], tets[4 * t + b]), j = Math.max(tets[4 * t + a], tets[4 * t + b]);
        if (!edgeSet.has(`${i},${j}`)) { edgeSet.add(`${i},${j}`); edges.push(i, j); }
      }
    }
    const e = Uint32Array.from(edges);
    check(partitionedColouring(e, 2, positions, n, fixed), e, 2, positions, n, fixed);
    const wide = partitionedColouring(tets, 4, positions, n, fixed, { cellScale: 2, extentQuantile: 1 });
    check(wide, tets, 4, positions, n, fixed);
    expect(wide.leftoverCount).toBe(0);
  });

  it('leaves over an element wider than the cells and colours it apart', () => {
    // Two small tets and one long sliver spanning both: with the quantile at 1/2 the sliver is too wide for any pass.
    const positions = [0, 0, 0, 0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1, 10, 0, 0, 10.1, 0, 0, 10, 0.1, 0, 10, 0, 0.1];
    const tets = Uint32Array.from([0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 4, 5]);
    const p = partitionedColouring(tets, 4, positions, 8, undefined, { extentQuantile: 0.5 });
    check(p, tets, 4, positions, 8);
    expect(p.leftoverCount).toBe(1);
    expect(p.order[p.order.length - 1]).toBe(2);
    // Swept by one workgroup as a fifth pass of one cell, or, with the limit at 0, its own colour dispatch.
    expect(p.leftoverPass).toBe(true);
    expect(p.passes.length).toBe(PASS_COUNT + 1);
    const dispatched = partitionedColouring(tets, 4, positions, 8, undefined, { extentQuantile: 0.5, leftoverCellLimit: 0 });
    check(dispatched, tets, 4, positions, 8);
    expect(dispatched.leftoverPass).toBe(false);
    expect(dispatched.leftoverColourCount).toBe(1);
    expect(dispatched.order[dispatched.leftoverOffsets[0]]).toBe(2);
  });

  it('packs the cell ranges the WGSL sweep reads: per cell its colour starts, then the starts', () => {
    const { positions, tets } = loadSharedTetArrays('Cube.t');
    const p = partitionedColouring(tets, 4, positions, positions.length / 3);
    const r = cellRanges(p);
    const cellCount = p.cells.length / 2;
    for (let c = 0; c < cellCount; c++) {
      const first = r[2 * c], colours = r[2 * c + 1];
      for (let k = 0; k <= colours; k++) expect(r[first + k]).toBe(p.colourStarts[p.cells[2 * c] + k]);
    }
  });

  it('grows the cells to fit every tet when the widest is at most FIT_ALL_GROWTH times the quantile\'s: no leftover pass for a few slightly wide tets', () => {
    for (const name of ['octopus_2KFaces.t', 'Octopus_Inflated_5k_noIntersection.t', 'CubeRandom.t']) {
      const { positions, tets } = loadSharedTetArrays(name);
      const n = positions.length / 3;
      // Widest axis extent per tet, by hand.
      const extents = Array.from({ length: tets.length / 4 }, (_, t) => Math.max(...[0, 1, 2].map((a) => {
        const xs = [0, 1, 2, 3].map((k) => positions[3 * tets[4 * t + k] + a]);
        return Math.max(...xs) - Math.min(...xs);
      }))).sort((a, b) => a - b);
      const atQuantile = extents[Math.floor(0.99 * (extents.length - 1))];
      const widest = extents[extents.length - 1];
      const grown = partitionedColouring(tets, 4, positions, n);
      const strict = partitionedColouring(tets, 4, positions, n, undefined, { fitAllGrowth: 1 });
      check(grown, tets, 4, positions, n);
      if (widest <= FIT_ALL_GROWTH * atQuantile) {
        expect(grown.leftoverCount, name).toBe(0);
        expect(grown.passes.length, name).toBe(PASS_COUNT);
        expect(grown.cellSize, name).toBeGreaterThanOrEqual(PASS_COUNT * widest);
      } else {
        expect(grown.cellSize, name).toBe(strict.cellSize);
      }
      // With no growth, what is wider than the quantile's cells may be left over.
      expect(strict.cellSize, name).toBeLessThanOrEqual(grown.cellSize);
    }
    expect(() => partitionedColouring(Uint32Array.from([0, 1, 2, 3]), 4, [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1], 4, undefined, { fitAllGrowth: 0.5 })).toThrow(/fitAllGrowth must be >= 1/);
  });

  it('refuses a cell scale below 1 and a quantile outside (0, 1]', () => {
    const tets = Uint32Array.from([0, 1, 2, 3]);
    const positions = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    expect(() => partitionedColouring(tets, 4, positions, 4, undefined, { cellScale: 0.5 })).toThrow(/cellScale must be >= 1/);
    expect(() => partitionedColouring(tets, 4, positions, 4, undefined, { extentQuantile: 0 })).toThrow(/extentQuantile must be in/);
  });
});
