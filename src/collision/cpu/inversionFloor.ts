/**
 * The inversion floor of recovery mode (SolverParams.inversionFloor; docs/collisions.md "The
 * inversion floor"), float64 CPU reference of shaders/inversionFloor.wgsl.
 *
 * Recovery's contacts push points out of deep overlaps at once, and on thin parts (the squishy
 * ball's tentacles, a noodle's folds) those pushes turn tets inside out: 61 inverted tets became
 * 4,834 in one substep of the squishy ball's release. Paper 000 section 3.5 skips the self queries
 * of the boundary around an inverted boundary tet, "the only way for us to solve such
 * self-intersections ... is to resolve the inversion itself", and the material turns a fold back
 * only at the speed the body moves. So after each round's contacts every tet whose signed volume
 * is below `floor` x its rest volume is lifted back to it by a hard volume constraint
 * C(x) = 6 V(x) - floor 6 V_rest >= 0: dx_i = w_i lambda grad_i C, lambda = -C / sum_j w_j |grad_j C|^2.
 *
 * - Jacobi over the tets with mass splitting (Macklin et al. 2014's averaged constraints): a
 *   vertex in u violated tets lends each of them 1/u of its mass, so lambda = -C / sum_j w_j u_j
 *   |grad_j C|^2 and the vertex moves by w_i sum_t lambda_t grad_i C_t. Each tet's corrections
 *   then sum to zero with the split masses, and the whole lift keeps linear momentum exactly;
 *   the GPU runs a pass as three dispatches over the vertices (uses, gather, apply), no atomics;
 *   INVERSION_FLOOR_PASSES passes.
 * - Split impulse: the start positions x0 move with x, so the lift adds no velocity. Letting it
 *   move x alone resolved more of the squishy ball but doubled its kinetic energy (6.7 kJ to
 *   13-31 kJ in 10 substeps; with the split 7.2-8.6 kJ, below the 10-13 kJ without the floor).
 * - Volume is invariant under translation and rotation (sum_i grad_i C = 0, sum_i x_i x grad_i C
 *   = 0), so with the mass splitting each pass keeps linear and angular momentum exactly.
 */
import { sliverFloorThreshold, type SolverParams } from '../../contract/params';
import { sliversBelow } from '../../mesh/tetQuality';
import { tetVolume6 } from './tetGeometry';

/** Jacobi passes of the floor after each collision round. */
export const INVERSION_FLOOR_PASSES = 2;

export interface InversionFloorScratch {
  shift: Float64Array;
  /** Per vertex: its tets below the floor (that have a movable corner). */
  uses: Float64Array;
  /** One tet's gradient of 6 V (12 numbers). */
  grad: Float64Array;
}

export function inversionFloorScratch(vertexCount: number): InversionFloorScratch {
  return { shift: new Float64Array(3 * vertexCount), uses: new Float64Array(vertexCount), grad: new Float64Array(12) };
}

/** Six times the rest volume of each tet (the floor's unit). */
export function restVolumes6(restPositions: Float64Array, tets: Uint32Array): Float64Array {
  const out = new Float64Array(tets.length / 4);
  for (let t = 0; t < out.length; t++) out[t] = tetVolume6(restPositions, tets, t);
  return out;
}

/** 6 V of tet t at x and, into `grad`, its gradient at each corner (12 numbers). */
function volume6(x: ArrayLike<number>, tets: ArrayLike<number>, t: number, grad: Float64Array): number {
  const a = 3 * tets[4 * t], b = 3 * tets[4 * t + 1], c = 3 * tets[4 * t + 2], d = 3 * tets[4 * t + 3];
  const ex = x[b] - x[a], ey = x[b + 1] - x[a + 1], ez = x[b + 2] - x[a + 2];
  const fx = x[c] - x[a], fy = x[c + 1] - x[a + 1], fz = x[c + 2] - x[a + 2];
  const gx = x[d] - x[a], gy = x[d + 1] - x[a + 1], gz = x[d + 2] - x[a + 2];
  // d(6V)/db = f x g, d(6V)/dc = g x e, d(6V)/dd = e x f, d(6V)/da = -(their sum).
  const bx = fy * gz - fz * gy, by = fz * gx - fx * gz, bz = fx * gy - fy * gx;
  const cx = gy * ez - gz * ey, cy = gz * ex - gx * ez, cz = gx * ey - gy * ex;
  const dx = ey * fz - ez * fy, dy = ez * fx - ex * fz, dz = ex * fy - ey * fx;
  grad[3] = bx; grad[4] = by; grad[5] = bz;
  grad[6] = cx; grad[7] = cy; grad[8] = cz;
  grad[9] = dx; grad[10] = dy; grad[11] = dz;
  grad[0] = -(bx + cx + dx); grad[1] = -(by + cy + dy); grad[2] = -(bz + cz + dz);
  return ex * bx + ey * by + ez * bz;
}

/** Tet t is below `floor6` (floor x 6 V_rest) at x and some corner can move (grad: scratch). */
function belowFloor(x: ArrayLike<number>, w: ArrayLike<number>, tets: ArrayLike<number>, t: number, floor6: number, grad: Float64Array): boolean {
  if (!(volume6(x, tets, t, grad) - floor6 < 0)) return false;
  let denom = 0;
  for (let k = 0; k < 4; k++) denom += w[tets[4 * t + k]] * (grad[3 * k] ** 2 + grad[3 * k + 1] ** 2 + grad[3 * k + 2] ** 2);
  return denom > 0;
}

/**
 * Lifts the tets below the floor at x (x0 shifted alike), INVERSION_FLOOR_PASSES Jacobi passes.
 * `w`: inverse masses (0: pinned or stopped, never moved). Returns the tets below the floor at the
 * first pass (the counters' inversionFloorTets).
 */
export function liftInvertedTets(
  x: Float64Array, x0: Float64Array, w: ArrayLike<number>, tets: ArrayLike<number>, restVolume6: ArrayLike<number>, floor: number, scratch: InversionFloorScratch,
): number {
  if (!(floor > 0)) return 0;
  const { shift, uses, grad } = scratch;
  const tetCount = restVolume6.length;
  let first = 0;
  for (let pass = 0; pass < INVERSION_FLOOR_PASSES; pass++) {
    shift.fill(0);
    uses.fill(0);
    let below = 0;
    // The uses: each vertex's tets below the floor that some corner can move.
    for (let t = 0; t < tetCount; t++) {
      if (!belowFloor(x, w, tets, t, restVolume6[t] * floor, grad)) continue;
      below++;
      for (let k = 0; k < 4; k++) uses[tets[4 * t + k]]++;
    }
    if (pass === 0) first = below;
    if (below === 0) break;
    for (let t = 0; t < tetCount; t++) {
      const c = volume6(x, tets, t, grad) - floor * restVolume6[t];
      if (!(c < 0)) continue;
      let denom = 0;
      for (let k = 0; k < 4; k++) {
        const v = tets[4 * t + k];
        denom += w[v] * uses[v] * (grad[3 * k] ** 2 + grad[3 * k + 1] ** 2 + grad[3 * k + 2] ** 2);
      }
      if (!(denom > 0)) continue;
      const lambda = -c / denom;
      for (let k = 0; k < 4; k++) {
        const v = tets[4 * t + k];
        for (let j = 0; j < 3; j++) shift[3 * v + j] += w[v] * lambda * grad[3 * k + j];
      }
    }
    for (let v = 0; v < uses.length; v++) {
      if (uses[v] === 0) continue;
      for (let j = 0; j < 3; j++) {
        x[3 * v + j] += shift[3 * v + j];
        x0[3 * v + j] += shift[3 * v + j];
      }
    }
  }
  return first;
}

/**
 * The tets the sliver floor holds (SolverParams.sliverFloor), ascending: relative rest quality
 * below sliverFloorThreshold, so the softened slivers always and, with sliverFloorQuality above
 * them, the low-quality tets that keep their stiffness. Both engines' floors take their list from here.
 */
export function flooredTets(relativeQuality: ArrayLike<number>, p: Pick<SolverParams, 'sliverQuality' | 'sliverFloorQuality'>): number[] {
  return sliversBelow(relativeQuality, sliverFloorThreshold(p));
}

/**
 * The slivers in colours: no two tets of a colour share a corner, so the GPU lifts a colour's tets
 * at once and its result is the CPU's one-after-another order (liftSlivers). `order`: the tets,
 * colour by colour (ascending ids within one); `colourStart`: where each colour starts, and the
 * count at the end. Greedy, in ascending id order.
 */
export interface SliverColours {
  order: Uint32Array;
  colourStart: Uint32Array;
}

export function colourSlivers(tets: ArrayLike<number>, slivers: ArrayLike<number>): SliverColours {
  const colourOf = new Int32Array(slivers.length).fill(-1);
  const cornerColours = new Map<number, Set<number>>();
  let colours = 0;
  for (let i = 0; i < slivers.length; i++) {
    const t = slivers[i];
    const taken = new Set<number>();
    for (let k = 0; k < 4; k++) for (const c of cornerColours.get(tets[4 * t + k]) ?? []) taken.add(c);
    let c = 0;
    while (taken.has(c)) c++;
    colourOf[i] = c;
    colours = Math.max(colours, c + 1);
    for (let k = 0; k < 4; k++) {
      const v = tets[4 * t + k];
      if (!cornerColours.has(v)) cornerColours.set(v, new Set());
      cornerColours.get(v)!.add(c);
    }
  }
  const colourStart = new Uint32Array(colours + 1);
  for (let i = 0; i < slivers.length; i++) colourStart[colourOf[i] + 1]++;
  for (let c = 0; c < colours; c++) colourStart[c + 1] += colourStart[c];
  const order = new Uint32Array(slivers.length);
  const next = colourStart.slice(0, colours);
  for (let i = 0; i < slivers.length; i++) order[next[colourOf[i]]++] = slivers[i];
  return { order, colourStart };
}

/**
 * Corner k's volume gradient in `grad` kept off the way the contacts pushed vertex v (liftSlivers'
 * pushDirection, m its sum there): g <- g - min(0, g . m^) m^, m^ = m / |m|, nothing where no push
 * was summed. The lift moves a corner along w lambda g with lambda > 0 (the tet is below its
 * floor), so the clipped gradient moves it nowhere against m; as the constraint's gradient it also
 * enters the denominator, as a collider's w (I - b b^T) does (src/contract/colliderTouch.ts), so one
 * projection still meets the linearised floor with the corners that can move.
 */
function keepGradientOffPush(grad: Float64Array, k: number, pushDirection: ArrayLike<number>, v: number): void {
  const mx = pushDirection[3 * v], my = pushDirection[3 * v + 1], mz = pushDirection[3 * v + 2];
  const m2 = mx * mx + my * my + mz * mz;
  const along = grad[3 * k] * mx + grad[3 * k + 1] * my + grad[3 * k + 2] * mz;
  if (!(m2 > 0) || !(along < 0)) return;
  const f = along / m2;
  grad[3 * k] -= f * mx;
  grad[3 * k + 1] -= f * my;
  grad[3 * k + 2] -= f * mz;
}

/** Gauss-Seidel sweeps of the sliver floor (liftSlivers). */
export const SLIVER_FLOOR_SWEEPS = 8;

/**
 * The sliver floor outside recovery (SolverParams.sliverFloor): the listed tets (the slivers, a few
 * per body, in colourSlivers' order) below floor x their rest volume lifted back to it, one after
 * another (Gauss-Seidel, each with its corners' full masses; the GPU lifts a colour at once, the
 * same result), SLIVER_FLOOR_SWEEPS sweeps or until a sweep finds none below; x0
 * shifted alike (split impulse). Not Jacobi as the recovery floor: slivers come in flat clusters
 * that share corners, and lifting one flips its neighbour (the shared octopus's tets 4049 and
 * 4068: Jacobi's two passes lifted 4068 and left 4049, above its floor before, at -1.6 x its rest
 * volume). Each projection keeps linear and angular momentum, as a Jacobi pass does. Returns the
 * listed tets below the floor at the first sweep (the counters' inversionFloorTets). `held`: the
 * inverse masses of sliverLift 'holding-contacts' (GPU twin: liftSliversByColour's second round).
 * `x0` null: the positions alone (SolverParams.sliverFloorInSweeps, inside the material sweeps).
 * `pushDirection` (sliverLift 'clipped-to-contacts'; CpuContacts.pushDirection, 3 per vertex): each
 * corner's gradient loses its part against the corner's sum m (keepGradientOffPush), so the lift
 * cannot carry it back against the way the last round's contacts between bodies push it. The projection
 * then keeps neither momentum, as holding a corner does not; its moves stay a split impulse (no
 * velocity). GPU twin: liftSliversByColour with clipPushes.
 */
export function liftSlivers(
  x: Float64Array, x0: Float64Array | null, w: ArrayLike<number>, tets: ArrayLike<number>, restVolume6: ArrayLike<number>, floor: number, slivers: ArrayLike<number>, grad: Float64Array,
  held?: ArrayLike<number>, pushDirection?: ArrayLike<number>,
): number {
  if (!(floor > 0)) return 0;
  let first = 0;
  // With `held` (sliverLift 'holding-contacts': 0 at the corners a contact pushed), the sweeps lift
  // with those masses, then as many with `w` lift the slivers they left below the floor (every
  // corner pushed). Counted as without: below the floor with a corner `w` can move, at the first sweep.
  const rounds = held ? 2 : 1;
  for (let round = 0; round < rounds; round++) {
    const mass = held && round === 0 ? held : w;
    for (let sweep = 0; sweep < SLIVER_FLOOR_SWEEPS; sweep++) {
      let below = 0;
      for (let i = 0; i < slivers.length; i++) {
        const t = slivers[i];
        const c = volume6(x, tets, t, grad) - floor * restVolume6[t];
        if (!(c < 0)) continue;
        let denom = 0, free = 0;
        for (let k = 0; k < 4; k++) {
          const v = tets[4 * t + k];
          free += w[v] * (grad[3 * k] ** 2 + grad[3 * k + 1] ** 2 + grad[3 * k + 2] ** 2);
          if (pushDirection) keepGradientOffPush(grad, k, pushDirection, v);
          denom += mass[v] * (grad[3 * k] ** 2 + grad[3 * k + 1] ** 2 + grad[3 * k + 2] ** 2);
        }
        if (round === 0 && sweep === 0 && free > 0) first++;
        if (!(denom > 0)) continue;
        below++;
        const lambda = -c / denom;
        for (let k = 0; k < 4; k++) {
          const v = tets[4 * t + k];
          for (let j = 0; j < 3; j++) {
            const d = mass[v] * lambda * grad[3 * k + j];
            x[3 * v + j] += d;
            if (x0) x0[3 * v + j] += d;
          }
        }
      }
      if (below === 0) break;
    }
  }
  return first;
}
