/**
 * The runner's reader: parses a runner-format JSON report (scripts/sim.ts --out, or the page's
 * recorder) and checks every field the project's tools read, throwing a ReportFormatError that
 * names the field by its path, frame index included ("frames[12].collisions.ccd.hitsEdgeEdge").
 * Fields it does not know are left alone (newer writers may add some). JSON has no NaN, so a
 * non-finite state measure (a blown-up object) arrives as null and is accepted there only.
 */
import type { CcdFrameCounters, CollisionFrameCounters } from '../collision/counters';
import { checkParams, paramsFromJson, type SolverParams } from '../contract/params';
import type { RunReport } from './reportDocument';

export class ReportFormatError extends Error {
  override name = 'ReportFormatError';
}

type Obj = Record<string, unknown>;
type NumberKeys<T> = { [K in keyof T]-?: T[K] extends number ? K : never }[keyof T];

function shown(v: unknown): string {
  if (v === undefined) return 'nothing (the field is missing)';
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

function fail(path: string, expected: string, got: unknown): never {
  throw new ReportFormatError(`runner report: ${path} must be ${expected}, got ${shown(got)}`);
}

function obj(v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'an object', v);
  return v as Obj;
}

function arr(v: unknown, path: string): unknown[] {
  if (!Array.isArray(v)) fail(path, 'an array', v);
  return v;
}

function str(v: unknown, path: string): string {
  if (typeof v !== 'string') fail(path, 'a string', v);
  return v;
}

function num(v: unknown, path: string, o: { min?: number; integer?: boolean; nullable?: boolean } = {}): void {
  if (v === null && o.nullable) return;
  const what = `${o.integer ? 'an integer' : 'a finite number'}${o.min !== undefined ? ` >= ${o.min}` : ''}`;
  if (typeof v !== 'number' || !Number.isFinite(v) || (o.integer && !Number.isInteger(v)) || (o.min !== undefined && v < o.min)) fail(path, what, v);
}

const count = (v: unknown, path: string): void => num(v, path, { min: 0, integer: true });
const ms = (v: unknown, path: string): void => num(v, path, { min: 0 });

function optional(o: Obj, key: string, path: string, check: (v: unknown, path: string) => void): void {
  if (o[key] !== undefined) check(o[key], path ? `${path}.${key}` : key);
}

// Every numeric counter, so a writer that drops one is caught (tests/unit/runner/reportReader.test.ts
// deletes each key of emptyCollisionCounters() in turn).
const DCD_HITS = ['vertexSelf', 'vertexInter', 'edgeSelf', 'edgeInter', 'centroidSelf', 'centroidInter'] as const;
const COLLISION_COUNTS = [
  'spbQueries', 'bvhCandidates', 'traversals', 'tetsVisited', 'spbOverflows', 'contacts', 'noPath', 'skipped', 'farSideDropped', 'inversionFloorTets',
  'contactCapacity', 'dropped', 'hashDropped', 'readbacks', 'readbackBytes', 'pin', 'pout', 'pinInFold', 'pinReleased', 'bvhRebuilds',
] as const satisfies readonly NumberKeys<CollisionFrameCounters>[];
const COLLISION_MS = ['bvhRebuildMs'] as const satisfies readonly NumberKeys<CollisionFrameCounters>[];
const CCD_COUNTS = [
  'candidatesVertexFace', 'candidatesEdgeEdge', 'candidatesLeftOut', 'tests', 'skippedPin', 'skippedInverted', 'motionBoxesApart', 'hitsVertexFace', 'hitsEdgeEdge', 'laterRoundHits', 'laterRoundBeyondReach', 'laterRoundListed', 'backFace', 'offFeature', 'exitContacts',
  'edgeEdgeAtEnd', 'edgeEdgeApart', 'capacity', 'dropped', 'escaped', 'escapedSelf', 'escapedSelfObjects', 'escapedTested', 'escapedInside', 'escapedRejected', 'selfListsReused', 'selfListsRebuilt', 'selfWorldFrame', 'interPairs', 'interSlices', 'selfPairsBefore', 'selfPairsAfter', 'selfDeviationEscapes',
] as const satisfies readonly NumberKeys<CcdFrameCounters>[];
/**
 * Non-negative reals: the broad phase's margin (world units) and horizon (s), its job and wait
 * times (ms), self-collision culling's culled fraction and times (ms).
 */
const CCD_REALS = [
  'margin', 'selfMargin', 'escapeDistance', 'escapeDistanceSelf', 'selfGrowth', 'horizon', 'jobMs', 'waitMs', 'selfCulledFraction', 'selfConesMs', 'selfTraversalMs', 'selfFilterMs',
] as const satisfies readonly NumberKeys<CcdFrameCounters>[];

function checkCollisions(v: unknown, path: string): void {
  const c = obj(v, path);
  const hits = obj(c.dcdHits, `${path}.dcdHits`);
  for (const k of DCD_HITS) count(hits[k], `${path}.dcdHits.${k}`);
  for (const k of COLLISION_COUNTS) count(c[k], `${path}.${k}`);
  for (const k of COLLISION_MS) ms(c[k], `${path}.${k}`);
  str(c.mode, `${path}.mode`);
  str(c.penetration, `${path}.penetration`);
  arr(c.warnings, `${path}.warnings`).forEach((w, i) => str(w, `${path}.warnings[${i}]`));
  const ccd = obj(c.ccd, `${path}.ccd`);
  for (const k of CCD_COUNTS) count(ccd[k], `${path}.ccd.${k}`);
  for (const k of CCD_REALS) ms(ccd[k], `${path}.ccd.${k}`);
}

function vec3(v: unknown, path: string): void {
  const a = arr(v, path);
  if (a.length !== 3) fail(path, 'an array of 3 numbers', v);
  a.forEach((x, i) => num(x, `${path}[${i}]`, { nullable: true }));
}

function checkState(v: unknown, path: string): void {
  const s = obj(v, path);
  const e = obj(s.energy, `${path}.energy`);
  for (const k of ['kinetic', 'elastic', 'gravitational', 'total']) num(e[k], `${path}.energy.${k}`, { nullable: true });
  for (const k of ['lowestPoint', 'volume', 'totalMass']) num(s[k], `${path}.${k}`, { nullable: true });
  const bb = obj(s.boundingBox, `${path}.boundingBox`);
  vec3(bb.min, `${path}.boundingBox.min`);
  vec3(bb.max, `${path}.boundingBox.max`);
  for (const k of ['centreOfMass', 'momentum', 'angularMomentum']) vec3(s[k], `${path}.${k}`);
  count(s.nonFiniteVertices, `${path}.nonFiniteVertices`);
  optional(s, 'invertedTets', path, (n, at) => count(n, at));
  optional(s, 'fastestVertex', path, (f, at) => {
    const o = obj(f, at);
    num(o.speed, `${at}.speed`, { min: 0 });
    count(o.vertex, `${at}.vertex`);
  });
}

function checkedParams(v: unknown, path: string): SolverParams {
  const p = paramsFromJson(obj(v, path)) as unknown as SolverParams;
  try {
    checkParams(p);
  } catch (e) {
    throw new ReportFormatError(`runner report: ${path}: ${(e as Error).message}`);
  }
  return p;
}

/** Checks frames[i]; `params` are those in force before it (its paramsChanged is checked merged into them). */
function checkFrame(v: unknown, i: number, previous: number | undefined, params: SolverParams): SolverParams {
  const path = `frames[${i}]`;
  const f = obj(v, path);
  num(f.frame, `${path}.frame`, { min: 1, integer: true });
  if (previous !== undefined && f.frame !== previous + 1) fail(`${path}.frame`, `${previous + 1} (one after frames[${i - 1}].frame; frames are consecutive)`, f.frame);
  num(f.time, `${path}.time`, { min: 0 });
  ms(f.wallMs, `${path}.wallMs`);
  optional(f, 'renderMs', path, ms);
  const phases = obj(f.phasesMs, `${path}.phasesMs`);
  for (const [k, x] of Object.entries(phases)) ms(x, `${path}.phasesMs.${k}`);
  const counters = obj(f.counters, `${path}.counters`);
  for (const k of ['dispatches', 'constraintIterations', 'readbacks']) count(counters[k], `${path}.counters.${k}`);
  // Newer runners (frames in flight) add these; older reports and the page's recordings have none.
  optional(counters, 'encodeMs', `${path}.counters`, ms);
  optional(counters, 'encodeSplitMs', `${path}.counters`, (v, at) => {
    for (const [k, x] of Object.entries(obj(v, at))) ms(x, `${at}.${k}`);
  });
  optional(counters, 'blockingReadbacks', `${path}.counters`, count);
  optional(counters, 'passes', `${path}.counters`, count);
  optional(counters, 'substeps', `${path}.counters`, count);
  optional(counters, 'closingSpeed', `${path}.counters`, (v, at) => num(v, at, { min: 0 }));
  optional(counters, 'dispatchesByPhase', `${path}.counters`, (v, at) => {
    for (const [k, x] of Object.entries(obj(v, at))) count(x, `${at}.${k}`);
  });
  optional(f, 'collisions', path, checkCollisions);
  optional(f, 'state', path, checkState);
  if (f.paramsChanged === undefined) return params;
  return checkedParams({ ...params, ...obj(f.paramsChanged, `${path}.paramsChanged`) }, `${path}.paramsChanged (merged into the parameters before it)`);
}

function checkMaterials(v: unknown): void {
  const list = arr(v, 'materials');
  if (list.length === 0) fail('materials', 'a non-empty array (one entry per object)', v);
  list.forEach((m, i) => {
    const path = `materials[${i}]`;
    const o = obj(m, path);
    str(o.object, `${path}.object`);
    num(o.youngsModulus, `${path}.youngsModulus`, { min: Number.MIN_VALUE });
    num(o.density, `${path}.density`, { min: Number.MIN_VALUE });
    num(o.poissonRatio, `${path}.poissonRatio`, { min: 0 });
    if ((o.poissonRatio as number) >= 0.5) fail(`${path}.poissonRatio`, 'in [0, 0.5)', o.poissonRatio);
  });
}

/** Checks a parsed report (see the file comment); returns it typed. */
export function checkReport(value: unknown): RunReport {
  const r = obj(value, 'the report');
  if (r.source !== undefined && r.source !== 'runner' && r.source !== 'page') fail('source', '"runner" or "page"', r.source);
  if (str(r.scene, 'scene') === '') fail('scene', 'a scene name', r.scene);
  str(r.adapter, 'adapter');
  if (r.engine !== undefined && r.engine !== 'gpu' && r.engine !== 'cpu') fail('engine', '"gpu" or "cpu"', r.engine);
  if (r.mesh !== undefined && r.mesh !== null) str(r.mesh, 'mesh');
  optional(r, 'browser', '', str);
  optional(r, 'timing', '', str);
  optional(r, 'every', '', (v, p) => num(v, p, { min: 1, integer: true }));
  optional(r, 'buildMs', '', ms);
  if (r.build !== undefined) {
    const b = obj(r.build, 'build');
    str(b.commit, 'build.commit');
    str(b.date, 'build.date');
  }
  let params = checkedParams(r.params, 'params');
  r.params = params;
  if (r.schedule !== undefined) {
    arr(r.schedule, 'schedule').forEach((s, i) => {
      const o = obj(s, `schedule[${i}]`);
      count(o.frame, `schedule[${i}].frame`);
      obj(o.params, `schedule[${i}].params`);
    });
  }
  checkMaterials(r.materials);
  if (r.colliders !== undefined) arr(r.colliders, 'colliders').forEach((c, i) => str(c, `colliders[${i}]`));
  const counts = obj(r.counts, 'counts');
  count(counts.vertices, 'counts.vertices');
  count(counts.tets, 'counts.tets');
  for (const k of ['edges', 'tetColours', 'edgeColours']) optional(counts, k, 'counts', count);
  if (r.initial !== undefined) checkState(obj(r.initial, 'initial').state, 'initial.state');

  const frames = arr(r.frames, 'frames');
  if (frames.length === 0) fail('frames', 'a non-empty array', frames);
  let previous: number | undefined;
  frames.forEach((f, i) => {
    params = checkFrame(f, i, previous, params);
    previous = (f as Obj).frame as number;
  });

  if (r.summary !== undefined) {
    const s = obj(r.summary, 'summary');
    if (s.frames !== frames.length) fail('summary.frames', `the number of entries in frames (${frames.length})`, s.frames);
    const mean = frames.reduce((a: number, f) => a + ((f as Obj).wallMs as number), 0) / frames.length;
    num(s.meanFrameMs, 'summary.meanFrameMs', { min: 0 });
    if (Math.abs((s.meanFrameMs as number) - mean) > 1e-9 * Math.max(1, mean)) fail('summary.meanFrameMs', `the mean of frames[].wallMs (${mean})`, s.meanFrameMs);
  }
  if (r.table1 !== undefined) {
    const t = obj(r.table1, 'table1');
    if (t.frames !== frames.length) fail('table1.frames', `the number of entries in frames (${frames.length})`, t.frames);
  }
  return r as unknown as RunReport;
}

/** Parses JSON text and checks it (checkReport). */
export function readReport(text: string): RunReport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ReportFormatError(`runner report: not JSON (${(e as Error).message})`);
  }
  return checkReport(value);
}
