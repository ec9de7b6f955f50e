/**
 * The boundary of a tet mesh as Rapier's SoftBodyDesc.setSurface wants it: triangles oriented
 * outward, vertex ids local to the object. A face is on the boundary when exactly one tet uses
 * it; for a positively oriented tet (a, b, c, d) the face opposite each corner is wound so that
 * its normal points out of the tet (src/mesh/types.ts TET_FACES convention), hence out of the
 * body when the tet is the only one using it.
 */
const OUTWARD_FACES = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]] as const;

/**
 * tets: 4 ids per tet, positively oriented, ids in [first, first + count) for the object whose
 * vertices start at `first`. Returns 3 local ids per boundary triangle.
 */
export function outwardSurface(tets: ArrayLike<number>, first = 0): Uint32Array {
  if (tets.length % 4 !== 0) throw new RangeError(`outwardSurface: ${tets.length} tet ids is not a multiple of 4`);
  // Key of a face: its sorted ids; the value is the winding of the (last) tet that used it, or
  // null once a second tet has used it (an interior face).
  const faces = new Map<string, [number, number, number] | null>();
  for (let t = 0; t < tets.length / 4; t++) {
    for (const f of OUTWARD_FACES) {
      const tri: [number, number, number] = [tets[4 * t + f[0]] - first, tets[4 * t + f[1]] - first, tets[4 * t + f[2]] - first];
      if (tri[0] < 0 || tri[1] < 0 || tri[2] < 0) throw new RangeError(`outwardSurface: tet ${t} names a vertex before the object's first (${first})`);
      const key = [...tri].sort((x, y) => x - y).join(',');
      faces.set(key, faces.has(key) ? null : tri);
    }
  }
  const out: number[] = [];
  for (const tri of faces.values()) if (tri) out.push(tri[0], tri[1], tri[2]);
  return Uint32Array.from(out);
}
