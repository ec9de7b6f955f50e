/**
 * Air mode in the GPU time step (GpuSolver): the air mesh built on first use in that mode (its
 * size and build time in the counters), the 'air' stage after the material iterations
 * (airStage.ts), and the mesh optimisation (optimizeAirMesh.ts) every `airOptimizeFrames`
 * frames off the time step's thread: the frame due copies its end positions and the air's
 * points into a staging slot of its own command buffer; once the frame is processed the
 * snapshot goes to the optimiser (a worker of the pool when one is given); its result is
 * installed before the next frame recorded after it arrives (never waited for). One job at a
 * time; a result of a state that was reset is dropped. This object is the stage the time step
 * holds; it does nothing until the mode is 'air'.
 */
import type { SceneArrays } from '../../contract/sceneArrays';
import { effectiveCollisionMode, type SolverParams } from '../../contract/params';
import type { GpuStage, SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import { countOptimization, emptyAirCounters, type AirFrameCounters } from './airCounters';
import { colourAirTets, fixedAirVertices } from './airConstraintCpu';
import { airVertexCount, type AirMesh, type AirMeshStats } from './airMesh';
import { AIR_COUNTER_BYTES, AirStage } from './airStage';
import { inThreadAirBuilder, type AirBuilder, type AirContainer } from './buildAir';
import { airModelOf } from './buildAirMesh';
import { inThreadAirOptimizer, type AirOptimizer, type AirOptimizeResult, type AirOptimizeStats } from './optimizeAirMesh';

/** What afterFrame needs of a recorded frame. */
export interface AirFrameRecord {
  slot: number;
  snapshot: boolean;
  epoch: number;
  /** The frame ran the air stage (its counters are meaningful). */
  ran: boolean;
}

export class GpuAirCollisions implements GpuStage {
  readonly phase = 'air' as const;
  /** Runs after every material iteration when SolverParams.collideEvery says so (SubstepContext.round). */
  readonly perRound = true;
  private built?: { mesh: AirMesh; stats: AirMeshStats; stage: AirStage; tets: Uint32Array; mesher: string };
  /** Snapshot staging slots, made with the mesh (none before air mode is first used). */
  private staging: GPUBuffer[] = [];
  private recordIndex = 0;
  private epoch = 0;
  private job?: { epoch: number; done?: { result?: AirOptimizeResult; error?: string } };
  private installed: AirOptimizeStats[] = [];
  private warnings: string[] = [];
  private jacobiWarned = false;

  constructor(
    private readonly device: GPUDevice,
    private readonly model: SceneArrays,
    /** The container for the mesher the parameters name (sim/airContainer.ts). */
    private readonly container: (mesher: SolverParams['airMesher']) => AirContainer,
    private readonly params: () => Readonly<SolverParams>,
    private readonly optimizer: AirOptimizer = inThreadAirOptimizer,
    private readonly slots = 1,
    /** Builds the air mesh on first use (a worker of the pool keeps the page's thread free). */
    private readonly builder: AirBuilder = inThreadAirBuilder,
  ) {}

  /** Whether the frame now recorded runs air mode. */
  private wanted(): boolean {
    const p = this.params();
    return p.collisions && effectiveCollisionMode(p) === 'air';
  }

  /** The air mesh's build figures (null until built). */
  get meshStats(): AirMeshStats | null {
    return this.built?.stats ?? null;
  }

  /** The stage (built on first use in air mode). */
  get stage(): AirStage | null {
    return this.built?.stage ?? null;
  }

  active(): boolean {
    return this.wanted() && this.built !== undefined;
  }

  /** Before a frame is recorded: the mesh built when air mode is first used (awaited); a finished optimisation installed. */
  async prepareFrame(): Promise<void> {
    if (!this.wanted()) return;
    // Built on first use, and again when the mesher setting changed (the old mesh's job is dropped).
    if (this.built && this.built.mesher !== this.params().airMesher) {
      this.built.stage.destroy();
      this.built = undefined;
      this.epoch++;
      this.job = undefined;
    }
    if (!this.built) await this.build();
    const done = this.job?.done;
    if (!done) return;
    this.job = undefined;
    if (done.error !== undefined) {
      this.warnings.push(`air mesh optimisation failed in its worker (the air mesh stays): ${done.error}`);
      return;
    }
    const r = done.result!;
    this.built!.tets = r.tets;
    this.built!.stage.setTopology(r.tets, r.orders);
    this.installed.push(r.stats);
  }

  private async build(): Promise<void> {
    const mesher = this.params().airMesher;
    const { mesh, stats } = await this.builder(airModelOf(this.model), this.container(mesher));
    if (this.built) return;
    const orders = colourAirTets(mesh, this.model.invMass, this.model.restPositions);
    const stage = new AirStage(this.device, mesh, orders, () => this.params(), () => this.wanted());
    const pointBytes = 16 * (mesh.points.length / 3);
    for (const s of this.staging) s.destroy();
    this.staging = Array.from({ length: this.slots }, (_, k) => this.device.createBuffer({
      label: `air.snapshot${k}`,
      size: Math.max(16, 16 * this.model.vertexCount + pointBytes),
      usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
    }));
    this.built = { mesh, stats, stage, tets: mesh.tets, mesher };
  }

  beginFrame(encoder: GPUCommandEncoder): void {
    this.built?.stage.beginFrame(encoder);
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    this.built?.stage.encode(encoder, state, step);
  }

  /** Bytes this part adds to the frame's readback. */
  get readbackBytes(): number {
    return 16;
  }

  encodeReadback(encoder: GPUCommandEncoder, staging: GPUBuffer, offset: number): void {
    if (this.built && this.active()) encoder.copyBufferToBuffer(this.built.stage.counters, 0, staging, offset, AIR_COUNTER_BYTES);
  }

  /** After the frame's stages: the snapshot for the optimisation when one is due. */
  endRecording(encoder: GPUCommandEncoder, state: GpuState, slot = 0): AirFrameRecord {
    const ran = this.active();
    const every = this.params().airOptimizeFrames;
    const snapshot = ran && every > 0 && (this.recordIndex + 1) % every === 0 && !this.job;
    if (snapshot) {
      const bytes = 16 * this.model.vertexCount;
      encoder.copyBufferToBuffer(state.positions, 0, this.staging[slot], 0, bytes);
      const pointBytes = this.built!.mesh.points.length / 3;
      if (pointBytes > 0) encoder.copyBufferToBuffer(this.built!.stage.pointBuffer, 0, this.staging[slot], bytes, 16 * pointBytes);
      // Claimed now, so that the next frame recorded before this one is processed starts none.
      this.job = { epoch: this.epoch };
    }
    this.recordIndex++;
    return { slot, snapshot, epoch: this.epoch, ran };
  }

  /** After the frame completed: its counters (`words` from this part's offset), the optimisation started from its snapshot. */
  async afterFrame(words: Uint32Array, rec: AirFrameRecord): Promise<AirFrameCounters | null> {
    if (rec.epoch !== this.epoch || !this.built) return null;
    if (rec.snapshot) {
      const job = this.job!;
      try {
        const positions = await this.mapSnapshot(rec.slot);
        if (rec.epoch === this.epoch) this.startJob(positions, job);
      } catch (e) {
        job.done = { error: e instanceof Error ? e.message : String(e) };
      }
    }
    const b = this.built;
    const counters = emptyAirCounters({ ...b.stats, airTets: b.stage.airTetCount }, b.stage.colourCount, b.stage.passDispatches(this.params().airSolve));
    if (rec.ran) {
      counters.inverted = words[0];
      counters.invertedAfter = words[1];
    }
    for (const s of this.installed) countOptimization(counters, s);
    if (this.params().airSolve === 'jacobi' && !this.jacobiWarned) {
      this.jacobiWarned = true;
      this.warnings.push("air solve order 'jacobi' runs in the CPU reference only: the GPU stage runs 'partitioned' Gauss-Seidel (Jacobi converged far slower, docs/benchmarks.md)");
    }
    this.installed = [];
    return counters;
  }

  /** Warnings since the last call (failed optimisations). */
  takeWarnings(): string[] {
    const w = this.warnings;
    this.warnings = [];
    return w;
  }

  private async mapSnapshot(slot: number): Promise<Float64Array> {
    const b = this.built!;
    const staging = this.staging[slot];
    await staging.mapAsync(GPUMapMode.READ);
    const v = new Float32Array(staging.getMappedRange().slice(0));
    staging.unmap();
    const n = airVertexCount(b.mesh);
    const positions = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) {
      positions[3 * i] = v[4 * i];
      positions[3 * i + 1] = v[4 * i + 1];
      positions[3 * i + 2] = v[4 * i + 2];
    }
    return positions;
  }

  private startJob(positions: Float64Array, job: NonNullable<typeof this.job>): void {
    const b = this.built!;
    const mesh = { ...b.mesh, tets: b.tets };
    const invMass = new Float64Array(this.model.vertexCount);
    for (let v = 0; v < this.model.vertexCount; v++) invMass[v] = this.model.invMass[v];
    this.optimizer({ mesh, positions, fixed: fixedAirVertices(mesh, invMass) }).then(
      (result) => { if (job.epoch === this.epoch) job.done = { result }; },
      (error: unknown) => { if (job.epoch === this.epoch) job.done = { error: error instanceof Error ? error.message : String(error) }; },
    );
  }

  /** The solver's reset: the air mesh as built, the particles at their start, no job pending. */
  reset(): void {
    this.epoch++;
    this.job = undefined;
    this.installed = [];
    this.recordIndex = 0;
    const b = this.built;
    if (!b) return;
    b.tets = b.mesh.tets;
    b.stage.setTopology(b.mesh.tets, colourAirTets(b.mesh, this.model.invMass, this.model.restPositions));
    b.stage.resetPoints();
  }

  /** The time step destroys its stages (this one: the air stage's buffers). */
  destroy(): void {
    this.built?.stage.destroy();
  }

  /** The snapshot staging (the solver's own, not the time step's). */
  destroyStaging(): void {
    for (const s of this.staging) s.destroy();
  }
}
