/**
 * The shortest-path kernels' pipelines and their bindings, declared once by name (BindingTable:
 * the WGSL `@binding(i)` follow these tables' order): the per-tet prepass (shaders/spbPrepass.wgsl)
 * and the query (shaders/spbQuery.wgsl), compiled with the fixed capacities in front and the
 * shared snippets of shaders/lib included. Used by SpbQueryGpu (batches) and SpbStage (the time step).
 */
import prepassCode from '../../../shaders/spbPrepass.wgsl?raw';
import queryCode from '../../../shaders/spbQuery.wgsl?raw';
import { BindingTable } from '../../gpu/bindingTable';
import { definePipelines, wgslPipeline } from '../../gpu/lazyPipelines';
import type { SpbCapacities } from '../settings';

export const SPB_PREPASS_BINDINGS = {
  params: 'uniform',
  positions: 'read-only-storage',
  tets: 'read-only-storage',
  topo: 'read-only-storage',
  measures: 'storage',
  counters: 'storage',
} as const;

export const SPB_QUERY_BINDINGS = {
  params: 'uniform',
  positions: 'read-only-storage',
  tets: 'read-only-storage',
  topo: 'read-only-storage',
  nodes: 'read-only-storage',
  measures: 'read-only-storage',
  list: 'read-only-storage',
  results: 'storage',
  counters: 'storage',
} as const;

export type SpbPrepassBuffers = Record<keyof typeof SPB_PREPASS_BINDINGS, GPUBuffer>;
export type SpbQueryBuffers = Record<keyof typeof SPB_QUERY_BINDINGS, GPUBuffer>;

/** Compile-time constants the query shader expects in front of its text. */
export function spbQueryPrelude(c: Readonly<SpbCapacities>): string {
  for (const [k, v] of Object.entries(c)) {
    if (!(Number.isInteger(v) && v >= 1)) throw new RangeError(`SPB kernels: capacity ${k} must be a positive integer on the GPU, got ${v}`);
  }
  if (c.faceStack !== c.tetStack) throw new RangeError('SPB kernels: faceStack and tetStack capacities must be equal (the stacks move together)');
  return `const BVH_STACK = ${c.bvhStack}u;\nconst FACE_STACK = ${c.faceStack}u;\nconst RING = ${c.visitedRing}u;\nconst MAX_STEPS = ${c.maxSteps}u;\n`;
}

export class SpbKernels {
  readonly prepassTable: BindingTable<keyof typeof SPB_PREPASS_BINDINGS>;
  readonly queryTable: BindingTable<keyof typeof SPB_QUERY_BINDINGS>;
  declare readonly prepass: GPUComputePipeline;
  declare readonly query: GPUComputePipeline;

  constructor(device: GPUDevice, capacities: Readonly<SpbCapacities>) {
    this.prepassTable = new BindingTable(device, 'spbPrepass', SPB_PREPASS_BINDINGS);
    this.queryTable = new BindingTable(device, 'spbQuery', SPB_QUERY_BINDINGS);
    // Compiled on first use (gpu/lazyPipelines.ts).
    definePipelines(this, {
      prepass: () => wgslPipeline(device, 'spbPrepass', prepassCode, 'main', [this.prepassTable.layout]),
      query: () => wgslPipeline(device, 'spbQuery', spbQueryPrelude(capacities) + queryCode, 'main', [this.queryTable.layout]),
    });
  }
}
