/**
 * Air mode in the float64 CPU reference (sim/cpuSolver.ts): the air mesh built once, its
 * constraints projected every substep after the material iterations, and the mesh optimisation
 * run in the same thread every `airOptimizeFrames` frames, its result installed before the next
 * frame (the GPU solver runs it in a worker: gpuAirCollisions.ts).
 */
import type { SceneArrays } from '../../contract/sceneArrays';
import type { SolverParams } from '../../contract/params';
import { countOptimization, emptyAirCounters, type AirFrameCounters } from './airCounters';
import { AirConstraintCpu, colourAirTets, fixedAirVertices } from './airConstraintCpu';
import { airPositions, type AirMesh, type AirMeshStats, type AirSpec } from './airMesh';
import { buildAirMesh } from './buildAirMesh';
import { optimizeAirMesh } from './optimizeAirMesh';

export class CpuAirCollisions {
  readonly stats: AirMeshStats;
  private readonly built: AirMesh;
  private mesh: AirMesh;
  private readonly constraint: AirConstraintCpu;
  private colours: number;
  private frameCounters: AirFrameCounters;
  /** The air particles' positions (and the container's points), xyz each. */
  readonly points: Float64Array;

  constructor(
    model: SceneArrays,
    spec: AirSpec,
    invMass: ArrayLike<number>,
  ) {
    const built = buildAirMesh(model, spec);
    this.built = this.mesh = built.mesh;
    this.stats = built.stats;
    this.points = Float64Array.from(built.mesh.points);
    const colouring = colourAirTets(this.mesh, invMass);
    this.colours = colouring.colourCount;
    this.constraint = new AirConstraintCpu(this.mesh, colouring);
    this.frameCounters = emptyAirCounters(this.stats, this.colours);
  }

  /** Back to the air mesh as built (the solver's reset: flips made for deformed positions need not fit the rest state). */
  reset(invMass: ArrayLike<number>): void {
    this.mesh = this.built;
    this.points.set(this.built.points);
    const colouring = colourAirTets(this.mesh, invMass);
    this.colours = colouring.colourCount;
    this.constraint.setMesh(this.mesh, colouring);
  }

  get airMesh(): AirMesh {
    return this.mesh;
  }

  /** Starts a frame's counters. */
  beginFrame(): void {
    this.frameCounters = emptyAirCounters({ ...this.stats, airTets: this.mesh.tets.length / 4 }, this.colours);
  }

  /** One substep's constraint passes on positions x (edited in place; x0 the substep's start, for friction). */
  substep(x: Float64Array, x0: ArrayLike<number>, w: ArrayLike<number>, p: Readonly<SolverParams>): void {
    const c = this.constraint.project(x, w, p.airIterations, this.points, p.friction, x0);
    this.frameCounters.inverted += c.inverted;
    this.frameCounters.invertedAfter += c.invertedAfter;
  }

  /** After frame `frame` (0-based): the optimisation when due; returns the frame's counters. */
  endFrame(frame: number, x: Float64Array, w: ArrayLike<number>, p: Readonly<SolverParams>): AirFrameCounters {
    const counters = this.frameCounters;
    const every = p.airOptimizeFrames;
    if (every > 0 && (frame + 1) % every === 0) this.optimize(x, w, counters);
    return counters;
  }

  /** Air tets with det < 0 at model positions x. */
  countInverted(x: ArrayLike<number>): number {
    return this.constraint.countInverted(x, this.points);
  }

  private optimize(x: Float64Array, w: ArrayLike<number>, counters: AirFrameCounters): void {
    const r = optimizeAirMesh({ mesh: this.mesh, positions: airPositions(this.mesh, x, this.points), fixed: fixedAirVertices(this.mesh, w) });
    this.mesh = { ...this.mesh, tets: r.tets };
    this.colours = r.colouring.colourCount;
    this.constraint.setMesh(this.mesh, r.colouring);
    countOptimization(counters, r.stats);
  }
}
