/**
 * Material parameters and the per-tet constants of the stable Neo-Hookean energy of Smith,
 * de Goes and Kim 2018 (Stable Neo-Hookean Flesh Simulation, eq. 14 and section 3.4):
 *   Psi(F) = mu/2 (||F||^2 - 3) + lambda/2 (det F - alpha)^2 - mu/2 log(||F||^2 + 1),
 *   alpha = 1 + 3 mu / (4 lambda),
 * per unit rest volume (solved by src/sim/constraintsCpu.ts and its WGSL twin).
 *
 * Its mu and lambda are NOT the linear-elastic Lamé parameters of the user's Young's modulus
 * and Poisson ratio. Section 3.4's reparametrisation mu = 4/3 mu_L, lambda = lambda_L + 5/6 mu_L
 * makes the small-strain limit exactly linear elasticity with (E, nu) (checked numerically, and
 * tests/unit/sim/materialParameters.test.ts measures a settled column against rho g L^2 / (2E)
 * and the volume law). The code until 2026-11-22 used Macklin & Müller's form without the log
 * term and the plain Lamé lambda: effective Poisson 0.165 for 0.3, a negative bulk modulus
 * below 1/8. The log term is what keeps the collapsed state F = 0 above the rest state at every
 * Poisson ratio (by 0.17 E at nu = 0, 0.42 E at 0.3); without it, at nu = 0 the two had equal
 * energy and a ball squashed flat stayed flat.
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
 * linear-elastic Lamé parameters (Smith et al. 2018, section 3.4): mu = 4/3 mu_L,
 * lambda = lambda_L + 5/6 mu_L.
 */
export function neoHookeanLame(linear: Lame): Lame {
  return { mu: (4 / 3) * linear.mu, lambda: linear.lambda + (5 / 6) * linear.mu };
}

/** The energy's rest volume ratio alpha = 1 + 3 mu / (4 lambda): the rest shape is stress-free. */
export function neoHookeanAlpha(lame: Lame): number {
  return 1 + (0.75 * lame.mu) / lame.lambda;
}

/**
 * Per-tet constants of the Neo-Hookean energy: [alphaD, alphaH, alpha, jacobiScale], alphaD =
 * 1/(mu V), alphaH = 1/(lambda V) (compliances, XPBD's form of stiffness), alpha its rest
 * volume ratio, from the energy's own (mu, lambda) (neoHookeanLame). A non-positive lambda
 * (never produced from a valid Young's modulus and Poisson ratio) switches the volume term
 * off, encoded as alphaH = -1 and alpha = 0.
 */
export function neoHookeanConstants(lame: Lame, restVolume: number, out: Float64Array, offset: number): void {
  out[offset] = 1 / (lame.mu * restVolume);
  if (lame.lambda > 0) {
    out[offset + 1] = 1 / (lame.lambda * restVolume);
    out[offset + 2] = neoHookeanAlpha(lame);
  } else {
    out[offset + 1] = -1;
    out[offset + 2] = 0;
  }
  // out[offset + 3] (Jacobi multiplier scale) is topology data: the model writes it.
}
