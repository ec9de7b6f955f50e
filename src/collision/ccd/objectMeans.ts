/**
 * Per-object figures of a CCD topology's vertices (broadPhase.ts, obstacleGrowth.ts,
 * meanPathBoxes.ts): how many objects, and each object's mean of a per-vertex quantity.
 */
import type { CcdTopology } from './broadPhase';

/** Number of objects of a topology (largest object id + 1). */
export function objectCount(topo: CcdTopology): number {
  let objects = 0;
  const obj = topo.vertexObject;
  for (let v = 0; v < obj.length; v++) if (obj[v] + 1 > objects) objects = obj[v] + 1;
  return objects;
}

/** Per object, the mean of a vec4-per-vertex array's xyz over its vertices (3 per object). */
export function objectMeans(topo: CcdTopology, values: Float32Array): Float64Array {
  const n = topo.vertexCount;
  const obj = topo.vertexObject;
  const objects = objectCount(topo);
  const mean = new Float64Array(3 * objects);
  const count = new Float64Array(objects);
  for (let v = 0; v < n; v++) {
    const o = obj[v];
    for (let k = 0; k < 3; k++) mean[3 * o + k] += values[4 * v + k];
    count[o]++;
  }
  for (let o = 0; o < objects; o++) for (let k = 0; k < 3; k++) mean[3 * o + k] /= count[o];
  return mean;
}

