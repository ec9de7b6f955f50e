/**
 * Small brute-force checks of tet meshes (air mesh tests, sunk-balls recovery test and bench; tests/unit/collision/airMesh,
 * generalAirMesh), sharing no code with the meshers: the signed volume's determinant, and how
 * many tets use each face.
 */

/** 6 x the signed volume of tet (a, b, c, d) at xyz positions p. */
export function det(p: ArrayLike<number>, a: number, b: number, c: number, d: number): number {
  const m = [0, 1, 2].map((k) => [p[3 * b + k] - p[3 * a + k], p[3 * c + k] - p[3 * a + k], p[3 * d + k] - p[3 * a + k]]);
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[1][0] * (m[0][1] * m[2][2] - m[0][2] * m[2][1]) + m[2][0] * (m[0][1] * m[1][2] - m[0][2] * m[1][1]);
}

/** Uses of each face (sorted vertex ids joined by ',') over the tets, added to `uses`. */
export function faceUses(tets: ArrayLike<number>, uses = new Map<string, number>()): Map<string, number> {
  for (let t = 0; t < tets.length / 4; t++) {
    for (let skip = 0; skip < 4; skip++) {
      const f = [0, 1, 2, 3].filter((k) => k !== skip).map((k) => tets[4 * t + k]).sort((x, y) => x - y).join(',');
      uses.set(f, (uses.get(f) ?? 0) + 1);
    }
  }
  return uses;
}
