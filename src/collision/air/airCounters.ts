/** Per-frame counters of air mode (runner JSON `collisions.air`, the page's counters). */
import type { AirMeshStats } from './airMesh';
import type { AirOptimizeStats } from './optimizeAirMesh';

export interface AirFrameCounters {
  /** Air tets this frame, and the colours of their Gauss-Seidel order (one dispatch each per pass on the GPU). */
  airTets: number;
  colours: number;
  /** Air tets found inverted in the substep's first constraint pass, summed over the substeps (the collisions). */
  inverted: number;
  /** Air tets still inverted after the substep's last pass, summed over the substeps (0 when the constraints converged). */
  invertedAfter: number;
  /** Mesh optimisations installed before this frame, their flips by kind, and their time in the worker (ms). */
  optimizations: number;
  edgeRemovals: number;
  multiFaceRemovals: number;
  optimizeMs: number;
  /** The air mesh's build (once per solver). */
  mesh: AirMeshStats;
}

export function emptyAirCounters(mesh: AirMeshStats, colours: number): AirFrameCounters {
  return { airTets: mesh.airTets, colours, inverted: 0, invertedAfter: 0, optimizations: 0, edgeRemovals: 0, multiFaceRemovals: 0, optimizeMs: 0, mesh };
}

/** Adds an installed optimisation's figures to the frame's counters. */
export function countOptimization(c: AirFrameCounters, s: AirOptimizeStats): void {
  c.optimizations++;
  c.edgeRemovals += s.edgeRemovals;
  c.multiFaceRemovals += s.multiFaceRemovals;
  c.optimizeMs += s.ms;
}
