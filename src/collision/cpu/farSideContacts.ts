/**
 * Far-side contacts (SolverParams.farSideContacts; docs/collisions.md "Far-side contacts"), float64
 * CPU reference of shaders/contactsFarSide.wgsl.
 *
 * Where two parts overlap deeply (a tangled noodle in recovery mode, paper 000 section 5.2), a
 * point p of part A that has crossed more than half of part B has its exact shortest path out
 * through B's far side. Its contact then pushes p onward, through B, and pulls B's far side back
 * toward it. The points of B just inside A's surface at p have their paths out through that
 * surface, whose triangles p is a corner of: their contacts push them the same way as p's contact
 * pushes p, and push p back the other way. Both are exact shortest paths, and the Jacobi passes
 * settle between them: p stays inside, every substep (docs/collisions.md "What the noodle keeps
 * after 10 substeps": the tug of war). Separating the parts needs A's points and B's points to move
 * opposite ways; two contacts at one vertex that push the same way cannot both be right, and the
 * shallower one (the shorter path out) is the one that undoes the overlap.
 *
 * The rule: contact i is dropped when one of its point vertices v (weight > 0) is a triangle corner
 * (barycentric > 0) of another contact j with n_i . n_j > 0 and depth_j < depth_i, where j is the
 * shallowest contact having v as a corner (lowest index among equal depths), depth = (s - x) . n
 * at the build's positions (-C without the offset), and j's point belongs to the object of i's
 * triangle: the part p crossed (docs/collisions.md "Far-side contacts between two parts only": the
 * rule's argument is about two overlapping parts, and a third body pressing on p's part through the
 * same corner says nothing about p's path). Only the shortest-path (DCD) point-face contacts of one
 * build, records [from, to), take part, as on the GPU (its DCD records are a list of their
 * own); CCD's contacts are not shortest paths. Comparing with the shallowest corner contact alone,
 * not with every one, is what the GPU does in two atomic passes; the float64 probes of the noodle
 * gave the same counts within the run-to-run spread either way (docs/collisions.md).
 */
import { GROUP_POINT_FACE, type CpuContacts } from './contactsCpu';

/** Per vertex, the shallowest contact having it as a triangle corner (-1: none), each contact's depth, the contacts to drop: grow-only scratch. */
let shallowest = new Int32Array(0);
let depths = new Float64Array(0);
let dropped = new Int32Array(0);

/**
 * Drops (makes inactive) the far-side contacts among the active point-face contacts [from, to) of
 * `contacts` at positions x, the positions they were built at. `vertexObject`: each vertex's object
 * (absent: one object). Returns how many it dropped.
 */
export function dropFarSideContacts(contacts: CpuContacts, x: Float64Array, vertexCount: number, from = 0, to = contacts.count, vertexObject?: Uint32Array): number {
  if (shallowest.length < vertexCount) shallowest = new Int32Array(vertexCount);
  if (depths.length < to) {
    depths = new Float64Array(Math.max(to, 2 * depths.length));
    dropped = new Int32Array(depths.length);
  }
  shallowest.fill(-1, 0, vertexCount);
  const { pointVertex: pv, pointWeight: pw, triVertex: tv, triBary: tb, normal: nv, active, group } = contacts;
  const takesPart = (i: number): boolean => active[i] === 1 && group[i] === GROUP_POINT_FACE;
  for (let i = from; i < to; i++) {
    if (!takesPart(i)) continue;
    // gap() is (x - s) . n - offset.
    const depth = -(contacts.gap(x, i) + contacts.offset[i]);
    depths[i] = depth;
    for (let k = 0; k < 3; k++) {
      if (!(tb[3 * i + k] > 0)) continue;
      const v = tv[3 * i + k];
      const j = shallowest[v];
      if (j < 0 || depth < depths[j]) shallowest[v] = i;
    }
  }
  let drops = 0;
  for (let i = from; i < to; i++) {
    if (!takesPart(i)) continue;
    for (let k = 0; k < 4; k++) {
      if (!(pw[4 * i + k] > 0)) continue;
      const j = shallowest[pv[4 * i + k]];
      if (j < 0 || j === i || !(depths[j] < depths[i])) continue;
      // Only a point of the part that i's point crossed pulls it back (in a pile, a third body's
      // contact through the same corner says nothing about i's path).
      if (vertexObject && vertexObject[pv[4 * j]] !== vertexObject[tv[3 * i]]) continue;
      const same = nv[3 * i] * nv[3 * j] + nv[3 * i + 1] * nv[3 * j + 1] + nv[3 * i + 2] * nv[3 * j + 2];
      if (same > 0) {
        dropped[drops++] = i;
        break;
      }
    }
  }
  // Dropped after the pass, so that every decision reads the same set of contacts (as the GPU's kernels).
  for (let k = 0; k < drops; k++) active[dropped[k]] = 0;
  return drops;
}
