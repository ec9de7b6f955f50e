/**
 * Partitioned Gauss-Seidel order (issue 11): the constraints of one iteration in PASS_COUNT
 * dispatches instead of one per colour. Space is cut into cubic cells of side L; pass g uses
 * the cells shifted by g L / PASS_COUNT along every axis. A constraint whose dynamic vertices
 * all lie in one cell of pass g is *interior* there. Interior constraints of different cells
 * share no dynamic vertex (each vertex is in exactly one cell of a pass), so every cell of a
 * pass runs at once, one workgroup per cell, and the workgroup sweeps its cell's local colours
 * one after another between storage barriers (lib/cellSweep.wgsl sweepCells). A constraint
 * narrower than L / PASS_COUNT on every axis crosses at most one pass's planes per axis (the
 * union of the passes' planes is spaced L / PASS_COUNT), so with PASS_COUNT = 4 > 3 axes it is
 * interior in at least one pass. The few wider ones are left over and coloured globally; up to
 * LEFTOVER_CELL_LIMIT of them form one more pass of a single cell, one workgroup sweeping their
 * colours between barriers like any cell (1 dispatch instead of one per leftover colour: at the
 * paper's 118k-tet octopus box, 7 leftover tets in 7 colours made the iteration 11 dispatches,
 * not 4); more than that are dispatched one colour at a time, as plain Gauss-Seidel, so that
 * one workgroup never walks a long list alone.
 *
 * Correctness is topological: vertex-to-cell membership is fixed here from the positions at
 * build time, so deformation later never creates a race; the geometry only decides how many
 * constraints are left over. Executed on the GPU the order is exactly the sequential order of
 * `order` (cells of a pass are independent, a colour's constraints are independent), so the
 * float64 CPU solver running `order` front to back is its twin.
 */
import { groupByColour, VertexColourSets } from './colouring';

/** Passes per iteration: one more than the axes, so every narrow element is interior in one. */
export const PASS_COUNT = 4;
/**
 * Most leftover elements swept by one workgroup (64 lanes: at most 64 rounds of one element
 * each per leftover colour's worth, microseconds on a GPU, against a dispatch per colour).
 */
export const LEFTOVER_CELL_LIMIT = 4096;

/** Widest element / the extent quantile's up to which the cells grow to fit every element (PartitionOptions.fitAllGrowth). */
export const FIT_ALL_GROWTH = 1.25;
/** Cell coordinates per axis the packed cell key holds (2^17). */
const CELLS_PER_AXIS = 131072;

export interface PartitionPass {
  /** Index of the pass's first cell in `cells`. */
  cellBase: number;
  cellCount: number;
  /** Largest local colour count of the pass's cells (barriers per workgroup). */
  maxColours: number;
}

export interface PartitionedColouring {
  /** Constraint ids: pass by pass, cell by cell, local colour by local colour; then the leftovers by colour. */
  order: Uint32Array;
  /** Per cell (all passes): [first index into colourStarts, local colour count]. */
  cells: Uint32Array;
  /** Per cell, colourCount + 1 offsets into `order` (colour c is order[starts[c] .. starts[c+1])). */
  colourStarts: Uint32Array;
  /**
   * PASS_COUNT passes, then, when `leftoverPass`, one more holding the leftovers as one cell.
   */
  passes: PartitionPass[];
  /** The leftovers are the last pass's single cell (swept by one workgroup), not colours dispatched one by one. */
  leftoverPass: boolean;
  /**
   * Leftover colours dispatched one by one (none when `leftoverPass`): colour c is
   * order[leftoverOffsets[c] .. leftoverOffsets[c+1]).
   */
  leftoverOffsets: Uint32Array;
  leftoverColourCount: number;
  /** Cell side L (m) and the constraint count per pass (the leftover pass's included), for reports. */
  cellSize: number;
  passSizes: number[];
  /** Elements interior in no pass: the last `leftoverCount` of `order`, swept or dispatched by colour. */
  leftoverCount: number;
}

export interface PartitionOptions {
  /**
   * Cell side as a multiple of PASS_COUNT x the chosen element extent; > 1 makes fewer, fuller
   * cells (more elements per local colour for the workgroup's threads, more local colours).
   */
  cellScale?: number;
  /** Quantile of the element extents the cells must fit (the rest are left over). */
  extentQuantile?: number;
  /**
   * The cells fit every element instead when the widest is at most this factor times the
   * quantile's extent (default FIT_ALL_GROWTH; 1: never grow past the quantile).
   */
  fitAllGrowth?: number;
  /** Most leftovers swept as one cell (default LEFTOVER_CELL_LIMIT; 0: always one dispatch per leftover colour). */
  leftoverCellLimit?: number;
  /**
   * How an element interior in several passes picks one: 'valence' (default), the pass where its
   * busiest vertex holds the fewest elements so far (then the least loaded), elements with fewer
   * choices first; 'count', the least loaded pass. 'valence' halves the serial rounds of an
   * iteration (the octopi: 84-104 -> 50-55; material GPU time -19 to -40 % on an H100;
   * docs/benchmarks.md "Solve orders on an H100"). It became the default once static friction
   * between bodies stopped depending on the solve order (docs/collisions.md "Static friction
   * between bodies", (7)).
   */
  balance?: 'valence' | 'count';
}

/**
 * Builds the partitioned order of `elements` (`arity` vertex ids each) over `positions` (xyz
 * per vertex). `fixed[v]` marks vertices never written (inverse mass 0): they neither decide
 * membership nor conflict, as in greedyColouring.
 */
export function partitionedColouring(
  elements: Uint32Array,
  arity: number,
  positions: ArrayLike<number>,
  vertexCount: number,
  fixed?: Uint8Array,
  options: PartitionOptions = {},
): PartitionedColouring {
  const count = elements.length / arity;
  const cellScale = options.cellScale ?? 1;
  const quantile = options.extentQuantile ?? 0.99;
  if (!(cellScale >= 1)) throw new RangeError(`partitionedColouring: cellScale must be >= 1, got ${cellScale}`);
  if (!(quantile > 0 && quantile <= 1)) throw new RangeError(`partitionedColouring: extentQuantile must be in (0, 1], got ${quantile}`);
  const dynamic = (v: number) => !fixed || !fixed[v];
  // Bounding box of the dynamic vertices and each element's widest axis extent.
  const lo = [Infinity, Infinity, Infinity];
  for (let v = 0; v < vertexCount; v++) for (let a = 0; a < 3; a++) lo[a] = Math.min(lo[a], positions[3 * v + a]);
  const extent = new Float64Array(count);
  for (let e = 0; e < count; e++) {
    let w = 0;
    for (let a = 0; a < 3; a++) {
      let min = Infinity, max = -Infinity;
      for (let k = 0; k < arity; k++) {
        const v = elements[arity * e + k];
        if (!dynamic(v)) continue;
        min = Math.min(min, positions[3 * v + a]);
        max = Math.max(max, positions[3 * v + a]);
      }
      if (max > min) w = Math.max(w, max - min);
    }
    extent[e] = w;
  }
  const sorted = Float64Array.from(extent).sort();
  const atQuantile = count > 0 ? sorted[Math.min(count - 1, Math.floor(quantile * (count - 1)))] : 0;
  // A few elements just wider than the quantile would cost a leftover pass (one dispatch an
  // iteration) for a handful of elements; cells a little wider hold them at about the same
  // cost, the rounds of a cell being its local colours while its colours are narrower than the
  // workgroup (octopus drop: 2 leftovers at 0.99; 12.5% wider cells take them, 4 passes not 5).
  const widest = count > 0 ? sorted[count - 1] : 0;
  const growth = options.fitAllGrowth ?? FIT_ALL_GROWTH;
  if (!(growth >= 1)) throw new RangeError(`partitionedColouring: fitAllGrowth must be >= 1, got ${growth}`);
  const chosen = widest <= growth * atQuantile ? widest : atQuantile;
  // Slightly more than PASS_COUNT x the extent so an element of exactly that width still fits.
  const cellSize = Math.max(PASS_COUNT * chosen * 1.0001 * cellScale, 1e-9);
  const shift = cellSize / PASS_COUNT;

  // Cell key of vertex v in pass g: its integer cell coordinates packed in one number.
  const cellKey = (v: number, g: number): number => {
    let key = 0;
    for (let a = 0; a < 3; a++) {
      const c = Math.floor((positions[3 * v + a] - lo[a] + g * shift) / cellSize);
      key = key * CELLS_PER_AXIS + c; // exact in a double: 3 x 17 bits < 53
    }
    return key;
  };
  const span = Math.max(...[0, 1, 2].map((a) => {
    let hi = -Infinity;
    for (let v = 0; v < vertexCount; v++) hi = Math.max(hi, positions[3 * v + a]);
    return Number.isFinite(hi) ? (hi - lo[a]) / cellSize + 2 : 0;
  }));
  if (span >= CELLS_PER_AXIS) throw new RangeError(`partitionedColouring: ${Math.ceil(span)} cells per axis (elements tiny against the scene): too many to key`);

  // Assign every element to a pass where it is interior, or leave it over. Among those passes:
  // by 'count' the least loaded; by 'valence' the one where its busiest vertex holds the fewest
  // elements so far (then the least loaded): a cell's rounds are its local colours, at least the
  // most elements any of its vertices holds there, so spreading each vertex's elements over the
  // passes cuts the rounds of every pass.
  const passOf = new Int8Array(count).fill(-1);
  const cellOf = new Float64Array(count);
  const passSizes = new Array<number>(PASS_COUNT).fill(0);
  const vertexLoad = (options.balance ?? 'valence') === 'valence' ? new Uint16Array(PASS_COUNT * vertexCount) : null;
  const busiest = (e: number, g: number): number => {
    if (!vertexLoad) return 0;
    let most = 0;
    for (let k = 0; k < arity; k++) {
      const v = elements[arity * e + k];
      if (dynamic(v)) most = Math.max(most, vertexLoad[PASS_COUNT * v + g]);
    }
    return most;
  };
  // Each element's interior passes (a bit each) and its cell key in each.
  const interiorMask = new Uint8Array(count);
  const keys = new Float64Array(PASS_COUNT * count);
  for (let e = 0; e < count; e++) {
    for (let g = 0; g < PASS_COUNT; g++) {
      let key = NaN;
      let interior = true;
      for (let k = 0; k < arity && interior; k++) {
        const v = elements[arity * e + k];
        if (!dynamic(v)) continue;
        const kv = cellKey(v, g);
        if (Number.isNaN(key)) key = kv;
        else if (kv !== key) interior = false;
      }
      if (!interior) continue;
      interiorMask[e] |= 1 << g;
      keys[PASS_COUNT * e + g] = Number.isNaN(key) ? 0 : key; // all vertices fixed: touches nothing, any cell does
    }
  }
  // By 'valence', elements with fewer choices first (counting sort by the number of interior
  // passes, stable), so that the flexible ones fill in around those that must go where they go;
  // by 'count', the elements in their own order.
  let visitOrder: Uint32Array | null = null;
  if (vertexLoad) {
    const choiceCount = (e: number) => { let n = 0; for (let m = interiorMask[e]; m; m &= m - 1) n++; return n; };
    const start = new Uint32Array(PASS_COUNT + 2);
    for (let e = 0; e < count; e++) start[choiceCount(e) + 1]++;
    for (let c = 0; c <= PASS_COUNT; c++) start[c + 1] += start[c];
    visitOrder = new Uint32Array(count);
    for (let e = 0; e < count; e++) visitOrder[start[choiceCount(e)]++] = e;
  }
  let leftoverCount = 0;
  for (let q = 0; q < count; q++) {
    const e = visitOrder ? visitOrder[q] : q;
    let best = -1, bestBusiest = 0;
    for (let g = 0; g < PASS_COUNT; g++) {
      if (!(interiorMask[e] & (1 << g))) continue;
      const b = busiest(e, g);
      if (best < 0 || b < bestBusiest || (b === bestBusiest && passSizes[g] < passSizes[best])) { best = g; bestBusiest = b; }
    }
    if (best < 0) { leftoverCount++; continue; }
    passOf[e] = best;
    cellOf[e] = keys[PASS_COUNT * e + best];
    passSizes[best]++;
    if (vertexLoad) {
      for (let k = 0; k < arity; k++) {
        const v = elements[arity * e + k];
        if (dynamic(v)) vertexLoad[PASS_COUNT * v + best]++;
      }
    }
  }

  // Group by (pass, cell): dense cell ids per pass in first-seen order.
  const cellIds: Map<number, number>[] = Array.from({ length: PASS_COUNT }, () => new Map());
  const cellLocal = new Uint32Array(count);
  for (let e = 0; e < count; e++) {
    const g = passOf[e];
    if (g < 0) continue;
    const ids = cellIds[g];
    let id = ids.get(cellOf[e]);
    if (id === undefined) ids.set(cellOf[e], (id = ids.size));
    cellLocal[e] = id;
  }
  const passes: PartitionPass[] = [];
  let cellTotal = 0;
  for (let g = 0; g < PASS_COUNT; g++) {
    passes.push({ cellBase: cellTotal, cellCount: cellIds[g].size, maxColours: 0 });
    cellTotal += cellIds[g].size;
  }
  // Elements of each global cell, in element order (counting sort).
  const cellStart = new Uint32Array(cellTotal + 1);
  for (let e = 0; e < count; e++) if (passOf[e] >= 0) cellStart[passes[passOf[e]].cellBase + cellLocal[e] + 1]++;
  for (let c = 0; c < cellTotal; c++) cellStart[c + 1] += cellStart[c];
  const byCell = new Uint32Array(cellStart[cellTotal]);
  const cursor = cellStart.slice(0, cellTotal);
  for (let e = 0; e < count; e++) if (passOf[e] >= 0) byCell[cursor[passes[passOf[e]].cellBase + cellLocal[e]]++] = e;

  // Local greedy colouring per cell (first fit), the vertices' colour sets cleared after each cell.
  const order = new Uint32Array(count);
  const cells = new Uint32Array(2 * cellTotal);
  const starts: number[] = [];
  const sets = new VertexColourSets(elements, arity, vertexCount, fixed);
  let written = 0;
  for (let g = 0; g < PASS_COUNT; g++) {
    const pass = passes[g];
    for (let c = pass.cellBase; c < pass.cellBase + pass.cellCount; c++) {
      const members = byCell.subarray(cellStart[c], cellStart[c + 1]);
      const colour = new Uint32Array(members.length);
      const colours = firstFitColours(sets, members, colour);
      for (const e of members) sets.clear(e);
      cells[2 * c] = starts.length;
      cells[2 * c + 1] = colours;
      for (const o of groupByColour(members, colour, colours, order, written)) starts.push(o);
      written += members.length;
      pass.maxColours = Math.max(pass.maxColours, colours);
    }
  }

  // Leftovers: one global greedy colouring of their own, after the passes in `order`.
  const leftovers: number[] = [];
  for (let e = 0; e < count; e++) if (passOf[e] < 0) leftovers.push(e);
  const leftoverColour = new Uint32Array(leftovers.length);
  const leftoverColourCount = firstFitColours(sets, leftovers, leftoverColour);
  const leftoverOffsets = groupByColour(leftovers, leftoverColour, leftoverColourCount, order, written);
  const leftoverPass = leftovers.length > 0 && leftovers.length <= (options.leftoverCellLimit ?? LEFTOVER_CELL_LIMIT);
  if (!leftoverPass) {
    return { order, cells, colourStarts: Uint32Array.from(starts), passes, leftoverPass, leftoverOffsets, leftoverColourCount, cellSize, passSizes, leftoverCount };
  }
  // One more pass, one cell: its local colours are the leftover colours, already in place in `order`.
  const sweptCells = new Uint32Array(cells.length + 2);
  sweptCells.set(cells);
  sweptCells[cells.length] = starts.length;
  sweptCells[cells.length + 1] = leftoverColourCount;
  for (const o of leftoverOffsets) starts.push(o);
  passes.push({ cellBase: cellTotal, cellCount: 1, maxColours: leftoverColourCount });
  return {
    order,
    cells: sweptCells,
    colourStarts: Uint32Array.from(starts),
    passes,
    leftoverPass,
    leftoverOffsets: Uint32Array.of(count),
    leftoverColourCount: 0,
    cellSize,
    passSizes: [...passSizes, leftoverCount],
    leftoverCount,
  };
}

/** Greedy first-fit colours of `ids` in order into `colour` (their vertices' sets updated); returns the colour count. */
function firstFitColours(sets: VertexColourSets, ids: ArrayLike<number>, colour: Uint32Array): number {
  let colours = 0;
  for (let i = 0; i < ids.length; i++) {
    colour[i] = sets.firstFree(ids[i]);
    sets.take(ids[i], colour[i]);
    colours = Math.max(colours, colour[i] + 1);
  }
  return colours;
}

/**
 * The cellRanges array of lib/cellSweep.wgsl: per cell [index of its colour starts in this
 * array, local colour count], then every cell's colour starts (offsets into the order).
 */
export function cellRanges(p: PartitionedColouring): Uint32Array<ArrayBuffer> {
  const cellCount = p.cells.length / 2;
  const out = new Uint32Array(Math.max(1, 2 * cellCount + p.colourStarts.length));
  for (let c = 0; c < cellCount; c++) {
    out[2 * c] = 2 * cellCount + p.cells[2 * c];
    out[2 * c + 1] = p.cells[2 * c + 1];
  }
  out.set(p.colourStarts, 2 * cellCount);
  return out;
}
