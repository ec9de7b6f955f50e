/**
 * The rest-pose methods' pipelines and their bindings, declared once by name (BindingTable: the
 * WGSL `@binding(i)` follow these tables' order): shaders/restClosestQuery.wgsl and
 * shaders/ddfQuery.wgsl, compiled with the nearest-first walk's stack in front and the shared
 * snippets of shaders/lib included. Each compiled when its method is first used.
 */
import ddfCode from '../../../shaders/ddfQuery.wgsl?raw';
import restClosestCode from '../../../shaders/restClosestQuery.wgsl?raw';
import { BVH_STACK_CAPACITY } from '../../bvh/surfaceBvh';
import { BindingTable } from '../../gpu/bindingTable';
import { withIncludes } from '../../gpu/wgsl';
import type { PenetrationMethod } from '../methods';

export const REST_CLOSEST_BINDINGS = {
  params: 'uniform',
  positions: 'read-only-storage',
  tets: 'read-only-storage',
  topo: 'read-only-storage',
  restPositions: 'read-only-storage',
  restTree: 'read-only-storage',
  list: 'read-only-storage',
  results: 'storage',
  counters: 'storage',
} as const;

export const DDF_BINDINGS = {
  params: 'uniform',
  positions: 'read-only-storage',
  tets: 'read-only-storage',
  topo: 'read-only-storage',
  nodes: 'read-only-storage',
  field: 'read-only-storage',
  list: 'read-only-storage',
  results: 'storage',
  counters: 'storage',
} as const;

export type RestClosestBuffers = Record<keyof typeof REST_CLOSEST_BINDINGS, GPUBuffer>;
export type DdfBuffers = Record<keyof typeof DDF_BINDINGS, GPUBuffer>;

/** Bytes of either kernel's uniforms: rowStride, nodeCount, offOrder, offTetComponent. */
export const PENETRATION_PARAMS_BYTES = 16;

/** Compile-time constants the penetration kernels expect in front of their text. */
export function penetrationPrelude(): string {
  // The walk pushes at most depth + 1 nodes; surfaceBvh.ts bounds the depth (never overflows).
  return `const NEAREST_STACK = ${BVH_STACK_CAPACITY}u;\n`;
}

/** One method's kernel: its binding table and pipeline. */
export class PenetrationKernel<Names extends string> {
  readonly table: BindingTable<Names>;
  readonly pipeline: GPUComputePipeline;

  constructor(device: GPUDevice, label: string, bindings: Readonly<Record<Names, 'uniform' | 'storage' | 'read-only-storage'>>, code: string) {
    this.table = new BindingTable(device, label, bindings);
    const source = penetrationPrelude() + withIncludes(code, `${label}.wgsl`);
    this.pipeline = device.createComputePipeline({
      label,
      layout: device.createPipelineLayout({ label, bindGroupLayouts: [this.table.layout] }),
      compute: { module: device.createShaderModule({ label: `${label}.wgsl`, code: source }), entryPoint: 'main' },
    });
  }
}

export function restClosestKernel(device: GPUDevice): PenetrationKernel<keyof typeof REST_CLOSEST_BINDINGS> {
  return new PenetrationKernel(device, 'restClosestQuery', REST_CLOSEST_BINDINGS, restClosestCode);
}

export function ddfKernel(device: GPUDevice): PenetrationKernel<keyof typeof DDF_BINDINGS> {
  return new PenetrationKernel(device, 'ddfQuery', DDF_BINDINGS, ddfCode);
}

export type RestPoseMethod = Exclude<PenetrationMethod, 'exact'>;
