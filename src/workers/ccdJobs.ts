/**
 * The main-thread side of the CCD workers: the once-per-frame broad phase of the hybrid CCD + DCD
 * time step (paper 000 supplement Alg. 5) run in a worker of the comlink pool, and batches of exact
 * narrow-phase queries split across all of the pool's workers.
 *
 *   const jobs = await CcdJobs.create(pool, ccdTopologyOf(sceneMesh));
 *   jobs.positions.set(x); jobs.velocities.set(v);            // optional: write in place
 *   const c = await jobs.broadPhase(jobs.positions, jobs.velocities, bound, true);
 *   const toi = await jobs.narrowPhase('vertexFace', queries); // -1 = no hit
 *
 * What crosses threads: each worker gets a copy of the topology once (structured clone; again
 * after the pool replaced a dead worker, after its init failed, or after another CcdJobs on the
 * same pool sent its own: a worker holds one topology). Per broad phase, the
 * positions and velocities (vec4 f32 per vertex) go either as views of SharedArrayBuffers owned by
 * this object (transport 'shared': no copy when the caller writes into `positions` / `velocities`
 * directly; one copy into them otherwise), or as transferred copies (transport 'transfer', where
 * SharedArrayBuffer is unavailable: a page that is not cross-origin isolated). Candidates and tois
 * come back transferred. A job that throws in the worker rejects with the worker's message.
 */
import type { OwnPairReuse } from '../collision/ccd/ownPairCache';
import type { SelfPairFrameReport } from '../collision/ccd/selfPairFrames';
import * as Comlink from 'comlink';
import { objectCount } from '../collision/ccd/objectMeans';
import { checkCcdTopology, type CandidatePart, type CcdCandidates, type CcdTopology, type MotionBound } from '../collision/ccd/broadPhase';
import type { SelfCullingReport, SelfCullingRequest } from '../collision/selfCulling/broadPhaseCulling';
import type { SurfaceBvh } from '../bvh/surfaceBvh';
import type { CcdQueryKind, CcdWorkerApi } from './ccdWorkerApi';
import type { WorkerPool } from './workerPool';

export type CcdTransport = 'shared' | 'transfer';

export interface CcdJobsOptions {
  /** Forces a transport (tests); default: 'shared' where SharedArrayBuffer can be shared, else 'transfer'. */
  transport?: CcdTransport;
  /** Fewest narrow-phase queries per task (default 64): a query costs microseconds, a round trip tens of them. */
  minChunk?: number;
  /**
   * Split a broad phase with self-collision across the pool's workers (default true): one part per
   * worker, each the pairs within a range of objects of about equal surface, the lightest also the
   * pairs between objects; with fewer objects than workers, slices of each object's pairs
   * (splitParts). False: one job in one worker.
   */
  split?: boolean;
  /**
   * A fixed number of slices of the pairs between objects in every split job (1 to the pool's
   * size; with self-collision on the first parts of splitParts), instead of the choice from the
   * last job's times (chooseInterSlices). For tests and benchmarks.
   */
  interSlices?: number;
}

type BroadPhaseAnswer = CcdCandidates & {
  jobMs: number; selfCulling?: SelfCullingReport; closingSpeed?: number; keptPairs?: OwnPairReuse; selfFrames?: SelfPairFrameReport;
  interPairs?: number; interSlices?: number; interMs?: number; interSetupMs?: number;
};

/**
 * The parts of a split broad phase (broadPhase.ts CandidatePart): at most `workers` contiguous
 * ranges of objects of about equal boundary size (triangles + edges). With fewer objects than
 * workers, every worker gets a part: each object's pairs are cut into slices
 * (CandidatePart.slice), the larger objects into more, so that a single body's landing (whose job
 * is all pairs within it) spreads over the pool too. One part when there is one worker.
 *
 * The pairs between objects go whole to the part of least surface, unless `plan` (from the last
 * job's times, chooseInterSlices) cuts them into slices (CandidatePart.interSlice) over the parts
 * it lists. On the H100 host's 15 workers the landed 4-octopus box's job took 2 s with 10 M of its
 * 13 M pairs between the octopi in one worker (docs/benchmarks.md "Pairs between objects across
 * the pool").
 */
export function splitParts(topology: CcdTopology, workers: number, plan?: InterSlicePlan): CandidatePart[] {
  const objects = objectCount(topology);
  const weight = new Float64Array(objects);
  const obj = topology.vertexObject;
  for (let t = 0; t < topology.triangles.length; t += 3) weight[obj[topology.triangles[t]]]++;
  for (let e = 0; e < topology.edges.length; e += 2) weight[obj[topology.edges[e]]]++;
  const base = objects >= 1 && Math.floor(workers) > objects ? slicedParts(weight, Math.floor(workers)) : rangeParts(weight, workers);
  if (plan && plan.parts.some((i) => !(Number.isInteger(i) && i >= 0 && i < base.length))) {
    throw new RangeError(`splitParts: plan.parts must be part indices in [0, ${base.length}), got ${JSON.stringify(plan.parts)}`);
  }
  // Without a plan: whole, on the part of least surface (8 octopi over 7 workers: with the pairs
  // between objects on the two-octopus part they made it 25 ms, the others 11).
  const order = plan?.parts ?? [base.map((_, i) => i).sort((a, b) => base[a].load - base[b].load || a - b)[0]];
  const slot = new Int32Array(base.length).fill(-1);
  order.forEach((i, k) => (slot[i] = k));
  return base.map(({ part }, i) => {
    if (slot[i] < 0) return part;
    return order.length > 1 ? { ...part, inter: true, interSlice: [slot[i], order.length] as [number, number] } : { ...part, inter: true };
  });
}

/** Which parts of a split take a slice each of the pairs between objects (indices into splitParts' parts, slice k to parts[k]). */
export interface InterSlicePlan {
  parts: number[];
}

/** What a job's parts took, for the next job's plan: per part its time without the pairs between objects, and theirs (ms). */
export interface JobPartTimes {
  /** Per part of the split (splitParts' order): its time less its pairs between objects. */
  selfMs: number[];
  /** The joins of the pairs between objects, over all their slices. */
  interJoinMs: number;
  /** What every slice of them repeats: the world boxes, the elements near another object, the grid (the most any slice took). */
  interSetupMs: number;
}

/**
 * A slicing has to save at least this much on the longest part (ms) to be taken over one part:
 * about a worker's round trip, and more than this machine's job-to-job noise on small jobs.
 */
export const MIN_SLICING_GAIN_MS = 2;

/**
 * The parts that should share the next job's pairs between objects, from the last job's times: the
 * s parts with the least time of their own take one slice each, s chosen to make the longest
 * predicted part shortest, a part predicted at its own time plus the setup every slice repeats
 * plus 1/s of the joins. Taken over one part only when it saves MIN_SLICING_GAIN_MS. A landed pile
 * slices (its pairs between bodies are most of the job); a falling one, or a pool whose parts of
 * their own are the longest, keeps them whole (the 4-octopus box at frame 32 on 4 workers: slicing
 * by the pairs' share made the longest part 1.5x longer).
 */
export function chooseInterSlices(times: JobPartTimes): InterSlicePlan {
  const { selfMs, interJoinMs, interSetupMs } = times;
  const n = selfMs.length;
  if (n === 0 || !selfMs.every((t) => Number.isFinite(t) && t >= 0) || !(interJoinMs >= 0) || !(interSetupMs >= 0)) {
    throw new RangeError(`chooseInterSlices: times must be finite and >= 0, got ${JSON.stringify(times)}`);
  }
  const order = selfMs.map((_, i) => i).sort((a, b) => selfMs[a] - selfMs[b] || a - b);
  // Longest part of their own among the parts not slicing: suffix maxima over `order`.
  const restMax = new Float64Array(n + 1);
  for (let k = n - 1; k >= 0; k--) restMax[k] = Math.max(restMax[k + 1], selfMs[order[k]]);
  const predict = (slices: number): number => {
    let longest = restMax[slices];
    for (let k = 0; k < slices; k++) longest = Math.max(longest, selfMs[order[k]] + interSetupMs + interJoinMs / slices);
    return longest;
  };
  let best = 1, bestMs = predict(1);
  const whole = bestMs;
  for (let slices = 2; slices <= n; slices++) {
    const ms = predict(slices);
    if (ms < bestMs) {
      best = slices;
      bestMs = ms;
    }
  }
  if (whole - bestMs < MIN_SLICING_GAIN_MS) best = 1;
  return { parts: order.slice(0, best) };
}

/**
 * The inter-object pairs of a job whose pairs within objects are off: `slices` parts, each a slice
 * of the pairs between objects (one whole part when 1).
 */
export function interOnlyParts(objects: number, slices: number): CandidatePart[] {
  if (slices <= 1) return [{ inter: true, objects: [0, objects] }];
  return Array.from({ length: slices }, (_, k) => ({ inter: true, objects: [0, 0] as [number, number], interSlice: [k, slices] as [number, number] }));
}

/** A part of a split without the pairs between objects, and its load (boundary elements whose pairs it joins). */
interface BasePart {
  part: CandidatePart;
  load: number;
}

/** Contiguous object ranges of about equal surface, one per worker (at most one per object). */
function rangeParts(weight: Float64Array, workers: number): BasePart[] {
  const objects = weight.length;
  let total = 0;
  for (let o = 0; o < objects; o++) total += weight[o];
  const count = Math.max(1, Math.min(Math.floor(workers), objects));
  const parts: BasePart[] = [];
  let lo = 0, sum = 0, load = 0;
  for (let o = 0; o < objects; o++) {
    sum += weight[o];
    load += weight[o];
    // Close a part once it holds its share of the surface, or when the objects left are just enough
    // for one per part still to come.
    const due = (total * (parts.length + 1)) / count;
    const partsToCome = count - 1 - parts.length, objectsLeft = objects - (o + 1);
    if (partsToCome > 0 && (objectsLeft === partsToCome || (sum >= due && objectsLeft >= partsToCome))) {
      parts.push({ part: { inter: false, objects: [lo, o + 1] }, load });
      lo = o + 1;
      load = 0;
    }
  }
  parts.push({ part: { inter: false, objects: [lo, objects] }, load });
  return parts;
}

/**
 * `workers` parts for fewer objects: each object one slice, then each further slice to the object
 * whose slices are largest (weight / slices).
 */
function slicedParts(weight: Float64Array, workers: number): BasePart[] {
  const objects = weight.length;
  const slices = new Uint32Array(objects).fill(1);
  for (let given = objects; given < workers; given++) {
    let largest = 0;
    for (let o = 1; o < objects; o++) if (weight[o] / slices[o] > weight[largest] / slices[largest]) largest = o;
    slices[largest]++;
  }
  const parts: BasePart[] = [];
  for (let o = 0; o < objects; o++) {
    for (let k = 0; k < slices[o]; k++) {
      parts.push({ part: { inter: false, objects: [o, o + 1], ...(slices[o] > 1 ? { slice: [k, slices[o]] as [number, number] } : {}) }, load: weight[o] / slices[o] });
    }
  }
  return parts;
}

/**
 * A job's part times (JobPartTimes) from its answers, for `parts` parts: a job run whole (without
 * self-collision: its pairs between objects alone) counts as that many parts of no time of their own.
 */
function partTimes(answers: BroadPhaseAnswer[], parts: number): JobPartTimes {
  const selfMs = answers.length === parts ? answers.map((a) => Math.max(0, a.jobMs - (a.interMs ?? 0))) : new Array<number>(parts).fill(0);
  let interJoinMs = 0, interSetupMs = 0;
  for (const a of answers) {
    interJoinMs += Math.max(0, (a.interMs ?? 0) - (a.interSetupMs ?? 0));
    interSetupMs = Math.max(interSetupMs, a.interSetupMs ?? 0);
  }
  return { selfMs, interJoinMs, interSetupMs };
}

/** The answers of a split's parts as one: candidates in part order, the longest part's time, culling reports summed. */
function mergeAnswers(answers: BroadPhaseAnswer[]): BroadPhaseAnswer {
  const join = (pick: (a: BroadPhaseAnswer) => Uint32Array): Uint32Array => {
    const out = new Uint32Array(answers.reduce((n, a) => n + pick(a).length, 0));
    let at = 0;
    for (const a of answers) {
      out.set(pick(a), at);
      at += pick(a).length;
    }
    return out;
  };
  const merged: BroadPhaseAnswer = { vertexFace: join((a) => a.vertexFace), edgeEdge: join((a) => a.edgeEdge), jobMs: Math.max(...answers.map((a) => a.jobMs)) };
  if (answers.some((a) => a.interPairs !== undefined)) merged.interPairs = answers.reduce((n, a) => n + (a.interPairs ?? 0), 0);
  const speeds = answers.map((a) => a.closingSpeed).filter((s): s is number => s !== undefined);
  if (speeds.length > 0) merged.closingSpeed = Math.max(...speeds);
  const kept = answers.map((a) => a.keptPairs).filter((k): k is OwnPairReuse => k !== undefined);
  if (kept.length > 0) merged.keptPairs = { reused: kept.reduce((n, k) => n + k.reused, 0), rebuilt: kept.reduce((n, k) => n + k.rebuilt, 0), tested: kept.reduce((n, k) => n + k.tested, 0), boxTests: kept.reduce((n, k) => n + k.boxTests, 0), culled: kept.reduce((n, k) => n + k.culled, 0), replayed: kept.reduce((n, k) => n + k.replayed, 0) };
  const frames = answers.map((a) => a.selfFrames).filter((f): f is SelfPairFrameReport => f !== undefined);
  if (frames.length > 0) merged.selfFrames = { worldJoined: frames.reduce((n, f) => n + f.worldJoined, 0) };
  const reports = answers.map((a) => a.selfCulling).filter((r): r is SelfCullingReport => r !== undefined);
  if (reports.length > 0) {
    const sum = (f: (r: SelfCullingReport) => number): number => reports.reduce((n, r) => n + f(r), 0);
    merged.selfCulling = {
      mode: reports[0].mode, bounded: reports[0].bounded,
      pairsBefore: sum((r) => r.pairsBefore), pairsAfter: sum((r) => r.pairsAfter),
      conesMs: sum((r) => r.conesMs), traversalMs: sum((r) => r.traversalMs), filterMs: sum((r) => r.filterMs),
      culledNodes: sum((r) => r.culledNodes), culledTriangles: sum((r) => r.culledTriangles), rebuiltTrees: sum((r) => r.rebuiltTrees),
    };
  }
  return merged;
}

/** Workers for CCD: all cores but one (the main thread's), at least 1. CCD work splits evenly. */
export function ccdPoolSize(cores: number): number {
  if (!(Number.isFinite(cores) && cores >= 1)) return 1;
  return Math.max(1, Math.floor(cores) - 1);
}

/**
 * Whether a SharedArrayBuffer can be posted to a worker here: in Node always (worker_threads), in a
 * browser only when the page is cross-origin isolated (COOP/COEP headers).
 */
export function sharedMemoryAvailable(): boolean {
  if (typeof SharedArrayBuffer === 'undefined') return false;
  const g = globalThis as { crossOriginIsolated?: boolean; process?: { versions?: { node?: string } } };
  if (g.process?.versions?.node !== undefined) return true;
  return g.crossOriginIsolated === true;
}

/**
 * Which topology each worker holds, by the pool's remote for it (a replaced worker gets a new
 * remote): shared by every CcdJobs, so that two of them on one pool resend their own when the
 * other replaced it.
 */
const heldTopology = new WeakMap<object, number>();
let nextKey = 1;

export class CcdJobs {
  readonly transport: CcdTransport;
  readonly minChunk: number;
  readonly vertexCount: number;
  /**
   * vec4 per vertex. With transport 'shared': views of the SharedArrayBuffers the worker reads;
   * write into them and pass them to broadPhase to avoid a copy; do not write while a broad phase
   * is running. With 'transfer': plain arrays, for the same calling code.
   */
  readonly positions: Float32Array;
  readonly velocities: Float32Array;
  /** Names this object's topology in the workers. */
  private readonly key = nextKey++;
  private busy = false;
  /** The parts a broad phase with self-collision is split into (one: not split). */
  readonly parts: CandidatePart[];
  /** Whether jobs are split across the pool (CcdJobsOptions.split). */
  private readonly split: boolean;
  /** The last split job's part times (for self-collision on or off: the two split differently), for the next job's plan. */
  private lastTimes: { selfCollision: boolean; times: JobPartTimes } | undefined;
  private readonly fixedInterSlices: number | undefined;

  private constructor(
    private readonly pool: WorkerPool<CcdWorkerApi>,
    private readonly topology: CcdTopology,
    options: CcdJobsOptions,
  ) {
    const transport = options.transport ?? (sharedMemoryAvailable() ? 'shared' : 'transfer');
    if (transport !== 'shared' && transport !== 'transfer') throw new RangeError(`CcdJobs: transport must be 'shared' or 'transfer', got ${String(transport)}`);
    if (transport === 'shared' && !sharedMemoryAvailable()) {
      throw new Error("CcdJobs: transport 'shared' asked for, but SharedArrayBuffer cannot be posted here (a browser page must be cross-origin isolated)");
    }
    const minChunk = options.minChunk ?? 64;
    if (!(Number.isInteger(minChunk) && minChunk >= 1)) throw new RangeError(`CcdJobs: minChunk must be a positive integer, got ${minChunk}`);
    this.transport = transport;
    this.minChunk = minChunk;
    this.vertexCount = topology.vertexCount;
    this.split = options.split !== false;
    const fixed = options.interSlices;
    if (fixed !== undefined && !(Number.isInteger(fixed) && fixed >= 1 && fixed <= pool.size)) {
      throw new RangeError(`CcdJobs: interSlices must be an integer in [1, ${pool.size}] (the pool's workers), got ${fixed}`);
    }
    this.fixedInterSlices = fixed;
    this.parts = this.split ? splitParts(topology, pool.size) : [{ inter: true, objects: [0, objectCount(topology)] }];
    const bytes = 16 * topology.vertexCount;
    const buffer = (): ArrayBuffer | SharedArrayBuffer => (transport === 'shared' ? new SharedArrayBuffer(bytes) : new ArrayBuffer(bytes));
    this.positions = new Float32Array(buffer());
    this.velocities = new Float32Array(buffer());
  }

  /** Checks the topology, then sends it to every worker of the pool (starting them), so the first frame does not wait for it. */
  static async create(pool: WorkerPool<CcdWorkerApi>, topology: CcdTopology, options: CcdJobsOptions = {}): Promise<CcdJobs> {
    checkCcdTopology(topology, 'CcdJobs.create');
    const jobs = new CcdJobs(pool, topology, options);
    // Concurrent tasks go to idle or new workers first, so pool.size of them reach every worker.
    await Promise.all(Array.from({ length: pool.size }, () => pool.run((api) => jobs.ensureInit(api))));
    return jobs;
  }

  /** Sends the topology to this worker unless it already holds it (not awaited before the next message: order is kept). */
  private ensureInit(api: Comlink.Remote<CcdWorkerApi>): Promise<void> {
    if (heldTopology.get(api) === this.key) return Promise.resolve();
    heldTopology.set(api, this.key);
    return api.init(this.topology, this.key).catch((error: unknown) => {
      // Unknown now what the worker holds: resend next time.
      if (heldTopology.get(api) === this.key) heldTopology.delete(api);
      throw error;
    });
  }

  /**
   * Swept boxes and candidate pairs (broadPhase.ts) for positions / velocities (vec4 f32 per vertex),
   * in one worker, or with self-collision split across the pool's workers (`parts`; the candidates
   * then come part by part, jobMs is the longest part's). One broad phase at a time per CcdJobs
   * (they share the position buffers).
   * `culling`: self-collision culling of the same-object pairs (its deviation array is
   * transferred: do not use it afterwards).
   */
  async broadPhase(
    positions: Float32Array, velocities: Float32Array, bound: MotionBound, selfCollision: boolean, culling?: SelfCullingRequest,
  ): Promise<BroadPhaseAnswer> {
    const n = 4 * this.vertexCount;
    if (positions.length !== n) throw new RangeError(`CcdJobs.broadPhase: positions has length ${positions.length}, expected ${n} (vec4 per vertex for ${this.vertexCount} vertices)`);
    if (velocities.length !== n) throw new RangeError(`CcdJobs.broadPhase: velocities has length ${velocities.length}, expected ${n} (vec4 per vertex for ${this.vertexCount} vertices)`);
    if (this.busy) throw new Error('CcdJobs.broadPhase: the previous broad phase is still running (one at a time: they share the position buffers)');
    this.busy = true;
    try {
      let x: Float32Array, v: Float32Array;
      if (this.transport === 'shared') {
        if (positions !== this.positions) this.positions.set(positions);
        if (velocities !== this.velocities) this.velocities.set(velocities);
        x = this.positions;
        v = this.velocities;
      } else {
        x = positions.slice();
        v = velocities.slice();
      }
      const bound_ = { horizon: bound.horizon, gravity: [bound.gravity[0], bound.gravity[1], bound.gravity[2]] as [number, number, number], margin: bound.margin,
        ...(bound.ownMargin !== undefined ? { ownMargin: bound.ownMargin } : {}), ...(bound.ownMargins !== undefined ? { ownMargins: Float64Array.from(bound.ownMargins) } : {}),
        ...(bound.ownGrowth !== undefined ? { ownGrowth: Float32Array.from(bound.ownGrowth) } : {}),
        ...(bound.vertexMargins !== undefined ? { vertexMargins: Float32Array.from(bound.vertexMargins) } : {}),
        ...(bound.selfPairSkin !== undefined ? { selfPairSkin: bound.selfPairSkin } : {}), ...(bound.selfPairFrame !== undefined ? { selfPairFrame: bound.selfPairFrame } : {}),
        ...(bound.worldBoxes !== undefined ? { worldBoxes: bound.worldBoxes } : {}),
      };
      const jobParts = this.jobParts(selfCollision);
      const split = jobParts.length > 1;
      const parts: (CandidatePart | undefined)[] = split ? jobParts : [undefined];
      // Every part but the last gets copies of what is moved to a worker (transfer detaches it).
      const answers = await Promise.all(parts.map((part, i) => {
        const last = i === parts.length - 1;
        const px = this.transport === 'transfer' && !last ? x.slice() : x;
        const pv = this.transport === 'transfer' && !last ? v.slice() : v;
        const copy = (a: Float32Array | null | undefined): Float32Array | null => (a ? (last ? a : a.slice()) : null);
        const partCulling = culling ? { mode: culling.mode, deviation: copy(culling.deviation), edgeDeviation: copy(culling.edgeDeviation) } : undefined;
        // Part i to worker i when it is idle: the part's objects' kept pairs (ownPairCache.ts) are there.
        return this.runPart(px, pv, bound_, selfCollision, partCulling, part, i);
      }));
      const answer = split ? mergeAnswers(answers) : answers[0];
      answer.interSlices = split ? jobParts.filter((p) => p.inter).length : 1;
      if (this.split && this.pool.size > 1) this.lastTimes = { selfCollision, times: partTimes(answers, split ? jobParts.length : this.pool.size) };
      return answer;
    } finally {
      this.busy = false;
    }
  }

  /**
   * This job's parts: with self-collision splitParts, the pairs between objects sliced as the last
   * job's times say (chooseInterSlices); without, slices of the pairs between objects only, as many
   * as those times say; one part when not split.
   */
  jobParts(selfCollision: boolean): CandidatePart[] {
    const objects = objectCount(this.topology);
    if (!this.split || this.pool.size <= 1) return [{ inter: true, objects: [0, objects] }];
    const last = this.lastTimes?.selfCollision === selfCollision ? this.lastTimes.times : undefined;
    const fixed = this.fixedInterSlices;
    if (!selfCollision) return interOnlyParts(objects, fixed ?? (last ? chooseInterSlices(last).parts.length : 1));
    const parts = this.parts.length;
    if (fixed !== undefined) return splitParts(this.topology, this.pool.size, fixed > 1 ? { parts: Array.from({ length: Math.min(fixed, parts) }, (_, k) => k) } : undefined);
    return splitParts(this.topology, this.pool.size, last && last.selfMs.length === parts ? chooseInterSlices(last) : undefined);
  }

  /** One broad-phase job (or part of one) in a worker; x, v and the culling's arrays are transferred when the transport says so. */
  private runPart(
    x: Float32Array, v: Float32Array, bound: MotionBound, selfCollision: boolean, culling: SelfCullingRequest | undefined, part: CandidatePart | undefined,
    worker?: number,
  ): Promise<BroadPhaseAnswer> {
    const transfer = this.transport === 'transfer' ? [x.buffer as ArrayBuffer, v.buffer as ArrayBuffer] : [];
    return this.pool.run(async (api) => {
      // One Promise.all over both, so that a failed init never leaves the job's rejection unhandled.
      const deviation = culling?.deviation ?? null, edgeDeviation = culling?.edgeDeviation ?? null;
      const moved = [deviation, edgeDeviation].filter((a): a is Float32Array => a !== null).map((a) => a.buffer as ArrayBuffer);
      const culling_ = culling ? Comlink.transfer({ mode: culling.mode, deviation, edgeDeviation }, moved) : undefined;
      const [, answer] = await Promise.all([this.ensureInit(api), api.broadPhase(Comlink.transfer(x, transfer), v, bound, selfCollision, this.key, culling_, part)]);
      return answer;
    }, worker);
  }

  /**
   * Exact CCD of each query (24 f64 per query: 4 points at t0, then at t1), split into contiguous
   * chunks over all workers and concatenated: toi in [0, 1], or -1 when no hit.
   */
  async narrowPhase(kind: CcdQueryKind, queries: Float64Array): Promise<Float64Array> {
    if (queries.length % 24 !== 0) throw new RangeError(`CcdJobs.narrowPhase: queries has length ${queries.length}, not 24 per query`);
    const n = queries.length / 24;
    const out = new Float64Array(n);
    if (n === 0) return out;
    const chunks = Math.max(1, Math.min(this.pool.size, Math.floor(n / this.minChunk)));
    const tasks: Promise<void>[] = [];
    for (let c = 0; c < chunks; c++) {
      const begin = Math.floor((c * n) / chunks);
      const end = Math.floor(((c + 1) * n) / chunks);
      const part = queries.slice(24 * begin, 24 * end); // a fresh copy: its buffer is transferred
      tasks.push(
        this.pool.run((api) => api.narrowPhase(kind, Comlink.transfer(part, [part.buffer]))).then(
          (toi) => out.set(toi, begin),
          (error: Error) => {
            // Name the caller's query, not the chunk's (the worker counts from the chunk's start).
            const m = /narrowPhase query (\d+): (.*)$/s.exec(error.message);
            throw m ? new RangeError(`ccdWorker: narrowPhase query ${begin + Number(m[1])}: ${m[2]}`) : error;
          },
        ),
      );
    }
    await Promise.all(tasks);
    return out;
  }

  /** A fresh surface BVH at `positions` (vec4 per vertex) in one worker (a copy is transferred). */
  async rebuildBvh(positions: Float32Array): Promise<SurfaceBvh> {
    const n = 4 * this.vertexCount;
    if (positions.length !== n) throw new RangeError(`CcdJobs.rebuildBvh: positions has length ${positions.length}, expected ${n} (vec4 per vertex for ${this.vertexCount} vertices)`);
    const x = new Float32Array(positions);
    return this.pool.run(async (api) => {
      const [, bvh] = await Promise.all([this.ensureInit(api), api.rebuildBvh(Comlink.transfer(x, [x.buffer]), this.key)]);
      return bvh;
    });
  }
}
