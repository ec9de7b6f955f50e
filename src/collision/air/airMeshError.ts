import type { SceneArrays } from '../../contract/sceneArrays';

/**
 * An air mesh that cannot be built for the scene's objects (air mode, paper 004): objects touching
 * in the rest state, a boundary off the container's lattice, a boundary the general mesher cannot
 * recover. The message names the object, the element and where. A RangeError, so callers that
 * treat bad input alike still do; the runner reports it as bad input (exit 2), the page in its
 * banner, and the scene stays as it was.
 */
export class AirMeshError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'AirMeshError';
  }
}

/** Whether `e` is an AirMeshError, also after it crossed a worker boundary (the clone keeps its name, not its class). */
export function isAirMeshError(e: unknown): e is Error {
  return e instanceof AirMeshError || (e instanceof Error && e.name === 'AirMeshError');
}

/** A number as the air mesh's errors print it: 6 significant digits. */
export function formatNumber(v: number): string {
  return Number(v.toPrecision(6)).toString();
}

/** Where a model vertex is, as the air mesh's errors name it: "object o (name) vertex local at (x, y, z)". */
export function describeVertex(model: Pick<SceneArrays, 'vertexObject' | 'objectNames' | 'objectVertexOffsets' | 'restPositions'>, v: number): string {
  const o = model.vertexObject[v], x = model.restPositions;
  return `object ${o} (${model.objectNames[o]}) vertex ${v - model.objectVertexOffsets[o]} at (${formatNumber(x[3 * v])}, ${formatNumber(x[3 * v + 1])}, ${formatNumber(x[3 * v + 2])})`;
}
