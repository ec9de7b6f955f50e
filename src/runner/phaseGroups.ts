/**
 * The frame-time breakdown shown by the page's chart and the Table-1 row: the solver's phases
 * (src/contract/stage.ts PhaseName, summed per frame by src/sim/timing.ts) folded into the groups of
 * the paper's Fig. 21 and Table 1 ("XPBD", "CCD", "DCD", "Ours"), plus what the page adds
 * around the solver:
 *   material       the XPBD solve (predict, material, contacts, finalize; 'xpbd' is the runner's
 *                  whole-frame entry without timestamp queries, 'solve' the CPU engine's)
 *   detect         DCD (Table 1's "DCD")
 *   shortest path  the shortest-path-to-boundary queries (Table 1's "Ours")
 *   CCD, BVH       continuous detection's narrow phase; BVH refits
 *   sync           wall time minus the phases' sum: submission, readbacks, waits for worker jobs
 *   render         drawing inside the frame's wall time (the CPU engine's 'show': copying its
 *                  positions into the view)
 *   other          a phase name not in the table (kept, not dropped, so the shares add up)
 * The groups of a frame add up to its wall time (or to the phases' sum when the GPU's time
 * exceeds it). The page's per-draw render time (RecordedFrame.renderMs) is not added: the page
 * draws on its own thread while the GPU simulates, inside the wall time between two frames, so
 * it is reported beside the frame time, never on top of it.
 */

export const PHASE_GROUPS = ['material', 'detect', 'shortest path', 'CCD', 'BVH', 'sync', 'render', 'other'] as const;
export type PhaseGroup = (typeof PHASE_GROUPS)[number];

const GROUP_OF_PHASE: Readonly<Record<string, PhaseGroup>> = {
  predict: 'material',
  material: 'material',
  contacts: 'material',
  finalize: 'material',
  xpbd: 'material',
  solve: 'material',
  detect: 'detect',
  spb: 'shortest path',
  ccd: 'CCD',
  bvh: 'BVH',
  sync: 'sync',
  show: 'render',
  render: 'render',
};

const INDEX: Readonly<Record<PhaseGroup, number>> = Object.fromEntries(PHASE_GROUPS.map((g, i) => [g, i])) as Record<PhaseGroup, number>;

export function groupOfPhase(phase: string): PhaseGroup {
  return Object.hasOwn(GROUP_OF_PHASE, phase) ? GROUP_OF_PHASE[phase]! : 'other';
}

export function groupIndex(group: PhaseGroup): number {
  return INDEX[group];
}

/** What one frame contributes: the solver's phase times and its wall time. */
export interface TimedFrame {
  wallMs: number;
  phasesMs: Readonly<Record<string, number>>;
}

/**
 * Writes the frame's ms per group into out[0 .. PHASE_GROUPS.length) (indices of PHASE_GROUPS)
 * and returns their sum, the frame time (the wall time, or more when the phases' GPU time
 * exceeds the wall time, in which case sync is 0).
 */
export function groupFrame(f: TimedFrame, out: Float64Array): number {
  if (out.length < PHASE_GROUPS.length) throw new RangeError(`groupFrame: out needs ${PHASE_GROUPS.length} slots, has ${out.length}`);
  out.fill(0, 0, PHASE_GROUPS.length);
  let phases = 0;
  for (const [name, ms] of Object.entries(f.phasesMs)) {
    out[INDEX[groupOfPhase(name)]] += ms;
    phases += ms;
  }
  const sync = Math.max(0, f.wallMs - phases);
  out[INDEX.sync] += sync;
  return phases + sync;
}
