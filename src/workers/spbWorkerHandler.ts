/**
 * The shortest-path worker's state and methods, independent of how messages arrive (browser
 * Worker: spbWorker.ts; Node worker_threads: spbWorkerNode.ts). Answers come from the same
 * function the main thread's default fallback uses (answerWithDynamicQuery), on a copy of the
 * same SpbMeshData (same BVH tree, same f64 positions), so they are bit-identical.
 */
import * as Comlink from 'comlink';
import { updateSpbMeshData, type SpbMeshData } from '../spb/meshData';
import { answerWithDynamicQuery } from '../spb/gpu/overflowFallback';
import { SPB_DYNAMIC_CAPACITIES } from '../spb/settings';
import { SpbWorkspace } from '../spb/workspace';
import type { SpbWorkerApi, SpbWorkerQueries } from './spbWorkerApi';

interface HeldMesh {
  data: SpbMeshData;
  version: number;
  ws: SpbWorkspace;
}

function randomId(): string {
  return Math.random().toString(36).slice(2, 10);
}

/** Rejects a mesh copy that cannot be what setMesh expects (a wrong message, not a wrong mesh). */
function checkMesh(meshId: number, data: SpbMeshData): void {
  const ok =
    data !== null &&
    typeof data === 'object' &&
    data.positions instanceof Float64Array &&
    data.positions.length === 3 * data.vertexCount &&
    data.tets instanceof Uint32Array &&
    data.tets.length === 4 * data.tetCount &&
    data.bvh !== undefined &&
    data.bvh.nodes instanceof Float32Array;
  if (!ok) throw new TypeError(`spbWorker: setMesh(${meshId}): not an SpbMeshData (positions f64 of 3 per vertex, tets u32 of 4 per tet, a surface BVH)`);
}

/** Checks one task's queries, naming the caller's query id in the message. */
function checkQueries(meshId: number, data: SpbMeshData, q: SpbWorkerQueries): void {
  const n = q.tets.length;
  if (q.points.length !== 3 * n || q.exclude.length !== n || q.ids.length !== n || q.exclude2.length !== n || q.euclidean.length !== n) {
    throw new RangeError(
      `spbWorker: mesh ${meshId}: ${n} tets but ${q.points.length} point coordinates, ${q.exclude.length} exclude entries, ` +
        `${q.exclude2.length} exclude2 entries, ${q.euclidean.length} euclidean flags, ${q.ids.length} ids`,
    );
  }
  for (let i = 0; i < n; i++) {
    const t = q.tets[i];
    if (t >= data.tetCount) throw new RangeError(`spbWorker: mesh ${meshId}, query ${q.ids[i]}: tet ${t} out of range [0, ${data.tetCount})`);
    const e = q.exclude[i];
    if (e < -1 || e >= data.vertexCount) throw new RangeError(`spbWorker: mesh ${meshId}, query ${q.ids[i]}: excludeVertex ${e} out of range [-1, ${data.vertexCount})`);
    const e2 = q.exclude2[i];
    if (e2 < -1 || e2 >= data.vertexCount || (e2 >= 0 && (e < 0 || e2 === e))) {
      throw new RangeError(`spbWorker: mesh ${meshId}, query ${q.ids[i]}: excludeVertex2 ${e2} must be -1 or a vertex other than excludeVertex ${e}`);
    }
    const x = q.points[3 * i], y = q.points[3 * i + 1], z = q.points[3 * i + 2];
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) throw new RangeError(`spbWorker: mesh ${meshId}, query ${q.ids[i]}: point (${x}, ${y}, ${z}) is not finite`);
  }
}

export function createSpbWorkerHandler(): SpbWorkerApi {
  const worker = randomId();
  const meshes = new Map<number, HeldMesh>();
  const held = (meshId: number): HeldMesh => {
    const m = meshes.get(meshId);
    if (!m) throw new Error(`spbWorker: mesh ${meshId} was never sent to this worker (or was dropped)`);
    return m;
  };
  return {
    setMesh(meshId, data, positionsVersion) {
      checkMesh(meshId, data);
      meshes.set(meshId, { data, version: positionsVersion, ws: new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, data.tetCount) });
    },
    setPositions(meshId, positionsVersion, positions) {
      const m = held(meshId);
      updateSpbMeshData(m.data, positions);
      m.version = positionsVersion;
    },
    answer(meshId, positionsVersion, config, queries) {
      const t0 = performance.now();
      const m = held(meshId);
      if (m.version !== positionsVersion) {
        throw new Error(`spbWorker: mesh ${meshId} holds positions version ${m.version}, the queries were posed on version ${positionsVersion}`);
      }
      checkQueries(meshId, m.data, queries);
      const a = answerWithDynamicQuery(m.data, m.ws, config, queries.points, queries.tets, queries.exclude, queries.ids, queries.exclude2, queries.euclidean);
      const answers = { ...a, worker, milliseconds: performance.now() - t0 };
      return Comlink.transfer(answers, [a.status.buffer, a.point.buffer, a.distance.buffer, a.triangle.buffer, a.feature.buffer]);
    },
    dropMesh(meshId) {
      meshes.delete(meshId);
    },
    meshes() {
      return [...meshes.keys()];
    },
  };
}
