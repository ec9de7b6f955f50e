/**
 * One line per penetrating vertex of what the float64 collision stage did for it in the substep
 * just solved (bench/substepPenetration.ts --trace): its Pin mark (hybrid: penetrating at the
 * substep's start), whether it was at an inverted boundary tet at the substep's start or at its
 * last detection (section 3.5: then it gets no self Pin mark or query), its own vertex query
 * (found, with the path's length, how far the point has moved since detection and whether its contact
 * is active or was dropped; skipped by paper
 * section 3.5 because a boundary tet at it is inverted; overflowed; none made) and the contacts acting on it, as a point (with their offset, gap
 * C = (x - s) . n - offset and normal) and as a triangle corner of other points' contacts; and the
 * cause that held it (TraceCause), which the bench sums. Reads the stage; changes nothing.
 */
import type { CpuCollisionStage } from '../src/collision/cpu/cpuCollisionStage';
import { KIND_VERTEX, sourceIndex, sourceKind } from '../src/collision/cpu/queryList';
import { QUERY_FOUND, QUERY_OVERFLOW, QUERY_SKIPPED } from '../src/spb/query';

const mm = (metres: number): string => (1000 * metres).toFixed(3);

/**
 * What left a traced vertex inside, by what the stage did for it (the split of docs/collisions.md
 * "Where the vertices inside their own octopus come from"): inside its own object at an inverted
 * boundary tet (paper section 3.5: no self query); its own query found, with its contact active
 * but the vertex not yet out, dropped by the far-side rule, or without a normal; and no query (or
 * one skipped, overflowed or with no path), told apart by whether the tet the counter found it in
 * is inverted (detection tests a point against tets right side out only: docs/collisions.md "Query
 * points and detection rules") and, if not, by its hybrid mark: Pin (inside at the substep's
 * start, so DCD's) or free (CCD's to catch).
 */
export const TRACE_CAUSES = [
  'inverted boundary tet', 'contact active, not yet out', 'contact dropped by the far-side rule', 'contact with no normal', 'query without a contact',
  'no query, inside an inverted tet', 'no query, Pin', 'no query, free (CCD)',
] as const;
export type TraceCause = (typeof TRACE_CAUSES)[number];

/** Its vertex query's outcome in words ("no query": detection made none for it this substep) and as a cause (null: no query answered). */
function queryOf(stage: Readonly<CpuCollisionStage>, x: Float64Array, v: number): { words: string; cause: TraceCause | null } {
  const q = stage.queries, r = stage.results;
  for (let i = 0; i < q.count; i++) {
    if (sourceKind(q.source[i]) !== KIND_VERTEX || sourceIndex(q.source[i]) !== v) continue;
    const status = r.status[i];
    // Where the point was at detection against where it is now: whether the path was long because
    // the point was deep then, or because its way out leaves by a farther face.
    const moved = Math.hypot(x[3 * v] - q.px[i], x[3 * v + 1] - q.py[i], x[3 * v + 2] - q.pz[i]);
    // Detection's contacts come first, one record per query (CpuContacts.appendDcd): record i is
    // this query's, inactive where it had no normal (appendDcd leaves the normal 0) or where the
    // far-side rule dropped it (dropFarSideContacts keeps the normal).
    const c = stage.contacts;
    const own = i < c.count && c.pointVertex[4 * i] === v;
    const hasNormal = own && (c.normal[3 * i] !== 0 || c.normal[3 * i + 1] !== 0 || c.normal[3 * i + 2] !== 0);
    const cause: TraceCause = !own ? 'query without a contact' : c.active[i] ? 'contact active, not yet out' : hasNormal ? 'contact dropped by the far-side rule' : 'contact with no normal';
    const contact = cause === 'query without a contact' ? 'no contact of its own'
      : cause === 'contact active, not yet out' ? 'its contact active'
        : `its contact inactive (${cause === 'contact with no normal' ? 'no normal' : 'dropped by the far-side rule'})`;
    if (status === QUERY_FOUND) return { words: `query found, path ${mm(Math.hypot(r.s[3 * i] - q.px[i], r.s[3 * i + 1] - q.py[i], r.s[3 * i + 2] - q.pz[i]))} mm, the point ${mm(moved)} mm from where it was at detection, ${contact}`, cause };
    if (status === QUERY_SKIPPED) return { words: 'query skipped (section 3.5: a boundary tet at it is inverted)', cause: null };
    if (status === QUERY_OVERFLOW) return { words: 'query overflowed', cause: null };
    return { words: 'query found no path', cause: null };
  }
  return { words: 'no query', cause: null };
}

/** The active contacts with v as a point (offset, gap, normal, the other side's object) and how many have it as a triangle corner. */
function contactsOf(stage: Readonly<CpuCollisionStage>, x: Float64Array, v: number, vertexObject: Uint32Array): string {
  const c = stage.contacts;
  const asPoint: string[] = [];
  let asCorner = 0;
  for (let i = 0; i < c.count; i++) {
    if (!c.active[i]) continue;
    let weight = 0;
    for (let k = 0; k < 4; k++) if (c.pointVertex[4 * i + k] === v) weight = c.pointWeight[4 * i + k];
    let corner = false;
    for (let k = 0; k < 3; k++) if (c.triVertex[3 * i + k] === v && c.triBary[3 * i + k] > 0) corner = true;
    if (corner) asCorner++;
    if (!(weight > 0)) continue;
    const n = [0, 1, 2].map((k) => c.normal[3 * i + k].toFixed(2)).join(', ');
    asPoint.push(`${weight < 1 ? `weight ${weight.toFixed(2)}, ` : ''}against object ${vertexObject[c.triVertex[3 * i]]}: offset ${mm(c.offset[i])}, gap ${mm(c.gap(x, i))} mm, n (${n})`);
  }
  return `${asPoint.length} contacts as a point${asPoint.length ? ` [${asPoint.join('; ')}]` : ''}, ${asCorner} at its triangles`;
}

/**
 * The trace line of vertex v found inside tet `tet` of object `tetObject` (`tetInverted`: that tet
 * is inside out), `depth` deep (world units), and its cause (TraceCause; null before the collision
 * stage exists).
 */
export function vertexTrace(
  stage: Readonly<CpuCollisionStage> | null, x: Float64Array, vertexObject: Uint32Array, v: number, tet: number, tetObject: number, tetInverted: boolean, depth: number,
): { line: string; cause: TraceCause | null } {
  const head = `vertex ${v} (object ${vertexObject[v]}) in ${tetInverted ? 'inverted ' : ''}tet ${tet} of object ${tetObject}, ${mm(depth)} mm deep`;
  if (!stage) return { line: `${head}; no collision stage yet`, cause: null };
  // Section 3.5's mark: a vertex with a boundary triangle of an inverted tet gets no self query and
  // no self Pin mark, so its self-intersection waits for the tet. At the substep's start (where Pin
  // is marked) and at its last detection.
  const d = stage.detector;
  const atInverted = d.invertedAtMark[v] || d.invertedVertex[v];
  const inverted = atInverted
    ? `; at an inverted boundary tet (section 3.5: no self Pin or query) ${d.invertedAtMark[v] ? 'at the start' : ''}${d.invertedAtMark[v] && d.invertedVertex[v] ? ' and ' : ''}${d.invertedVertex[v] ? 'at the last detection' : ''}`
    : '';
  const query = queryOf(stage, x, v);
  return {
    line: `${head}; Pin ${stage.pin[v] ? 'yes' : 'no'}${inverted}; ${query.words}; ${contactsOf(stage, x, v, vertexObject)}`,
    // Section 3.5 skips self queries only: a vertex inside another object keeps its query there.
    cause: atInverted && tetObject === vertexObject[v] ? 'inverted boundary tet' : query.cause ?? (tetInverted ? 'no query, inside an inverted tet' : stage.pin[v] ? 'no query, Pin' : 'no query, free (CCD)'),
  };
}
