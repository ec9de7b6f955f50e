/**
 * Light vertices raised (SolverParams.vertexMassFloor): each vertex's lumped mass is at least
 * `floor` times the mean lumped mass of the vertices it shares a tet with, the difference taken
 * from those neighbours in proportion to their masses, so every object keeps its mass exactly.
 *
 * Why: lumped masses give a vertex a quarter of its tets' volume, so a vertex in a few small tets
 * (a tentacle tip of the shared octopus: 0.22 g in two tets among neighbours of 11-32 g, 0.012 of
 * their mean) is light against the stiffness of those tets. Pressed by a contact, or kicked at a
 * few m/s, the Gauss-Seidel material iterations swing it through its tets and their energy grows
 * without bound (docs/collisions.md "Light vertices"): kicked at 3 m/s with nothing else moving,
 * that tip took the octopus from 1 mJ to 88 J. Which vertices are light is a property of the mesh
 * alone, so the rule is a ratio to the neighbours (any scale, any density), and it moves mass over
 * one element at most: the centre of mass moves by less than the mass moved times an edge length.
 *
 * The targets are computed from the lumped masses before any is raised, so the result does not
 * depend on the vertex order.
 */

/**
 * Masses with the floor applied (a new array; `lumped` is not changed); floor 0 returns a copy.
 * vertexTetOffsets / vertexTetCorners: per vertex the tet corners 4t+k that name it (Model's CSR).
 */
export function raiseLightVertices(lumped: Float64Array, tets: ArrayLike<number>, vertexTetOffsets: ArrayLike<number>, vertexTetCorners: ArrayLike<number>, floor: number): Float64Array {
  const n = lumped.length;
  const out = Float64Array.from(lumped);
  if (!(floor > 0)) return out;
  // Each neighbour once: stamp[u] = v + 1 while v's neighbours are visited.
  const stamp = new Uint32Array(n);
  const neighbours: number[] = [];
  for (let v = 0; v < n; v++) {
    neighbours.length = 0;
    for (let c = vertexTetOffsets[v]; c < vertexTetOffsets[v + 1]; c++) {
      const t = vertexTetCorners[c] >> 2;
      for (let k = 0; k < 4; k++) {
        const u = tets[4 * t + k];
        if (u === v || stamp[u] === v + 1) continue;
        stamp[u] = v + 1;
        neighbours.push(u);
      }
    }
    if (neighbours.length === 0) continue;
    let sum = 0;
    for (const u of neighbours) sum += lumped[u];
    const need = (floor * sum) / neighbours.length - lumped[v];
    if (!(need > 0)) continue;
    out[v] += need;
    for (const u of neighbours) out[u] -= (need * lumped[u]) / sum;
  }
  return out;
}
