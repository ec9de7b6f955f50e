/**
 * The frame's collision counters from the query list's header words (read back once per frame
 * with the NaN status, spec "Per-frame readback"). The shortest path's statistic sums (Q, Tr,
 * Tet) and the readback counts come from elsewhere (the spb stage, the host) and are left as
 * they are in `out`.
 */
import { emptyCollisionCounters, type CollisionFrameCounters } from '../counters';
import { QL } from './queryList';

export function countersFromHeader(header: Uint32Array, capacity: number, out: CollisionFrameCounters = emptyCollisionCounters()): CollisionFrameCounters {
  const h = out.dcdHits;
  h.vertexSelf = header[QL.hitsVertexSelf];
  h.vertexInter = header[QL.hitsVertexInter];
  h.edgeSelf = header[QL.hitsEdgeSelf];
  h.edgeInter = header[QL.hitsEdgeInter];
  h.centroidSelf = header[QL.hitsCentroidSelf];
  h.centroidInter = header[QL.hitsCentroidInter];
  const hits = h.vertexSelf + h.vertexInter + h.edgeSelf + h.edgeInter + h.centroidSelf + h.centroidInter;
  out.dropped = header[QL.dropped];
  out.hashDropped = header[QL.hashDropped];
  // Every hit that fitted in the list was a shortest-path query.
  out.spbQueries = hits - out.dropped;
  out.contacts = header[QL.contacts];
  out.noPath = header[QL.noPath];
  out.skipped = header[QL.skipped];
  out.farSideDropped = header[QL.farSideDropped];
  out.inversionFloorTets = header[QL.inversionFloorTets];
  out.spbOverflows = header[QL.spbOverflows];
  out.contactCapacity = capacity;
  return out;
}
