/**
 * Compute pipelines of the XPBD solver and their bindings, declared by name (BindingTable): one
 * table per WGSL file, shared by every entry point of that file; `@binding(i)` in the WGSL
 * follows the table's order. Each WGSL file gets xpbdCommon.wgsl prepended and its
 * `#include`s of shaders/lib expanded. Bind group 1 of the solver kernels is the per-substep
 * slot (dynamic offset, SLOT_STRIDE apart).
 */
import { BindingTable } from '../gpu/bindingTable';
import { computePipeline, definePipelines } from '../gpu/lazyPipelines';
import { withIncludes } from '../gpu/wgsl';
import common from '../../shaders/xpbdCommon.wgsl?raw';
import gatherCode from '../../shaders/xpbdGather.wgsl?raw';
import integrateCode from '../../shaders/xpbdIntegrate.wgsl?raw';
import predictWarmCode from '../../shaders/xpbdPredictWarm.wgsl?raw';
import neoHookeanCode from '../../shaders/xpbdNeoHookean.wgsl?raw';
import neoHookeanCollidersCode from '../../shaders/xpbdNeoHookeanColliders.wgsl?raw';
import rigidDampingCode from '../../shaders/xpbdRigidDamping.wgsl?raw';
import finalizeDampingCode from '../../shaders/xpbdFinalizeDamping.wgsl?raw';
import finalizeDampPredictCode from '../../shaders/xpbdFinalizeDampPredict.wgsl?raw';
import finalizeDampWarmCode from '../../shaders/xpbdFinalizeDampWarm.wgsl?raw';
import springCode from '../../shaders/xpbdSpring.wgsl?raw';
import andersonCode from '../../shaders/xpbdAnderson.wgsl?raw';

export const SLOT_STRIDE = 256;

/** Bindings of xpbdIntegrate.wgsl (predict, collide, finalize, applyMass). */
export function integrateBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.integrate', {
    frame: 'uniform',
    positions: 'storage',
    prev: 'storage',
    velocities: 'storage',
    rest: 'read-only-storage',
    objectStatus: 'storage',
    colliders: 'read-only-storage',
    handles: 'read-only-storage',
    invMass: 'read-only-storage',
    colliderContacts: 'storage',
  });
}

/** Bindings of xpbdPredictWarm.wgsl (predict with the warm start's corrections: 8 storage buffers, WebGPU's default per-stage limit). */
export function predictWarmBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.predictWarm', {
    frame: 'uniform',
    positions: 'storage',
    prev: 'storage',
    velocities: 'storage',
    rest: 'read-only-storage',
    objectStatus: 'storage',
    handles: 'read-only-storage',
    vertexTets: 'read-only-storage',
    corrections: 'read-only-storage',
  });
}

/** What an XPBD kernel's module compiles: xpbdCommon.wgsl, then the kernel's text, its includes resolved. */
export function xpbdModuleSource(code: string, label: string): string {
  return withIncludes(common + '\n' + code, label);
}

/** Bindings of xpbdNeoHookeanColliders.wgsl (partitioned cells, then the colliders for each cell's final vertices: 10 storage buffers, the solver's limit). */
export function neoHookeanCollidersBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.neoHookeanColliders', {
    frame: 'uniform',
    positions: 'storage',
    cellTopo: 'read-only-storage',
    tetData: 'read-only-storage',
    stress: 'storage',
    prev: 'storage',
    velocities: 'storage',
    colliders: 'read-only-storage',
    objectStatus: 'storage',
    colliderContacts: 'storage',
    positionCarry: 'storage',
  });
}

/** Bindings of xpbdNeoHookean.wgsl. */
export function neoHookeanBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.neoHookean', {
    frame: 'uniform',
    positions: 'storage',
    tets: 'read-only-storage',
    tetData: 'read-only-storage',
    stress: 'storage',
    colourOrder: 'read-only-storage',
    corrections: 'storage',
    cellRanges: 'read-only-storage',
    positionCarry: 'storage',
  });
}

/** Bindings of xpbdSpring.wgsl. */
export function springBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.spring', {
    frame: 'uniform',
    positions: 'storage',
    edges: 'read-only-storage',
    restLength: 'read-only-storage',
    lambda: 'storage',
    colourOrder: 'read-only-storage',
    corrections: 'storage',
    cellRanges: 'read-only-storage',
  });
}

/** Bindings of xpbdGather.wgsl (one group per element kind: tets or edges). */
export function gatherBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.gather', {
    frame: 'uniform',
    positions: 'storage',
    offsets: 'read-only-storage',
    corners: 'read-only-storage',
    corrections: 'read-only-storage',
  });
}

/** Bindings of xpbdRigidDamping.wgsl. */
export function dampingBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.rigidDamping', {
    frame: 'uniform',
    positions: 'read-only-storage',
    velocities: 'storage',
    objectStatus: 'storage',
    chunks: 'read-only-storage',
    objects: 'read-only-storage',
    partials: 'storage',
    rigid: 'storage',
  });
}

/** Bindings of xpbdFinalizeDamping.wgsl (finalize fused into the damping's reduction: 8 storage buffers, WebGPU's default per-stage limit). */
export function finalizeDampingBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.finalizeDamping', {
    frame: 'uniform',
    positions: 'storage',
    prev: 'read-only-storage',
    velocities: 'storage',
    rest: 'read-only-storage',
    objectStatus: 'storage',
    chunks: 'read-only-storage',
    objects: 'read-only-storage',
    partials: 'storage',
  });
}
/**
 * Bindings of xpbdFinalizeDampPredict.wgsl (finalize and damping of one object, then the next
 * substep's predict with the warm start's corrections: 10 storage buffers, as the contacts' sweep;
 * the chunks' partials stay in workgroup memory). Bind group 1: the next substep's slot.
 */
export function finalizeDampPredictBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.finalizeDampPredict', {
    frame: 'uniform',
    positions: 'storage',
    prev: 'storage',
    velocities: 'storage',
    rest: 'read-only-storage',
    objectStatus: 'storage',
    chunks: 'read-only-storage',
    objects: 'read-only-storage',
    handles: 'read-only-storage',
    vertexTets: 'read-only-storage',
    corrections: 'read-only-storage',
  });
}
/** Bindings of xpbdFinalizeDampWarm.wgsl (finalize and damping per object beside the next substep's warm start: 10 storage buffers). */
export function finalizeDampWarmBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.finalizeDampWarm', {
    frame: 'uniform',
    positions: 'storage',
    prev: 'read-only-storage',
    velocities: 'storage',
    rest: 'read-only-storage',
    objectStatus: 'storage',
    dampingTable: 'read-only-storage',
    tets: 'read-only-storage',
    tetData: 'read-only-storage',
    stress: 'storage',
    corrections: 'storage',
  });
}
/** Bindings of xpbdAnderson.wgsl (Anderson acceleration of the material iterations; group 1: andersonSweepBindings). */
export function andersonBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.anderson', {
    frame: 'uniform',
    positions: 'storage',
    stress: 'storage',
    history: 'storage',
    columns: 'storage',
    partials: 'storage',
    velocities: 'storage',
    colliderContacts: 'storage',
  });
}
/** Bind group 1 of xpbdAnderson.wgsl: one sweep index's constants (a slot of a uniform buffer). */
export function andersonSweepBindings(device: GPUDevice) {
  return new BindingTable(device, 'xpbd.andersonSweep', { sweep: 'uniform' });
}
export type IntegrateBindings = ReturnType<typeof integrateBindings>;
export type PredictWarmBindings = ReturnType<typeof predictWarmBindings>;
export type NeoHookeanBindings = ReturnType<typeof neoHookeanBindings>;
export type NeoHookeanCollidersBindings = ReturnType<typeof neoHookeanCollidersBindings>;
export type SpringBindings = ReturnType<typeof springBindings>;
export type GatherBindings = ReturnType<typeof gatherBindings>;
export type DampingBindings = ReturnType<typeof dampingBindings>;
export type FinalizeDampingBindings = ReturnType<typeof finalizeDampingBindings>;
export type FinalizeDampPredictBindings = ReturnType<typeof finalizeDampPredictBindings>;
export type FinalizeDampWarmBindings = ReturnType<typeof finalizeDampWarmBindings>;
export type AndersonBindings = ReturnType<typeof andersonBindings>;
export type AndersonSweepBindings = ReturnType<typeof andersonSweepBindings>;

export class XpbdKernels {
  readonly integrate: IntegrateBindings;
  readonly predictWarmTable: PredictWarmBindings;
  readonly neoHookean: NeoHookeanBindings;
  readonly neoHookeanCollidersTable: NeoHookeanCollidersBindings;
  readonly spring: SpringBindings;
  readonly gatherTable: GatherBindings;
  readonly damping: DampingBindings;
  readonly finalizeDamping: FinalizeDampingBindings;
  readonly finalizeDampPredictTable: FinalizeDampPredictBindings;
  readonly finalizeDampWarmTable: FinalizeDampWarmBindings;
  readonly andersonTable: AndersonBindings;
  readonly andersonSweepTable: AndersonSweepBindings;
  /** Bind group 1: the per-substep (or per-colour) slot, a dynamic offset into the slot buffer. */
  readonly slotLayout: GPUBindGroupLayout;
  declare readonly predict: GPUComputePipeline;
  /** predict, then the warm start's corrections gathered (xpbdPredictWarm.wgsl). */
  declare readonly predictWarm: GPUComputePipeline;
  declare readonly collide: GPUComputePipeline;
  declare readonly finalize: GPUComputePipeline;
  declare readonly applyMass: GPUComputePipeline;
  declare readonly neoHookeanColour: GPUComputePipeline;
  declare readonly neoHookeanJacobi: GPUComputePipeline;
  declare readonly neoHookeanCells: GPUComputePipeline;
  /** neoHookeanCells with the colliders after each vertex's last visit (xpbdNeoHookeanColliders.wgsl); groups: table, pass slot, substep slot. */
  declare readonly neoHookeanCellsColliders: GPUComputePipeline;
  declare readonly neoHookeanWarmStart: GPUComputePipeline;
  declare readonly springCells: GPUComputePipeline;
  declare readonly springColour: GPUComputePipeline;
  declare readonly springJacobi: GPUComputePipeline;
  declare readonly gather: GPUComputePipeline;
  declare readonly dampReduce: GPUComputePipeline;
  declare readonly dampSolve: GPUComputePipeline;
  declare readonly dampApply: GPUComputePipeline;
  /** dampSolve and dampApply in one dispatch, each chunk solving its object (after finalizeReduce). */
  declare readonly dampSolveApply: GPUComputePipeline;
  /** Finalize and the damping's reduction in one dispatch (xpbdFinalizeDamping.wgsl). */
  declare readonly finalizeReduce: GPUComputePipeline;
  /** Finalize and the whole damping of one object per workgroup (xpbdFinalizeDamping.wgsl finalizeDampObject). */
  declare readonly finalizeDampObject: GPUComputePipeline;
  /** finalizeDampObject, then the next substep's predictWarm of the object's vertices (xpbdFinalizeDampPredict.wgsl). */
  declare readonly finalizeDampPredict: GPUComputePipeline;
  /** finalizeDampObject beside the next substep's warm start of every tet (xpbdFinalizeDampWarm.wgsl). */
  declare readonly finalizeDampWarm: GPUComputePipeline;
  /** Anderson acceleration (xpbdAnderson.wgsl): the round's first iterate, each sweep's differences and partial sums, the mix. */
  declare readonly andersonBegin: GPUComputePipeline;
  declare readonly andersonResidual: GPUComputePipeline;
  declare readonly andersonMix: GPUComputePipeline;

  constructor(device: GPUDevice) {
    this.integrate = integrateBindings(device);
    this.predictWarmTable = predictWarmBindings(device);
    this.neoHookean = neoHookeanBindings(device);
    this.neoHookeanCollidersTable = neoHookeanCollidersBindings(device);
    this.spring = springBindings(device);
    this.gatherTable = gatherBindings(device);
    this.damping = dampingBindings(device);
    this.finalizeDamping = finalizeDampingBindings(device);
    this.finalizeDampPredictTable = finalizeDampPredictBindings(device);
    this.finalizeDampWarmTable = finalizeDampWarmBindings(device);
    this.andersonTable = andersonBindings(device);
    this.andersonSweepTable = andersonSweepBindings(device);
    this.slotLayout = device.createBindGroupLayout({
      label: 'xpbd.slot',
      entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 16 } }],
    });
    const modules = new Map<string, GPUShaderModule>();
    const module = (label: string, code: string) => {
      let m = modules.get(label);
      if (!m) modules.set(label, (m = device.createShaderModule({ label, code: xpbdModuleSource(code, label) })));
      return m;
    };
    const make = (label: string, code: string, entryPoint: string, layouts: GPUBindGroupLayout[]) =>
      computePipeline(device, `${label}.${entryPoint}`, module(label, code), entryPoint, layouts);
    const withSlot = (l: GPUBindGroupLayout) => [l, this.slotLayout];
    // Compiled on first use (lazyPipelines.ts): a run records a few of these.
    definePipelines(this, {
      predict: () => make('xpbdIntegrate', integrateCode, 'predict', withSlot(this.integrate.layout)),
      predictWarm: () => make('xpbdPredictWarm', predictWarmCode, 'predictWarm', withSlot(this.predictWarmTable.layout)),
      collide: () => make('xpbdIntegrate', integrateCode, 'collide', withSlot(this.integrate.layout)),
      finalize: () => make('xpbdIntegrate', integrateCode, 'finalize', withSlot(this.integrate.layout)),
      applyMass: () => make('xpbdIntegrate', integrateCode, 'applyMass', withSlot(this.integrate.layout)),
      neoHookeanColour: () => make('xpbdNeoHookean', neoHookeanCode, 'solveColour', withSlot(this.neoHookean.layout)),
      neoHookeanJacobi: () => make('xpbdNeoHookean', neoHookeanCode, 'solveJacobi', withSlot(this.neoHookean.layout)),
      neoHookeanCells: () => make('xpbdNeoHookean', neoHookeanCode, 'sweepCells', withSlot(this.neoHookean.layout)),
      neoHookeanCellsColliders: () => make('xpbdNeoHookeanColliders', neoHookeanCollidersCode, 'sweepCells', [this.neoHookeanCollidersTable.layout, this.slotLayout, this.slotLayout]),
      neoHookeanWarmStart: () => make('xpbdNeoHookean', neoHookeanCode, 'warmStart', withSlot(this.neoHookean.layout)),
      springCells: () => make('xpbdSpring', springCode, 'sweepCells', withSlot(this.spring.layout)),
      springColour: () => make('xpbdSpring', springCode, 'solveColour', withSlot(this.spring.layout)),
      springJacobi: () => make('xpbdSpring', springCode, 'solveJacobi', withSlot(this.spring.layout)),
      gather: () => make('xpbdGather', gatherCode, 'gather', [this.gatherTable.layout]),
      dampReduce: () => make('xpbdRigidDamping', rigidDampingCode, 'reduce', [this.damping.layout]),
      dampSolve: () => make('xpbdRigidDamping', rigidDampingCode, 'solveRigid', [this.damping.layout]),
      dampApply: () => make('xpbdRigidDamping', rigidDampingCode, 'apply', [this.damping.layout]),
      dampSolveApply: () => make('xpbdRigidDamping', rigidDampingCode, 'solveApply', [this.damping.layout]),
      finalizeReduce: () => make('xpbdFinalizeDamping', finalizeDampingCode, 'finalizeReduce', [this.finalizeDamping.layout]),
      finalizeDampObject: () => make('xpbdFinalizeDamping', finalizeDampingCode, 'finalizeDampObject', [this.finalizeDamping.layout]),
      finalizeDampPredict: () => make('xpbdFinalizeDampPredict', finalizeDampPredictCode, 'finalizeDampPredict', withSlot(this.finalizeDampPredictTable.layout)),
      finalizeDampWarm: () => make('xpbdFinalizeDampWarm', finalizeDampWarmCode, 'finalizeDampWarm', withSlot(this.finalizeDampWarmTable.layout)),
      andersonBegin: () => make('xpbdAnderson', andersonCode, 'begin', [this.andersonTable.layout, this.andersonSweepTable.layout]),
      andersonResidual: () => make('xpbdAnderson', andersonCode, 'residual', [this.andersonTable.layout, this.andersonSweepTable.layout]),
      andersonMix: () => make('xpbdAnderson', andersonCode, 'mix', [this.andersonTable.layout, this.andersonSweepTable.layout]),
    });
  }
}
