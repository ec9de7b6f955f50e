/**
 * Parameter schedules (a scene's ParamChange list): checking them, and the changes due before
 * a given frame. The page and the runner both apply them through Simulation.setParams between
 * frames, never inside one.
 */
import { checkParams, type SolverParams } from '../contract/params';
import type { ParamChange } from './types';

/** Throws naming the entry when a frame is not an integer >= 0 or a change gives bad parameters. */
export function checkSchedule(initial: SolverParams, schedule: readonly ParamChange[]): void {
  schedule.forEach((c, i) => {
    if (!(Number.isInteger(c.frame) && c.frame >= 0)) throw new RangeError(`schedule entry ${i}: frame must be an integer >= 0, got ${c.frame}`);
  });
  // Every parameter set the run goes through must be valid, not only the first.
  let p = { ...initial };
  for (const c of sortedSchedule(schedule)) {
    p = { ...p, ...c.params };
    try {
      checkParams(p);
    } catch (e) {
      throw new RangeError(`schedule at frame ${c.frame}: ${(e as Error).message}`);
    }
  }
}

/** The entries by frame, stable for equal frames (a later entry overrides an earlier one). */
export function sortedSchedule(schedule: readonly ParamChange[]): ParamChange[] {
  return schedule.map((c, i) => ({ c, i })).sort((a, b) => a.c.frame - b.c.frame || a.i - b.i).map((x) => x.c);
}

/** The parameters to set once `completed` frames are done (before simulating frame `completed`); undefined when none. */
export function changesAt(schedule: readonly ParamChange[], completed: number): Partial<SolverParams> | undefined {
  let out: Partial<SolverParams> | undefined;
  for (const c of sortedSchedule(schedule)) if (c.frame === completed) out = { ...out, ...c.params };
  return out;
}

/** The parameters in force during frame `frame` (0 = the first): the initial ones with every change up to it. */
export function paramsDuring(initial: SolverParams, schedule: readonly ParamChange[], frame: number): SolverParams {
  let p = { ...initial };
  for (const c of sortedSchedule(schedule)) if (c.frame <= frame) p = { ...p, ...c.params };
  return p;
}

/**
 * The schedule without the parameters in `fixed` (those the user set for the whole run),
 * entries left empty dropped.
 */
export function withoutParams(schedule: readonly ParamChange[], fixed: readonly (keyof SolverParams)[]): ParamChange[] {
  const out: ParamChange[] = [];
  for (const c of schedule) {
    const params: Partial<SolverParams> = { ...c.params };
    for (const k of fixed) delete params[k];
    if (Object.keys(params).length > 0) out.push({ frame: c.frame, params });
  }
  return out;
}
