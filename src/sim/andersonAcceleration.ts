/**
 * Anderson acceleration of the material iterations (SolverParams.andersonDepth; type II, Walker
 * and Ni 2011, "Anderson acceleration for fixed-point iterations"; applied to local-global physics
 * solvers by Peng et al. 2018, "Anderson acceleration for geometry optimization and physics
 * simulation"). CPU reference of shaders/xpbdAnderson.wgsl (stages/materialAnderson.ts).
 *
 * One iteration (a Gauss-Seidel sweep of the tets, then the colliders) is a map G of the state
 * z = (positions, the Neo-Hookean multipliers S): z_{k+1} = G(z_k). Its slow modes (a stiff
 * beam's bending, which the block iteration moves a little each sweep: docs/benchmarks.md
 * "Material convergence: where the per-iteration gap comes from") make the residual
 * f_k = G(z_k) - z_k shrink by nearly the same factor every sweep. Anderson's step takes the
 * affine combination of the last depth + 1 outputs whose combined residual is smallest:
 *
 *   gamma = argmin || f_k - dF gamma ||,   z_{k+1} = G(z_k) - dG gamma,
 *
 * with dF, dG the differences of consecutive residuals and outputs (the last `depth` of them).
 * The norm is over the positions only (metres; S has other units and follows with the same
 * weights, so the two stay a consistent pair). Slots 9-10 of a tet's state (det F and ||F||^2 at
 * its last visit: the warm start's shape test) are observations, not iterates, and are left as
 * the sweep wrote them.
 *
 * Mixing starts at the third sweep (MIX_FROM_SWEEP), and only in a run of at least four
 * (MIN_MIXING_SWEEPS: the callers, CpuSolver and MaterialStage, run shorter rounds without it): a
 * mix made from the first two differences overshoots when nothing follows it, and as a run's last
 * output it was worse than the plain sweeps on the cantilever (float64, worst vertex: 3
 * iterations, 1.1e-3 m against 5.0e-4; mixing from the second sweep, 2 iterations, 1.3e-3
 * against 7.6e-4), while with a sweep after it it was the best start measured (4 iterations:
 * tip 3.0e-6 m against 1.3e-5 when mixing from the fourth; docs/benchmarks.md). So 3 iterations
 * or fewer run exactly as without it. The history restarts every substep, as the multipliers
 * do, and after each collision round. A fixed point of the sweeps is one of the acceleration (at
 * convergence f = 0 and every difference vanishes); where the sweeps have more than one (at a
 * collider, below), which one is reached depends on the path.
 *
 * At a collider: with SolverParams.colliderResponse 'projection' the accelerated
 * iteration converges to another fixed point than the plain one (a cube resting on the ground,
 * friction 0: 1.1e-5 of 2 units at 64 iterations, 1.8e-9 with the ground taken away;
 * bench/andersonAtContact.ts): the projection pushes and keeps no multiplier, so the pushes a
 * path made are part of its answer, and an extrapolated iterate collects others. With
 * 'multiplier' (what the default 'auto' takes with the acceleration on) the colliders' kept
 * pushes and friction corrections (colliderMultiplier.ts) are
 * mixed with the state (`vertexExtra`, outside the norm) and the accelerated frame ends 2e-8 from
 * the plain one; 6 accelerated iterations are then 2.7x closer to it than 6 plain ones
 * (docs/benchmarks.md "Anderson acceleration at a collider").
 *
 * Cost per sweep: a pass over the state (differences, 2 x depth dot products), a depth x depth
 * solve, a pass to mix; memory (3 + 2 depth) x the state's length.
 */

import { MAX_ANDERSON_DEPTH } from '../contract/params';

/** In a run that mixes, the first sweep (0-based) whose output is mixed; the sweeps before it only record differences. */
export const MIX_FROM_SWEEP = 2;
/**
 * Differences a mix uses before FULL_DEPTH_FROM_SWEEP: the two latest. A deeper history from the
 * start fits the first sweeps' fast modes and overshoots on them (cantilever, float64, worst
 * vertex at 4 iterations: depth 3 or 4 throughout 6.4e-4 m, depth 2 9.9e-5), while late in a long
 * run it fits the slow modes better (12 iterations, each against its own 64: depth 2 1.4e-6,
 * two columns and then 4 from the sixth sweep 8.1e-7; docs/benchmarks.md "Anderson depth that grows").
 */
export const EARLY_COLUMNS = 2;
/** The first sweep (0-based) whose difference is kept beside the two latest: from it on the history grows to `depth`. */
export const FULL_DEPTH_FROM_SWEEP = 6;

/**
 * Where sweep k's difference is stored and how many stored differences its mix uses: the
 * columns in use are always slots 0 .. columns - 1 and hold the latest differences. Up to depth
 * EARLY_COLUMNS this is a plain ring, (k - 1) % depth. A deeper history holds the two latest in
 * slots 0-1 until FULL_DEPTH_FROM_SWEEP, then fills slots 2 .. depth - 1 and from there on
 * overwrites the oldest. The GPU twin writes the same schedule into its per-sweep constants
 * (stages/materialAnderson.ts), so the two engines mix the same columns.
 */
export function andersonSchedule(depth: number, sweep: number): { slot: number; columns: number } {
  if (sweep < 1) return { slot: 0, columns: 0 };
  if (depth <= EARLY_COLUMNS) return { slot: (sweep - 1) % depth, columns: Math.min(sweep, depth) };
  // Replay the ring: the age of each slot's difference (the sweep that wrote it; -1 empty).
  const writtenAt = new Array<number>(depth).fill(-1);
  let slot = 0;
  for (let k = 1; k <= sweep; k++) {
    if (k < FULL_DEPTH_FROM_SWEEP) slot = (k - 1) % EARLY_COLUMNS;
    else {
      // An empty slot first, else the oldest difference's.
      slot = writtenAt.indexOf(-1);
      if (slot < 0) {
        slot = 0;
        for (let j = 1; j < depth; j++) if (writtenAt[j] < writtenAt[slot]) slot = j;
      }
    }
    writtenAt[slot] = k;
  }
  // Every stored difference is one of the latest: the mix uses them all.
  return { slot, columns: writtenAt.filter((t) => t >= 0).length };
}
/** Floats of a tet's multiplier state that are mixed: S, 3x3 column-major (constraintsCpu.ts NEO_HOOKEAN_TET_STATE). */
export const MIXED_TET_FLOATS = 9;
/** Ridge of the normal equations relative to their trace: it only matters when columns are nearly parallel (the GPU's f32 twin uses 1e-6, above its rounding). */
export const ANDERSON_REGULARIZATION = 1e-10;

export class AndersonAccelerator {
  /** Positions' floats, then the tets' mixed floats. */
  private readonly length: number;
  private readonly z: Float64Array;
  private readonly g: Float64Array;
  private readonly f: Float64Array;
  private readonly fPrev: Float64Array;
  private readonly gPrev: Float64Array;
  /** dF and dG columns, `depth` each, column j at j * length. */
  private readonly dF: Float64Array;
  private readonly dG: Float64Array;
  /** Normal matrix of the dF columns (depth x depth, positions part) and the solve's scratch. */
  private readonly gram: Float64Array;
  private readonly matrix: Float64Array;
  private readonly gamma: Float64Array;
  private sweep = 0;

  constructor(
    readonly depth: number,
    private readonly vertexCount: number,
    private readonly tetCount: number,
    /** Floats per tet in the solver's multiplier array (NEO_HOOKEAN_TET_STATE). */
    private readonly tetStride: number,
    /**
     * Floats per vertex of a further state mixed with the rest but not in the norm: the colliders'
     * kept multipliers (SolverParams.colliderResponse 'multiplier', COLLIDER_MULTIPLIER_STRIDE), 0 for none.
     */
    readonly vertexExtra = 0,
  ) {
    if (!Number.isInteger(depth) || depth < 1 || depth > MAX_ANDERSON_DEPTH) throw new RangeError(`Anderson depth must be an integer in [1, ${MAX_ANDERSON_DEPTH}], got ${depth}`);
    this.length = 3 * vertexCount + MIXED_TET_FLOATS * tetCount + vertexExtra * vertexCount;
    const n = this.length;
    this.z = new Float64Array(n);
    this.g = new Float64Array(n);
    this.f = new Float64Array(n);
    this.fPrev = new Float64Array(n);
    this.gPrev = new Float64Array(n);
    this.dF = new Float64Array(depth * n);
    this.dG = new Float64Array(depth * n);
    this.gram = new Float64Array(depth * depth);
    this.matrix = new Float64Array(depth * depth);
    this.gamma = new Float64Array(depth);
  }

  /** The first iterate of a run of at least MIN_MIXING_SWEEPS sweeps (after predict and the warm start, or a collision round): history cleared. */
  begin(x: Float64Array, multipliers: Float64Array, extra?: Float64Array): void {
    this.gather(x, multipliers, extra, this.z);
    this.sweep = 0;
  }

  /**
   * After a sweep and the colliders: (x, multipliers) hold G(z_k). Records the differences and,
   * from MIX_FROM_SWEEP on, overwrites them with the mixed iterate z_{k+1}.
   */
  afterSweep(x: Float64Array, multipliers: Float64Array, extra?: Float64Array): void {
    const { length: n, depth, z, g, f, fPrev, gPrev, dF, dG, gram } = this;
    const k = this.sweep++;
    this.gather(x, multipliers, extra, g);
    for (let i = 0; i < n; i++) f[i] = g[i] - z[i];
    const { slot, columns } = andersonSchedule(depth, k);
    if (k >= 1) {
      const o = slot * n;
      for (let i = 0; i < n; i++) {
        dF[o + i] = f[i] - fPrev[i];
        dG[o + i] = g[i] - gPrev[i];
      }
      for (let j = 0; j < columns; j++) gram[slot * depth + j] = gram[j * depth + slot] = this.dot(dF, o, dF, j * n);
    }
    fPrev.set(f);
    gPrev.set(g);
    if (k < MIX_FROM_SWEEP) {
      z.set(g);
      return;
    }
    this.solve(columns);
    for (let i = 0; i < n; i++) {
      let s = g[i];
      for (let j = 0; j < columns; j++) s -= this.gamma[j] * dG[j * n + i];
      z[i] = s;
    }
    this.scatter(z, x, multipliers, extra);
  }

  /** gamma = argmin || f - dF gamma || over `columns` columns: the normal equations, regularised, by Gaussian elimination (columns <= 4). */
  private solve(columns: number): void {
    const { depth, length: n, gram, matrix: a, gamma, dF, f } = this;
    let trace = 0;
    for (let r = 0; r < columns; r++) {
      gamma[r] = this.dot(dF, r * n, f, 0);
      for (let c = 0; c < columns; c++) a[r * columns + c] = gram[r * depth + c];
      trace += gram[r * depth + r];
    }
    const ridge = ANDERSON_REGULARIZATION * trace + Number.MIN_VALUE;
    for (let r = 0; r < columns; r++) a[r * columns + r] += ridge;
    for (let p = 0; p < columns; p++) {
      for (let r = p + 1; r < columns; r++) {
        const factor = a[r * columns + p] / a[p * columns + p];
        for (let c = p; c < columns; c++) a[r * columns + c] -= factor * a[p * columns + c];
        gamma[r] -= factor * gamma[p];
      }
    }
    for (let p = columns - 1; p >= 0; p--) {
      let s = gamma[p];
      for (let c = p + 1; c < columns; c++) s -= a[p * columns + c] * gamma[c];
      gamma[p] = s / a[p * columns + p];
    }
    // A singular system (no motion left) mixes nothing: the sweep's output stands.
    if (!gamma.subarray(0, columns).every(Number.isFinite)) gamma.fill(0);
  }

  /** Dot product over the positions part of two state vectors (at offsets a0, b0). */
  private dot(a: Float64Array, a0: number, b: Float64Array, b0: number): number {
    let s = 0;
    for (let i = 0; i < 3 * this.vertexCount; i++) s += a[a0 + i] * b[b0 + i];
    return s;
  }

  private gather(x: Float64Array, multipliers: Float64Array, extra: Float64Array | undefined, out: Float64Array): void {
    const p = 3 * this.vertexCount;
    out.set(x.subarray(0, p));
    for (let t = 0; t < this.tetCount; t++) {
      for (let c = 0; c < MIXED_TET_FLOATS; c++) out[p + MIXED_TET_FLOATS * t + c] = multipliers[this.tetStride * t + c];
    }
    this.checkExtra(extra);
    if (this.vertexExtra > 0) out.set(extra!.subarray(0, this.vertexExtra * this.vertexCount), p + MIXED_TET_FLOATS * this.tetCount);
  }

  private scatter(from: Float64Array, x: Float64Array, multipliers: Float64Array, extra: Float64Array | undefined): void {
    const p = 3 * this.vertexCount;
    x.set(from.subarray(0, p));
    for (let t = 0; t < this.tetCount; t++) {
      for (let c = 0; c < MIXED_TET_FLOATS; c++) multipliers[this.tetStride * t + c] = from[p + MIXED_TET_FLOATS * t + c];
    }
    if (this.vertexExtra > 0) {
      const o = p + MIXED_TET_FLOATS * this.tetCount;
      extra!.set(from.subarray(o, o + this.vertexExtra * this.vertexCount));
    }
  }

  private checkExtra(extra: Float64Array | undefined): void {
    const want = this.vertexExtra * this.vertexCount;
    if ((extra?.length ?? 0) < want || (want === 0 && extra !== undefined)) {
      throw new RangeError(`Anderson acceleration: built for ${this.vertexExtra} extra floats a vertex, given ${extra === undefined ? 'none' : `${extra.length} for ${this.vertexCount} vertices`}`);
    }
  }
}
