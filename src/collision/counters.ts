/**
 * Per-frame collision counters, the same on the GPU (query-list header words, spb stat sums)
 * and on the CPU reference, reported by the runner's JSON and the page's recorder.
 */
export interface CollisionFrameCounters {
  /** DCD hits by kind of query point and pair (paper section 4; centroids only in recovery mode). */
  dcdHits: { vertexSelf: number; vertexInter: number; edgeSelf: number; edgeInter: number; centroidSelf: number; centroidInter: number };
  /** Shortest-path queries run (hits that fit in the capacity). */
  spbQueries: number;
  /** Sums over the frame's queries: BVH candidates (Q), traversals (Tr), tets visited (Tet) (Table 1). */
  bvhCandidates: number;
  traversals: number;
  tetsVisited: number;
  /** Queries that overflowed the GPU's static stacks and went to the CPU fallback. */
  spbOverflows: number;
  /** Contact constraints applied (queries with a valid path). */
  contacts: number;
  /** Queries with no valid path, and queries skipped (inverted boundary, section 3.5). */
  noPath: number;
  skipped: number;
  /** Capacity of the contact arrays this frame, and hits beyond it (they grow the capacity for the next frame). */
  contactCapacity: number;
  dropped: number;
  /** GPU-to-CPU readbacks this frame and their bytes (the per-frame status included). */
  readbacks: number;
  readbackBytes: number;
}

export function emptyCollisionCounters(): CollisionFrameCounters {
  return {
    dcdHits: { vertexSelf: 0, vertexInter: 0, edgeSelf: 0, edgeInter: 0, centroidSelf: 0, centroidInter: 0 },
    spbQueries: 0,
    bvhCandidates: 0,
    traversals: 0,
    tetsVisited: 0,
    spbOverflows: 0,
    contacts: 0,
    noPath: 0,
    skipped: 0,
    contactCapacity: 0,
    dropped: 0,
    readbacks: 0,
    readbackBytes: 0,
  };
}

/** Total DCD hits of a frame. */
export function totalHits(c: CollisionFrameCounters): number {
  const h = c.dcdHits;
  return h.vertexSelf + h.vertexInter + h.edgeSelf + h.edgeInter + h.centroidSelf + h.centroidInter;
}
