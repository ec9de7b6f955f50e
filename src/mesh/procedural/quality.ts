/**
 * Element quality of a tet mesh: signed volumes and dihedral angles. The dihedral angle at an
 * edge is pi minus the angle between the outward normals of the two faces that meet there.
 */
export interface TetQuality {
  minDihedralDeg: number;
  maxDihedralDeg: number;
  minVolume: number;
  /** Tets with volume <= 0. */
  invertedCount: number;
  totalVolume: number;
}

/** Faces by local vertex: face i is opposite vertex i; each of the 6 edges is a face pair. */
const FACE_A = [0, 0, 0, 1, 1, 2];
const FACE_B = [1, 2, 3, 2, 3, 3];

export function tetQuality(positions: ArrayLike<number>, tets: ArrayLike<number>): TetQuality {
  // Track the extreme cosines and take acos once at the end (acos is monotone decreasing).
  let maxCos = -Infinity, minCos = Infinity, minV = Infinity, inverted = 0, total = 0;
  const n = new Float64Array(12); // outward (area-weighted) normal of each face
  const len = new Float64Array(4);
  const P = new Float64Array(12);
  const count = tets.length / 4;
  for (let t = 0; t < count; t++) {
    for (let m = 0; m < 4; m++) {
      const v = tets[4 * t + m];
      P[3 * m] = positions[3 * v];
      P[3 * m + 1] = positions[3 * v + 1];
      P[3 * m + 2] = positions[3 * v + 2];
    }
    const e1x = P[3] - P[0], e1y = P[4] - P[1], e1z = P[5] - P[2];
    const e2x = P[6] - P[0], e2y = P[7] - P[1], e2z = P[8] - P[2];
    const e3x = P[9] - P[0], e3y = P[10] - P[1], e3z = P[11] - P[2];
    const vol = (e1x * (e2y * e3z - e2z * e3y) - e1y * (e2x * e3z - e2z * e3x) + e1z * (e2x * e3y - e2y * e3x)) / 6;
    total += vol;
    if (vol < minV) minV = vol;
    if (!(vol > 0)) {
      inverted++;
      continue;
    }
    // Face i opposite vertex i, oriented outward for a positive tet (types.ts TET_FACES).
    faceNormal(P, 1, 2, 3, n, 0);
    faceNormal(P, 0, 3, 2, n, 3);
    faceNormal(P, 0, 1, 3, n, 6);
    faceNormal(P, 0, 2, 1, n, 9);
    for (let f = 0; f < 4; f++) len[f] = Math.sqrt(n[3 * f] * n[3 * f] + n[3 * f + 1] * n[3 * f + 1] + n[3 * f + 2] * n[3 * f + 2]);
    for (let e = 0; e < 6; e++) {
      const a = FACE_A[e], b = FACE_B[e];
      const dot = n[3 * a] * n[3 * b] + n[3 * a + 1] * n[3 * b + 1] + n[3 * a + 2] * n[3 * b + 2];
      const c = -dot / (len[a] * len[b]);
      if (c > maxCos) maxCos = c;
      if (c < minCos) minCos = c;
    }
  }
  const deg = (c: number): number => (Math.acos(Math.max(-1, Math.min(1, c))) * 180) / Math.PI;
  return {
    minDihedralDeg: maxCos === -Infinity ? Infinity : deg(maxCos),
    maxDihedralDeg: minCos === Infinity ? -Infinity : deg(minCos),
    minVolume: minV,
    invertedCount: inverted,
    totalVolume: total,
  };
}

function faceNormal(P: Float64Array, a: number, b: number, c: number, out: Float64Array, o: number): void {
  const ux = P[3 * b] - P[3 * a], uy = P[3 * b + 1] - P[3 * a + 1], uz = P[3 * b + 2] - P[3 * a + 2];
  const vx = P[3 * c] - P[3 * a], vy = P[3 * c + 1] - P[3 * a + 1], vz = P[3 * c + 2] - P[3 * a + 2];
  out[o] = uy * vz - uz * vy;
  out[o + 1] = uz * vx - ux * vz;
  out[o + 2] = ux * vy - uy * vx;
}
