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
 * boxes meet within the horizon): the rate at which the vertex's distance to the triangle's plane
 * shrinks, from the vertex's velocity relative to the triangle's centroid and the plane's turning
 * (zero for any rigid motion of the pair). A pair counts only when that speed brings the
 * vertex to the triangle's plane within the horizon. Edge-edge pairs are left out: two closed
 * surfaces that meet at an edge pair meet at vertex-face pairs within a fraction of an edge more,
 * and they are three to four times as many.
 */
import type { CcdTopology } from './broadPhase';

/** The most relative travel per substep, in mean boundary edges, before a frame adds substeps. */
export const IMPACT_TRAVEL_RATIO = 0.1;

/**
 * The largest closing speed (world units / s) over the vertex-face candidate pairs `vertexFace`
 * (vertex id, triangle index), at positions / velocities with `stride` floats per vertex (3 or
 * 4), among pairs that reach the triangle's plane within `horizon` seconds. 0 when none closes.
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
  let fastest = 0;
  for (let k = 0; k < vertexFace.length; k += 2) {
    const p = stride * vertexFace[k];
    const f = 3 * vertexFace[k + 1];
    const a = stride * t[f], b = stride * t[f + 1], c = stride * t[f + 2];
    const e1x = x[b] - x[a], e1y = x[b + 1] - x[a + 1], e1z = x[b + 2] - x[a + 2];
    const e2x = x[c] - x[a], e2y = x[c + 1] - x[a + 1], e2z = x[c + 2] - x[a + 2];
    const nx0 = e1y * e2z - e1z * e2y, ny0 = e1z * e2x - e1x * e2z, nz0 = e1x * e2y - e1y * e2x;
    const len = Math.hypot(nx0, ny0, nz0);
    if (!(len > 0)) continue; // a degenerate triangle has no normal to close along
    const nx = nx0 / len, ny = ny0 / len, nz = nz0 / len;
    // The vertex relative to the triangle's centroid, and its velocity relative to the centroid's.
    const rx = x[p] - (x[a] + x[b] + x[c]) / 3, ry = x[p + 1] - (x[a + 1] + x[b + 1] + x[c + 1]) / 3, rz = x[p + 2] - (x[a + 2] + x[b + 2] + x[c + 2]) / 3;
    const ux = v[p] - (v[a] + v[b] + v[c]) / 3, uy = v[p + 1] - (v[a + 1] + v[b + 1] + v[c + 1]) / 3, uz = v[p + 2] - (v[a + 2] + v[b + 2] + v[c + 2]) / 3;
    // d/dt of the normal N = e1 x e2, less its component along n, over |N|: the plane turns too, so
    // a rigid motion (a spinning body's own pairs) changes no gap and closes nothing.
    const d1x = v[b] - v[a], d1y = v[b + 1] - v[a + 1], d1z = v[b + 2] - v[a + 2];
    const d2x = v[c] - v[a], d2y = v[c + 1] - v[a + 1], d2z = v[c + 2] - v[a + 2];
    let tx = d1y * e2z - d1z * e2y + e1y * d2z - e1z * d2y;
    let ty = d1z * e2x - d1x * e2z + e1z * d2x - e1x * d2z;
    let tz = d1x * e2y - d1y * e2x + e1x * d2y - e1y * d2x;
    const along = tx * nx + ty * ny + tz * nz;
    tx = (tx - along * nx) / len; ty = (ty - along * ny) / len; tz = (tz - along * nz) / len;
    const gap = rx * nx + ry * ny + rz * nz;
    const rate = ux * nx + uy * ny + uz * nz + rx * tx + ry * ty + rz * tz;
    // Toward the plane from the side the vertex is on (either side when on it).
    const closing = gap > 0 ? -rate : gap < 0 ? rate : Math.abs(rate);
    if (closing > fastest && Math.abs(gap) <= closing * horizon) fastest = closing;
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
}

/**
 * Substeps for a frame: enough that the closing speed travels at most IMPACT_TRAVEL_RATIO mean
 * edges a substep, never fewer than `substeps`, never more than `impactSubsteps`.
 */
export function impactSubstepCount(i: ImpactSubstepInput): number {
  if (!(i.impactSubsteps > i.substeps) || !(i.closingSpeed > 0) || !(i.meanEdge > 0)) return i.substeps;
  const wanted = Math.ceil((i.closingSpeed * i.dt) / (IMPACT_TRAVEL_RATIO * i.meanEdge));
  return Math.min(i.impactSubsteps, Math.max(i.substeps, wanted));
}
