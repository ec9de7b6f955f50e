/**
 * Air mode in the float64 CPU reference (sim/cpuSolver.ts): the air mesh built once, its
 * constraints projected after each material iteration (or once a substep after all of them:
 * SolverParams.collideEvery; the CPU solver calls round() once a collision round), and the mesh optimisation
 * run in the same thread every `airOptimizeFrames` frames, its result installed before the next
 * frame (the GPU solver runs it in a worker: gpuAirCollisions.ts).
 */
import type { SceneArrays } from '../../contract/sceneArrays';
import type { SolverParams } from '../../contract/params';
import { countOptimization, emptyAirCounters, type AirFrameCounters } from './airCounters';
import { AirConstraintCpu, airPassDispatches, colourAirTets, fixedAirVertices, type AirOrder } from './airConstraintCpu';
import { airPositions, type AirMesh, type AirMeshStats } from './airMesh';
import { buildAir, type AirContainer } from './buildAir';
import { optimizeAirMesh } from './optimizeAirMesh';

export class CpuAirCollisions {
  readonly stats: AirMeshStats;
  private readonly built: AirMesh;
  private mesh: AirMesh;
  private readonly constraint: AirConstraintCpu;
  private orders: AirOrder;
  private frameCounters: AirFrameCounters;
  /** The air particles' positions (and the container's points), xyz each. */
  readonly points: Float64Array;

  constructor(
    model: SceneArrays,
    container: AirContainer,
    invMass: ArrayLike<number>,
    /** The mesher setting it was built for (the solver rebuilds when it changes). */
    readonly mesher: string = container.mesher,
  ) {
    const built = buildAir(model, container);
    this.built = this.mesh = built.mesh;
    this.stats = built.stats;
    this.points = Float64Array.from(built.mesh.points);
    this.orders = colourAirTets(this.mesh, invMass, model.restPositions);
    this.constraint = new AirConstraintCpu(this.mesh, this.orders);
    this.frameCounters = emptyAirCounters(this.stats, this.orders.colouring.colourCount, airPassDispatches(this.orders, 'partitioned'));
  }

  /** Back to the air mesh as built (the solver's reset: flips made for deformed positions need not fit the rest state). */
  reset(invMass: ArrayLike<number>, restPositions: ArrayLike<number>): void {
    this.mesh = this.built;
    this.points.set(this.built.points);
    this.orders = colourAirTets(this.mesh, invMass, restPositions);
    this.constraint.setMesh(this.mesh, this.orders);
  }

  get airMesh(): AirMesh {
    return this.mesh;
  }

  /** Starts a frame's counters. */
  beginFrame(solve: SolverParams['airSolve']): void {
    this.frameCounters = emptyAirCounters({ ...this.stats, airTets: this.mesh.tets.length / 4 }, this.orders.colouring.colourCount, airPassDispatches(this.orders, solve));
  }

  /** One collision round's constraint passes on positions x (edited in place; x0 the substep's start, for friction); round `round` of `rounds` in the substep. */
  round(x: Float64Array, x0: ArrayLike<number>, w: ArrayLike<number>, p: Readonly<SolverParams>, round = 0, rounds = 1): void {
    const c = p.airSolve === 'jacobi'
      ? this.constraint.projectJacobi(x, w, p.airIterations, this.points, p.friction, x0)
      : this.constraint.project(x, w, p.airIterations, this.points, p.friction, x0, p.airSolve);
    // Per substep, as the counters say: found inverted by its first round's first pass, still
    // inverted after its last round's last pass.
    if (round === 0) this.frameCounters.inverted += c.inverted;
    if (round === rounds - 1) this.frameCounters.invertedAfter += c.invertedAfter;
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
    this.orders = r.orders;
    this.constraint.setMesh(this.mesh, r.orders);
    countOptimization(counters, r.stats);
  }
}
