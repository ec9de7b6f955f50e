/**
 * The inversion floor on the GPU (SolverParams.inversionFloor, sliverFloor; shaders/inversionFloor.wgsl,
 * CPU twin src/collision/cpu/inversionFloor.ts): the tets below floor x their rest volume are lifted
 * back to it, INVERSION_FLOOR_PASSES Jacobi passes (mass splitting) of three dispatches over the
 * vertices (uses, gather, apply), split impulse (positions and start positions move together).
 * Recovery mode: every tet, after each collision round's contacts (6 dispatches a round). Otherwise,
 * with sliverFloor: the sliver tets (flooredTets: relative quality below sliverQuality, or
 * sliverFloorQuality when that is higher) in the substep's last round only, Gauss-Seidel by colour
 * in one workgroup (liftSliversByColour; CPU twin liftSlivers), none where the scene has no sliver.
 * sliverLift 'after-contacts': after that round's contacts, one dispatch a substep, positions and
 * start positions together. 'with-contacts': `beforeCollisions`, a stage of its own, lifts the
 * positions before the round's collision stages, `betweenPasses` again before each contact pass
 * after the first (ContactStage calls it), the moves summed in `shift`; this stage gives them to the
 * start positions after the contacts (applySliverShift): 2 + (contactIterations - 1) dispatches a
 * substep, and the contacts' sweep one pass a dispatch (docs/collisions.md "The sliver lift with
 * the contacts"). 'holding-contacts': as 'after-contacts', the vertices a contact pushed this
 * substep (their touch words' CONTACT_PUSHED bit, set by the contacts) held still.
 * 'clipped-to-contacts' (the default): as 'after-contacts', each corner's gradient kept off the way
 * the last round's contacts between bodies push it (its push-direction words in the status buffer,
 * summed by ContactStage's sumPushDirections, cleared by predict: shaders/lib/pushDirection.wgsl). With
 * sliverFloorInSweeps, `afterSweep` lifts the slivers on the positions alone after every material
 * sweep too (MaterialStage encodes it into its pass: one dispatch an iteration). Each tet's floor
 * (floor x 6 V_rest, or NOT_FLOORED for the tets it does not hold) is uploaded when the settings
 * change. It counts the tets below the floor in the query list's header (QL.inversionFloorTets),
 * read back with the frame's other collision counters.
 */
import floorCode from '../../../shaders/inversionFloor.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer } from '../../gpu/buffers';
import { definePipelines, wgslPipeline } from '../../gpu/lazyPipelines';
import type { SolverParams } from '../../contract/params';
import type { AfterMaterialSweep, GpuStage, SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { SceneArrays } from '../../contract/sceneArrays';
import { colourSlivers, flooredTets, INVERSION_FLOOR_PASSES, restVolumes6 } from '../cpu/inversionFloor';
import type { BetweenContactPasses } from './contactStage';
import type { QueryList } from './queryList';

const PARAM_WORDS = 12;
/** Uniform slots: the counting first pass, the others, the lift inside the material sweeps. */
const SLOT_BYTES = 256;
const SLOTS = 3;
/** Where the sliver lift's moves go besides the positions (FloorParams.startMoves, shaders/inversionFloor.wgsl START_MOVES_*). */
const StartMoves = { prev: 0, shift: 1, none: 2 } as const;

export type InversionFloorSettings = Pick<SolverParams, 'collisions' | 'recovery' | 'inversionFloor' | 'sliverFloor' | 'sliverQuality' | 'sliverFloorQuality'> &
  Partial<Pick<SolverParams, 'sliverLift' | 'sliverFloorInSweeps'>>;

/**
 * The vertex -> tet-corner CSR and the tets the gather walks (Model's vertexTetOffsets /
 * vertexTetCorners), and each tet's rest quality over its object's median (the slivers).
 */
export interface FloorTopology {
  vertexTetOffsets: Uint32Array;
  vertexTetCorners: Uint32Array;
  relativeQuality: Float64Array;
}

/** A tet's floor when the floor does not hold it (shaders/inversionFloor.wgsl skips it): -3e38, finite in f32. */
export const NOT_FLOORED = -3e38;

/**
 * Each tet's floor in units of 6 V: floor x 6 V_rest for the tets the settings floor (every tet in
 * recovery mode; `slivers` with sliverFloor), NOT_FLOORED for the others; null when none is held.
 */
export function tetFloors(restVolume6: Float64Array, slivers: readonly number[], s: Readonly<InversionFloorSettings>): Float32Array<ArrayBuffer> | null {
  if (!s.collisions || !(s.inversionFloor > 0)) return null;
  if (s.recovery) return Float32Array.from(restVolume6, (v) => s.inversionFloor * v);
  if (!s.sliverFloor || slivers.length === 0) return null;
  const out = new Float32Array(restVolume6.length).fill(NOT_FLOORED);
  for (const t of slivers) out[t] = s.inversionFloor * restVolume6[t];
  return out;
}

export class InversionFloorStage implements GpuStage {
  readonly phase = 'contacts' as const;
  readonly perRound = true;
  private readonly table;
  private readonly uniforms: GPUBuffer;
  private readonly topo: GPUBuffer;
  private readonly floor6: GPUBuffer;
  private readonly restVolume6: Float64Array;
  private readonly relativeQuality: Float64Array;
  /** The slivers in colour order for liftSliversByColour: [colours, colourStart (colours + 1), tets]. */
  private readonly sliverOrder: GPUBuffer;
  private readonly tets: Uint32Array;
  /** The settings the uploaded floors were made for, and whether any tet is held. */
  private floorsFor?: { key: string; held: boolean };
  private readonly shift: GPUBuffer;
  private readonly uses: GPUBuffer;
  private readonly vertexCount: number;
  /** Where the corners and the tets start in `topo` (the offsets are at 0). */
  private readonly layout: { offCorners: number; offTets: number };
  declare private readonly countPipeline: GPUComputePipeline;
  declare private readonly gatherPipeline: GPUComputePipeline;
  declare private readonly applyPipeline: GPUComputePipeline;
  declare private readonly sliverPipeline: GPUComputePipeline;
  declare private readonly sliverShiftPipeline: GPUComputePipeline;
  /**
   * sliverLift 'with-contacts': the sliver lift on the positions before the last round's collision
   * stages (gpuCollisions.ts lists it first). Its phase is the material's: it is the slivers' volume
   * floor right after the round's material iterations (and the phases keep their order in timings
   * and counters). CPU twin: CpuCollisionStage.beginSliverLift.
   */
  readonly beforeCollisions: GpuStage;
  /** sliverLift 'with-contacts': the sliver lift again before each contact pass after the first of the last round (ContactStage.betweenPasses). */
  readonly betweenPasses: BetweenContactPasses;
  /** sliverFloorInSweeps: the sliver lift on the positions alone after every material sweep (MaterialStage.afterSweep). CPU twin: CpuCollisionStage.liftSliversInSweep. */
  readonly afterSweep: AfterMaterialSweep;
  private cached?: { positions: GPUBuffer; prev: GPUBuffer; list: GPUBuffer; groups: GPUBindGroup[] };

  constructor(
    private readonly device: GPUDevice,
    scene: SceneArrays & FloorTopology,
    private readonly queryList: QueryList,
    private readonly settings: () => Readonly<InversionFloorSettings>,
    /** The contacts' status buffer and its first vertex's touch word (ContactStage.pushedMarks), for sliverLift 'holding-contacts' and 'clipped-to-contacts'. */
    private readonly pushedMarks: { status: GPUBuffer; touchBase: number },
  ) {
    const n = scene.vertexCount;
    this.vertexCount = n;
    this.table = new BindingTable(device, 'contacts.inversionFloor', {
      params: 'uniform', positions: 'storage', prev: 'storage', topo: 'read-only-storage', floor6: 'read-only-storage', shift: 'storage', list: 'storage', uses: 'storage',
      sliverOrder: 'read-only-storage', status: 'read-only-storage',
    });
    definePipelines(this, {
      countPipeline: () => wgslPipeline(device, 'contacts.inversionFloor.count', floorCode, 'countFloorUses', [this.table.layout]),
      gatherPipeline: () => wgslPipeline(device, 'contacts.inversionFloor.gather', floorCode, 'gatherFloorShift', [this.table.layout]),
      applyPipeline: () => wgslPipeline(device, 'contacts.inversionFloor.apply', floorCode, 'applyFloorShift', [this.table.layout]),
      sliverPipeline: () => wgslPipeline(device, 'contacts.inversionFloor.slivers', floorCode, 'liftSliversByColour', [this.table.layout]),
      sliverShiftPipeline: () => wgslPipeline(device, 'contacts.inversionFloor.sliverShift', floorCode, 'applySliverShift', [this.table.layout]),
    });
    this.beforeCollisions = {
      phase: 'material',
      perRound: true,
      active: () => this.liftsWithContacts(),
      encode: (encoder, state, step) => {
        if (step.round !== step.rounds - 1) return;
        const pass = step.beginPass(encoder, 'material', 'material.sliverFloor');
        const dispatches = this.encodeSliverLift(pass, this.groups(state)[0]);
        pass.end();
        step.countDispatches?.(dispatches);
      },
    };
    this.betweenPasses = {
      active: (step) => step.round === step.rounds - 1 && this.liftsWithContacts(),
      // Slot 1: these lifts do not count (the CPU counts the first lift only).
      encode: (pass, state) => this.encodeSliverLift(pass, this.groups(state)[1]),
    };
    this.afterSweep = {
      active: () => {
        const s = this.settings();
        return (s.sliverFloorInSweeps ?? false) && !s.recovery && this.floorsHeld();
      },
      encode: (pass, state) => this.encodeSliverLift(pass, this.groups(state)[2]),
    };
    const offsets = scene.vertexTetOffsets, corners = scene.vertexTetCorners;
    const words = new Uint32Array(offsets.length + corners.length + scene.tets.length);
    words.set(offsets, 0);
    words.set(corners, offsets.length);
    words.set(scene.tets, offsets.length + corners.length);
    this.topo = storageBuffer(device, 'contacts.inversionFloor.topo', words);
    this.restVolume6 = restVolumes6(scene.restPositions, scene.tets);
    this.relativeQuality = scene.relativeQuality;
    this.tets = scene.tets;
    // At most one colour per sliver: 2 + 2 words per tet cover any threshold.
    this.sliverOrder = device.createBuffer({ label: 'contacts.inversionFloor.sliverOrder', size: 4 * (2 + 2 * scene.tetCount), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.floor6 = device.createBuffer({ label: 'contacts.inversionFloor.floor6', size: Math.max(16, 4 * scene.tetCount), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    this.shift = device.createBuffer({ label: 'contacts.inversionFloor.shift', size: Math.max(16, 16 * n), usage: GPUBufferUsage.STORAGE });
    this.uses = device.createBuffer({ label: 'contacts.inversionFloor.uses', size: Math.max(16, 4 * n), usage: GPUBufferUsage.STORAGE });
    this.uniforms = uniformBuffer(device, 'contacts.inversionFloor.params', SLOTS * SLOT_BYTES);
    this.layout = { offCorners: offsets.length, offTets: offsets.length + corners.length };
  }

  /** Uploads each tet's floor when the settings changed; whether the floor holds any tet. */
  private floorsHeld(): boolean {
    const s = this.settings();
    const key = `${s.collisions} ${s.recovery} ${s.inversionFloor} ${s.sliverFloor} ${s.sliverQuality} ${s.sliverFloorQuality}`;
    if (this.floorsFor?.key !== key) {
      const slivers = flooredTets(this.relativeQuality, s);
      const floors = tetFloors(this.restVolume6, slivers, s);
      if (floors) this.device.queue.writeBuffer(this.floor6, 0, floors);
      if (floors && !s.recovery) {
        const { order, colourStart } = colourSlivers(this.tets, slivers);
        const words = new Uint32Array(1 + colourStart.length + order.length);
        words[0] = colourStart.length - 1;
        words.set(colourStart, 1);
        words.set(order, 1 + colourStart.length);
        this.device.queue.writeBuffer(this.sliverOrder, 0, words);
      }
      this.floorsFor = { key, held: floors !== null };
    }
    return this.floorsFor.held;
  }

  active(): boolean {
    return this.floorsHeld();
  }

  /**
   * The sliver lift (liftSliversByColour, one workgroup) into `pass` with uniform slot `group`
   * (slot 0 counts the tets below the floor, slot 1 does not, slot 2 moves the positions alone and
   * holds nothing: the lift inside the material sweeps). Returns its dispatches (1).
   */
  private encodeSliverLift(pass: GPUComputePassEncoder, group: GPUBindGroup): number {
    pass.setBindGroup(0, group);
    pass.setPipeline(this.sliverPipeline);
    pass.dispatchWorkgroups(1);
    return 1;
  }

  /** Outside recovery, with sliverLift 'clipped-to-contacts' and a sliver held: the lift reads the push directions (ContactStage.pushDirectionsWanted). */
  clipsToPushes(): boolean {
    const s = this.settings();
    return s.sliverLift === 'clipped-to-contacts' && !s.recovery && this.floorsHeld();
  }

  /** Outside recovery, with sliverLift 'with-contacts' and a sliver held (air mode: GpuSolver's contact settings have collisions off, so nothing is held). */
  private liftsWithContacts(): boolean {
    const s = this.settings();
    return s.sliverLift === 'with-contacts' && !s.recovery && this.floorsHeld();
  }

  beginFrame(): void {
    this.floorsHeld();
    const words = new Uint32Array(PARAM_WORDS);
    const lift = this.settings().sliverLift;
    for (let slot = 0; slot < SLOTS; slot++) {
      const inSweeps = slot === 2;
      words[0] = this.vertexCount;
      words[1] = gridRowStride(this.vertexCount);
      words[2] = slot === 0 ? 1 : 0;
      words[3] = this.layout.offCorners;
      words[4] = this.layout.offTets;
      words[5] = inSweeps ? StartMoves.none : lift === 'with-contacts' ? StartMoves.shift : StartMoves.prev;
      words[6] = !inSweeps && lift === 'holding-contacts' ? 1 : 0;
      words[7] = this.pushedMarks.touchBase;
      words[8] = !inSweeps && lift === 'clipped-to-contacts' ? 1 : 0;
      this.device.queue.writeBuffer(this.uniforms, slot * SLOT_BYTES, words);
    }
  }

  private groups(state: GpuState): GPUBindGroup[] {
    const c = this.cached;
    const list = this.queryList.list;
    if (c && c.positions === state.positions && c.prev === state.prev && c.list === list) return c.groups;
    const groups = Array.from({ length: SLOTS }, (_, slot) => this.table.group({
      params: { buffer: this.uniforms, offset: slot * SLOT_BYTES, size: 4 * PARAM_WORDS },
      positions: state.positions, prev: state.prev, topo: this.topo, floor6: this.floor6, shift: this.shift, list, uses: this.uses,
      sliverOrder: this.sliverOrder, status: this.pushedMarks.status,
    }));
    this.cached = { positions: state.positions, prev: state.prev, list, groups };
    return groups;
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    const groups = this.groups(state);
    // Outside recovery, after the substep's last round's contacts: with sliverLift 'after-contacts',
    // 'clipped-to-contacts' or 'holding-contacts' the slivers lifted (the CPU twin: CpuSolver), with 'with-contacts' the start positions given
    // the moves of the lifts before and during the contacts (CpuCollisionStage.endSliverLift).
    if (!this.settings().recovery) {
      if (step.round !== step.rounds - 1) return;
      if (this.liftsWithContacts()) {
        const [gx, gy] = dispatchGrid(this.vertexCount);
        const pass = step.beginPass(encoder, 'contacts', 'contacts.inversionFloor.sliverShift');
        pass.setBindGroup(0, groups[0]);
        pass.setPipeline(this.sliverShiftPipeline);
        pass.dispatchWorkgroups(gx, gy);
        pass.end();
      } else {
        const pass = step.beginPass(encoder, 'contacts', 'contacts.inversionFloor.slivers');
        this.encodeSliverLift(pass, groups[0]);
        pass.end();
      }
      step.countDispatches?.(1);
      return;
    }
    const [gx, gy] = dispatchGrid(this.vertexCount);
    const pass = step.beginPass(encoder, 'contacts', 'contacts.inversionFloor');
    for (let k = 0; k < INVERSION_FLOOR_PASSES; k++) {
      pass.setBindGroup(0, groups[k === 0 ? 0 : 1]);
      pass.setPipeline(this.countPipeline);
      pass.dispatchWorkgroups(gx, gy);
      pass.setPipeline(this.gatherPipeline);
      pass.dispatchWorkgroups(gx, gy);
      pass.setPipeline(this.applyPipeline);
      pass.dispatchWorkgroups(gx, gy);
    }
    pass.end();
    step.countDispatches?.(3 * INVERSION_FLOOR_PASSES);
  }

  destroy(): void {
    this.uniforms.destroy();
    this.topo.destroy();
    this.floor6.destroy();
    this.sliverOrder.destroy();
    this.shift.destroy();
    this.uses.destroy();
  }
}
