/** Concatenates tet meshes into one scene: positions, tets (ids shifted) and an object id per tet (per part, or the ids given). */
export function mergeParts(parts: { positions: ArrayLike<number>; tets: ArrayLike<number> }[], objects = parts.map((_, i) => i)) {
  const positions: number[] = [];
  const tets: number[] = [];
  const tetObject: number[] = [];
  parts.forEach((p, i) => {
    const base = positions.length / 3;
    positions.push(...Array.from(p.positions));
    for (const t of Array.from(p.tets)) tets.push(t + base);
    for (let t = 0; t < p.tets.length / 4; t++) tetObject.push(objects[i]);
  });
  return { positions: Float64Array.from(positions), tets: Uint32Array.from(tets), tetObject: Uint32Array.from(tetObject) };
}
