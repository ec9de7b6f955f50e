/**
 * The pairs within one object, kept from one broad-phase job to the next (a Verlet list over the
 * own-frame boxes, broadPhase.ts sweptCandidates), so that a body which moves without deforming
 * much is not joined again every frame.
 *
 * When an object's pairs are found, its own-frame boxes are first grown by a skin s; the pairs of
 * those grown boxes are kept with the grown boxes themselves, relative to the object's mean
 * position. A later job may use them when every one of the object's boundary vertices has its box
 * (relative to the object's mean then) inside its kept grown box: then any two of the object's
 * elements whose boxes overlap now had overlapping grown boxes, so their pair is in the kept list,
 * and testing each kept pair against the boxes of now gives exactly the pairs a fresh join would
 * (the same f32 boxes, the same overlap test, the same exclusions: the kept list was made by the
 * same join). Box overlap within one object is unchanged by a common translation, which is why the
 * boxes are compared relative to the mean: a falling or flying body keeps its list however far it
 * goes. A body that deforms or turns by more than the skin is joined again, so the
 * list is never stale, only rebuilt.
 *
 * The kept lists are sorted (vertex, triangle) and (edge, edge), so the answer is in the same
 * order whichever job built the list (worker pools hand the parts of a split job to any worker).
 * An object of up to a few thousand elements is joined with its pairs already in that order
 * (sortedSelfJoin.ts, `SortedJoin`); a larger one by the broad phase's hash join, sorted here.
 * What it costs: a join over boxes grown by the skin finds more pairs (about 1.6x the join's time),
 * paid only when a list is rebuilt; the filter is one box test per kept pair, and most of those are
 * decided by the gap recorded when the list was first tested (pairGaps.ts) without reading boxes,
 * and the pairs recorded farther apart than half the skin are not read at all (LiveLists).
 * With self-collision culling the same pass drops the pairs within a culled node (culledPairs.ts).
 * A list whose answer is provably the last job's (FilterMemo: same gaps, threshold within a cap,
 * same culled nodes, its few near pairs answering as before) replays it instead: a falling body.
 * A body that outgrows its lists within a job or two (landing, squeezed) is joined without the skin, with a skinned
 * probe once it moves by less than a skin a job (SHORT_LIFE_JOBS). Figures: docs/benchmarks.md
 * "CCD's broad phase: same-object pairs kept across jobs".
 */

import type { CcdCandidates, CcdTopology } from './broadPhase';
import { culledVertexFace, edgeCulledNode, MIXED, vertexCulledNodes, type CulledNodes } from './culledPairs';
import { roundDown, roundUp } from './f32Round';
import { unionCornerBoxes } from './cornerBoxes';
import { gapThreshold, referenceBoxes, type GapReference } from './pairGaps';
import { mergePairs } from './mergePairs';
import type { JoinCulling, SortedPairs } from './sortedSelfJoin';

const EMPTY = new Uint32Array(0);
const EMPTY_GAPS = new Float64Array(0);
/** A vertex's culled nodes (culledPairs.ts vertexCulledNodes), scratch. */
const twoNodes = new Int32Array(2);
/** filterPairs' threshold that asks it to record each pair's gap (pairGaps.ts) instead of using it. */
const RECORD = -1;

/** Relative slack of the containment test, so that f64 rounding of "box minus mean" can never admit a pair the kept list lacks. */
const CONTAINMENT_SLACK = 1e-9;

interface ObjectPairs {
  /** Per boundary vertex of the object (in OwnPairCache.vertices' order), its grown box relative to the mean, shrunk by the slack: 6 each. */
  kept: Float64Array;
  vertexFace: Uint32Array;
  edgeEdge: Uint32Array;
  /** Jobs the list has served, the one that built it included. */
  jobs: number;
  /** How far its boxes were grown when it was joined (0: joined on the boxes as they were). */
  skin: number;
  /** Each pair's gap when the list was first tested, the boxes then (pairGaps.ts), and its live lists; null until then. */
  gaps: { vertexFace: Float64Array; edgeEdge: Float64Array; reference: GapReference; live: LiveLists | null } | null;
  /** The last filtered answers and what they depend on (FilterMemo); null: none. */
  memo: ObjectMemo | null;
  /**
   * A list joined on the boxes of now with that job's culled nodes (sortedSelfJoin.ts
   * JoinCulling): its pairs within one culled node, left out of vertexFace / edgeEdge, which are
   * then that job's answer as they stand. The list is the merge of the two (made whole before it
   * is read as a kept list: wholeLists). null: vertexFace / edgeEdge are the whole list.
   */
  culledOut: CcdCandidates | null;
}

/**
 * A kept list's filtered answer (the pairs filterPairs keeps, and how many it dropped as culled),
 * replayed in a later job when it is provably the same: the list and its gaps are the same arrays,
 * the threshold is at most `cap`, the object's triangles lie in the same culled nodes, and each
 * pair whose gap is below `cap` in size (`near`, few) gets the same box answer as before.
 * Why that suffices: a pair with |gap| >= cap >= threshold is decided by its gap alone, kept
 * exactly when gap >= 0, whatever the threshold; whether a pair lies within one culled node is a
 * function of its members' triangles' culled node ids (culledPairs.ts); so every pair's answer,
 * and the answer's order (the list's), is what it was. A falling or flying body (its boxes drift
 * by float32 rounding, its culled nodes the same job after job) keeps its answers; a deforming
 * one fails the check at its threshold or its near pairs and is filtered as before.
 */
interface FilterMemo {
  pairs: Uint32Array;
  gaps: Float64Array;
  cap: number;
  /** Indices (pair number) of the pairs with |gap| < cap, and their box answers (1: overlap). */
  near: Uint32Array;
  nearKeep: Uint8Array;
  out: Uint32Array;
  dropped: number;
}

/** An object's memos (vertex-face, edge-edge) and the culled node ids of its triangles they were made with (null: no culling). */
interface ObjectMemo {
  culledBy: Int32Array | null;
  vertexFace: FilterMemo | null;
  edgeEdge: FilterMemo | null;
}

/**
 * A memo's cap: this multiple of the threshold it was made at, and at least MEMO_CAP_ROUNDING of
 * the list's largest coordinate (pairGaps.ts GapReference.big, plus 1): a falling body's boxes
 * drift by float32 rounding, a few 2^-24 of that, which varies from job to job.
 */
const MEMO_CAP_OF_THRESHOLD = 4;
const MEMO_CAP_ROUNDING = 2 ** -18;
/** No memo for a list with more than this fraction of its pairs near (a deforming body: checking them would cost what filtering does). */
const MEMO_NEAR_FRACTION = 1 / 64;

/**
 * The kept pairs whose recorded gap is above -limit (limit: LIVE_LIMIT_OF_SKIN of the list's
 * skin), in the kept list's order, and those gaps.
 * While the drift threshold (pairGaps.ts gapThreshold) stays below the limit, a pair whose gap is
 * at or below -limit cannot overlap now (its gap has changed by less than the threshold), so only
 * these are read: about a third of a skinned list's pairs lie farther apart than that (the join
 * grew both boxes by the skin). A threshold at the limit or above reads the whole list, as before.
 */
interface LiveLists {
  vertexFace: Uint32Array;
  edgeEdge: Uint32Array;
  vertexFaceGaps: Float64Array;
  edgeEdgeGaps: Float64Array;
}

/** The live lists' limit as a fraction of the list's skin (a list joined without one has none). */
const LIVE_LIMIT_OF_SKIN = 0.5;

/** A list whose gaps leave more than this fraction of its pairs undecided records them again. */
const UNDECIDED_RERECORD = 0.125;

/**
 * A list that served fewer jobs than this belongs to a body that keeps deforming (landing, being
 * squeezed): it is rebuilt without a skin (a grown join finds more pairs, about 1.6x the time, for
 * nothing), unless the body has moved by less than a skin since its last list was joined on its
 * boxes as they were (every box, relative to the mean, within that list's boxes grown by the skin):
 * then a skinned list would have lasted, so it probes with the skin again (a body settling after
 * its landing goes back to reusing its list). A body squashing at impact moves its boxes by
 * centimetres a job, so it never pays for a probe that cannot last (it probed every fourth
 * rebuild before: about 1.6x the join plus recording every pair's gap, the job's maximum).
 */
const SHORT_LIFE_JOBS = 3;

/**
 * An object's pairs for the boxes `grown`, each list sorted as the kept lists are (sortedSelfJoin.ts),
 * or null where it does not take the object (`fits`: whether it takes object o); the same pairs as
 * the broad phase's join. `reuse`: the object's old lists, whose buffers it may fill (no longer read).
 */
export type SortedJoin = ((grown: Float32Array, object: number, reuse: SortedPairs | null, culling: JoinCulling | null) => SortedPairs | null) & { fits: (object: number) => boolean };

/** What the cache did in one call (counters for the benchmarks and tests). */
export interface OwnPairReuse {
  /** Objects whose kept lists were used. */
  reused: number;
  /** Objects joined again (no list, or a box left its kept box). */
  rebuilt: number;
  /** Kept pairs tested against the boxes of now. */
  tested: number;
  /** Of those, the pairs whose boxes were read (the others were decided by their recorded gap, pairGaps.ts). */
  boxTests: number;
  /** Kept lists (vertex-face and edge-edge counted apart) whose filtered answer was replayed from the last job's (FilterMemo). */
  replayed: number;
  /** Pairs whose boxes overlap now but that lie within one culled node (dropped; 0 without culling). */
  culled: number;
}

export class OwnPairCache {
  private readonly objects: (ObjectPairs | undefined)[] = [];
  /** Per object, the rebuilds in a row of short-lived lists (SHORT_LIFE_JOBS). */
  private readonly shortStreak: Uint32Array;
  /** Boundary vertices per object (CSR), and the object of each triangle and edge. */
  private readonly vertexStart: Uint32Array;
  private readonly vertices: Uint32Array;
  readonly triObject: Uint32Array;
  readonly edgeObject: Uint32Array;
  /** Triangles and edges per object (CSR: start offsets, then the ids). */
  private readonly triangleStart: { start: Uint32Array; ids: Uint32Array };
  private readonly edgeStart: { start: Uint32Array; ids: Uint32Array };
  /** Element boxes of one call (6 per triangle / edge), filled per object when a call needs them. */
  private readonly triangleBoxScratch: Float32Array;
  private readonly edgeBoxScratch: Float32Array;
  /** Per edge, its triangles' culled nodes in one job (filterPairs). */
  private readonly edgeNodes: Int32Array;
  /** The filter's output before it is cut to length (grow-only). */
  private filtered = new Uint32Array(0);

  constructor(private readonly topo: CcdTopology, objectCount: number) {
    const bv = topo.boundaryVertices, obj = topo.vertexObject;
    this.vertexStart = new Uint32Array(objectCount + 1);
    for (let q = 0; q < bv.length; q++) this.vertexStart[obj[bv[q]] + 1]++;
    for (let o = 0; o < objectCount; o++) this.vertexStart[o + 1] += this.vertexStart[o];
    const fill = this.vertexStart.slice(0, objectCount);
    this.vertices = new Uint32Array(bv.length);
    for (let q = 0; q < bv.length; q++) this.vertices[fill[obj[bv[q]]]++] = bv[q];
    this.triObject = new Uint32Array(topo.triangles.length / 3);
    for (let t = 0; t < this.triObject.length; t++) this.triObject[t] = obj[topo.triangles[3 * t]];
    this.edgeObject = new Uint32Array(topo.edges.length / 2);
    for (let e = 0; e < this.edgeObject.length; e++) this.edgeObject[e] = obj[topo.edges[2 * e]];
    this.shortStreak = new Uint32Array(objectCount);
    this.triangleStart = csrByObject(this.triObject, objectCount);
    this.edgeStart = csrByObject(this.edgeObject, objectCount);
    this.triangleBoxScratch = new Float32Array(6 * this.triObject.length);
    this.edgeBoxScratch = new Float32Array(6 * this.edgeObject.length);
    this.edgeNodes = new Int32Array(2 * this.edgeObject.length);
  }

  /**
   * The pairs within objects lo..hi-1 for the own-frame `boxes` (6 per vertex, world coordinates at
   * `positions`, vec4); the element boxes (unions of the corners' boxes) are made per object only
   * where a pair's gap does not decide it (pairGaps.ts). `skin[o]`: how far object o's boxes are grown when its list is rebuilt.
   * `join(grown, objects)`: the fresh pairs within a range of objects for grown boxes (the broad
   * phase's own join). `culled`: self-collision culling's culled nodes (culledPairs.ts); the pairs
   * within one are dropped in the same pass as the box test (null: none). `before`: pairs the
   * answer starts with (the job's pairs between objects); the culled count and `tested` are the
   * kept lists' only.
   */
  candidates(
    boxes: Float32Array, positions: Float32Array, [lo, hi]: [number, number], skin: ArrayLike<number>,
    join: (grown: Float32Array, objects: [number, number]) => CcdCandidates, culled: CulledNodes | null = null, before: CcdCandidates | null = null,
    sortedJoin: SortedJoin | null = null,
  ): CcdCandidates & { keptPairs: OwnPairReuse } {
    const stats: OwnPairReuse = { reused: 0, rebuilt: 0, tested: 0, boxTests: 0, culled: 0, replayed: 0 };
    const means = new Float64Array(3 * (hi - lo));
    const stale: boolean[] = [];
    const grow = new Float64Array(this.shortStreak.length);
    for (let o = lo; o < hi; o++) {
      this.meanOf(o, positions, means, 3 * (o - lo));
      const kept = this.objects[o];
      const isStale = !kept || !this.inside(o, kept.kept, boxes, means, 3 * (o - lo));
      stale.push(isStale);
      if (!isStale) {
        kept.jobs++;
        wholeLists(kept);
        continue;
      }
      // The skin of the rebuild: none while the body keeps outgrowing its lists (but a probe every few).
      if (kept && kept.jobs < SHORT_LIFE_JOBS) this.shortStreak[o]++;
      else this.shortStreak[o] = 0;
      const settling = kept !== undefined && kept.skin === 0 && this.inside(o, kept.kept, boxes, means, 3 * (o - lo), skin[o]);
      grow[o] = this.shortStreak[o] === 0 || settling ? skin[o] : 0;
    }
    // Per edge, its two triangles' culled nodes (edgeCulledNode), read once per pair by the join and the filter.
    let edgeNodes: Int32Array | null = null;
    if (culled) {
      edgeNodes = this.edgeNodes;
      for (let e = 0; e < this.edgeObject.length; e++) {
        edgeNodes[2 * e] = edgeCulledNode(culled, e, 0);
        edgeNodes[2 * e + 1] = edgeCulledNode(culled, e, 1);
      }
    }
    // A list joined on the boxes of now (no skin) is also the job's answer: the join drops the culled pairs too.
    const culling: JoinCulling | null = culled ? { nodes: culled, edgeNodes: edgeNodes! } : null;
    // Rebuild the stale objects, a contiguous run per join.
    for (let o = lo; o < hi; ) {
      if (!stale[o - lo]) { o++; continue; }
      let end = o + 1;
      // A run shares "grown or not": a run without skin joins the boxes as they are.
      while (end < hi && stale[end - lo] && (grow[end] === 0) === (grow[o] === 0)) end++;
      this.rebuild(boxes, [o, end], grow, join, means, lo, sortedJoin, grow[o] === 0 ? culling : null);
      stats.rebuilt += end - o;
      o = end;
    }
    stats.reused = hi - lo - stats.rebuilt;
    // Filter every object's kept list by the boxes of now.
    let vfCount = 0, eeCount = 0;
    for (let o = lo; o < hi; o++) {
      const kept = this.objects[o]!;
      vfCount += kept.vertexFace.length + (kept.culledOut ? kept.culledOut.vertexFace.length : 0);
      eeCount += kept.edgeEdge.length + (kept.culledOut ? kept.culledOut.edgeEdge.length : 0);
    }
    stats.tested = (vfCount + eeCount) / 2;
    // The job's pairs between objects (`before`) go first, so the answer is sliced once, not concatenated.
    const vfBefore = before ? before.vertexFace : EMPTY, eeBefore = before ? before.edgeEdge : EMPTY;
    const size = Math.max(vfBefore.length + vfCount, eeBefore.length + eeCount);
    if (this.filtered.length < size) this.filtered = new Uint32Array(size);
    const out = this.filtered;
    out.set(vfBefore);
    let nv = vfBefore.length, ne = eeBefore.length;
    // A list just joined on the boxes of now (no skin) needs no box test: copied (culled pairs dropped).
    const exact = (o: number): boolean => stale[o - lo] && grow[o] === 0;
    // A list tested before decides its pairs by their recorded gaps (pairGaps.ts) where its boxes
    // have drifted less than the gap; a list tested for the first time records them.
    const threshold = new Float64Array(hi - lo);
    // What each list reads: the live lists where the threshold is below their limit, else all of it.
    const read: LiveLists[] = [];
    for (let o = lo; o < hi; o++) {
      const kept = this.objects[o]!;
      const whole: LiveLists = { vertexFace: kept.vertexFace, edgeEdge: kept.edgeEdge, vertexFaceGaps: EMPTY_GAPS, edgeEdgeGaps: EMPTY_GAPS };
      read.push(whole);
      if (exact(o)) continue;
      const mx = means[3 * (o - lo)], my = means[3 * (o - lo) + 1], mz = means[3 * (o - lo) + 2];
      if (!kept.gaps) {
        kept.gaps = {
          vertexFace: new Float64Array(kept.vertexFace.length / 2), edgeEdge: new Float64Array(kept.edgeEdge.length / 2),
          reference: referenceBoxes(this.vertices, this.vertexStart[o], this.vertexStart[o + 1], boxes, mx, my, mz), live: null,
        };
        threshold[o - lo] = RECORD;
      } else {
        threshold[o - lo] = gapThreshold(this.vertices, this.vertexStart[o], this.vertexStart[o + 1], boxes, mx, my, mz, kept.gaps.reference);
      }
      // Made at the first job that can use them (not at the recording: a body that keeps deforming
      // records often and drifts past the limit before its next job).
      const limit = LIVE_LIMIT_OF_SKIN * kept.skin;
      if (threshold[o - lo] !== RECORD && threshold[o - lo] < limit) {
        kept.gaps.live ??= liveLists(kept.vertexFace, kept.edgeEdge, kept.gaps.vertexFace, kept.gaps.edgeEdge, limit);
        read[o - lo] = kept.gaps.live;
      } else {
        whole.vertexFaceGaps = kept.gaps.vertexFace;
        whole.edgeEdgeGaps = kept.gaps.edgeEdge;
      }
    }
    // Element boxes per object, made when first needed: upfront to record gaps, else at the first
    // pair its gap leaves undecided (a falling body's lists need none).
    const filled = new Uint8Array(hi - lo);
    const triBoxes = this.triangleBoxScratch, edgeBoxes = this.edgeBoxScratch;
    const fill = (o: number): void => {
      if (filled[o - lo]) return;
      filled[o - lo] = 1;
      unionBoxes(this.topo.triangles, 3, boxes, this.triangleStart, o, triBoxes);
      unionBoxes(this.topo.edges, 2, boxes, this.edgeStart, o, edgeBoxes);
    };
    const lazy = (o: number): (() => void) | null => {
      if (threshold[o - lo] !== RECORD) return () => fill(o);
      fill(o);
      return null;
    };
    const boxTests = new Float64Array(hi - lo);
    // Per object, whether its last answers may be replayed (FilterMemo): a list decided by its
    // gaps, its triangles in the same culled nodes as when the memos were made.
    const memoable = new Uint8Array(hi - lo);
    for (let o = lo; o < hi; o++) {
      const kept = this.objects[o]!;
      if (exact(o) || threshold[o - lo] === RECORD || !Number.isFinite(threshold[o - lo])) {
        kept.memo = null;
        continue;
      }
      memoable[o - lo] = 1;
      if (kept.memo && !this.sameCulled(o, kept.memo.culledBy, culled)) kept.memo = null;
      kept.memo ??= { culledBy: this.culledOf(o, culled), vertexFace: null, edgeEdge: null };
    }
    for (let o = lo; o < hi; o++) {
      const kept = this.objects[o]!, before = stats.boxTests;
      if (exact(o) && kept.culledOut) {
        // Joined with this job's culled nodes: its pairs are the answer, those within one set apart.
        out.set(kept.vertexFace, nv);
        nv += kept.vertexFace.length;
        stats.culled += kept.culledOut.vertexFace.length / 2;
      } else if (exact(o)) {
        nv = copyPairs(kept.vertexFace, out, nv, culled, true, stats, null);
      } else {
        const list = read[o - lo], memo = memoable[o - lo] ? kept.memo! : null;
        nv = this.replayOrFilter(memo, 'vertexFace', list.vertexFace, list.vertexFaceGaps, threshold[o - lo], kept.gaps!.reference.big, boxes, boxes, triBoxes, out, nv, culled, stats, null, lazy(o));
      }
      boxTests[o - lo] = stats.boxTests - before;
    }
    const vertexFace = out.slice(0, nv);
    out.set(eeBefore);
    for (let o = lo; o < hi; o++) {
      const kept = this.objects[o]!, before = stats.boxTests;
      if (exact(o) && kept.culledOut) {
        out.set(kept.edgeEdge, ne);
        ne += kept.edgeEdge.length;
        stats.culled += kept.culledOut.edgeEdge.length / 2;
      } else if (exact(o)) {
        ne = copyPairs(kept.edgeEdge, out, ne, culled, false, stats, edgeNodes);
      } else {
        const list = read[o - lo], memo = memoable[o - lo] ? kept.memo! : null;
        ne = this.replayOrFilter(memo, 'edgeEdge', list.edgeEdge, list.edgeEdgeGaps, threshold[o - lo], kept.gaps!.reference.big, boxes, edgeBoxes, edgeBoxes, out, ne, culled, stats, edgeNodes, lazy(o));
      }
      // Gaps that left many pairs undecided (the body deformed within its skin) are recorded again next time.
      if (!exact(o) && threshold[o - lo] !== RECORD) {
        const pairs = (kept.vertexFace.length + kept.edgeEdge.length) / 2;
        if (boxTests[o - lo] + stats.boxTests - before > UNDECIDED_RERECORD * pairs) kept.gaps = null;
      }
    }
    return { vertexFace, edgeEdge: out.slice(0, ne), keptPairs: stats };
  }

  /** Object o's triangles' culled node ids (a copy, in triangleStart's order), null without culling. */
  private culledOf(o: number, culled: CulledNodes | null): Int32Array | null {
    if (!culled) return null;
    const { start, ids } = this.triangleStart, by = culled.culledBy;
    const out = new Int32Array(start[o + 1] - start[o]);
    for (let k = start[o]; k < start[o + 1]; k++) out[k - start[o]] = by[ids[k]];
    return out;
  }

  /** Whether object o's triangles lie in the culled nodes `saved` (culledOf) records. */
  private sameCulled(o: number, saved: Int32Array | null, culled: CulledNodes | null): boolean {
    if (!saved || !culled) return saved === null && culled === null;
    const { start, ids } = this.triangleStart, by = culled.culledBy;
    for (let k = start[o]; k < start[o + 1]; k++) if (by[ids[k]] !== saved[k - start[o]]) return false;
    return true;
  }

  /**
   * The filtered answer of `memo` appended to out from `at` (returns the new length, and counts
   * its box tests and culled pairs as filterPairs would) when it is this job's answer for `pairs`
   * (FilterMemo; the caller has checked the culled nodes); -1 otherwise.
   */
  /**
   * A kept list's filtered answer appended to out from `at` (returns the new length): the memo's
   * (`memo[kind]`, replay) when provably this job's, else filterPairs' on the element boxes
   * `a` / `b`, remembered in `memo[kind]` for the next job (memoOf). `memo` null: filter, remember
   * nothing. `boxes`: the job's vertex boxes, which the memo's near pairs are tested on.
   */
  private replayOrFilter(
    memo: ObjectMemo | null, kind: 'vertexFace' | 'edgeEdge', pairs: Uint32Array, gaps: Float64Array, threshold: number, big: number, boxes: Float32Array,
    a: Float32Array, b: Float32Array, out: Uint32Array, at: number, culled: CulledNodes | null, stats: OwnPairReuse, edgeNodes: Int32Array | null, fillBoxes: (() => void) | null,
  ): number {
    const vertexFace = kind === 'vertexFace';
    const replayed = memo ? this.replay(memo[kind], pairs, gaps, threshold, boxes, vertexFace, out, at, stats) : -1;
    if (replayed >= 0) return replayed;
    const dropped = stats.culled;
    const end = filterPairs(pairs, a, b, out, at, culled, vertexFace, stats, gaps, threshold, edgeNodes, fillBoxes);
    if (memo) memo[kind] = this.memoOf(pairs, gaps, threshold, big, boxes, vertexFace, out.subarray(at, end), stats.culled - dropped);
    return end;
  }

  private replay(
    memo: FilterMemo | null, pairs: Uint32Array, gaps: Float64Array, threshold: number, boxes: Float32Array, vertexFace: boolean, out: Uint32Array, at: number, stats: OwnPairReuse,
  ): number {
    if (!memo || memo.pairs !== pairs || memo.gaps !== gaps || !(threshold <= memo.cap)) return -1;
    let tests = 0;
    for (let k = 0; k < memo.near.length; k++) {
      const answer = nearAnswer(this.topo, pairs, gaps, memo.near[k], threshold, boxes, vertexFace);
      if (answer === UNDECIDED_OVERLAP || answer === UNDECIDED_APART) tests++;
      if ((answer & 1) !== memo.nearKeep[k]) return -1;
    }
    out.set(memo.out, at);
    stats.boxTests += tests;
    stats.culled += memo.dropped;
    stats.replayed++;
    return at + memo.out.length;
  }

  /** A memo of the answer `filtered` just made for `pairs` at `threshold` (null when too many pairs lie near: FilterMemo). */
  private memoOf(
    pairs: Uint32Array, gaps: Float64Array, threshold: number, big: number, boxes: Float32Array, vertexFace: boolean, filtered: Uint32Array, dropped: number,
  ): FilterMemo | null {
    const cap = Math.max(MEMO_CAP_OF_THRESHOLD * threshold, MEMO_CAP_ROUNDING * (1 + big)), limit = MEMO_NEAR_FRACTION * gaps.length;
    let count = 0;
    for (let k = 0; k < gaps.length; k++) {
      count += +(Math.abs(gaps[k]) < cap);
      if (count > limit) return null;
    }
    const near = new Uint32Array(count), nearKeep = new Uint8Array(count);
    for (let k = 0, m = 0; k < gaps.length; k++) {
      if (!(Math.abs(gaps[k]) < cap)) continue;
      near[m] = k;
      nearKeep[m++] = nearAnswer(this.topo, pairs, gaps, k, threshold, boxes, vertexFace) & 1;
    }
    return { pairs, gaps, cap, near, nearKeep, out: filtered.slice(), dropped };
  }

  /** Mean position of object o's boundary vertices into out[at..at+2]. */
  private meanOf(o: number, positions: Float32Array, out: Float64Array, at: number): void {
    let x = 0, y = 0, z = 0;
    const a = this.vertexStart[o], b = this.vertexStart[o + 1];
    for (let q = a; q < b; q++) {
      const p = 4 * this.vertices[q];
      x += positions[p];
      y += positions[p + 1];
      z += positions[p + 2];
    }
    const n = Math.max(1, b - a);
    out[at] = x / n;
    out[at + 1] = y / n;
    out[at + 2] = z / n;
  }

  /** Whether every boundary vertex of object o has its box, relative to the mean, inside its kept box (grown by `by` on every side). */
  private inside(o: number, kept: Float64Array, boxes: Float32Array, means: Float64Array, at: number, by = 0): boolean {
    const a = this.vertexStart[o], b = this.vertexStart[o + 1];
    // Box minus (mean - by) below the kept minimum, or minus (mean + by) above the kept maximum: outside.
    const lx = means[at] - by, ly = means[at + 1] - by, lz = means[at + 2] - by;
    const hx = means[at] + by, hy = means[at + 1] + by, hz = means[at + 2] + by;
    for (let q = a; q < b; q++) {
      const p = 6 * this.vertices[q], k = 6 * (q - a);
      if (boxes[p] - lx < kept[k] || boxes[p + 1] - ly < kept[k + 1] || boxes[p + 2] - lz < kept[k + 2]) return false;
      if (boxes[p + 3] - hx > kept[k + 3] || boxes[p + 4] - hy > kept[k + 4] || boxes[p + 5] - hz > kept[k + 5]) return false;
    }
    return true;
  }

  /** Joins objects lo..hi-1 on their boxes grown by their skin and keeps each object's sorted pairs and grown boxes. */
  private rebuild(
    boxes: Float32Array, [lo, hi]: [number, number], skin: ArrayLike<number>, join: (grown: Float32Array, objects: [number, number]) => CcdCandidates,
    means: Float64Array, meansFrom: number, sortedJoin: SortedJoin | null, culling: JoinCulling | null,
  ): void {
    let grows = false;
    for (let o = lo; o < hi; o++) {
      const s = skin[o];
      if (!(Number.isFinite(s) && s >= 0)) throw new RangeError(`OwnPairCache: skin of object ${o} must be a finite number >= 0, got ${s}`);
      if (s > 0) grows = true;
    }
    const obj = this.topo.vertexObject;
    const grown = grows ? new Float32Array(boxes.length) : boxes;
    // Every vertex of the objects (not only boundary ones: the join checks the boxes it reads).
    for (let v = 0; v < obj.length && grows; v++) {
      const o = obj[v];
      if (o < lo || o >= hi) continue;
      const p = 6 * v, s = skin[o];
      for (let k = 0; k < 3; k++) {
        grown[p + k] = roundDown(boxes[p + k] - s);
        grown[p + 3 + k] = roundUp(boxes[p + 3 + k] + s);
      }
    }
    // Each object's sorted pairs from the sorted join where it takes the object, else from the
    // broad phase's join (a run of such objects at a time) sorted here.
    const vf: Uint32Array[] = [], ee: Uint32Array[] = [];
    const culledOut: (CcdCandidates | undefined)[] = [];
    for (let o = lo; o < hi; ) {
      const old = this.objects[o];
      const reuse = old ? { vertexFace: old.vertexFace, edgeEdge: old.edgeEdge, ...(old.culledOut ? { culledOut: old.culledOut } : {}) } : null;
      const pairs = sortedJoin ? sortedJoin(grown, o, reuse, culling) : null;
      if (pairs) {
        vf.push(pairs.vertexFace);
        ee.push(pairs.edgeEdge);
        culledOut[o - lo] = pairs.culledOut;
        o++;
        continue;
      }
      let end = o + 1;
      while (end < hi && !(sortedJoin && sortedJoin.fits(end))) end++;
      const c = join(grown, [o, end]);
      vf.push(...splitByObject(c.vertexFace, obj, o, end, this.triObject.length));
      ee.push(...splitByObject(c.edgeEdge, this.edgeObject, o, end, this.edgeObject.length));
      o = end;
    }
    for (let o = lo; o < hi; o++) {
      const a = this.vertexStart[o], b = this.vertexStart[o + 1];
      const kept = new Float64Array(6 * (b - a));
      const at = 3 * (o - meansFrom);
      for (let q = a; q < b; q++) {
        const p = 6 * this.vertices[q], k = 6 * (q - a);
        for (let i = 0; i < 3; i++) {
          const m = means[at + i];
          const slack = CONTAINMENT_SLACK * (1 + Math.abs(grown[p + i]) + Math.abs(grown[p + 3 + i]) + Math.abs(m));
          kept[k + i] = grown[p + i] - m + slack;
          kept[k + 3 + i] = grown[p + 3 + i] - m - slack;
        }
      }
      this.objects[o] = { kept, vertexFace: vf[o - lo], edgeEdge: ee[o - lo], jobs: 1, skin: skin[o], gaps: null, memo: null, culledOut: culledOut[o - lo] ?? null };
    }
  }
}

/** Makes a list joined with culled pairs set apart (ObjectPairs.culledOut) whole again: read as a kept list, it holds every pair. */
function wholeLists(kept: ObjectPairs): void {
  if (!kept.culledOut) return;
  kept.vertexFace = mergePairs(kept.vertexFace, kept.culledOut.vertexFace);
  kept.edgeEdge = mergePairs(kept.edgeEdge, kept.culledOut.edgeEdge);
  kept.culledOut = null;
}

/** The kept lists' pairs whose recorded gap is above -limit: their live lists. */
function liveLists(vf: Uint32Array, ee: Uint32Array, vfGaps: Float64Array, eeGaps: Float64Array, limit: number): LiveLists {
  const [vertexFace, vertexFaceGaps] = pairsAbove(vf, vfGaps, -limit);
  const [edgeEdge, edgeEdgeGaps] = pairsAbove(ee, eeGaps, -limit);
  return { vertexFace, edgeEdge, vertexFaceGaps, edgeEdgeGaps };
}

/** The pairs whose gap is above `floor` (NaN: not), in order, with their gaps. */
function pairsAbove(pairs: Uint32Array, gaps: Float64Array, floor: number): [Uint32Array, Float64Array] {
  let n = 0;
  for (let k = 0; k < gaps.length; k++) n += +(gaps[k] > floor);
  const keptPairs = new Uint32Array(2 * n), keptGaps = new Float64Array(n);
  for (let k = 0, at = 0; k < gaps.length; k++) {
    if (!(gaps[k] > floor)) continue;
    keptPairs[2 * at] = pairs[2 * k];
    keptPairs[2 * at + 1] = pairs[2 * k + 1];
    keptGaps[at++] = gaps[k];
  }
  return [keptPairs, keptGaps];
}

/** Appends `pairs` to out from `at` (those not within one culled node, with `culled`); returns the new length. */
function copyPairs(pairs: Uint32Array, out: Uint32Array, at: number, culled: CulledNodes | null, vertexFace: boolean, stats: OwnPairReuse, edgeNodes: Int32Array | null): number {
  if (culled) return filterPairs(pairs, null, null, out, at, culled, vertexFace, stats, null, 0, edgeNodes, null);
  out.set(pairs, at);
  return at + pairs.length;
}

/** nearAnswer's answers: bit 0 is whether the boxes overlap; the undecided ones were read (box tests). */
const DECIDED_APART = 0, DECIDED_OVERLAP = 1, UNDECIDED_APART = 2, UNDECIDED_OVERLAP = 3;
/** Two element boxes (nearAnswer), scratch. */
const nearBoxes = new Float32Array(12);

/**
 * Whether kept pair k of `pairs` overlaps at `threshold`, as filterPairs decides it: by its gap
 * unless that lies within the threshold, else by the boxes (vertex boxes `boxes`, element boxes as
 * the union of the corners': the same float32 values as filterPairs' element boxes).
 */
function nearAnswer(topo: CcdTopology, pairs: Uint32Array, gaps: Float64Array, k: number, threshold: number, boxes: Float32Array, vertexFace: boolean): number {
  const g = gaps[k];
  if (!(g > -threshold && g < threshold)) return g >= threshold ? DECIDED_OVERLAP : DECIDED_APART;
  const i = pairs[2 * k], j = pairs[2 * k + 1], b = nearBoxes;
  if (vertexFace) {
    for (let q = 0; q < 6; q++) b[q] = boxes[6 * i + q];
    unionCornerBoxes(topo.triangles, 3, boxes, j, b, 6);
  } else {
    unionCornerBoxes(topo.edges, 2, boxes, i, b, 0);
    unionCornerBoxes(topo.edges, 2, boxes, j, b, 6);
  }
  const meet = b[0] <= b[9] && b[6] <= b[3] && b[1] <= b[10] && b[7] <= b[4] && b[2] <= b[11] && b[8] <= b[5];
  return meet ? UNDECIDED_OVERLAP : UNDECIDED_APART;
}

/**
 * Keeps the pairs (i, j) of `pairs` whose boxes (a[i], b[j]) overlap (f32Round.ts overlap: the
 * same comparisons), appending to out from `at`; returns the new length. With `culled`, a pair
 * within one culled node is dropped (counted in stats.culled): one pass for the join's test and
 * the culling's. The list is sorted by its first member, so what depends on i alone (its box, the
 * culled nodes of its triangles: culledPairs.ts) is read once per run of equal i.
 */
function filterPairs(
  pairs: Uint32Array, a: Float32Array | null, b: Float32Array | null, out: Uint32Array, at: number, culled: CulledNodes | null, vertexFace: boolean, stats: OwnPairReuse,
  gap: Float64Array | null, threshold: number, edgeNodes: Int32Array | null, fillBoxes: (() => void) | null,
): number {
  // No boxes: every pair's boxes are known to overlap (a list just joined on them), only the culling tests.
  const boxes = a !== null && b !== null;
  const record = threshold === RECORD;
  let boxTests = 0;
  let last = -1, x0 = 0, y0 = 0, z0 = 0, x1 = 0, y1 = 0, z1 = 0, dropped = 0;
  // The first member's culled nodes: a vertex's (vertexCulledNode), or an edge's two triangles'.
  let n0 = -1, n1 = -1, mixed = false;
  const by = culled ? culled.culledBy : null;
  for (let q = 0; q < pairs.length; q += 2) {
    const i = pairs[q], j = pairs[q + 1];
    if (i !== last) {
      last = i;
      const o = 6 * i;
      if (boxes) {
        x0 = a[o]; y0 = a[o + 1]; z0 = a[o + 2]; x1 = a[o + 3]; y1 = a[o + 4]; z1 = a[o + 5];
      }
      if (culled) {
        if (vertexFace) {
          mixed = vertexCulledNodes(culled, i, twoNodes) === MIXED;
          n0 = twoNodes[0];
          n1 = twoNodes[1];
        } else {
          n0 = edgeNodes![2 * i];
          n1 = edgeNodes![2 * i + 1];
        }
      }
    }
    const p = 6 * j;
    // Without branches on the box test (about half the kept pairs pass, unpredictably): the pair is
    // written, and kept by advancing past it.
    let keep = 1;
    if (record) {
      // The gap (pairGaps.ts): >= 0 exactly when the boxes overlap (the same test as below).
      const g = Math.min(b![p + 3] - x0, x1 - b![p], b![p + 4] - y0, y1 - b![p + 1], b![p + 5] - z0, z1 - b![p + 2]);
      gap![q >> 1] = g;
      keep = +(g >= 0);
    } else if (boxes) {
      // Decided by the recorded gap, unless it lies within the threshold (few pairs: a predictable branch).
      const g = gap ? gap[q >> 1] : 0;
      keep = +(g >= threshold);
      if (gap === null || (+(g > -threshold) & +(g < threshold)) !== 0) {
        if (fillBoxes !== null) {
          // The first undecided pair: the element boxes are made now (the first member's too).
          fillBoxes();
          fillBoxes = null;
          const o = 6 * i;
          x0 = a![o]; y0 = a![o + 1]; z0 = a![o + 2]; x1 = a![o + 3]; y1 = a![o + 4]; z1 = a![o + 5];
        }
        boxTests++;
        keep = +(x0 <= b![p + 3]) & +(b![p] <= x1) & +(y0 <= b![p + 4]) & +(b![p + 1] <= y1) & +(z0 <= b![p + 5]) & +(b![p + 2] <= z1);
      }
    }
    if (culled !== null) {
      // Within one culled node (culledPairs.ts), without branches on the answer (a fifth of the
      // pairs, unpredictably): a vertex whose triangles lie in nodes n0, n1 is culled with triangle
      // j exactly when j lies in one of them; an edge pair as culledEdgeNodes, from the per-edge table.
      let drop: number;
      if (vertexFace) {
        const t = by![j];
        drop = mixed ? +culledVertexFace(culled, i, j) : (+(n0 >= 0) & +(t === n0)) | (+(n1 >= 0) & +(t === n1));
      } else {
        const b0 = edgeNodes![2 * j], b1 = edgeNodes![2 * j + 1];
        drop = (+(n0 >= 0) & (+(n0 === b0) | +(n0 === b1))) | (+(n1 >= 0) & (+(n1 === b0) | +(n1 === b1)));
      }
      dropped += keep & drop;
      keep &= drop ^ 1;
    }
    out[at] = i;
    out[at + 1] = j;
    at += keep << 1;
  }
  stats.culled += dropped;
  stats.boxTests += record ? pairs.length / 2 : boxTests;
  return at;
}

/**
 * The pairs per object lo..hi-1 (by `objectOf` of the first member), each sorted by (first,
 * second): two stable counting sorts, by the second member (ids below secondCount) and then by the
 * first, O(pairs + ids). (Insertion-sorting each first member's partners was O(partners^2): a
 * fifth of a job at impact, where a vertex has hundreds of partners.)
 */
function splitByObject(pairs: Uint32Array, objectOf: Uint32Array, lo: number, hi: number, secondCount: number): Uint32Array[] {
  const firstCount = objectOf.length;
  const bySecond = countingSort(pairs, 1, secondCount);
  const sorted = countingSort(bySecond, 0, firstCount);
  const count = new Uint32Array(hi - lo);
  for (let q = 0; q < sorted.length; q += 2) count[objectOf[sorted[q]] - lo]++;
  const out = Array.from(count, (c) => new Uint32Array(2 * c));
  const at = new Uint32Array(hi - lo);
  for (let q = 0; q < sorted.length; q += 2) {
    const o = objectOf[sorted[q]] - lo, k = at[o];
    out[o][k] = sorted[q];
    out[o][k + 1] = sorted[q + 1];
    at[o] = k + 2;
  }
  return out;
}

/** The pairs stably sorted by their member `key` (0 first, 1 second), whose ids are below `count`. */
function countingSort(pairs: Uint32Array, key: number, count: number): Uint32Array {
  const start = new Uint32Array(count + 1);
  for (let q = key; q < pairs.length; q += 2) start[pairs[q] + 1]++;
  for (let i = 0; i < count; i++) start[i + 1] += start[i];
  const out = new Uint32Array(pairs.length);
  for (let q = 0; q < pairs.length; q += 2) {
    const k = 2 * start[pairs[q + key]]++;
    out[k] = pairs[q];
    out[k + 1] = pairs[q + 1];
  }
  return out;
}

/** Ids grouped by their object (CSR). */
function csrByObject(objectOf: Uint32Array, objectCount: number): { start: Uint32Array; ids: Uint32Array } {
  const start = new Uint32Array(objectCount + 1);
  for (let i = 0; i < objectOf.length; i++) start[objectOf[i] + 1]++;
  for (let o = 0; o < objectCount; o++) start[o + 1] += start[o];
  const at = start.slice(0, objectCount);
  const ids = new Uint32Array(objectOf.length);
  for (let i = 0; i < objectOf.length; i++) ids[at[objectOf[i]]++] = i;
  return { start, ids };
}

/** out[element] := the union of its `per` corners' boxes, for object o's elements (byObject). */
function unionBoxes(corners: Uint32Array, per: number, boxes: Float32Array, byObject: { start: Uint32Array; ids: Uint32Array }, o: number, out: Float32Array): void {
  for (let k = byObject.start[o]; k < byObject.start[o + 1]; k++) {
    const e = byObject.ids[k];
    unionCornerBoxes(corners, per, boxes, e, out, 6 * e);
  }
}
