/**
 * The runner-format report as a whole document: what scripts/sim.ts writes with --out, and what
 * the page's recorder downloads. One type for both, so the two files have the same fields and
 * the same per-frame columns; src/runner/reportReader.ts checks a parsed file against it.
 */
import type { ParamChange } from '../scenes/types';
import type { Material } from '../sim/material';
import type { SolverParams } from '../contract/params';
import type { StateMeasures } from './measure';
import type { FrameEntry, RunSummary } from './report';
import type { Table1Row } from './table1';

/** A frame as the runner reports it, plus the page's drawing time (absent in the runner's files). */
export interface RecordedFrame extends FrameEntry {
  /** Time the page spent drawing this frame (ms); not part of wallMs. */
  renderMs?: number;
}

export interface ReportCounts {
  vertices: number;
  tets: number;
  edges?: number;
  tetColours?: number;
  edgeColours?: number;
}

export type MaterialEntry = { object: string } & Material;

/** Commit and date of the build that produced a file ('unknown' when they could not be read). */
export interface BuildInfo {
  commit: string;
  date: string;
}

export interface RunReport {
  /** 'runner' (scripts/sim.ts) or 'page' (the recorder); absent in runner files older than the field. */
  source?: 'runner' | 'page';
  scene: string;
  mesh?: string | null;
  adapter: string;
  /** Page only: navigator.userAgent. */
  browser?: string;
  build?: BuildInfo;
  /** How phasesMs was measured: 'timestamp-query' (GPU), 'cpu-wall', or the page's source names. */
  timing?: string;
  /** Solver parameters of the first frame; frames carry later changes in paramsChanged. */
  params: SolverParams;
  schedule?: ParamChange[];
  materials: MaterialEntry[];
  colliders?: string[];
  every?: number;
  dump?: string | null;
  counts: ReportCounts;
  buildMs?: number;
  initial?: { frame: 0; time: 0; state: StateMeasures };
  frames: RecordedFrame[];
  /** Runner only: needs the initial and final states. */
  summary?: RunSummary;
  table1?: Table1Row;
}
