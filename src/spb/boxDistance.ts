/** Squared distances from a point to a BVH node's box (the node layout of src/bvh/surfaceBvh.ts). */

/** Squared distance from p to the farthest point of the box: every triangle in it is nearer. */
export function boxFarDistance2(nodes: Float32Array, o: number, px: number, py: number, pz: number): number {
  const dx = Math.max(px - nodes[o], nodes[o + 4] - px);
  const dy = Math.max(py - nodes[o + 1], nodes[o + 5] - py);
  const dz = Math.max(pz - nodes[o + 2], nodes[o + 6] - pz);
  return dx * dx + dy * dy + dz * dz;
}

export function boxDistance2(nodes: Float32Array, o: number, px: number, py: number, pz: number): number {
  // Branches instead of Math.max(lo - p, 0, p - hi): this is the hottest function of the query.
  const lx = nodes[o] - px, hx = px - nodes[o + 4];
  const ly = nodes[o + 1] - py, hy = py - nodes[o + 5];
  const lz = nodes[o + 2] - pz, hz = pz - nodes[o + 6];
  const dx = lx > 0 ? lx : hx > 0 ? hx : 0;
  const dy = ly > 0 ? ly : hy > 0 ? hy : 0;
  const dz = lz > 0 ? lz : hz > 0 ? hz : 0;
  return dx * dx + dy * dy + dz * dz;
}
