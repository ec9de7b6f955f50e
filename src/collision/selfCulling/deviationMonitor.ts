/**
 * The motion bound under which the time step's self-collision culling runs, and its check.
 *
 * The culling of a frame's candidates is decided in a worker before the frame runs
 * (collision/ccd/ccdSchedule.ts: from the snapshot two frames earlier, over a horizon of two
 * frames), so it needs a bound on where each vertex will be. The broad phase's boxes are such a
 * bound, but they are a quarter of an edge wide or more (its margin), and a triangle whose corners
 * may each move that far may point anywhere: no normal cone survives them. The culling therefore
 * uses a tighter bound of its own, learned from the motion and checked:
 *
 *   over the horizon, each boundary vertex stays within deviation[v] (in every coordinate) of its
 *   predicted path x + s v H (s in [0, 1]), up to a translation common to its object.
 *
 * (A common translation changes no normal and no projected contour crossing, so the culling
 * ignores it.) After every frame, the frame-end positions are compared with what the snapshots one
 * and two frames earlier predicted for them: the residual of vertex v is its deviation from the
 * prediction less its object's common deviation (per axis the median, so that one vertex knocked
 * off its path does not move the others' residuals), in the max norm. The bound a job used holds
 * when some translation of the object brings every vertex within its bound (per axis: the
 * intervals [d - bound, d + bound] of its vertices meet); where it does not, the vertices outside
 * are escapes (counted; a culled pair near them may have been missed in that frame, and the
 * hybrid's DCD is what catches a penetration that followed). The
 * next bound is, per vertex, `safety` x the largest residual seen at the vertex or its neighbours,
 * decaying by `decay` per frame, and at least `floor`; so motion that is easy to predict (a body
 * falling, turning, or deforming slowly) is culled tightly, and a vertex that was just hit is left
 * alone until its motion settles. Only frame ends are checked, not every substep.
 *
 * The same is done per boundary edge for the change of its vector (Euclidean, no translation to
 * remove): a body's motion is smooth, so an edge strays from its predicted vector several times
 * less than its ends stray from theirs (rod-knot after 30 frames: median 1 % of an edge over two
 * frames against 4 %), and the normal and edge-direction cones only need that bound
 * (motionCones.ts); the contours need the per-vertex one.
 *
 * Until the snapshot `horizonFrames` frames back is known (after a reset, or a change of dt), there
 * is no bound and nothing is culled.
 */

export interface DeviationTopology {
  vertexCount: number;
  boundaryVertices: Uint32Array;
  vertexObject: Uint32Array;
  /** 2 vertex ids per boundary edge (neighbours share their residuals). */
  edges: Uint32Array;
}

export interface DeviationOptions {
  /** The smallest bound, world units (e.g. 1 % of the mean boundary edge). */
  floor: number;
  /** Bound = safety x recent largest residual (default 2). */
  safety?: number;
  /** Per-frame decay of the remembered residual (default 0.9). */
  decay?: number;
  /** Frames the culling's predictions reach ahead (its horizon / dt: 2 with the schedule's latency 1). */
  horizonFrames?: number;
}

interface Entry {
  frame: number;
  dt: number;
  /** xyz of the boundary vertices, and their velocities. */
  x: Float64Array;
  v: Float64Array;
  /** The bounds handed out for a job from this snapshot (per boundary vertex, per boundary edge), or null. */
  bound: Float64Array | null;
  edgeBound: Float64Array | null;
}

export interface DeviationObservation {
  /** Boundary vertices and edges whose residual exceeded the bound a job used for this frame end. */
  escapes: number;
  /** Largest residual this frame (world units), and the largest bound handed out now. */
  maxResidual: number;
  maxBound: number;
}

export class DeviationMonitor {
  readonly floor: number;
  readonly safety: number;
  readonly decay: number;
  readonly horizonFrames: number;
  private history: Entry[] = [];
  private readonly remembered: Float64Array;
  private readonly residual: Float64Array;
  private readonly spread: Float64Array;
  /** The same per boundary edge, and per vertex the largest residual of its edges. */
  private readonly rememberedEdge: Float64Array;
  private readonly residualEdge: Float64Array;
  private readonly atVertex: Float64Array;
  /** Boundary-vertex index of each vertex (-1 inside). */
  private readonly slot: Int32Array;
  /** Boundary vertices by object (CSR): members[objectStart[o] .. objectStart[o + 1]). */
  private readonly objectStart: Uint32Array;
  private readonly members: Uint32Array;
  private readonly deviation: Float64Array;
  private readonly values: Float64Array;

  constructor(private readonly topo: DeviationTopology, options: DeviationOptions) {
    if (!(Number.isFinite(options.floor) && options.floor >= 0)) throw new RangeError(`DeviationMonitor: floor must be a finite number >= 0, got ${options.floor}`);
    this.floor = options.floor;
    this.safety = options.safety ?? 2;
    this.decay = options.decay ?? 0.9;
    this.horizonFrames = options.horizonFrames ?? 2;
    if (!(this.safety >= 1)) throw new RangeError(`DeviationMonitor: safety must be >= 1, got ${this.safety}`);
    if (!(this.decay >= 0 && this.decay <= 1)) throw new RangeError(`DeviationMonitor: decay must be in [0, 1], got ${this.decay}`);
    if (!(Number.isInteger(this.horizonFrames) && this.horizonFrames >= 1)) throw new RangeError(`DeviationMonitor: horizonFrames must be an integer >= 1, got ${this.horizonFrames}`);
    const nb = topo.boundaryVertices.length;
    this.remembered = new Float64Array(nb);
    this.residual = new Float64Array(nb);
    this.spread = new Float64Array(nb);
    const ne = topo.edges.length / 2;
    this.rememberedEdge = new Float64Array(ne);
    this.residualEdge = new Float64Array(ne);
    this.atVertex = new Float64Array(nb);
    this.slot = new Int32Array(topo.vertexCount).fill(-1);
    for (let i = 0; i < nb; i++) this.slot[topo.boundaryVertices[i]] = i;
    let objects = 0;
    for (let i = 0; i < nb; i++) objects = Math.max(objects, topo.vertexObject[topo.boundaryVertices[i]] + 1);
    this.objectStart = new Uint32Array(objects + 1);
    for (let i = 0; i < nb; i++) this.objectStart[topo.vertexObject[topo.boundaryVertices[i]] + 1]++;
    for (let o = 0; o < objects; o++) this.objectStart[o + 1] += this.objectStart[o];
    const fill = this.objectStart.slice(0, objects);
    this.members = new Uint32Array(nb);
    for (let i = 0; i < nb; i++) this.members[fill[topo.vertexObject[topo.boundaryVertices[i]]]++] = i;
    this.deviation = new Float64Array(3 * nb);
    this.values = new Float64Array(nb);
  }

  /** Forgets the history (the state was reset or replaced). */
  reset(): void {
    this.history = [];
    this.remembered.fill(0);
    this.rememberedEdge.fill(0);
  }

  /**
   * After frame `frame` ended at `positions` / `velocities` (vec4 per vertex) with frame time `dt`:
   * checks the predictions of the earlier snapshots, and returns the bound (per vertex of the
   * scene, world units; 0 inside) for a job started from this snapshot, or null when the history
   * is too short.
   */
  observe(frame: number, positions: Float32Array, velocities: Float32Array, dt: number): { bound: Float32Array | null; edgeBound: Float32Array | null; observation: DeviationObservation } {
    const bv = this.topo.boundaryVertices, nb = bv.length;
    const x = new Float64Array(3 * nb), v = new Float64Array(3 * nb);
    for (let i = 0; i < nb; i++) {
      const p = 4 * bv[i];
      for (let k = 0; k < 3; k++) {
        x[3 * i + k] = positions[p + k];
        v[3 * i + k] = velocities[p + k];
      }
    }
    this.history = this.history.filter((e) => e.dt === dt && frame - e.frame >= 1 && frame - e.frame <= this.horizonFrames);
    const observation: DeviationObservation = { escapes: 0, maxResidual: 0, maxBound: 0 };
    const res = this.residual;
    res.fill(0);
    const escaped = new Uint8Array(nb);
    const edges = this.topo.edges;
    const resEdge = this.residualEdge;
    resEdge.fill(0);
    const escapedEdge = new Uint8Array(edges.length / 2);
    let deepest = 0;
    const d = this.deviation;
    for (const e of this.history) {
      const lag = frame - e.frame;
      deepest = Math.max(deepest, lag);
      const tau = lag * dt;
      for (let i = 0; i < nb; i++) for (let k = 0; k < 3; k++) d[3 * i + k] = x[3 * i + k] - (e.x[3 * i + k] + e.v[3 * i + k] * tau);
      for (let o = 0; o + 1 < this.objectStart.length; o++) {
        const from = this.objectStart[o], to = this.objectStart[o + 1];
        if (to === from) continue;
        for (let k = 0; k < 3; k++) {
          // The common translation: the median, moved into the bounds' common interval when there is one.
          for (let q = from; q < to; q++) this.values[q - from] = d[3 * this.members[q] + k];
          let t = median(this.values, to - from);
          if (e.bound) {
            let lo = -Infinity, hi = Infinity;
            for (let q = from; q < to; q++) {
              const i = this.members[q];
              lo = Math.max(lo, d[3 * i + k] - e.bound[i]);
              hi = Math.min(hi, d[3 * i + k] + e.bound[i]);
            }
            if (lo <= hi) t = Math.min(hi, Math.max(lo, t));
          }
          for (let q = from; q < to; q++) {
            const i = this.members[q];
            let r = Math.abs(d[3 * i + k] - t);
            if (!Number.isFinite(r)) r = Infinity;
            if (e.bound && r > e.bound[i]) escaped[i] = 1;
            if (r > res[i]) res[i] = r;
          }
        }
      }
      for (let k = 0; k < edges.length; k += 2) {
        const a = this.slot[edges[k]], b = this.slot[edges[k + 1]];
        if (a < 0 || b < 0) continue;
        let r = Math.hypot(d[3 * b] - d[3 * a], d[3 * b + 1] - d[3 * a + 1], d[3 * b + 2] - d[3 * a + 2]);
        if (!Number.isFinite(r)) r = Infinity;
        if (e.edgeBound && r > e.edgeBound[k >> 1]) escapedEdge[k >> 1] = 1;
        if (r > resEdge[k >> 1]) resEdge[k >> 1] = r;
      }
    }
    for (let k = 0; k < escapedEdge.length; k++) observation.escapes += escapedEdge[k];
    for (let i = 0; i < nb; i++) {
      observation.escapes += escaped[i];
      observation.maxResidual = Math.max(observation.maxResidual, res[i]);
    }
    // Neighbours share their residuals: a region that was just hit is left alone as a whole.
    const spread = this.spread;
    spread.set(res);
    for (let k = 0; k < edges.length; k += 2) {
      const a = this.slot[edges[k]], b = this.slot[edges[k + 1]];
      if (a < 0 || b < 0) continue;
      if (res[b] > spread[a]) spread[a] = res[b];
      if (res[a] > spread[b]) spread[b] = res[a];
    }
    const remembered = this.remembered;
    for (let i = 0; i < nb; i++) remembered[i] = Math.max(spread[i], this.decay * remembered[i]);
    // Edges: each takes the largest residual of the edges at its two ends.
    const atVertex = this.atVertex;
    atVertex.fill(0);
    for (let k = 0; k < edges.length; k += 2) {
      const a = this.slot[edges[k]], b = this.slot[edges[k + 1]];
      if (a < 0 || b < 0) continue;
      atVertex[a] = Math.max(atVertex[a], resEdge[k >> 1]);
      atVertex[b] = Math.max(atVertex[b], resEdge[k >> 1]);
    }
    const rememberedEdge = this.rememberedEdge;
    for (let k = 0; k < edges.length; k += 2) {
      const a = this.slot[edges[k]], b = this.slot[edges[k + 1]];
      const r = a < 0 || b < 0 ? Infinity : Math.max(atVertex[a], atVertex[b]);
      rememberedEdge[k >> 1] = Math.max(r, this.decay * rememberedEdge[k >> 1]);
    }
    let bound: Float64Array | null = null, edgeBound: Float64Array | null = null;
    if (deepest >= this.horizonFrames) {
      bound = new Float64Array(nb);
      for (let i = 0; i < nb; i++) {
        bound[i] = Math.max(this.floor, this.safety * remembered[i]);
        observation.maxBound = Math.max(observation.maxBound, bound[i]);
      }
      edgeBound = new Float64Array(edges.length / 2);
      for (let k = 0; k < edgeBound.length; k++) edgeBound[k] = Math.max(this.floor, this.safety * rememberedEdge[k]);
    }
    this.history.push({ frame, dt, x, v, bound, edgeBound });
    if (!bound || !edgeBound) return { bound: null, edgeBound: null, observation };
    const perVertex = new Float32Array(this.topo.vertexCount);
    // Rounded up to f32, so the worker never sees a tighter bound than the one checked here.
    for (let i = 0; i < nb; i++) perVertex[bv[i]] = roundUp32(bound[i]);
    return { bound: perVertex, edgeBound: Float32Array.from(edgeBound, roundUp32), observation };
  }
}

function roundUp32(x: number): number {
  const f = Math.fround(x);
  return f >= x ? f : Math.fround(f + Math.abs(f) * 2 ** -23 + 2 ** -149);
}

/** The median of a[0 .. n) (the lower one for even n), reordering it (quickselect, expected O(n)). */
function median(a: Float64Array, n: number): number {
  const k = (n - 1) >> 1;
  let lo = 0, hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1];
    let i = lo, j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k];
  }
  return a[k];
}
