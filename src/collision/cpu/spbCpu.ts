/**
 * The shortest path to boundary for every query of a detection pass (paper 000 section 3.4,
 * supplement Alg. 5 line "for each penetrating point"), with the exact CPU query of src/spb
 * (dynamic capacities: every query is answered, nothing overflows), or with the rest-pose closest
 * point or the deformed distance field when SolverParams.penetration says so (src/penetration,
 * the same result records). Results per query index, structure of arrays, as the GPU's result buffer.
 */
import { QUERY_FOUND, QUERY_OVERFLOW, QUERY_SKIPPED, shortestPathToBoundary, SPB_DEFAULT_TOLERANCES, SPB_DYNAMIC_CAPACITIES, SpbWorkspace, type SpbMeshData } from '../../spb';
import { STAT_BVH_CANDIDATES, STAT_TETS_VISITED, STAT_TRAVERSALS } from '../../spb/workspace';
import { sourceEuclidean, type CpuQueryList } from './queryList';
import type { PenetrationMethod } from '../../penetration/methods';
import type { PenetrationTargets } from '../../penetration/penetrationTargets';

export class CpuSpbResults {
  status = new Uint8Array(64);
  triangle = new Int32Array(64);
  feature = new Int8Array(64);
  /** The boundary point s, 3 per query. */
  s = new Float64Array(192);
  /** Sums over the pass: queries by outcome and the Table 1 counters (Q, Tr, Tet). */
  found = 0;
  none = 0;
  skipped = 0;
  bvhCandidates = 0;
  traversals = 0;
  tetsVisited = 0;

  reserve(n: number): void {
    if (this.status.length >= n) return;
    const c = Math.max(n, 2 * this.status.length);
    this.status = new Uint8Array(c);
    this.triangle = new Int32Array(c);
    this.feature = new Int8Array(c);
    this.s = new Float64Array(3 * c);
  }
}

export class CpuSpb {
  readonly data: SpbMeshData;
  private readonly ws: SpbWorkspace;
  private cfg = { culling: true, tolerances: SPB_DEFAULT_TOLERANCES };
  private method: PenetrationMethod = 'exact';

  /** `targets`: the rest-pose methods' twin (needed unless the method stays 'exact'). */
  constructor(data: SpbMeshData, private readonly targets?: PenetrationTargets) {
    this.data = data;
    this.ws = new SpbWorkspace(SPB_DYNAMIC_CAPACITIES, data.tetCount);
  }

  /** Culling and eps_i / eps_r (SolverParams culling, epsI, epsR) and the penetration method; absent fields keep the defaults. */
  configure(p: { culling?: boolean; epsI?: number; epsR?: number; penetration?: PenetrationMethod }): void {
    this.method = p.penetration ?? 'exact';
    if (this.method !== 'exact' && !this.targets) throw new Error(`CpuSpb: penetration '${this.method}' needs the rest pose (construct with PenetrationTargets)`);
    const culling = p.culling ?? true;
    const exitFace = p.epsI ?? SPB_DEFAULT_TOLERANCES.exitFace;
    const cull = p.epsR ?? SPB_DEFAULT_TOLERANCES.culling;
    const c = this.cfg;
    if (c.culling === culling && c.tolerances.exitFace === exitFace && c.tolerances.culling === cull) return;
    this.cfg = { culling, tolerances: { ...SPB_DEFAULT_TOLERANCES, exitFace, culling: cull } };
  }

  /** Answers queries [0, list.count) at the positions last given to updateSpbMeshData. */
  run(list: CpuQueryList, out: CpuSpbResults): void {
    out.reserve(list.count);
    out.found = out.none = out.skipped = 0;
    out.bvhCandidates = out.traversals = out.tetsVisited = 0;
    const ws = this.ws;
    for (let i = 0; i < list.count; i++) {
      const status = this.query(list, i);
      out.status[i] = status;
      out.bvhCandidates += ws.stats[STAT_BVH_CANDIDATES];
      out.traversals += ws.stats[STAT_TRAVERSALS];
      out.tetsVisited += ws.stats[STAT_TETS_VISITED];
      if (status === QUERY_FOUND) {
        out.found++;
        out.triangle[i] = ws.resultTriangle;
        out.feature[i] = ws.resultFeature;
        out.s[3 * i] = ws.resultX;
        out.s[3 * i + 1] = ws.resultY;
        out.s[3 * i + 2] = ws.resultZ;
      } else {
        out.triangle[i] = -1;
        if (status === QUERY_OVERFLOW) throw new Error(`CpuSpb: query ${i} overflowed the dynamic workspace (cannot happen with growing stacks)`);
        if (status === QUERY_SKIPPED) out.skipped++;
        else out.none++;
      }
    }
  }

  private query(list: CpuQueryList, i: number): number {
    if (this.method !== 'exact') return this.targets!.answer(this.method, this.data, this.ws, list.px[i], list.py[i], list.pz[i], list.tet[i], list.exclude[i], list.exclude2[i]);
    // Edge points exclude only the edge's own triangles (exclude2 >= 0); Euclidean queries take
    // the nearest boundary point of the start tet's component, no path validity (Fig. 15).
    return shortestPathToBoundary(this.data, this.ws, this.cfg, list.px[i], list.py[i], list.pz[i], list.tet[i], list.exclude[i], list.exclude2[i], sourceEuclidean(list.source[i]));
  }
}
