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
 *
 * A donor keeps at least `floor` of its own lumped mass: where the light vertices around it ask for
 * more than the rest, each gets that share of what it asked (and stays lighter than its target).
 * Without the limit, a high floor on a mesh of uneven elements drew donors below zero
 * (OverhandKnot.t: 177 vertices of negative mass at floor 0.7; Cube.t: 2 at 0.9), and a negative
 * mass turns the solve's corrections around: two Cube.t copies dropped at floor 0.9 rose 10 cm
 * above their start (docs/collisions.md "Light vertices").
 */
export function raiseLightVertices(lumped: Float64Array, tets: ArrayLike<number>, vertexTetOffsets: ArrayLike<number>, vertexTetCorners: ArrayLike<number>, floor: number): Float64Array {
  const n = lumped.length;
  const out = Float64Array.from(lumped);
  if (!(floor > 0)) return out;
  // Each neighbour once: stamp[u] = v + 1 while v's neighbours are visited. CSR of the neighbours.
  const stamp = new Uint32Array(n);
  const start = new Uint32Array(n + 1);
  const list: number[] = [];
  for (let v = 0; v < n; v++) {
    for (let c = vertexTetOffsets[v]; c < vertexTetOffsets[v + 1]; c++) {
      const t = vertexTetCorners[c] >> 2;
      for (let k = 0; k < 4; k++) {
        const u = tets[4 * t + k];
        if (u === v || stamp[u] === v + 1) continue;
        stamp[u] = v + 1;
        list.push(u);
      }
    }
    start[v + 1] = list.length;
  }
  // Per vertex: what it needs to reach the floor.
  const need = new Float64Array(n), sums = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    const count = start[v + 1] - start[v];
    if (count === 0) continue;
    let sum = 0;
    for (let j = start[v]; j < start[v + 1]; j++) sum += lumped[list[j]];
    sums[v] = sum;
    need[v] = Math.max(0, (floor * sum) / count - lumped[v]);
  }
  // A light vertex asks its neighbours in proportion to their masses; each donor gives every request
  // the same share, 1 unless it is asked for more than all but `floor` of its own mass (at the
  // default 0.1 no donor on the shared meshes or the built-in scenes gives more than 2.2 % of its
  // mass, so the limit changes nothing there).
  const share = new Float64Array(n);
  for (let v = 0; v < n; v++) {
    if (!(need[v] > 0)) continue;
    for (let j = start[v]; j < start[v + 1]; j++) share[list[j]] += (need[v] * lumped[list[j]]) / sums[v];
  }
  for (let u = 0; u < n; u++) share[u] = share[u] > (1 - floor) * lumped[u] ? ((1 - floor) * lumped[u]) / share[u] : 1;
  // Where no donor around v is short, v takes its whole need at once (the same arithmetic, bit for
  // bit, as before the limit); else the sum of what it was given.
  for (let v = 0; v < n; v++) {
    if (!(need[v] > 0)) continue;
    let short = false;
    for (let j = start[v]; j < start[v + 1]; j++) if (share[list[j]] < 1) short = true;
    if (!short) out[v] += need[v];
    for (let j = start[v]; j < start[v + 1]; j++) {
      const u = list[j];
      const given = ((need[v] * lumped[u]) / sums[v]) * share[u];
      if (short) out[v] += given;
      out[u] -= given;
    }
  }
  return out;
}
