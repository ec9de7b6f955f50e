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
 * `elements` holds `arity` vertex ids per constraint. Vertices with `fixed[v]` true (inverse
 * mass 0) are never written by a projection, so they create no conflict. Each constraint
 * takes the smallest colour not used by its vertices (first fit); vertex colour sets are
 * 32-bit words, extended as more colours are needed.
 */
export function greedyColouring(elements: Uint32Array, arity: number, vertexCount: number, fixed?: Uint8Array): Colouring {
  const count = elements.length / arity;
  const colour = new Uint32Array(count);
  let words = 1;
  let used = new Uint32Array(vertexCount * words);
  let colourCount = 0;
  for (let e = 0; e < count; e++) {
    let c = 0;
    for (;;) {
      const w = c >>> 5;
      if (w >= words) break;
      let taken = 0;
      for (let k = 0; k < arity; k++) {
        const v = elements[arity * e + k];
        if (!fixed || !fixed[v]) taken |= used[v * words + w];
      }
      const free = ~taken >>> 0;
      if (free !== 0) {
        // Lowest free bit of this word.
        c = 32 * w + (31 - Math.clz32(free & -free));
        break;
      }
      c = 32 * (w + 1);
    }
    if (c >>> 5 >= words) {
      const grown = new Uint32Array(vertexCount * (words + 1));
      for (let v = 0; v < vertexCount; v++) for (let i = 0; i < words; i++) grown[v * (words + 1) + i] = used[v * words + i];
      words += 1;
      used = grown;
    }
    colour[e] = c;
    colourCount = Math.max(colourCount, c + 1);
    for (let k = 0; k < arity; k++) {
      const v = elements[arity * e + k];
      used[v * words + (c >>> 5)] |= 1 << (c & 31);
    }
  }
  const offsets = new Uint32Array(colourCount + 1);
  for (let e = 0; e < count; e++) offsets[colour[e] + 1]++;
  for (let c = 0; c < colourCount; c++) offsets[c + 1] += offsets[c];
  const cursor = offsets.slice(0, colourCount);
  const order = new Uint32Array(count);
  for (let e = 0; e < count; e++) order[cursor[colour[e]]++] = e;
  return { order, offsets, colourCount };
}
