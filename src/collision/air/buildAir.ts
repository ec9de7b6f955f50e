/**
 * The air mesh for a container: the lattice mesher (buildAirMesh.ts, objects meshed on the
 * container's lattice: the fast path of the air-boxes scene) or the general one
 * (generalAirMesh.ts: Delaunay tetrahedralization with boundary recovery, any objects).
 * Runs in a worker of the pool (the CCD worker's buildAir) or on the calling thread.
 */
import type { AirSpec } from './airMesh';
import { buildAirMesh, type AirModel, type BuiltAirMesh } from './buildAirMesh';
import { buildGeneralAirMesh, type AirBox } from './generalAirMesh';

/** Which mesher and its container. */
export type AirContainer = ({ mesher: 'lattice' } & AirSpec) | ({ mesher: 'general' } & AirBox);

export function buildAir(model: AirModel, container: AirContainer): BuiltAirMesh {
  if (container.mesher === 'lattice') {
    const built = buildAirMesh(model, container);
    built.stats.mesher = 'lattice';
    return built;
  }
  return buildGeneralAirMesh(model, container);
}

/** Builds the air mesh (in a worker of the pool, or on this thread). */
export type AirBuilder = (model: AirModel, container: AirContainer) => Promise<BuiltAirMesh>;

export const inThreadAirBuilder: AirBuilder = async (model, container) => buildAir(model, container);
