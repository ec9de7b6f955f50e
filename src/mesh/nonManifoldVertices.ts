/**
 * Boundary vertices where the surface touches itself (two tets meeting only at a vertex, a
 * "bowtie"): the triangles around such a vertex form more than one fan. The mesh is still
 * usable (every edge has two triangles), but a walk around the vertex's one-ring sees only one
 * fan, so callers are warned.
 *
 * On a closed surface the link of a vertex (its neighbours, joined by the edge opposite the
 * vertex in each incident triangle) is a union of cycles, one per fan: count its components.
 */
function localIndex(neighbors: Uint32Array, start: number, end: number, v: number): number {
  let lo = start, hi = end - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const x = neighbors[mid];
    if (x === v) return mid - start;
    if (x < v) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

function root(parent: Int32Array, i: number): number {
  while (parent[i] !== i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

export function findNonManifoldVertices(
  boundaryVertices: Uint32Array,
  triangles: Uint32Array,
  vertexTriangleOffsets: Uint32Array,
  vertexTriangles: Uint32Array,
  vertexNeighborOffsets: Uint32Array,
  vertexNeighbors: Uint32Array,
): number[] {
  let maxDegree = 0;
  for (const v of boundaryVertices) maxDegree = Math.max(maxDegree, vertexNeighborOffsets[v + 1] - vertexNeighborOffsets[v]);
  const parent = new Int32Array(maxDegree);
  const out: number[] = [];
  for (const v of boundaryVertices) {
    const s = vertexNeighborOffsets[v], e = vertexNeighborOffsets[v + 1];
    const degree = e - s;
    for (let i = 0; i < degree; i++) parent[i] = i;
    let components = degree;
    for (let k = vertexTriangleOffsets[v]; k < vertexTriangleOffsets[v + 1]; k++) {
      const t = vertexTriangles[k];
      // The two corners of triangle t other than v, in the triangle's order.
      const c0 = triangles[3 * t], c1 = triangles[3 * t + 1], c2 = triangles[3 * t + 2];
      const a = c0 === v ? c1 : c0;
      const b = c2 === v ? c1 : c2;
      const ra = root(parent, localIndex(vertexNeighbors, s, e, a));
      const rb = root(parent, localIndex(vertexNeighbors, s, e, b));
      if (ra !== rb) {
        parent[ra] = rb;
        components--;
      }
    }
    if (components > 1) out.push(v);
  }
  return out;
}
