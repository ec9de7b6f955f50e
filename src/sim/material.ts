/**
 * Material parameters and the compliances of the stable Neo-Hookean constraints of
 * Macklin & Müller 2021 ("A Constraint-based Formulation of Stable Neo-Hookean Materials"):
 * deviatoric C_D = ||F||_F with compliance 1/mu, hydrostatic C_H = det F - gamma with
 * compliance 1/lambda and gamma = 1 + mu/lambda, both divided by the tet's rest volume
 * (the energy density integrates over the element).
 */

export interface Material {
  /** Young's modulus (Pa, or any consistent unit). */
  youngsModulus: number;
  /** Poisson ratio in [0, 0.5). */
  poissonRatio: number;
  /** Mass per unit volume. */
  density: number;
}

export interface Lame {
  mu: number;
  lambda: number;
}

/** Lamé parameters from Young's modulus and Poisson ratio (standard linear-elastic relations). */
export function lameFromYoung(youngsModulus: number, poissonRatio: number): Lame {
  if (!(youngsModulus > 0)) throw new RangeError(`Young's modulus must be positive, got ${youngsModulus}`);
  if (!(poissonRatio >= 0 && poissonRatio < 0.5)) throw new RangeError(`Poisson ratio must be in [0, 0.5), got ${poissonRatio}`);
  const mu = youngsModulus / (2 * (1 + poissonRatio));
  const lambda = (youngsModulus * poissonRatio) / ((1 + poissonRatio) * (1 - 2 * poissonRatio));
  return { mu, lambda };
}

/**
 * Per-tet constants of the Neo-Hookean pair: [alphaD, alphaH, gamma, jacobiScale], alphaD =
 * 1/(mu V), alphaH = 1/(lambda V), gamma = 1 + mu/lambda (Macklin & Müller 2021, Sec. 4).
 * A Poisson ratio of 0 gives lambda = 0: the hydrostatic constraint is then switched off
 * (alphaH = Infinity is encoded as 0 with gamma = 0 and a flag value -1 in alphaH).
 */
export function neoHookeanConstants(lame: Lame, restVolume: number, out: Float64Array, offset: number): void {
  out[offset] = 1 / (lame.mu * restVolume);
  if (lame.lambda > 0) {
    out[offset + 1] = 1 / (lame.lambda * restVolume);
    out[offset + 2] = 1 + lame.mu / lame.lambda;
  } else {
    out[offset + 1] = -1;
    out[offset + 2] = 0;
  }
  // out[offset + 3] (Jacobi multiplier scale) is topology data: the model writes it.
}
