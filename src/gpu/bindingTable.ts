/**
 * A kernel's bindings declared once, by name: the same table yields the bind-group layout and,
 * from buffers named the same way, the bind group. Binding numbers follow the table's order,
 * so a WGSL file declares `@binding(i)` in the order of its table.
 *
 *   const table = new BindingTable(device, 'dcd', {
 *     frame: 'uniform', positions: 'read-only-storage', hits: 'storage',
 *   });
 *   const layout = table.layout;                       // for the pipeline layout
 *   const group = table.group({ frame, positions, hits }); // built once, reused every substep
 */

export type BindingKind = 'uniform' | 'storage' | 'read-only-storage';

export class BindingTable<Names extends string> {
  readonly layout: GPUBindGroupLayout;
  readonly names: readonly Names[];

  constructor(
    private readonly device: GPUDevice,
    readonly label: string,
    readonly kinds: Readonly<Record<Names, BindingKind>>,
  ) {
    this.names = Object.keys(kinds) as Names[];
    this.layout = device.createBindGroupLayout({
      label,
      entries: this.names.map((name, binding) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: kinds[name] } })),
    });
  }

  /** Binding number of `name` (its position in the table). */
  binding(name: Names): number {
    return this.names.indexOf(name);
  }

  /**
   * The bind group over `buffers`, one per declared name (a missing or extra name is an error): a
   * whole buffer, or a range of one ({ buffer, offset, size }: a slot of a uniform buffer).
   */
  group(buffers: Readonly<Record<Names, GPUBuffer | GPUBufferBinding>>, label = this.label): GPUBindGroup {
    for (const name of Object.keys(buffers)) {
      if (!(name in this.kinds)) throw new Error(`${this.label}: buffer "${name}" is not a declared binding (${this.names.join(', ')})`);
    }
    return this.device.createBindGroup({
      label,
      layout: this.layout,
      entries: this.names.map((name, binding) => {
        const given: GPUBuffer | GPUBufferBinding = buffers[name];
        if (!given) throw new Error(`${this.label}: no buffer for binding "${name}"`);
        const resource: GPUBufferBinding = 'buffer' in given ? given : { buffer: given };
        return { binding, resource };
      }),
    });
  }
}
