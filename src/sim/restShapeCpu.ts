/**
 * CPU reference (float64) of the per-tet rest data every FEM constraint needs:
 * Dm = [b-a, c-a, d-a] (columns), its inverse Dm^-1, and the signed rest volume det(Dm)/6.
 * The GPU kernel (restShape.ts + shaders/restShape.wgsl) computes the same in f32; tests
 * compare the two. Layout of Dm^-1: column-major, 9 numbers per tet (column j at 9t + 3j),
 * the same order WGSL's mat3x3 uses, so F = Ds * Dm^-1 reads the same on both sides.
 */

export interface RestShape {
  /** 9 per tet, column-major Dm^-1. */
  dmInv: Float64Array;
  /** Signed rest volume det(Dm) / 6 per tet. */
  volume: Float64Array;
}

/** Thrown when a tet has (relatively) zero volume: Dm is not invertible there. */
export class DegenerateTetError extends Error {
  constructor(readonly tet: number, readonly volume: number) {
    super(`tet ${tet} is degenerate (rest volume ${volume.toExponential(3)} relative to its edge length cubed is below 1e-12): Dm has no inverse`);
    this.name = 'DegenerateTetError';
  }
}

/**
 * Computes Dm^-1 and rest volumes. Rejects tets whose |det Dm| is below 1e-12 * L^3, L the
 * longest of the three edges from a: the test is relative so it works for a 1 cm noodle
 * and a 20-unit cube alike.
 */
export function computeRestShapeCpu(positions: ArrayLike<number>, tets: ArrayLike<number>): RestShape {
  const tetCount = Math.floor(tets.length / 4);
  const vertexCount = Math.floor(positions.length / 3);
  const dmInv = new Float64Array(9 * tetCount);
  const volume = new Float64Array(tetCount);
  for (let t = 0; t < tetCount; t++) {
    const ia = tets[4 * t];
    const ib = tets[4 * t + 1];
    const ic = tets[4 * t + 2];
    const id = tets[4 * t + 3];
    for (const v of [ia, ib, ic, id]) {
      if (!(v >= 0 && v < vertexCount)) throw new RangeError(`tet ${t} names vertex ${v}, but there are ${vertexCount} vertices`);
    }
    const ax = positions[3 * ia], ay = positions[3 * ia + 1], az = positions[3 * ia + 2];
    // Columns of Dm.
    const m00 = positions[3 * ib] - ax, m10 = positions[3 * ib + 1] - ay, m20 = positions[3 * ib + 2] - az;
    const m01 = positions[3 * ic] - ax, m11 = positions[3 * ic + 1] - ay, m21 = positions[3 * ic + 2] - az;
    const m02 = positions[3 * id] - ax, m12 = positions[3 * id + 1] - ay, m22 = positions[3 * id + 2] - az;
    // Cofactors (adjugate transposed).
    const c00 = m11 * m22 - m12 * m21;
    const c01 = m12 * m20 - m10 * m22;
    const c02 = m10 * m21 - m11 * m20;
    const det = m00 * c00 + m01 * c01 + m02 * c02;
    const l2 = Math.max(m00 * m00 + m10 * m10 + m20 * m20, m01 * m01 + m11 * m11 + m21 * m21, m02 * m02 + m12 * m12 + m22 * m22);
    if (!(Math.abs(det) > 1e-12 * l2 * Math.sqrt(l2))) throw new DegenerateTetError(t, det / 6);
    const inv = 1 / det;
    const o = 9 * t;
    // inverse[i][j] = C[j][i] / det (adjugate = transposed cofactors); column-major, so
    // column j of the inverse is row j of the cofactor matrix.
    dmInv[o + 0] = c00 * inv;
    dmInv[o + 1] = c01 * inv;
    dmInv[o + 2] = c02 * inv;
    dmInv[o + 3] = (m02 * m21 - m01 * m22) * inv; // C10
    dmInv[o + 4] = (m00 * m22 - m02 * m20) * inv; // C11
    dmInv[o + 5] = (m01 * m20 - m00 * m21) * inv; // C12
    dmInv[o + 6] = (m01 * m12 - m02 * m11) * inv; // C20
    dmInv[o + 7] = (m02 * m10 - m00 * m12) * inv; // C21
    dmInv[o + 8] = (m00 * m11 - m01 * m10) * inv; // C22
    volume[t] = det / 6;
  }
  return { dmInv, volume };
}
