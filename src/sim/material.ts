/**
 * Material parameters and the compliances of the stable Neo-Hookean constraints of
 * Macklin & Müller 2021 ("A Constraint-based Formulation of Stable Neo-Hookean Materials"):
 * deviatoric C_D = ||F||_F with compliance 1/mu, hydrostatic C_H = det F - gamma with
 * compliance 1/lambda and gamma = 1 + mu/lambda, both divided by the tet's rest volume
 * (the energy density integrates over the element).
 *
 * The mu and lambda of that energy are NOT the linear-elastic Lamé parameters of the user's
 * Young's modulus and Poisson ratio: linearised at F = I + H, the energy
 * mu/2 (||F||^2 - 3) + lambda/2 (det F - 1 - mu/lambda)^2 is
 * mu ||eps||^2 + (lambda - mu)/2 (tr eps)^2, so its small-strain Lamé parameters are
 * (mu, lambda - mu). Smith, de Goes and Kim 2018 (Stable Neo-Hookean Flesh Simulation,
 * section 3.4) reparametrise for this; for the energy without their log term the match is
 * mu = mu_L, lambda = lambda_L + mu_L (tests/unit/sim/materialParameters.test.ts measures the
 * effective E and nu of a settled column against rho g L^2 / (2E) and the volume law).
 * lambda > 0 for every Poisson ratio in [0, 0.5), so the bulk modulus lambda_L + 2/3 mu_L
 * stays positive and the hydrostatic constraint is always on.
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
  if (!(youngsModulus > 0 && Number.isFinite(youngsModulus))) throw new RangeError(`Young's modulus must be a finite number > 0, got ${youngsModulus}`);
  if (!(poissonRatio >= 0 && poissonRatio < 0.5)) throw new RangeError(`Poisson ratio must be in [0, 0.5), got ${poissonRatio}`);
  const mu = youngsModulus / (2 * (1 + poissonRatio));
  const lambda = (youngsModulus * poissonRatio) / ((1 + poissonRatio) * (1 - 2 * poissonRatio));
  return { mu, lambda };
}

/**
 * The (mu, lambda) of the stable Neo-Hookean energy whose small-strain limit has the given
 * linear-elastic Lamé parameters (Smith et al. 2018, section 3.4, without the log term):
 * mu = mu_L, lambda = lambda_L + mu_L.
 */
export function neoHookeanLame(linear: Lame): Lame {
  return { mu: linear.mu, lambda: linear.lambda + linear.mu };
}

/**
 * Per-tet constants of the Neo-Hookean pair: [alphaD, alphaH, gamma, jacobiScale], alphaD =
 * 1/(mu V), alphaH = 1/(lambda V), gamma = 1 + mu/lambda (Macklin & Müller 2021, Sec. 4),
 * from the energy's own (mu, lambda) (neoHookeanLame). A non-positive lambda (never produced
 * from a valid Young's modulus and Poisson ratio) switches the hydrostatic constraint off,
 * encoded as alphaH = -1 and gamma = 0.
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
