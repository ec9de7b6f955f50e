/**
 * Recovery mode's inversion floor on the GPU (SolverParams.inversionFloor; shaders/inversionFloor.wgsl,
 * CPU twin src/collision/cpu/inversionFloor.ts): after each collision round's contacts, the tets the
 * contacts turned inside out are lifted back to floor x their rest volume, INVERSION_FLOOR_PASSES
 * Jacobi passes (mass splitting) of three dispatches over the vertices (uses, gather, apply), split
 * impulse (positions and start positions move together). Active only in recovery mode with a floor > 0; it counts the tets
 * below the floor in the query list's header (QL.inversionFloorTets), read back with the frame's
 * other collision counters.
 */
import floorCode from '../../../shaders/inversionFloor.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer } from '../../gpu/buffers';
import { definePipelines, wgslPipeline } from '../../gpu/lazyPipelines';
import type { SolverParams } from '../../contract/params';
import type { GpuStage, SubstepContext } from '../../contract/stage';
import type { GpuState } from '../../contract/state';
import type { SceneArrays } from '../../contract/sceneArrays';
import { INVERSION_FLOOR_PASSES, restVolumes6 } from '../cpu/inversionFloor';
import type { QueryList } from './queryList';

const PARAM_WORDS = 8;
/** Uniform slots: the counting first pass, the others. */
const SLOT_BYTES = 256;

export type InversionFloorSettings = Pick<SolverParams, 'collisions' | 'recovery' | 'inversionFloor'>;

/** The vertex -> tet-corner CSR and the tets the gather walks (Model's vertexTetOffsets / vertexTetCorners). */
export interface FloorTopology {
  vertexTetOffsets: Uint32Array;
  vertexTetCorners: Uint32Array;
}

export class InversionFloorStage implements GpuStage {
  readonly phase = 'contacts' as const;
  readonly perRound = true;
  private readonly table;
  private readonly uniforms: GPUBuffer;
  private readonly topo: GPUBuffer;
  private readonly restVolume6: GPUBuffer;
  private readonly shift: GPUBuffer;
  private readonly uses: GPUBuffer;
  private readonly vertexCount: number;
  /** Where the corners and the tets start in `topo` (the offsets are at 0). */
  private readonly layout: { offCorners: number; offTets: number };
  declare private readonly countPipeline: GPUComputePipeline;
  declare private readonly gatherPipeline: GPUComputePipeline;
  declare private readonly applyPipeline: GPUComputePipeline;
  private cached?: { positions: GPUBuffer; prev: GPUBuffer; list: GPUBuffer; groups: GPUBindGroup[] };

  constructor(
    private readonly device: GPUDevice,
    scene: SceneArrays & FloorTopology,
    private readonly queryList: QueryList,
    private readonly settings: () => Readonly<InversionFloorSettings>,
  ) {
    const n = scene.vertexCount;
    this.vertexCount = n;
    this.table = new BindingTable(device, 'contacts.inversionFloor', {
      params: 'uniform', positions: 'storage', prev: 'storage', topo: 'read-only-storage', restVolume6: 'read-only-storage', shift: 'storage', list: 'storage', uses: 'storage',
    });
    definePipelines(this, {
      countPipeline: () => wgslPipeline(device, 'contacts.inversionFloor.count', floorCode, 'countFloorUses', [this.table.layout]),
      gatherPipeline: () => wgslPipeline(device, 'contacts.inversionFloor.gather', floorCode, 'gatherFloorShift', [this.table.layout]),
      applyPipeline: () => wgslPipeline(device, 'contacts.inversionFloor.apply', floorCode, 'applyFloorShift', [this.table.layout]),
    });
    const offsets = scene.vertexTetOffsets, corners = scene.vertexTetCorners;
    const words = new Uint32Array(offsets.length + corners.length + scene.tets.length);
    words.set(offsets, 0);
    words.set(corners, offsets.length);
    words.set(scene.tets, offsets.length + corners.length);
    this.topo = storageBuffer(device, 'contacts.inversionFloor.topo', words);
    this.restVolume6 = storageBuffer(device, 'contacts.inversionFloor.restVolume6', new Float32Array(restVolumes6(scene.restPositions, scene.tets)));
    this.shift = device.createBuffer({ label: 'contacts.inversionFloor.shift', size: Math.max(16, 16 * n), usage: GPUBufferUsage.STORAGE });
    this.uses = device.createBuffer({ label: 'contacts.inversionFloor.uses', size: Math.max(16, 4 * n), usage: GPUBufferUsage.STORAGE });
    this.uniforms = uniformBuffer(device, 'contacts.inversionFloor.params', 2 * SLOT_BYTES);
    this.layout = { offCorners: offsets.length, offTets: offsets.length + corners.length };
  }

  active(): boolean {
    const s = this.settings();
    return s.collisions && s.recovery && s.inversionFloor > 0;
  }

  beginFrame(): void {
    const words = new Uint32Array(PARAM_WORDS);
    const floats = new Float32Array(words.buffer);
    for (let slot = 0; slot < 2; slot++) {
      words[0] = this.vertexCount;
      words[1] = gridRowStride(this.vertexCount);
      floats[2] = this.settings().inversionFloor;
      words[3] = slot === 0 ? 1 : 0;
      words[4] = this.layout.offCorners;
      words[5] = this.layout.offTets;
      this.device.queue.writeBuffer(this.uniforms, slot * SLOT_BYTES, words);
    }
  }

  private groups(state: GpuState): GPUBindGroup[] {
    const c = this.cached;
    const list = this.queryList.list;
    if (c && c.positions === state.positions && c.prev === state.prev && c.list === list) return c.groups;
    const groups = [0, 1].map((slot) => this.table.group({
      params: { buffer: this.uniforms, offset: slot * SLOT_BYTES, size: 4 * PARAM_WORDS },
      positions: state.positions, prev: state.prev, topo: this.topo, restVolume6: this.restVolume6, shift: this.shift, list, uses: this.uses,
    }));
    this.cached = { positions: state.positions, prev: state.prev, list, groups };
    return groups;
  }

  encode(encoder: GPUCommandEncoder, state: GpuState, step: SubstepContext): void {
    const groups = this.groups(state);
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
    this.restVolume6.destroy();
    this.shift.destroy();
    this.uses.destroy();
  }
}
