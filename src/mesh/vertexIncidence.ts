/**
 * Vertex -> element incidence in compressed rows (CSR): for each vertex, the elements (tets,
 * triangles, edges) that have it as a corner. One builder for every such table in the solver, the
 * collision stages and the tests (the model's tet corners, the boundary's triangles, CCD's tets,
 * culling's triangles, the sorted join's triangles and edges).
 */

/** Per vertex v, the entries ids[offsets[v] .. offsets[v + 1]), in ascending element order. */
export interface VertexIncidence {
  offsets: Uint32Array;
  ids: Uint32Array;
}

/**
 * The elements incident to each vertex: `corners` holds `arity` vertex ids per element (4 for tets,
 * 3 for triangles, 2 for edges); ids are element numbers (corner index / arity). With arity 1 each
 * corner is its own entry: ids are corner indices (4 t + k for a tet's corner k).
 */
export function vertexIncidence(corners: ArrayLike<number>, arity: number, vertexCount: number): VertexIncidence {
  if (!(Number.isInteger(arity) && arity >= 1)) throw new RangeError(`vertexIncidence: arity must be a whole number >= 1, got ${arity}`);
  if (corners.length % arity !== 0) throw new RangeError(`vertexIncidence: ${corners.length} corners is not a whole number of elements of ${arity}`);
  const offsets = new Uint32Array(vertexCount + 1);
  for (let i = 0; i < corners.length; i++) {
    const v = corners[i];
    if (!(v >= 0 && v < vertexCount)) throw new RangeError(`vertexIncidence: element ${Math.floor(i / arity)} names vertex ${v}, outside 0..${vertexCount - 1}`);
    offsets[v + 1]++;
  }
  for (let v = 0; v < vertexCount; v++) offsets[v + 1] += offsets[v];
  const cursor = offsets.slice(0, vertexCount);
  const ids = new Uint32Array(corners.length);
  for (let i = 0; i < corners.length; i++) ids[cursor[corners[i]]++] = Math.floor(i / arity);
  return { offsets, ids };
}
