/**
 * Greedy graph colouring of constraints (tets or edges) so that no two constraints of one
 * colour share a dynamic vertex: a colour's constraints are then independent and can be
 * projected in parallel while colours run one after another (parallel Gauss-Seidel).
 */

export interface Colouring {
  /** Constraint ids grouped by colour: colour c is order[offsets[c] .. offsets[c+1]). */
  order: Uint32Array;
  offsets: Uint32Array;
  colourCount: number;
}

/**
 * Per-vertex sets of colours taken, as 32-bit words (extended as more colours are needed):
 * the first-fit step shared by every greedy colouring here and in partitionedColouring.ts.
 */
export class VertexColourSets {
  private words = 1;
  private used: Uint32Array;

  constructor(
    private readonly elements: Uint32Array,
    private readonly arity: number,
    private readonly vertexCount: number,
    private readonly fixed?: Uint8Array,
  ) {
    this.used = new Uint32Array(vertexCount);
  }

  /** Smallest colour not taken at any dynamic vertex of element e. */
  firstFree(e: number): number {
    const { elements, arity, fixed } = this;
    for (let w = 0; ; w++) {
      if (w >= this.words) this.grow();
      let taken = 0;
      for (let k = 0; k < arity; k++) {
        const v = elements[arity * e + k];
        if (!fixed || !fixed[v]) taken |= this.used[v * this.words + w];
      }
      const free = ~taken >>> 0;
      // Lowest free bit of this word.
      if (free !== 0) return 32 * w + (31 - Math.clz32(free & -free));
    }
  }

  /** Marks `colour` taken at element e's dynamic vertices. */
  take(e: number, colour: number): void {
    const { elements, arity, fixed } = this;
    while (colour >>> 5 >= this.words) this.grow();
    for (let k = 0; k < arity; k++) {
      const v = elements[arity * e + k];
      if (!fixed || !fixed[v]) this.used[v * this.words + (colour >>> 5)] |= 1 << (colour & 31);
    }
  }

  /** Forgets every colour at element e's vertices. */
  clear(e: number): void {
    for (let k = 0; k < this.arity; k++) {
      const v = this.elements[this.arity * e + k];
      this.used.fill(0, v * this.words, (v + 1) * this.words);
    }
  }

  private grow(): void {
    const words = this.words;
    const grown = new Uint32Array(this.vertexCount * (words + 1));
    for (let v = 0; v < this.vertexCount; v++) for (let i = 0; i < words; i++) grown[v * (words + 1) + i] = this.used[v * words + i];
    this.words = words + 1;
    this.used = grown;
  }
}

/**
 * Groups `ids` by `colourOf` (counting sort, stable): order[offsets[c] .. offsets[c+1]) are
 * colour c's ids, offsets starting at `base`.
 */
export function groupByColour(ids: ArrayLike<number>, colourOf: ArrayLike<number>, colourCount: number, order: Uint32Array, base = 0): Uint32Array {
  const offsets = new Uint32Array(colourCount + 1);
  for (let i = 0; i < ids.length; i++) offsets[colourOf[i] + 1]++;
  offsets[0] = base;
  for (let c = 0; c < colourCount; c++) offsets[c + 1] += offsets[c];
  const cursor = offsets.slice(0, colourCount);
  for (let i = 0; i < ids.length; i++) order[cursor[colourOf[i]]++] = ids[i];
  return offsets;
}

/**
 * `elements` holds `arity` vertex ids per constraint. Vertices with `fixed[v]` true (inverse
 * mass 0) are never written by a projection, so they create no conflict. Each constraint
 * takes the smallest colour not used by its vertices (first fit).
 */
export function greedyColouring(elements: Uint32Array, arity: number, vertexCount: number, fixed?: Uint8Array): Colouring {
  const count = elements.length / arity;
  const colour = new Uint32Array(count);
  const sets = new VertexColourSets(elements, arity, vertexCount, fixed);
  let colourCount = 0;
  for (let e = 0; e < count; e++) {
    const c = sets.firstFree(e);
    sets.take(e, c);
    colour[e] = c;
    colourCount = Math.max(colourCount, c + 1);
  }
  const order = new Uint32Array(count);
  const ids = new Uint32Array(count);
  for (let e = 0; e < count; e++) ids[e] = e;
  const offsets = groupByColour(ids, colour, colourCount, order);
  return { order, offsets, colourCount };
}
