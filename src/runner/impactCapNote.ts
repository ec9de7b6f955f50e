/**
 * The runner's note when a frame's closing speed asked for more substeps than it got
 * (impact-adaptive substeps, collision/ccd/impactSubsteps.ts) and the cap --impact-substeps
 * bound; with impact substeps off no closing speed is measured, so there is nothing to say. Such
 * a frame lets a pair travel more than IMPACT_TRAVEL_RATIO of the mean boundary edge toward each
 * other in one substep (a Cube.t thrown at the ground at 300 m/s asked for 88 and took 40, the
 * default cap at 20 substeps).
 */
import { IMPACT_TRAVEL_RATIO, wantedImpactSubsteps } from '../collision/ccd/impactSubsteps';
import { effectiveImpactSubsteps, type SolverParams } from '../contract/params';

export function impactCapNote(frame: number, closingSpeed: number, substeps: number, params: Pick<SolverParams, 'dt' | 'substeps' | 'impactSubsteps'>, meanEdge: number): string | null {
  const wanted = wantedImpactSubsteps(closingSpeed, params.dt, meanEdge);
  if (!(wanted > substeps)) return null;
  const cap = effectiveImpactSubsteps(params);
  const travel = (closingSpeed * params.dt) / substeps / meanEdge;
  const head = `frame ${frame}: the closing speed ${closingSpeed.toPrecision(3)} m/s asked for ${wanted} substeps (${IMPACT_TRAVEL_RATIO} of the mean boundary edge a substep) and the frame took ${substeps}, ${travel.toFixed(2)} edges a substep`;
  return cap > params.substeps && substeps >= cap ? `${head}: the cap --impact-substeps ${params.impactSubsteps === 'auto' ? `auto (${cap})` : cap} bound (--impact-substeps ${wanted} lifts it)` : null;
}
