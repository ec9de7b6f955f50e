/**
 * Impact-adaptive substeps (issue 19; SolverParams.impactSubsteps): a frame whose CCD candidates
 * close fast takes more substeps, so that no pair travels more than IMPACT_TRAVEL_RATIO of the
 * mean boundary edge toward each other in one substep. The contacts of a substep resolve what
 * the substep's motion pushed in; an impact of two octopi at 4 substeps a frame travels about
 * half an edge a substep and leaves vertices inside for many frames (docs/benchmarks.md
 * "Peers"), where 20 substeps (a tenth of an edge) leave almost none. Rapier answers the same
 * with up to 4 extra CCD substeps on impact; Macklin et al. 2019 ("Small Steps") argue for
 * small substeps throughout, which costs every frame what this costs only impact frames.
 *
 * The closing speed is read from the broad phase's vertex-face candidates (the pairs whose swept
 * boxes meet within the horizon): the rate at which the vertex's distance to the triangle shrinks,
 * (v_p - v_q) . (p - q) / |p - q| with q the closest point on the triangle moving with it at its
 * barycentrics (exact by the envelope theorem; zero for any rigid motion of the pair, and never
 * more than the two points' relative speed). A pair counts only when that speed brings the vertex
 * to the triangle within the horizon. The distance to the triangle's plane was tried first: its
 * rate carries the plane's turning times the vertex's offset from the triangle, which for a small
 * triangle far from the vertex read 30-125 m/s between the tentacles of octopi in free fall.
 * Edge-edge pairs are left out: two closed
 * surfaces that meet at an edge pair meet at vertex-face pairs within a fraction of an edge more,
 * and they are three to four times as many.
 */
import { closestPointOnTriangle } from '../../geometry/closestPointOnTriangle';
import type { CcdTopology } from './broadPhase';

/** The most relative travel per substep, in mean boundary edges, before a frame adds substeps. */
export const IMPACT_TRAVEL_RATIO = 0.1;

/**
 * The largest closing speed (world units / s) over the vertex-face candidate pairs `vertexFace`
 * (vertex id, triangle index), at positions / velocities with `stride` floats per vertex (3 or
 * 4), among pairs that reach the triangle within `horizon` seconds. 0 when none closes.
 */
export function candidateClosingSpeed(
  topo: Pick<CcdTopology, 'triangles' | 'vertexCount'>, vertexFace: Uint32Array, positions: ArrayLike<number>, velocities: ArrayLike<number>,
  stride: 3 | 4, horizon: number,
): number {
  if (vertexFace.length % 2 !== 0) throw new RangeError(`candidateClosingSpeed: vertexFace has odd length ${vertexFace.length}, expected pairs (vertex, triangle)`);
  if (positions.length < stride * topo.vertexCount || velocities.length < stride * topo.vertexCount) {
    throw new RangeError(`candidateClosingSpeed: positions / velocities hold fewer than ${topo.vertexCount} vertices of ${stride} floats`);
  }
  if (!(horizon >= 0)) throw new RangeError(`candidateClosingSpeed: horizon must be >= 0, got ${horizon}`);
  const t = topo.triangles;
  const x = positions, v = velocities;
  const q = new Float64Array(6);
  let fastest = 0;
  // |v_p - v_i|^2: the vertex's squared speed relative to corner i (squares: no root per pair).
  const relative2 = (p: number, i: number): number => {
    const ux = v[p] - v[i], uy = v[p + 1] - v[i + 1], uz = v[p + 2] - v[i + 2];
    return ux * ux + uy * uy + uz * uz;
  };
  for (let k = 0; k < vertexFace.length; k += 2) {
    const p = stride * vertexFace[k];
    const f = 3 * vertexFace[k + 1];
    const a = stride * t[f], b = stride * t[f + 1], c = stride * t[f + 2];
    // Exact pruning before the closest point (a landing's candidates number a million, and the GPU
    // engine measures them on the main thread, ccdSchedule.ts closingSpeedAtStart): q moves at a
    // convex combination of the corners' velocities, so the closing speed is at most
    // r = max_i |v_p - v_i|; a pair counts only when its distance, at least the distance to the
    // triangle's bounding box, is within closing x horizon <= r x horizon.
    const r2 = Math.max(relative2(p, a), relative2(p, b), relative2(p, c));
    if (!(r2 > fastest * fastest)) continue;
    let gap2 = 0;
    for (let d = 0; d < 3; d++) {
      const lo = Math.min(x[a + d], x[b + d], x[c + d]), hi = Math.max(x[a + d], x[b + d], x[c + d]);
      const out = x[p + d] < lo ? lo - x[p + d] : x[p + d] > hi ? x[p + d] - hi : 0;
      gap2 += out * out;
    }
    if (gap2 > r2 * (horizon * horizon)) continue;
    closestPointOnTriangle(x[p], x[p + 1], x[p + 2], x[a], x[a + 1], x[a + 2], x[b], x[b + 1], x[b + 2], x[c], x[c + 1], x[c + 2], q);
    // The closest point moves with the triangle at its barycentrics (q[3..5]); by the envelope
    // theorem the distance's rate is the relative velocity along p - q, whatever the barycentrics do.
    const ux = v[p] - (q[3] * v[a] + q[4] * v[b] + q[5] * v[c]);
    const uy = v[p + 1] - (q[3] * v[a + 1] + q[4] * v[b + 1] + q[5] * v[c + 1]);
    const uz = v[p + 2] - (q[3] * v[a + 2] + q[4] * v[b + 2] + q[5] * v[c + 2]);
    const dx = x[p] - q[0], dy = x[p + 1] - q[1], dz = x[p + 2] - q[2];
    const distance = Math.hypot(dx, dy, dz);
    let closing: number;
    if (distance > 0) closing = -(ux * dx + uy * dy + uz * dz) / distance;
    else {
      // On the triangle: closing along its normal either way.
      const e1x = x[b] - x[a], e1y = x[b + 1] - x[a + 1], e1z = x[b + 2] - x[a + 2];
      const e2x = x[c] - x[a], e2y = x[c + 1] - x[a + 1], e2z = x[c + 2] - x[a + 2];
      const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
      const len = Math.hypot(nx, ny, nz);
      closing = len > 0 ? Math.abs(ux * nx + uy * ny + uz * nz) / len : Math.hypot(ux, uy, uz);
    }
    if (closing > fastest && distance <= closing * horizon) fastest = closing;
  }
  return fastest;
}

export interface ImpactSubstepInput {
  /** The frame's closing speed (candidateClosingSpeed), world units / s. */
  closingSpeed: number;
  dt: number;
  /** The frame's substeps without an impact (SolverParams.substeps). */
  substeps: number;
  /** The most substeps a frame may take on impact (SolverParams.impactSubsteps); <= substeps: off. */
  impactSubsteps: number;
  /** The scene's mean boundary edge, world units. */
  meanEdge: number;
  /** The previous frame's substeps (absent: none before, or a reset): the count falls at most by half a frame. */
  previousSubsteps?: number;
}

/**
 * Substeps for a frame: enough that the closing speed travels at most IMPACT_TRAVEL_RATIO mean
 * edges a substep, never fewer than `substeps`, never more than `impactSubsteps`; and after a
 * frame with more, at least half of its count (IMPACT_SUBSTEP_DECAY).
 */
export function impactSubstepCount(i: ImpactSubstepInput): number {
  if (!(i.impactSubsteps > i.substeps)) return i.substeps;
  const wanted = wantedImpactSubsteps(i.closingSpeed, i.dt, i.meanEdge);
  // A landing lasts several frames, and the closing speed measured at a frame's start can drop
  // between two of them while the body is still squashing (the part that hit has stopped, the
  // rest has not reached it yet): octopus-box went 21 -> 7 -> 21 substeps at frames 13-15 and
  // gained 0.17 J at frame 14 (docs/collisions.md "Impact-adaptive substeps").
  const floor = i.previousSubsteps !== undefined && i.previousSubsteps > i.substeps ? Math.ceil(i.previousSubsteps * IMPACT_SUBSTEP_DECAY) : 0;
  return Math.min(i.impactSubsteps, Math.max(i.substeps, wanted, floor));
}

/** Substeps at which `closingSpeed` travels IMPACT_TRAVEL_RATIO mean edges a substep (0 when nothing closes): what a frame asks for before the cap. */
export function wantedImpactSubsteps(closingSpeed: number, dt: number, meanEdge: number): number {
  return closingSpeed > 0 && meanEdge > 0 ? Math.ceil((closingSpeed * dt) / (IMPACT_TRAVEL_RATIO * meanEdge)) : 0;
}

/** After a frame with impact substeps, the next frame keeps at least this fraction of them. */
export const IMPACT_SUBSTEP_DECAY = 0.5;
