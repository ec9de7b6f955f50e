/**
 * The CCD worker's state and methods, independent of how messages arrive (browser Worker:
 * ccdWorker.ts; Node worker_threads: ccdWorkerNode.ts). The results come from the same functions
 * the main thread would call (sweptVertexBoxes, ccdCandidates, vertexFaceCcd, edgeEdgeCcd), so they
 * are identical to an in-thread call.
 */
import * as Comlink from 'comlink';
import { edgeEdgeCcd, vertexFaceCcd } from '../collision/ccd';
import { rebuildSurfaceBvhFromVec4, surfaceBvhTransferables } from '../bvh/rebuildJob';
import { checkCcdTopology, type CcdTopology } from '../collision/ccd/broadPhase';
import { culledSweptCandidates } from '../collision/selfCulling/broadPhaseCulling';
import { candidateClosingSpeed } from '../collision/ccd/impactSubsteps';
import type { CcdWorkerApi } from './ccdWorkerApi';
import { airOptimizeTransferables, optimizeAirMesh } from '../collision/air/optimizeAirMesh';
import { buildAir } from '../collision/air/buildAir';

/** Floats per narrow-phase query: 4 points at t0, then at t1. */
export const CCD_QUERY_FLOATS = 24;

export function createCcdWorkerHandler(): CcdWorkerApi {
  let topology: CcdTopology | undefined;
  let heldKey = 0;
  return {
    init(topo, key = 0) {
      checkCcdTopology(topo, 'ccdWorker: init');
      topology = topo;
      heldKey = key;
    },
    broadPhase(positions, velocities, bound, selfCollision, key = 0, culling, part) {
      const t0 = performance.now();
      if (!topology) throw new Error('ccdWorker: broadPhase before init(topology): this worker holds no topology');
      if (key !== heldKey) throw new Error(`ccdWorker: broadPhase posed on topology ${key}, this worker holds topology ${heldKey}`);
      const n = topology.vertexCount;
      if (!(positions instanceof Float32Array) || positions.length !== 4 * n) {
        throw new RangeError(`ccdWorker: broadPhase: positions must be a Float32Array of ${4 * n} floats (vec4 per vertex for ${n} vertices), got length ${positions?.length}`);
      }
      if (!(velocities instanceof Float32Array) || velocities.length !== 4 * n) {
        throw new RangeError(`ccdWorker: broadPhase: velocities must be a Float32Array of ${4 * n} floats (vec4 per vertex for ${n} vertices), got length ${velocities?.length}`);
      }
      const c = culledSweptCandidates(topology, positions, velocities, bound, selfCollision, culling, part);
      const closingSpeed = candidateClosingSpeed(topology, c.vertexFace, positions, velocities, 4, bound.horizon);
      const answer = { vertexFace: c.vertexFace, edgeEdge: c.edgeEdge, jobMs: performance.now() - t0, closingSpeed, interPairs: c.interPairs, interMs: c.interMs, interSetupMs: c.interSetupMs, ...(c.selfCulling ? { selfCulling: c.selfCulling } : {}),
        ...(c.keptPairs ? { keptPairs: c.keptPairs } : {}), ...(c.selfFrames ? { selfFrames: c.selfFrames } : {}),
      };
      return Comlink.transfer(answer, [c.vertexFace.buffer, c.edgeEdge.buffer]);
    },
    rebuildBvh(positions, key = 0) {
      if (!topology) throw new Error('ccdWorker: rebuildBvh before init(topology): this worker holds no topology');
      if (key !== heldKey) throw new Error(`ccdWorker: rebuildBvh posed on topology ${key}, this worker holds topology ${heldKey}`);
      const bvh = rebuildSurfaceBvhFromVec4(positions, topology.triangles);
      return Comlink.transfer(bvh, surfaceBvhTransferables(bvh));
    },
    optimizeAir(job) {
      const r = optimizeAirMesh(job);
      return Comlink.transfer(r, airOptimizeTransferables(r));
    },
    buildAir(model, container) {
      const r = buildAir(model, container);
      return Comlink.transfer(r, [r.mesh.points.buffer as ArrayBuffer, r.mesh.pointInvMass.buffer as ArrayBuffer, r.mesh.tets.buffer as ArrayBuffer]);
    },
    narrowPhase(kind, queries) {
      if (kind !== 'vertexFace' && kind !== 'edgeEdge') throw new RangeError(`ccdWorker: narrowPhase: kind must be 'vertexFace' or 'edgeEdge', got ${String(kind)}`);
      if (!(queries instanceof Float64Array) || queries.length % CCD_QUERY_FLOATS !== 0) {
        throw new RangeError(`ccdWorker: narrowPhase: queries must be a Float64Array of 24 floats per query, got length ${queries?.length}`);
      }
      const ccd = kind === 'vertexFace' ? vertexFaceCcd : edgeEdgeCcd;
      const n = queries.length / CCD_QUERY_FLOATS;
      const toi = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        let r;
        try {
          r = ccd(queries.subarray(CCD_QUERY_FLOATS * i, CCD_QUERY_FLOATS * (i + 1)));
        } catch (error) {
          throw new RangeError(`ccdWorker: narrowPhase query ${i}: ${(error as Error).message}`);
        }
        toi[i] = r.hit ? r.toi : -1;
      }
      return Comlink.transfer(toi, [toi.buffer]);
    },
  };
}
