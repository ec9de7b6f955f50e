/**
 * Per-query scratch state: the three stacks of Alg. 1/3 (BVH nodes, candidate faces, next
 * tets), the visited-tet record, the support of p in its tet, the result and the counters.
 * One workspace serves one query at a time; fixed capacities make it the static twin of the
 * WGSL kernel's private arrays, Infinity makes the arrays grow (the dynamic version).
 */
import type { SpbCapacities } from './settings';

const INITIAL_DYNAMIC = 32;

/** Counter slots (per query in `stats`, summed in `totals`). */
export const STAT_BVH_CANDIDATES = 0;
export const STAT_TRAVERSALS = 1;
export const STAT_TETS_VISITED = 2;
export const STAT_CULLED = 3;
export const STAT_OVERFLOWS = 4;
export const STAT_BRANCHINGS = 5;
export const STAT_BOUNDARY_HITS = 6;
export const STAT_QUERIES = 7;
/** Closest points computed by the surface descent from culled candidates (not BVH candidates). */
export const STAT_DESCENT_CANDIDATES = 8;
export const STAT_COUNT = 9;
export const STAT_NAMES = ['bvhCandidates', 'traversals', 'tetsVisited', 'culled', 'overflows', 'branchings', 'boundaryHits', 'queries', 'descentCandidates'] as const;

export class SpbWorkspace {
  readonly capacities: Readonly<SpbCapacities>;
  bvhStack: Int32Array;
  /** Squared box distance of each stacked BVH node (computed at the push, checked at the pop). */
  bvhDist: Float64Array;
  /** The BVH walk's stack height (bvhWalk.ts). */
  walkTop = 0;
  /** Whether the radius left out a box since the walk began (bvhWalk.ts). */
  walkCut = false;
  /** Exit face that leads to the tet at the same depth: parentTet * 4 + localFace, or -1 - entryFace for the start tet. */
  faceStack: Int32Array;
  tetStack: Int32Array;
  /**
   * Distance travelled along the ray (units of |p - s|, forward and backward summed) when the
   * ray enters the tet at the same depth: the inversion mode's budget (supplement 001 section 1.2).
   */
  travelStack: Float64Array;
  /** Ring of the last entered tets (static), unused when `stamps` is set. */
  readonly ring: Int32Array;
  ringPos = 0;
  /** Dynamic visited set: stamps[t] === stamp means t was entered in this traversal. */
  readonly stamps: Uint32Array | null;
  stamp = 0;
  /** Projected vertices of the current tet: (u, v, z) per local vertex, z in units of |p - s| along the ray. */
  readonly proj = new Float64Array(12);
  /** Closest-point scratch: point xyz + barycentrics. */
  readonly cpt = new Float64Array(6);
  /** Vertices of p's tet that p does not lie opposite of: a tet containing all of them contains p. */
  readonly support = new Uint32Array(4);
  supportCount = 0;
  /**
   * Optional path record for tests and debugging (null in production): the tet each entered tet
   * was entered from (-1 for the start tet), and the tet where the last successful traversal
   * ended. Following `trace` from `foundTet` gives the element traversal that made the path valid.
   */
  trace: Int32Array | null = null;
  foundTet = -1;
  /** Result of the last query. */
  resultTriangle = -1;
  resultFeature = -1;
  resultX = 0;
  resultY = 0;
  resultZ = 0;
  resultDistance2 = Infinity;
  readonly stats = new Float64Array(STAT_COUNT);
  readonly totals = new Float64Array(STAT_COUNT);

  constructor(capacities: Readonly<SpbCapacities>, tetCount: number) {
    for (const [k, v] of Object.entries(capacities)) {
      if (!(v === Infinity || (Number.isInteger(v) && v >= 1))) throw new RangeError(`SpbWorkspace: capacity ${k} must be a positive integer or Infinity, got ${v}`);
    }
    this.capacities = capacities;
    const size = (c: number): number => (c === Infinity ? INITIAL_DYNAMIC : c);
    this.bvhStack = new Int32Array(size(capacities.bvhStack));
    this.bvhDist = new Float64Array(this.bvhStack.length);
    this.faceStack = new Int32Array(size(Math.min(capacities.faceStack, capacities.tetStack)));
    this.tetStack = new Int32Array(this.faceStack.length);
    this.travelStack = new Float64Array(this.faceStack.length);
    this.ring = new Int32Array(capacities.visitedRing === Infinity ? 0 : capacities.visitedRing);
    this.stamps = capacities.visitedRing === Infinity ? new Uint32Array(tetCount) : null;
  }

  /** Doubles the face, tet and travel stacks (dynamic only); false when they are at capacity. */
  growFaceStacks(): boolean {
    const cap = Math.min(this.capacities.faceStack, this.capacities.tetStack);
    if (this.faceStack.length >= cap) return false;
    const n = Math.min(cap, 2 * this.faceStack.length);
    const f = new Int32Array(n);
    f.set(this.faceStack);
    const t = new Int32Array(n);
    t.set(this.tetStack);
    const d = new Float64Array(n);
    d.set(this.travelStack);
    this.faceStack = f;
    this.tetStack = t;
    this.travelStack = d;
    return true;
  }

  /** Doubles the BVH stack (dynamic only); false when it is at capacity. */
  growBvhStack(): boolean {
    if (this.bvhStack.length >= this.capacities.bvhStack) return false;
    const s = new Int32Array(Math.min(this.capacities.bvhStack, 2 * this.bvhStack.length));
    s.set(this.bvhStack);
    this.bvhStack = s;
    const d = new Float64Array(s.length);
    d.set(this.bvhDist);
    this.bvhDist = d;
    return true;
  }

  /** Forget the visited tets (start of one traversal). */
  beginTraversal(): void {
    if (this.stamps) {
      this.stamp = (this.stamp + 1) >>> 0;
      if (this.stamp === 0) {
        this.stamps.fill(0);
        this.stamp = 1;
      }
    } else {
      this.ring.fill(-1);
      this.ringPos = 0;
    }
  }

  /** Records t as entered (the caller checked wasEntered first; paper 001 Alg. 1 line 18). */
  mark(t: number): void {
    if (this.stamps) {
      this.stamps[t] = this.stamp;
      return;
    }
    this.ring[this.ringPos] = t;
    this.ringPos = this.ringPos + 1 === this.ring.length ? 0 : this.ringPos + 1;
  }

  /** True if t was entered in this traversal (as far as the ring remembers). */
  wasEntered(t: number): boolean {
    const stamps = this.stamps;
    if (stamps) return stamps[t] === this.stamp;
    const ring = this.ring;
    for (let i = 0; i < ring.length; i++) if (ring[i] === t) return true;
    return false;
  }

  /** Records the best valid candidate so far. */
  setResult(triangle: number, feature: number, x: number, y: number, z: number, distance2: number): void {
    this.resultTriangle = triangle;
    this.resultFeature = feature;
    this.resultX = x;
    this.resultY = y;
    this.resultZ = z;
    this.resultDistance2 = distance2;
  }

  /** Clears this query's counters and result. */
  beginQuery(): void {
    this.stats.fill(0);
    this.resultTriangle = -1;
    this.resultFeature = -1;
    this.resultDistance2 = Infinity;
  }

  /** Adds this query's counters to the totals. */
  endQuery(): void {
    this.stats[STAT_QUERIES] = 1;
    for (let i = 0; i < STAT_COUNT; i++) this.totals[i] += this.stats[i];
  }

  /** Named copy of a counter array (stats or totals). */
  static describe(counters: Float64Array): Record<(typeof STAT_NAMES)[number], number> {
    const out = {} as Record<(typeof STAT_NAMES)[number], number>;
    STAT_NAMES.forEach((name, i) => (out[name] = counters[i]));
    return out;
  }
}
