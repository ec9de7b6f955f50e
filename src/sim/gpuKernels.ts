/**
 * Compute pipelines of the XPBD solver, with explicit bind-group layouts so that every entry
 * point of a WGSL file shares one bind group. Each WGSL file gets xpbdCommon.wgsl prepended.
 */
import common from '../../shaders/xpbdCommon.wgsl?raw';
import gatherCode from '../../shaders/xpbdGather.wgsl?raw';
import integrateCode from '../../shaders/xpbdIntegrate.wgsl?raw';
import neoHookeanCode from '../../shaders/xpbdNeoHookean.wgsl?raw';
import rigidDampingCode from '../../shaders/xpbdRigidDamping.wgsl?raw';
import springCode from '../../shaders/xpbdSpring.wgsl?raw';

type BindingKind = 'uniform' | 'storage' | 'read-only-storage';

function layout(device: GPUDevice, label: string, kinds: BindingKind[], dynamic = false): GPUBindGroupLayout {
  return device.createBindGroupLayout({
    label,
    entries: kinds.map((type, binding) => ({
      binding,
      visibility: GPUShaderStage.COMPUTE,
      buffer: { type, hasDynamicOffset: dynamic && type === 'uniform' },
    })),
  });
}

export const SLOT_STRIDE = 256;

export class XpbdKernels {
  readonly integrateLayout: GPUBindGroupLayout;
  readonly neoHookeanLayout: GPUBindGroupLayout;
  readonly springLayout: GPUBindGroupLayout;
  readonly gatherLayout: GPUBindGroupLayout;
  readonly dampingLayout: GPUBindGroupLayout;
  readonly slotLayout: GPUBindGroupLayout;
  readonly predict: GPUComputePipeline;
  readonly collide: GPUComputePipeline;
  readonly finalize: GPUComputePipeline;
  readonly applyMass: GPUComputePipeline;
  readonly neoHookeanColour: GPUComputePipeline;
  readonly neoHookeanJacobi: GPUComputePipeline;
  readonly springColour: GPUComputePipeline;
  readonly springJacobi: GPUComputePipeline;
  readonly gather: GPUComputePipeline;
  readonly dampReduce: GPUComputePipeline;
  readonly dampSolve: GPUComputePipeline;
  readonly dampApply: GPUComputePipeline;

  constructor(device: GPUDevice) {
    const S: BindingKind = 'storage';
    const R: BindingKind = 'read-only-storage';
    this.integrateLayout = layout(device, 'xpbd.integrate', ['uniform', S, S, S, R, S, R, R, R]);
    this.neoHookeanLayout = layout(device, 'xpbd.neoHookean', ['uniform', S, R, R, R, S, R, S]);
    this.springLayout = layout(device, 'xpbd.spring', ['uniform', S, R, R, S, R, S]);
    this.gatherLayout = layout(device, 'xpbd.gather', ['uniform', S, R, R, R]);
    // frame, positions, velocities, objectStatus, chunks, objects, partials, rigid motions.
    this.dampingLayout = layout(device, 'xpbd.rigidDamping', ['uniform', R, S, R, R, R, S, S]);
    this.slotLayout = device.createBindGroupLayout({
      label: 'xpbd.slot',
      entries: [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'uniform', hasDynamicOffset: true, minBindingSize: 16 } }],
    });
    const make = (label: string, code: string, entryPoint: string, layouts: GPUBindGroupLayout[]) =>
      device.createComputePipeline({
        label: `${label}.${entryPoint}`,
        layout: device.createPipelineLayout({ bindGroupLayouts: layouts }),
        compute: { module: device.createShaderModule({ label, code: common + '\n' + code }), entryPoint },
      });
    const withSlot = (l: GPUBindGroupLayout) => [l, this.slotLayout];
    this.predict = make('xpbdIntegrate', integrateCode, 'predict', withSlot(this.integrateLayout));
    this.collide = make('xpbdIntegrate', integrateCode, 'collide', withSlot(this.integrateLayout));
    this.finalize = make('xpbdIntegrate', integrateCode, 'finalize', withSlot(this.integrateLayout));
    this.applyMass = make('xpbdIntegrate', integrateCode, 'applyMass', withSlot(this.integrateLayout));
    this.neoHookeanColour = make('xpbdNeoHookean', neoHookeanCode, 'solveColour', withSlot(this.neoHookeanLayout));
    this.neoHookeanJacobi = make('xpbdNeoHookean', neoHookeanCode, 'solveJacobi', withSlot(this.neoHookeanLayout));
    this.springColour = make('xpbdSpring', springCode, 'solveColour', withSlot(this.springLayout));
    this.springJacobi = make('xpbdSpring', springCode, 'solveJacobi', withSlot(this.springLayout));
    this.gather = make('xpbdGather', gatherCode, 'gather', [this.gatherLayout]);
    this.dampReduce = make('xpbdRigidDamping', rigidDampingCode, 'reduce', [this.dampingLayout]);
    this.dampSolve = make('xpbdRigidDamping', rigidDampingCode, 'solveRigid', [this.dampingLayout]);
    this.dampApply = make('xpbdRigidDamping', rigidDampingCode, 'apply', [this.dampingLayout]);
  }
}

export function bindGroup(device: GPUDevice, label: string, layoutObj: GPUBindGroupLayout, buffers: GPUBuffer[]): GPUBindGroup {
  return device.createBindGroup({ label, layout: layoutObj, entries: buffers.map((buffer, binding) => ({ binding, resource: { buffer } })) });
}
