/**
 * The collision part of the GPU time step (paper 000 section 4, supplement Alg. 5 without CCD):
 * three stages that GpuSolver puts between material and finalize, over the one GpuState,
 *
 *   detect    spatial hash of tet boxes, vertex / edge (recovery: every vertex, tet centroids)
 *             -> Query list on the GPU, indirect args               (collision/gpu/detectStage.ts)
 *   spb       BVH refit + shortest path to boundary for every query, dispatched indirectly
 *                                                                  (spb/gpu/spbStage.ts)
 *   contacts  eq. 6 contacts with Coulomb friction, Jacobi passes   (collision/gpu/contactStage.ts)
 *
 * and what the host does once per frame with the frame's small readback (GpuSolver copies the
 * query list's header and the shortest path's statistics next to the NaN flags):
 * the frame's CollisionFrameCounters; capacities grown for the next frame when hits were dropped;
 * queries whose shortest path overflowed the GPU's static stacks answered by the CPU dynamic
 * version (in a worker when the caller passes one) and applied as contacts in the next frame's
 * first substep. That last one is the only extra readback (positions and the overflow list),
 * and only in frames where some query overflowed; both are counted.
 */
import { readBufferToCpu } from '../gpu/buffers';
import { CollisionTopologyGpu } from '../collision/gpu/collisionTopology';
import { ContactStage } from '../collision/gpu/contactStage';
import { DetectStage } from '../collision/gpu/detectStage';
import { countersFromHeader } from '../collision/gpu/frameCounters';
import { OVERFLOW_ENTRY_WORDS, OVERFLOW_HEADER_WORDS, QL, QL_HEADER_BYTES, QUERY_ID_MASK, QUERY_KIND_CENTROID, QUERY_KIND_EDGE, QUERY_KIND_SHIFT, QUERY_WORDS, QueryList, RESULT_WORDS, QUERY_EUCLIDEAN } from '../collision/gpu/queryList';
import { buildSceneMesh } from '../collision/sceneMesh';
import { emptyCollisionCounters, type CollisionFrameCounters } from '../collision/counters';
import type { TetMesh } from '../mesh/types';
import { createSpbMeshData, updateSpbMeshData, type SpbMeshData } from '../spb/meshData';
import { QUERY_FOUND } from '../spb/query';
import { inProcessFallback, type AnswerOverflowed } from '../spb/gpu/overflowFallback';
import { SpbStage } from '../spb/gpu/spbStage';
import type { Model } from './model';
import type { SolverParams } from './params';
import type { GpuStage } from './stage';
import type { GpuState } from './state';

export interface GpuCollisionOptions {
  /** Answers overflowed shortest-path queries (default: the CPU dynamic version on this thread; workers/spbFallback.ts in a pool). */
  answerOverflowed?: AnswerOverflowed;
  /** First capacity of the query and contact arrays (default: an eighth of the boundary vertices and edges, at least 1,024; it grows after a frame that dropped hits). */
  initialCapacity?: number;
}

/** Words of the shortest path's statistics copied per frame (src/spb/workspace.ts STAT_NAMES fit in it). */
const SPB_STATS_WORDS = 16;
/** Versions of the CPU copy of positions the fallback reads: never repeated (a worker compares them). */
let lastPositionsVersion = 0;

export class GpuCollisions {
  readonly mesh: TetMesh;
  readonly spbData: SpbMeshData;
  readonly topology: CollisionTopologyGpu;
  readonly queryList: QueryList;
  readonly detect: DetectStage;
  readonly spb: SpbStage;
  readonly contacts: ContactStage;
  /** Readbacks done for the fallback since the start (positions and overflow lists), and their bytes. */
  fallbackReadbacks = 0;
  fallbackReadbackBytes = 0;
  private readonly answerOverflowed: AnswerOverflowed;
  private listGeneration: number;

  constructor(
    private readonly device: GPUDevice,
    readonly model: Model,
    private readonly params: () => Readonly<SolverParams>,
    options: GpuCollisionOptions = {},
  ) {
    this.mesh = buildSceneMesh(model);
    this.spbData = createSpbMeshData(this.mesh);
    this.topology = new CollisionTopologyGpu(device, this.mesh);
    const boundaryPoints = this.mesh.boundaryVertices.length + this.mesh.boundaryEdges.length / 2;
    this.queryList = new QueryList(device, options.initialCapacity ?? Math.max(1024, Math.ceil(boundaryPoints / 8)));
    this.listGeneration = this.queryList.generation;
    this.detect = new DetectStage(device, this.topology, this.queryList, params);
    const list = this.queryList;
    this.spb = new SpbStage(device, this.spbData, list.list, list.args, list.results, { active: () => this.params().collisions });
    this.contacts = new ContactStage(device, this.topology, this.queryList, params);
    this.answerOverflowed = options.answerOverflowed ?? inProcessFallback();
  }

  /**
   * Before a frame is recorded, in recovery mode (every vertex, boundary edge and tet centroid a
   * query point, used on tangled states): a capacity of at least a quarter of those points, so
   * that switching recovery on does not drop most of a frame's hits before the capacity catches
   * up (a noodle switched into recovery dropped 19,060 of 39,540 hits in its first frame with
   * 1,024). Only grows; outside recovery mode the capacity follows the dropped hits.
   */
  prepareFrame(): void {
    const p = this.params();
    if (!p.collisions || !p.recovery) return;
    const m = this.mesh;
    const points = m.vertexCount + m.boundaryEdges.length / 2 + m.tetCount;
    if (this.queryList.grow(Math.ceil(points / 4))) {
      this.listGeneration = this.queryList.generation;
      this.spb.setBuffers(this.queryList.list, this.queryList.args, this.queryList.results);
    }
  }

  /** The stages in stepping order (they go between material and finalize). */
  get stages(): GpuStage[] {
    return [this.detect, this.spb, this.contacts];
  }

  /** Bytes this part adds to the frame's readback (header, then the shortest path's statistics). */
  get readbackBytes(): number {
    return QL_HEADER_BYTES + 4 * SPB_STATS_WORDS;
  }

  /** Records the copies of the frame's counters into `staging` at `offset` (end of the frame's command buffer). */
  encodeReadback(encoder: GPUCommandEncoder, staging: GPUBuffer, offset: number): void {
    encoder.copyBufferToBuffer(this.queryList.list, 0, staging, offset, QL_HEADER_BYTES);
    const stats = this.spb.statsLayout;
    const bytes = 4 * Math.min(SPB_STATS_WORDS, stats.names.length);
    encoder.copyBufferToBuffer(this.spb.statsBuffer, stats.byteOffset, staging, offset + QL_HEADER_BYTES, bytes);
  }

  /**
   * After the frame: its counters from the readback words (`words` starts at this part's offset),
   * the capacities grown when hits were dropped, and overflowed queries answered for the next
   * frame. `state` is read back only when some query overflowed.
   */
  async afterFrame(words: Uint32Array, state: GpuState): Promise<CollisionFrameCounters> {
    if (!this.params().collisions) return emptyCollisionCounters();
    const header = words.subarray(0, QL_HEADER_BYTES / 4);
    const counters = countersFromHeader(header, this.queryList.capacity);
    const stats = words.subarray(QL_HEADER_BYTES / 4);
    const names = this.spb.statsLayout.names;
    const stat = (name: (typeof names)[number]) => stats[names.indexOf(name)];
    counters.bvhCandidates = stat('bvhCandidates');
    counters.traversals = stat('traversals');
    counters.tetsVisited = stat('tetsVisited');
    const before = { readbacks: this.fallbackReadbacks, bytes: this.fallbackReadbackBytes };
    const overflowed = Math.min(header[QL.overflowCount], this.queryList.capacity);
    // Answer before growing: growth reallocates (and clears) the overflow list.
    if (overflowed > 0) await this.answerOverflowedQueries(overflowed, state);
    this.detect.afterFrame(header);
    if (this.queryList.generation !== this.listGeneration) {
      this.listGeneration = this.queryList.generation;
      this.spb.setBuffers(this.queryList.list, this.queryList.args, this.queryList.results);
    }
    counters.readbacks = this.fallbackReadbacks - before.readbacks;
    counters.readbackBytes = this.fallbackReadbackBytes - before.bytes;
    return counters;
  }

  /**
   * The overflow list's queries answered by the CPU dynamic version at the frame's end positions
   * (each query point re-derived from its source: the vertex, the edge at its parameter, the
   * tet's centroid), injected as contacts of the next frame's first substep.
   */
  private async answerOverflowedQueries(n: number, state: GpuState): Promise<void> {
    const entryBytes = 4 * OVERFLOW_ENTRY_WORDS * n;
    const raw = new Uint32Array(await this.read(this.queryList.overflow, 4 * OVERFLOW_HEADER_WORDS + entryBytes));
    const positions = await state.readPositions();
    this.fallbackReadbacks += 2;
    this.fallbackReadbackBytes += 4 * OVERFLOW_HEADER_WORDS + entryBytes + 16 * this.model.vertexCount;
    updateSpbMeshData(this.spbData, positions);
    const positionsVersion = ++lastPositionsVersion;
    const f32 = new Float32Array(raw.buffer);
    const i32 = new Int32Array(raw.buffer);
    const points = new Float64Array(3 * n);
    const tets = new Uint32Array(n);
    const exclude = new Int32Array(n);
    const exclude2 = new Int32Array(n);
    const euclidean = new Uint8Array(n);
    const ids = new Uint32Array(n);
    const queryWords = new Uint32Array(QUERY_WORDS * n);
    const qf = new Float32Array(queryWords.buffer);
    const x = positions;
    const edges = this.mesh.boundaryEdges;
    const tetIds = this.mesh.tets;
    for (let i = 0; i < n; i++) {
      const o = OVERFLOW_HEADER_WORDS + OVERFLOW_ENTRY_WORDS * i;
      const source = raw[o + 6];
      const kind = (source >>> QUERY_KIND_SHIFT) & 3;
      const id = source & QUERY_ID_MASK;
      const param = f32[o + 7];
      let px = 0, py = 0, pz = 0;
      if (kind === QUERY_KIND_EDGE) {
        const a = edges[2 * id], b = edges[2 * id + 1];
        px = x[3 * a] + param * (x[3 * b] - x[3 * a]);
        py = x[3 * a + 1] + param * (x[3 * b + 1] - x[3 * a + 1]);
        pz = x[3 * a + 2] + param * (x[3 * b + 2] - x[3 * a + 2]);
      } else if (kind === QUERY_KIND_CENTROID) {
        for (let k = 0; k < 4; k++) {
          const v = tetIds[4 * id + k];
          px += x[3 * v] / 4;
          py += x[3 * v + 1] / 4;
          pz += x[3 * v + 2] / 4;
        }
      } else {
        px = x[3 * id];
        py = x[3 * id + 1];
        pz = x[3 * id + 2];
      }
      points.set([px, py, pz], 3 * i);
      tets[i] = raw[o + 3];
      exclude[i] = i32[o + 4];
      exclude2[i] = i32[o + 5];
      euclidean[i] = (source & QUERY_EUCLIDEAN) !== 0 ? 1 : 0;
      ids[i] = i;
      queryWords.set(raw.subarray(o, o + QUERY_WORDS), QUERY_WORDS * i);
      qf[QUERY_WORDS * i] = px;
      qf[QUERY_WORDS * i + 1] = py;
      qf[QUERY_WORDS * i + 2] = pz;
    }
    const answers = await this.answerOverflowed({
      data: this.spbData,
      positionsVersion,
      config: this.spb.queryConfig,
      ids,
      points,
      tets,
      exclude,
      exclude2,
      euclidean,
    });
    const results = new Uint32Array(RESULT_WORDS * n);
    const rf = new Float32Array(results.buffer);
    const ri = new Int32Array(results.buffer);
    for (let i = 0; i < n; i++) {
      const o = RESULT_WORDS * i;
      const found = answers.status[i] === QUERY_FOUND;
      rf[o] = answers.point[3 * i];
      rf[o + 1] = answers.point[3 * i + 1];
      rf[o + 2] = answers.point[3 * i + 2];
      rf[o + 3] = found ? answers.distance[i] : -1;
      ri[o + 4] = found ? answers.triangle[i] : -1;
      results[o + 5] = answers.feature[i];
      results[o + 6] = answers.status[i];
    }
    this.contacts.inject(queryWords, results);
  }

  private read(buffer: GPUBuffer, bytes: number): Promise<ArrayBuffer> {
    return readBufferToCpu(this.device, buffer, bytes, 'collisions.fallbackReadback');
  }

  /** Buffers not owned by a stage (the time step destroys the stages in its list). */
  destroy(): void {
    this.queryList.destroy();
    this.topology.destroy();
  }
}
