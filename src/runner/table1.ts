/**
 * One row of the paper's Table 1 (paper 000 section 5.4) from a run's frames: size, average
 * collisions, average operations per shortest-path query (Q: BVH candidates, Tr: traversals,
 * Tet: tets visited), step size x iterations, average and maximum frame time, and the share of
 * each phase group (src/runner/phaseGroups.ts; the paper's XPBD / CCD / DCD / Ours columns are
 * material / CCD / detect / shortest path here).
 *
 * Differences from the paper, on purpose: collisions are per frame (the paper's "per time step"
 * at 60 FPS is the same unit), the operations are ratios of the frames' sums (total Q over total
 * queries), frame times are in ms, and the shares are of the summed group times (the page's
 * render time and the wall time not spent in GPU phases, "sync", are groups of their own).
 */
import type { SolverParams } from '../contract/params';
import { groupFrame, PHASE_GROUPS, type PhaseGroup } from './phaseGroups';
import type { RecordedFrame, ReportCounts } from './reportDocument';

export interface Table1Input {
  frames: readonly RecordedFrame[];
  counts: Pick<ReportCounts, 'vertices' | 'tets'>;
  /** Parameters before the first frame; the frames' paramsChanged apply from their frame on. */
  params: Pick<SolverParams, 'dt' | 'substeps' | 'iterations'>;
}

export interface Table1Row {
  vertices: number;
  tets: number;
  frames: number;
  /** Mean contacts per frame over the frames with collision counters: DCD (shortest-path contacts), CCD (vertex-face + edge-edge), both; null when no frame had counters. */
  collisions: { dcd: number; ccd: number; all: number; frames: number } | null;
  /** Per shortest-path query (sum over the frames / total queries); null when no query ran. */
  operations: { q: number; tr: number; tet: number; queries: number } | null;
  /** Substep size h = dt / substeps (s), substeps per frame and constraint iterations per substep of the first frame; `varies` when a later frame changed one; `impact`: the substeps the frames took, when impact-adaptive substeps gave some frame more than its parameters' (FrameEntry counters.substeps). */
  step: { h: number; substeps: number; iterations: number; varies: boolean; impact?: { meanSubsteps: number; maxSubsteps: number } };
  /** Frame time = wallMs (ms): the page's drawing happens inside it (phaseGroups.ts). */
  frameMs: { mean: number; max: number };
  /** Per group (PHASE_GROUPS order): mean ms per frame and share of the summed group times (shares add up to 1). */
  phases: { group: PhaseGroup; meanMs: number; share: number }[];
}

type StepParams = Table1Input['params'];

function stepOf(p: StepParams): [number, number, number] {
  return [p.dt / p.substeps, p.substeps, p.iterations];
}

export function table1Row(input: Table1Input): Table1Row {
  const { frames, counts } = input;
  if (frames.length === 0) throw new RangeError('table1Row: no frames');
  const n = frames.length;

  let params: StepParams = { dt: input.params.dt, substeps: input.params.substeps, iterations: input.params.iterations };
  let first: [number, number, number] | undefined;
  let varies = false;
  let takenSum = 0, takenMax = 0, impactFrames = 0;
  let frameSum = 0;
  let frameMax = 0;
  const groupSums = new Float64Array(PHASE_GROUPS.length);
  const g = new Float64Array(PHASE_GROUPS.length);
  let withCounters = 0;
  let dcd = 0;
  let ccd = 0;
  let queries = 0;
  let q = 0;
  let tr = 0;
  let tet = 0;

  for (const f of frames) {
    const ch = f.paramsChanged;
    if (ch) params = { dt: ch.dt ?? params.dt, substeps: ch.substeps ?? params.substeps, iterations: ch.iterations ?? params.iterations };
    const s = stepOf(params);
    if (!first) first = s;
    else if (s.some((x, i) => x !== first![i])) varies = true;
    const taken = f.counters.substeps ?? params.substeps;
    takenSum += taken;
    takenMax = Math.max(takenMax, taken);
    if (taken > params.substeps) impactFrames++;

    const ms = f.wallMs;
    frameSum += ms;
    frameMax = Math.max(frameMax, ms);
    groupFrame(f, g);
    for (let i = 0; i < g.length; i++) groupSums[i] += g[i];

    const c = f.collisions;
    if (c) {
      withCounters++;
      dcd += c.contacts;
      ccd += c.ccd.hitsVertexFace + c.ccd.hitsEdgeEdge;
      queries += c.spbQueries;
      q += c.bvhCandidates;
      tr += c.traversals;
      tet += c.tetsVisited;
    }
  }

  const total = groupSums.reduce((a, x) => a + x, 0);
  return {
    vertices: counts.vertices,
    tets: counts.tets,
    frames: n,
    collisions: withCounters > 0 ? { dcd: dcd / withCounters, ccd: ccd / withCounters, all: (dcd + ccd) / withCounters, frames: withCounters } : null,
    operations: queries > 0 ? { q: q / queries, tr: tr / queries, tet: tet / queries, queries } : null,
    step: { h: first![0], substeps: first![1], iterations: first![2], varies, ...(impactFrames > 0 ? { impact: { meanSubsteps: takenSum / n, maxSubsteps: takenMax } } : {}) },
    frameMs: { mean: frameSum / n, max: frameMax },
    phases: PHASE_GROUPS.map((group, i) => ({ group, meanMs: groupSums[i] / n, share: total > 0 ? groupSums[i] / total : 0 })),
  };
}
