/**
 * Tet shape quality and sliver tets.
 *
 * Quality of a tet: 6 sqrt(2) V / l_max^3 (V its volume, l_max its longest edge): 1 for a regular
 * tet, 0 for a flat one. A sliver is a tet whose four corners lie nearly in one plane without any
 * short edge: its Dm^-1 grows as 1 / its height, so its stiffness over its corners' masses
 * (which its neighbours give them) is out of all proportion. In the shared octopus
 * (octopus_2KFaces.t, median quality 0.26) tet 4049 has quality 0.0003. At the octopus drop's
 * landing, a corner of that tet and of its flat neighbour (3317, quality 0.002) swung at 10-16 m/s.
 * Those two tets then held 77 of the body's 87 J of elastic energy, twice the energy the drop
 * released (docs/collisions.md).
 *
 * Whether a tet is a sliver is judged against its own object's median quality, so a mesh that is
 * flat by design (a thin-walled container such as GlassBox.t, every tet about 0.005) has none.
 */

/** 6 sqrt(2) V / l_max^3 of tet t of `tets` (4 vertex ids each) at `positions` (3 per vertex). */
export function tetQuality(positions: ArrayLike<number>, tets: ArrayLike<number>, t: number): number {
  const p = (k: number, c: number): number => positions[3 * tets[4 * t + k] + c];
  let longest = 0;
  for (let a = 0; a < 4; a++) {
    for (let b = a + 1; b < 4; b++) {
      const d = Math.hypot(p(a, 0) - p(b, 0), p(a, 1) - p(b, 1), p(a, 2) - p(b, 2));
      if (d > longest) longest = d;
    }
  }
  const ux = p(1, 0) - p(0, 0), uy = p(1, 1) - p(0, 1), uz = p(1, 2) - p(0, 2);
  const vx = p(2, 0) - p(0, 0), vy = p(2, 1) - p(0, 1), vz = p(2, 2) - p(0, 2);
  const wx = p(3, 0) - p(0, 0), wy = p(3, 1) - p(0, 1), wz = p(3, 2) - p(0, 2);
  const volume = Math.abs(ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx)) / 6;
  return longest > 0 ? (6 * Math.SQRT2 * volume) / longest ** 3 : 0;
}

/**
 * Per tet, its quality over the median quality of its object's tets (tetObject: object per tet),
 * at `positions`. 1 for a tet as good as its object's typical one.
 */
export function relativeTetQuality(positions: ArrayLike<number>, tets: Uint32Array, tetObject: Uint32Array, objectCount: number): Float64Array {
  const count = tets.length / 4;
  const quality = new Float64Array(count);
  for (let t = 0; t < count; t++) quality[t] = tetQuality(positions, tets, t);
  const perObject: number[][] = Array.from({ length: objectCount }, () => []);
  for (let t = 0; t < count; t++) perObject[tetObject[t]].push(quality[t]);
  const median = perObject.map((qs) => {
    if (qs.length === 0) return 0;
    qs.sort((a, b) => a - b);
    const h = qs.length >> 1;
    return qs.length % 2 ? qs[h] : 0.5 * (qs[h - 1] + qs[h]);
  });
  const out = new Float64Array(count);
  for (let t = 0; t < count; t++) {
    const m = median[tetObject[t]];
    out[t] = m > 0 ? quality[t] / m : 1;
  }
  return out;
}

/** The slivers: the tets whose relative quality (relativeTetQuality) is below `threshold`, ascending. */
export function sliversBelow(relativeQuality: ArrayLike<number>, threshold: number): number[] {
  const out: number[] = [];
  for (let t = 0; t < relativeQuality.length; t++) if (relativeQuality[t] < threshold) out.push(t);
  return out;
}
