/**
 * The material phase (DESIGN.md "One time step"): `iterations` x (material constraints, then
 * the colliders), in one compute pass per substep (per collision round when the collisions run
 * after every iteration, SolverParams.collideEvery). Constraints are the Neo-Hookean tet blocks
 * (xpbdNeoHookean.wgsl) or the edge springs (xpbdSpring.wgsl), solved in one of three orders:
 * partitioned Gauss-Seidel (one dispatch per pass of partitionedColouring.ts, each workgroup
 * sweeping its cell's local colours, lib/cellSweep.wgsl; the leftovers one more pass of one
 * cell, or, past LEFTOVER_CELL_LIMIT, one dispatch per leftover colour),
 * Gauss-Seidel (one dispatch per colour, the colour's range in its slot) or Jacobi (one
 * dispatch over all elements, then xpbdGather.wgsl sums each vertex's corrections). The multipliers restart
 * every substep (XPBD, Macklin et al. 2016, Alg. 1 line 5), except with warmStart in the
 * Gauss-Seidel orders, where the Neo-Hookean tets start from a share of the previous substep's
 * (xpbdNeoHookean.wgsl warmStart at the substep's start positions, recorded in predict's pass by
 * PredictStage through encodeWarmStartAndPredict; its corrections are gathered by predict's own
 * kernel, xpbdPredictWarm.wgsl: 1 dispatch a substep more than predict). Owns the constraint
 * buffers; bind groups built once here. CPU reference: cpuSolver.ts / constraintsCpu.ts.
 */
import { dispatchGrid, storageBuffer, WORKGROUP_SIZE } from '../../gpu/buffers';
import type { XpbdKernels } from '../gpuKernels';
import { WARM_START_SHARE } from '../constraintsCpu';
import type { Model } from '../model';
import { cellRanges } from '../../mesh/partitionedColouring';
import { cellFinalVertices, type CellFinalVertices } from '../../mesh/cellFinalVertices';
import { firstIterationOfRound, lineSearchInSweep, MIN_MIXING_SWEEPS, type SolverParams } from '../../contract/params';
import { RestShapeKernel } from '../restShape';
import type { AfterMaterialSweep, GpuStage, PhaseName, SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { CollidersStage } from './collidersStage';
import type { XpbdFrame } from './xpbdFrame';
import type { WarmStartBuffers, WarmStartedPredict } from './predictStage';
import { MaterialAnderson } from './materialAnderson';

export class MaterialStage implements GpuStage, WarmStartedPredict {
  readonly phase: PhaseName = 'material';
  /** Round r of a substep runs iterations [r I / R, (r + 1) I / R) (SolverParams.collideEvery). */
  readonly perRound = true;
  /** Per tet Dm^-1 (3 vec4 columns), then per tet its constants (1 vec4; Model.tetConstants). */
  private readonly tetData: GPUBuffer;
  /** Per tet the 3x3 multiplier S of the Neo-Hookean step, 3 vec4 columns (constraintsCpu.ts). */
  private readonly tetLambda: GPUBuffer;
  private readonly edgeLambda: GPUBuffer;
  private readonly neoHookeanGroup: GPUBindGroup;
  private readonly springGroup: GPUBindGroup;
  /** The same bindings with colourOrder = the partitioned order. */
  private readonly neoHookeanPartitionGroup: GPUBindGroup;
  private readonly springPartitionGroup: GPUBindGroup;
  private readonly gatherTetGroup: GPUBindGroup;
  private readonly gatherEdgeGroup: GPUBindGroup;
  private readonly vertexGrid: [number, number];
  private readonly owned: GPUBuffer[] = [];
  /** Iteration plans by solve order and constraint (plan()). */
  private readonly plans = new Map<string, IterationPlan>();
  /** The substep's dynamic offset, reused (no array per call). */
  private readonly substepSlot = new Uint32Array(1);
  /**
   * The warm start's gather inside predict's kernel (xpbdPredictWarm.wgsl): warm start + 1
   * dispatch a substep. False: warm start, predict, gather (3; the same f32 frames, for tests).
   */
  fusePredictWithWarmStart = true;
  /**
   * Partitioned Neo-Hookean with colliders: each cell projects the vertices whose last visit of
   * the iteration it holds (xpbdNeoHookeanColliders.wgsl) instead of the colliders' pass after
   * the iteration, one dispatch less an iteration. Only when every vertex has such a cell
   * (cellFinalVertices). False: the separate pass (the same frames, for tests).
   */
  fuseCollidersIntoCells = true;
  private predictWarmGroup!: GPUBindGroup;
  /** What predict's gather reads (xpbdPredictWarm.wgsl; also the finalize that predicts the next substep). */
  readonly warmStartBuffers: WarmStartBuffers;
  /** Null when some vertex has no cell of its last visit (collidersRunInCells false). */
  private cellsCollidersGroup: GPUBindGroup | null = null;
  /** One thread per tet (the warm start). */
  private readonly tetGrid: [number, number];
  /** Substep length the Neo-Hookean multipliers in tetLambda were solved with, as recorded so far (null: none since the reset, or springs ran). */
  private multipliersH: number | null = null;
  /** Anderson acceleration of the Neo-Hookean iterations (SolverParams.andersonDepth), its buffers made on first use. */
  private readonly anderson: MaterialAnderson;
  /** Encoded after every sweep (and the colliders), before Anderson's mixing: the sliver lift of sliverFloorInSweeps (GpuSolver sets it when collisions are built). */
  afterSweep?: AfterMaterialSweep;

  constructor(
    device: GPUDevice,
    private readonly model: Model,
    state: GpuState,
    tets: GPUBuffer,
    private readonly kernels: XpbdKernels,
    private readonly frame: XpbdFrame,
    private readonly colliders: CollidersStage,
    private readonly params: () => Readonly<SolverParams>,
  ) {
    const m = model;
    const own = (b: GPUBuffer) => (this.owned.push(b), b);
    // Dm^-1 from the rest-shape kernel (f32, from the same f32 rest positions the GPU starts from).
    const rest = new RestShapeKernel(device).run(new Float32Array(m.restPositions), m.tets);
    this.tetData = own(storageBuffer(device, 'xpbd.tetData', 64 * m.tetCount));
    const copy = device.createCommandEncoder({ label: 'xpbd.tetData' });
    copy.copyBufferToBuffer(rest.dmInv, 0, this.tetData, 0, 48 * m.tetCount);
    device.queue.submit([copy.finish()]);
    rest.dmInv.destroy();
    rest.volume.destroy();
    this.writeConstants(device.queue);
    this.tetLambda = own(storageBuffer(device, 'xpbd.tetLambda', 48 * m.tetCount));
    this.edgeLambda = own(storageBuffer(device, 'xpbd.edgeLambda', 4 * m.edgeCount));
    const tetCorrections = own(storageBuffer(device, 'xpbd.tetCorrections', 64 * m.tetCount));
    const edgeCorrections = own(storageBuffer(device, 'xpbd.edgeCorrections', 32 * m.edgeCount));
    const restLengthScale = new Float32Array(2 * m.edgeCount);
    for (let e = 0; e < m.edgeCount; e++) {
      restLengthScale[2 * e] = m.edgeRestLength[e];
      restLengthScale[2 * e + 1] = m.edgeJacobiScale[e];
    }
    const k = kernels;
    const f = frame.frame;
    const tetOrder = own(storageBuffer(device, 'xpbd.tetOrder', m.tetColouring.order));
    const tetPartitionOrder = own(storageBuffer(device, 'xpbd.tetPartitionOrder', m.tetPartition.order));
    const tetCellRanges = own(storageBuffer(device, 'xpbd.tetCellRanges', cellRanges(m.tetPartition)));
    const neoHookean = (colourOrder: GPUBuffer, label: string) =>
      k.neoHookean.group(
        { frame: f, positions: state.positions, tets, tetData: this.tetData, stress: this.tetLambda, colourOrder, corrections: tetCorrections, cellRanges: tetCellRanges, positionCarry: state.positionCarry },
        label,
      );
    this.neoHookeanGroup = neoHookean(tetOrder, 'xpbd.neoHookean');
    this.neoHookeanPartitionGroup = neoHookean(tetPartitionOrder, 'xpbd.neoHookeanPartitioned');
    const edges = own(storageBuffer(device, 'xpbd.edges', m.edges));
    const restLength = own(storageBuffer(device, 'xpbd.restLength', restLengthScale));
    const edgeOrder = own(storageBuffer(device, 'xpbd.edgeOrder', m.edgeColouring.order));
    const edgePartitionOrder = own(storageBuffer(device, 'xpbd.edgePartitionOrder', m.edgePartition.order));
    const edgeCellRanges = own(storageBuffer(device, 'xpbd.edgeCellRanges', cellRanges(m.edgePartition)));
    const spring = (colourOrder: GPUBuffer, label: string) =>
      k.spring.group(
        { frame: f, positions: state.positions, edges, restLength, lambda: this.edgeLambda, colourOrder, corrections: edgeCorrections, cellRanges: edgeCellRanges },
        label,
      );
    this.springGroup = spring(edgeOrder, 'xpbd.spring');
    this.springPartitionGroup = spring(edgePartitionOrder, 'xpbd.springPartitioned');
    this.gatherTetGroup = k.gatherTable.group(
      {
        frame: f,
        positions: state.positions,
        offsets: own(storageBuffer(device, 'xpbd.vertexTetOffsets', m.vertexTetOffsets)),
        corners: own(storageBuffer(device, 'xpbd.vertexTetCorners', m.vertexTetCorners)),
        corrections: tetCorrections,
      },
      'xpbd.gatherTets',
    );
    this.gatherEdgeGroup = k.gatherTable.group(
      {
        frame: f,
        positions: state.positions,
        offsets: own(storageBuffer(device, 'xpbd.vertexEdgeOffsets', m.vertexEdgeOffsets)),
        corners: own(storageBuffer(device, 'xpbd.vertexEdgeCorners', m.vertexEdgeCorners)),
        corrections: edgeCorrections,
      },
      'xpbd.gatherEdges',
    );
    this.vertexGrid = dispatchGrid(m.vertexCount);
    this.tetGrid = dispatchGrid(m.tetCount);
    this.anderson = new MaterialAnderson(device, kernels, frame, state.positions, this.tetLambda, state.velocities, m.vertexCount, m.tetCount);
    // predictWarm's vertex -> tet-corner table in one array (its kernel is at 8 storage buffers).
    const vertexTets = new Uint32Array(m.vertexTetOffsets.length + m.vertexTetCorners.length);
    vertexTets.set(m.vertexTetOffsets, 0);
    vertexTets.set(m.vertexTetCorners, m.vertexTetOffsets.length);
    const vertexTetsBuffer = own(storageBuffer(device, 'xpbd.vertexTets', vertexTets));
    this.warmStartBuffers = { vertexTets: vertexTetsBuffer, corrections: tetCorrections, tets, tetData: this.tetData, stress: this.tetLambda };
    // The partitioned cells with the colliders (xpbdNeoHookeanColliders.wgsl), when every vertex
    // has a cell of its last visit.
    const finals = cellFinalVertices(m.tetPartition, m.tets, 4, m.vertexCount);
    const cellTopo = finals ? own(storageBuffer(device, 'xpbd.cellTopo', cellTopoWords(m, finals))) : null;
    // Both groups bind the colliders' or handles' samples, reallocated when the substeps grow.
    frame.bindScripts(({ colliders, handles }) => {
      this.predictWarmGroup = k.predictWarmTable.group({
        frame: f,
        positions: state.positions,
        prev: state.prev,
        velocities: state.velocities,
        rest: frame.rest,
        objectStatus: frame.objectStatus,
        handles,
        vertexTets: vertexTetsBuffer,
        corrections: tetCorrections,
      }, 'xpbd.predictWarm');
      if (cellTopo) {
        this.cellsCollidersGroup = k.neoHookeanCollidersTable.group({
          frame: f,
          positions: state.positions,
          cellTopo,
          tetData: this.tetData,
          stress: this.tetLambda,
          prev: state.prev,
          velocities: state.velocities,
          colliders,
          objectStatus: frame.objectStatus,
          colliderContacts: frame.colliderContacts,
          positionCarry: state.positionCarry,
        }, 'xpbd.neoHookeanColliders');
      }
    });
  }

  /**
   * The warm-start share of the next recorded frame's first substep (Frame.warmFirst): the
   * share of the multipliers left by the frame recorded before it when they were Neo-Hookean
   * ones of the same substep length, else 0 (a cold start). Call once per recorded frame, in
   * recording order; the CPU twin makes the same choice per substep (CpuSolver).
   */
  firstSubstepWarmShare(p: Readonly<SolverParams>): number {
    const h = p.dt / p.substeps;
    const nh = p.constraint === 'neohookean';
    const share = nh && this.multipliersH === h ? WARM_START_SHARE : 0;
    this.multipliersH = nh ? h : null;
    return share;
  }

  /** After the solver's reset: the next frame starts cold. */
  reset(): void {
    this.multipliersH = null;
  }

  /** Uploads the per-tet constants (at construction, and again after a material change). */
  writeConstants(queue: GPUQueue): void {
    queue.writeBuffer(this.tetData, 48 * this.model.tetCount, new Float32Array(this.model.tetConstants));
  }

  /**
   * The dispatches of one iteration in `order` for `constraint`, as flat lists (built on first
   * use, then reused: recording allocates nothing per substep): per dispatch its slot's dynamic
   * offset and grid, and where the leftover colours start (their pipeline differs).
   */
  private plan(order: SolverParams['solveOrder'], constraint: SolverParams['constraint'], reuse = false): IterationPlan {
    const key = `${order}/${constraint}${reuse ? '/reuse' : ''}`;
    const cached = this.plans.get(key);
    if (cached) return cached;
    const m = this.model;
    const nh = constraint === 'neohookean';
    const offsets: number[] = [];
    const grids: number[] = [];
    const add = (offset: number, count: number): void => {
      const g = dispatchGrid(count);
      offsets.push(offset);
      grids.push(g[0], g[1]);
    };
    let leftoverStart = 0;
    if (order === 'partitioned') {
      const partition = nh ? m.tetPartition : m.edgePartition;
      partition.passes.forEach((cells, g) => {
        if (cells.cellCount > 0) add(this.frame.passOffset(constraint, g, reuse), cells.cellCount * WORKGROUP_SIZE);
      });
      leftoverStart = offsets.length;
      for (let c = 0; c < partition.leftoverColourCount; c++) add(this.frame.leftoverOffset(constraint, c, reuse), partition.leftoverOffsets[c + 1] - partition.leftoverOffsets[c]);
    } else if (order === 'gauss-seidel') {
      const colouring = nh ? m.tetColouring : m.edgeColouring;
      for (let c = 0; c < colouring.colourCount; c++) add(this.frame.colourOffset(constraint, c, reuse), colouring.offsets[c + 1] - colouring.offsets[c]);
    }
    const plan: IterationPlan = { offsets: Uint32Array.from(offsets), grids: Uint32Array.from(grids), leftoverStart, elementGrid: dispatchGrid(nh ? m.tetCount : m.edgeCount) };
    this.plans.set(key, plan);
    return plan;
  }

  /** True when the substep's Neo-Hookean multipliers start warm (Gauss-Seidel orders, SolverParams.warmStart). */
  warmStarts(): boolean {
    const p = this.params();
    return p.constraint === 'neohookean' && p.warmStart && p.solveOrder !== 'jacobi';
  }

  /**
   * Predict's pass when warmStarts(): the warm start of every tet at the substep's start
   * positions (the previous substep's end), then predict with the warm corrections gathered in
   * the same kernel (predictWarm), or apart (fusePredictWithWarmStart false).
   */
  encodeWarmStartAndPredict(pass: GPUComputePassEncoder, step: SubstepContext): void {
    const k = this.kernels;
    this.encodeWarmStart(pass, step.slotOffset);
    // Predict reads the same substep slot (bind group 1, set by the warm start).
    if (this.fusePredictWithWarmStart) {
      this.dispatchPredictWarm(pass);
      step.countDispatches(2);
      return;
    }
    pass.setPipeline(k.predict);
    pass.setBindGroup(0, this.frame.integrateGroup);
    pass.dispatchWorkgroups(this.vertexGrid[0], this.vertexGrid[1]);
    pass.setPipeline(k.gather);
    pass.setBindGroup(0, this.gatherTetGroup);
    pass.dispatchWorkgroups(this.vertexGrid[0], this.vertexGrid[1]);
    step.countDispatches(3);
  }

  /**
   * The warm start alone (1 dispatch) for the substep whose slot is at `slotOffset`, at the
   * positions of now: predict's pass before predictWarm, or the previous substep's finalize before
   * it predicts this substep (FinalizeStage, xpbdFinalizeDampPredict.wgsl).
   */
  encodeWarmStart(pass: GPUComputePassEncoder, slotOffset: number): void {
    const slot = this.substepSlot;
    slot[0] = slotOffset;
    pass.setPipeline(this.kernels.neoHookeanWarmStart);
    pass.setBindGroup(0, this.neoHookeanGroup);
    pass.setBindGroup(1, this.frame.slotGroup, slot, 0, 1);
    pass.dispatchWorkgroups(this.tetGrid[0], this.tetGrid[1]);
  }

  /**
   * predictWarm alone (1 dispatch) for the substep whose slot is at `slotOffset`, its warm start
   * recorded before it: the previous substep's finalize beside its damping
   * (FinalizeStage, xpbdFinalizeDampWarm.wgsl).
   */
  encodePredictWarm(pass: GPUComputePassEncoder, slotOffset: number): void {
    const slot = this.substepSlot;
    slot[0] = slotOffset;
    pass.setBindGroup(1, this.frame.slotGroup, slot, 0, 1);
    this.dispatchPredictWarm(pass);
  }

  /** predictWarm's dispatch, bind group 1 (the substep's slot) set by the caller. */
  private dispatchPredictWarm(pass: GPUComputePassEncoder): void {
    pass.setPipeline(this.kernels.predictWarm);
    pass.setBindGroup(0, this.predictWarmGroup);
    pass.dispatchWorkgroups(this.vertexGrid[0], this.vertexGrid[1]);
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    const p = this.params();
    const k = this.kernels;
    const nh = p.constraint === 'neohookean';
    const plan = this.plan(p.solveOrder, p.constraint);
    const elementGrid = plan.elementGrid;
    const group = nh ? this.neoHookeanGroup : this.springGroup;
    const colliders = this.colliders.active();
    // Leftover colours dispatched one by one never occur here (cellFinalVertices is null then).
    const collidersInCells = colliders && nh && p.solveOrder === 'partitioned' && this.cellsCollidersGroup !== null && this.fuseCollidersIntoCells;
    const slot = this.substepSlot;
    slot[0] = step.slotOffset;
    const first = firstIterationOfRound(step.round, step.rounds, p.iterations);
    const end = firstIterationOfRound(step.round + 1, step.rounds, p.iterations);
    if (first === end) return;
    // Multipliers restart every substep, or (warm start, recorded with predict) from a share of the last substep's.
    if (!this.warmStarts() && first === 0) encoder.clearBuffer(nh ? this.tetLambda : this.edgeLambda);
    // Anderson acceleration: each round's iterations are one fixed-point run (CpuSolver's order:
    // begin, then after each sweep and the colliders).
    // A round too short to mix (MIN_MIXING_SWEEPS) records nothing of it.
    const anderson = nh && p.andersonDepth > 0 && end - first >= MIN_MIXING_SWEEPS ? this.anderson : null;
    anderson?.prepare(p.andersonDepth, p.iterations);
    const lift = this.afterSweep?.active() ? this.afterSweep : null;
    const pass = step.beginPass(encoder, 'material');
    anderson?.begin(pass, step);
    // An accelerated run's later sweeps reuse each tet's searched step length
    // (SolverParams.andersonLineSearchSweeps): the same dispatches on the slots whose d says so.
    const reusePlan = anderson && p.lineSearch && nh ? this.plan(p.solveOrder, p.constraint, true) : plan;
    for (let it = first; it < end; it++) {
      const { offsets, grids, leftoverStart } = lineSearchInSweep(p, anderson !== null, it - first) === 'reuse' ? reusePlan : plan;
      if (p.solveOrder === 'jacobi') {
        pass.setPipeline(nh ? k.neoHookeanJacobi : k.springJacobi);
        pass.setBindGroup(0, group);
        pass.setBindGroup(1, this.frame.slotGroup, slot, 0, 1);
        pass.dispatchWorkgroups(elementGrid[0], elementGrid[1]);
        pass.setPipeline(k.gather);
        pass.setBindGroup(0, nh ? this.gatherTetGroup : this.gatherEdgeGroup);
        pass.dispatchWorkgroups(this.vertexGrid[0], this.vertexGrid[1]);
        step.countDispatches(2);
      } else {
        const partitioned = p.solveOrder === 'partitioned';
        if (collidersInCells) {
          pass.setPipeline(k.neoHookeanCellsColliders);
          pass.setBindGroup(0, this.cellsCollidersGroup!);
          pass.setBindGroup(2, this.frame.slotGroup, slot, 0, 1);
        } else {
          pass.setPipeline(partitioned ? (nh ? k.neoHookeanCells : k.springCells) : nh ? k.neoHookeanColour : k.springColour);
          pass.setBindGroup(0, partitioned ? (nh ? this.neoHookeanPartitionGroup : this.springPartitionGroup) : group);
        }
        for (let d = 0; d < offsets.length; d++) {
          // Partitioned: the leftover colours after the cell passes, one dispatch each by colour.
          if (partitioned && d === leftoverStart) pass.setPipeline(nh ? k.neoHookeanColour : k.springColour);
          pass.setBindGroup(1, this.frame.slotGroup, offsets, d, 1);
          pass.dispatchWorkgroups(grids[2 * d], grids[2 * d + 1]);
        }
        step.countDispatches(offsets.length);
      }
      if (colliders && !collidersInCells) this.colliders.encodeInPass(pass, step);
      if (lift) step.countDispatches(lift.encode(pass, state));
      anderson?.afterSweep(pass, step, it - first);
    }
    pass.end();
  }

  destroy(): void {
    for (const b of this.owned) b.destroy();
    this.anderson.destroy();
  }
}

/** One iteration's constraint dispatches (MaterialStage.plan). */
interface IterationPlan {
  /** Per dispatch, its slot's dynamic offset. */
  offsets: Uint32Array;
  /** Per dispatch, its grid (x, y). */
  grids: Uint32Array;
  /** Partitioned order: the first leftover-colour dispatch (offsets.length when none). */
  leftoverStart: number;
  /** Jacobi: one thread per element. */
  elementGrid: [number, number];
}

/**
 * xpbdNeoHookeanColliders.wgsl's u32 array: 4 header words (where the solve order, the cells'
 * ranges, the final vertices' offsets and the final vertices start), the tets' corners (4 per
 * tet), then those four sections.
 */
function cellTopoWords(m: Model, finals: CellFinalVertices): Uint32Array {
  const ranges = cellRanges(m.tetPartition);
  const order = m.tetPartition.order;
  const offOrder = 4 + m.tets.length;
  const offRanges = offOrder + order.length;
  const offOffsets = offRanges + ranges.length;
  const offVertices = offOffsets + finals.offsets.length;
  const words = new Uint32Array(offVertices + finals.vertices.length);
  words.set([offOrder, offRanges, offOffsets, offVertices], 0);
  words.set(m.tets, 4);
  words.set(order, offOrder);
  words.set(ranges, offRanges);
  words.set(finals.offsets, offOffsets);
  words.set(finals.vertices, offVertices);
  return words;
}

/** Whether the colliders of `model`'s partitioned Neo-Hookean order run inside its cells (MaterialStage: every vertex has a cell of its last visit). */
export function collidersRunInCells(model: Model): boolean {
  return cellFinalVertices(model.tetPartition, model.tets, 4, model.vertexCount) !== null;
}
