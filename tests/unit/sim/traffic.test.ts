/**
 * The memory-traffic model (src/sim/traffic.ts) against hand counts: element sizes summed by hand
 * from the WGSL declarations, frames of 1 and 2 tets worked out on paper, and the struct sizes
 * the host code packs (words per contact, result, query) as a second source.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_WORDS } from '../../../src/collision/gpu/contactStage';
import { QUERY_WORDS } from '../../../src/spb/gpu/queryListLayout';
import { RESULT_WORDS } from '../../../src/spb/gpu/packSpbBuffers';
import { gatherBindings, integrateBindings, neoHookeanBindings, springBindings } from '../../../src/sim/gpuKernels';
import { partitionedColouring } from '../../../src/mesh/partitionedColouring';
import { KERNEL_TRAFFIC, kernelBytes, moduleBindings, partitionShape, planTraffic, xpbdFramePlan, type KernelTraffic, type XpbdFrameInput } from '../../../src/sim/traffic';
import { wgslBindings, wgslTypeBytes } from '../../../src/sim/wgslLayout';

// WGSL sizes, by hand: vec4<f32> / vec4<u32> 16 bytes, u32 / f32 / atomic<u32> 4.
const V4 = 16;
const U32 = 4;

const oneTet = { vertices: 4, tets: 1, edges: 6 };
// Two tets sharing the face (1, 2, 3): 5 vertices, 9 edges, 8 corners.
const twoTets = { vertices: 5, tets: 2, edges: 9 };

function frame(over: Partial<XpbdFrameInput>): XpbdFrameInput {
  return { mesh: oneTet, colours: 1, substeps: 1, iterations: 1, solveOrder: 'gauss-seidel', constraint: 'neohookean', colliders: 0, damping: 0, ...over };
}

describe('WGSL layout', () => {
  it('sizes follow the WGSL alignment rules', () => {
    expect(wgslTypeBytes('', 'vec3<f32>')).toBe(12);
    expect(wgslTypeBytes('struct A { a: vec3<f32>, b: f32 }', 'A')).toBe(16);
    // f32 then vec3: the vec3 aligns to 16, the struct rounds to its alignment.
    expect(wgslTypeBytes('struct A { a: f32, b: vec3<f32> }', 'A')).toBe(32);
    expect(wgslTypeBytes('', 'array<vec2<f32>, 3>')).toBe(24);
    expect(wgslTypeBytes('', 'mat3x3<f32>')).toBe(48);
  });

  it('struct elements agree with the words the host packs', () => {
    const b = moduleBindings('contacts');
    expect(b.get('contacts')!.elementBytes).toBe(4 * CONTACT_WORDS);
    expect(b.get('list')!.elementBytes).toBe(4 * QUERY_WORDS); // the query list's runtime array, not its header
    expect(moduleBindings('spbQuery').get('results')!.elementBytes).toBe(4 * RESULT_WORDS);
  });

  it('reads group, binding, access and name of each declaration', () => {
    const code = '@group(0) @binding(0) var<uniform> f: vec4<f32>;\n@group(0) @binding(1) var<storage, read_write> x: array<vec4<f32>>; // c\n@group(1) @binding(0) var<storage, read> o: array<u32>;';
    expect(wgslBindings(code, 't').map((b) => [b.group, b.binding, b.name, b.access, b.elementBytes])).toEqual([
      [0, 0, 'f', 'uniform', 16],
      [0, 1, 'x', 'read_write', 16],
      [1, 0, 'o', 'read', 4],
    ]);
  });
});

describe('bytes per invocation', () => {
  it('Neo-Hookean tet, Gauss-Seidel: order slot, tet, 4 vertices and their rounding carries in place, Dm^-1, constants, S', () => {
    const b = kernelBytes('neoHookeanColour', oneTet);
    expect(b.read).toBe(U32 + V4 + 4 * V4 + 4 * V4 + 3 * V4 + V4 + 3 * V4); // 260
    expect(b.write).toBe(4 * V4 + 4 * V4 + 3 * V4); // 176
  });

  it('Neo-Hookean tet, Jacobi: corrections written instead of positions', () => {
    const b = kernelBytes('neoHookeanJacobi', oneTet);
    expect(b.read).toBe(V4 + 4 * V4 + 3 * V4 + V4 + 3 * V4); // 192
    expect(b.write).toBe(3 * V4 + 4 * V4); // 112
  });

  it('the table names only declared bindings and writes only read_write ones', () => {
    for (const k of Object.keys(KERNEL_TRAFFIC) as (keyof typeof KERNEL_TRAFFIC)[]) expect(() => kernelBytes(k, twoTets)).not.toThrow();
    const bad: Record<string, KernelTraffic> = {
      writesReadOnly: { module: 'xpbdNeoHookean', per: 'tet', access: { tetData: { write: 1 } } },
      unknown: { module: 'xpbdNeoHookean', per: 'tet', access: { nowhere: { read: 1 } } },
    };
    expect(() => kernelBytes('writesReadOnly' as never, oneTet, bad)).toThrow(/writes "tetData", declared read in xpbdNeoHookean.wgsl/);
    expect(() => kernelBytes('unknown' as never, oneTet, bad)).toThrow(/declares no binding "nowhere"/);
  });

  it('the XPBD modules declare the names of their BindingTables, in order (the tables the pipelines bind)', () => {
    const g = globalThis as { GPUShaderStage?: unknown };
    g.GPUShaderStage ??= { COMPUTE: 4 };
    const device = { createBindGroupLayout: (d: unknown) => d } as unknown as GPUDevice;
    const cases: [readonly string[], 'xpbdIntegrate' | 'xpbdNeoHookean' | 'xpbdSpring' | 'xpbdGather'][] = [
      [integrateBindings(device).names, 'xpbdIntegrate'],
      [neoHookeanBindings(device).names, 'xpbdNeoHookean'],
      [springBindings(device).names, 'xpbdSpring'],
      [gatherBindings(device).names, 'xpbdGather'],
    ];
    for (const [names, module] of cases) {
      const group0 = [...moduleBindings(module).values()].filter((b) => b.group === 0).map((b) => b.name);
      expect(group0, module).toEqual([...names]);
    }
  });
});

describe('bytes per frame', () => {
  // Per vertex by hand (shaders/lib/predictVertex.wgsl): predict reads x, prev, rest, the object's
  // status, v (4 x 16 + 4) and writes x, prev, v and the collider-touch word (3 x 16 + 4);
  // finalize reads x, prev, rest, v and writes v.
  const predict = { r: 4 * V4 + U32, w: 3 * V4 + U32 };
  const finalize = { r: 4 * V4, w: V4 };
  const tetGS = { r: 260, w: 176 };

  it('one tet, Gauss-Seidel, 1 substep x 1 iteration', () => {
    const t = planTraffic(xpbdFramePlan(frame({})), oneTet);
    expect(t.read).toBe(4 * predict.r + tetGS.r + 4 * finalize.r);
    expect(t.write).toBe(4 * predict.w + tetGS.w + 4 * finalize.w);
    expect(t.dispatches).toBe(3);
  });

  it('two tets, two colours, 3 substeps x 2 iterations: material bytes scale with tets x substeps x iterations, dispatches with colours', () => {
    const t = planTraffic(xpbdFramePlan(frame({ mesh: twoTets, colours: 2, substeps: 3, iterations: 2 })), twoTets);
    expect(t.byPhase.material).toEqual({ read: 3 * 2 * 2 * tetGS.r, write: 3 * 2 * 2 * tetGS.w, dispatches: 3 * 2 * 2 });
    expect(t.byPhase.predict.read).toBe(3 * 5 * predict.r);
    expect(t.dispatches).toBe(3 + 12 + 3);
  });

  it('predict also clearing the push directions (sliverLift clipped-to-contacts, two bodies) writes 3 words more a vertex, with no dispatch of its own', () => {
    const plain = planTraffic(xpbdFramePlan(frame({ mesh: twoTets, substeps: 3 })), twoTets);
    const clearing = planTraffic(xpbdFramePlan(frame({ mesh: twoTets, substeps: 3, pushDirections: true })), twoTets);
    expect(clearing.byPhase.predict.write - plain.byPhase.predict.write).toBe(3 * 5 * 3 * U32);
    expect(clearing.byPhase.predict.read).toBe(plain.byPhase.predict.read);
    expect(clearing.dispatches).toBe(plain.dispatches);
  });

  it('two tets, Jacobi: tets, then the gather over the 8 corners of the 5 vertices', () => {
    const t = planTraffic(xpbdFramePlan(frame({ mesh: twoTets, solveOrder: 'jacobi' })), twoTets);
    // Gather by hand: each vertex reads its two CSR offsets and x, writes x; the 8 corners are
    // read once each (a u32 index and a vec4 correction).
    const gatherRead = 5 * (2 * U32 + V4) + 8 * (U32 + V4);
    expect(t.byPhase.material.read).toBeCloseTo(2 * 192 + gatherRead, 9);
    expect(t.byPhase.material.write).toBeCloseTo(2 * 112 + 5 * V4, 9);
    expect(t.byPhase.material.dispatches).toBe(2);
  });

  it('colliders add a collide pass per iteration; damping two per-vertex passes and one dispatch per substep (the reduction fused into finalize, the solve into the apply)', () => {
    const base = planTraffic(xpbdFramePlan(frame({ substeps: 2, iterations: 3 })), oneTet);
    const withColliders = planTraffic(xpbdFramePlan(frame({ substeps: 2, iterations: 3, colliders: 2 })), oneTet);
    expect(withColliders.read - base.read).toBe(2 * 3 * 4 * (3 * V4));
    expect(withColliders.dispatches - base.dispatches).toBe(6);
    const damped = planTraffic(xpbdFramePlan(frame({ substeps: 2, damping: 1 })), oneTet);
    const plain = planTraffic(xpbdFramePlan(frame({ substeps: 2 })), oneTet);
    expect(damped.dispatches - plain.dispatches).toBe(2);
    expect(damped.read - plain.read).toBe(2 * 4 * (2 * V4 + 2 * V4));
    // One workgroup per object (finalizeDampObject): the same bytes, finalize's dispatch only.
    const perObject = planTraffic(xpbdFramePlan(frame({ substeps: 2, damping: 1, dampingPerObject: true })), oneTet);
    expect(perObject.dispatches).toBe(plain.dispatches);
    expect(perObject.read).toBe(damped.read);
    // With the warm start, the next substep's predict inside finalize's workgroup: predict
    // dispatches on the first substep only, the same bytes.
    const warm = planTraffic(xpbdFramePlan(frame({ substeps: 3, damping: 1, dampingPerObject: true, warmStart: true })), oneTet);
    const joined = planTraffic(xpbdFramePlan(frame({ substeps: 3, damping: 1, dampingPerObject: true, warmStart: true, predictInFinalize: true })), oneTet);
    expect(warm.dispatches - joined.dispatches).toBe(2);
    expect(joined.byPhase.predict.dispatches).toBe(1 + 3);
    expect(joined.read).toBe(warm.read);
    // Objects too large for that: the next substep's warm start in finalize's dispatch instead,
    // the warm start's own dispatch on the first substep only, the same bytes.
    const warmJoined = planTraffic(xpbdFramePlan(frame({ substeps: 3, damping: 1, dampingPerObject: true, warmStart: true, warmStartInFinalize: true })), oneTet);
    expect(warm.dispatches - warmJoined.dispatches).toBe(2);
    expect(warmJoined.byPhase.predict.dispatches).toBe(3 + 1);
    expect(warmJoined.read).toBe(warm.read);
  });

  it('partitioned: one dispatch per pass with cells plus one per leftover colour; every tet once, at the colour kernel\'s bytes; the cell\'s colours as serial rounds', () => {
    // Two tets sharing a face, 1 cm across: each is interior in every pass.
    const x = [0, 0, 0, 0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01, 0.01, 0.01, 0.01];
    const shape = partitionShape(partitionedColouring(new Uint32Array([0, 1, 2, 3, 1, 2, 3, 4]), 4, x, 5, new Uint8Array(5)));
    expect(shape.cellElements + shape.leftoverElements).toBe(2);
    const f = frame({ mesh: twoTets, solveOrder: 'partitioned', partition: shape, substeps: 2, iterations: 3 });
    const t = planTraffic(xpbdFramePlan(f), twoTets);
    expect(t.byPhase.material.dispatches).toBe(6 * (shape.passDispatches + shape.leftoverColours));
    // Per iteration: 2 tets x 436 B, plus the cells' range words (2 + colours + 1 u32 per cell).
    expect(t.byPhase.material.read).toBe(6 * (2 * tetGS.r + U32 * (3 * shape.cells + shape.cellColours)));
    expect(t.byPhase.material.write).toBe(6 * 2 * tetGS.w);
    // The two tets share three vertices, so they cannot share a round. Each is interior in every
    // pass, and the least loaded pass takes the second: two passes, one round each, nothing
    // inside a dispatch.
    expect(shape.passDispatches).toBe(2);
    expect(shape.passRounds).toBe(2);
    expect(t.extraRounds).toBe(0);
    // Both in one pass's cell: one dispatch holds both, one round after the other (a storage
    // barrier between), one round past the first.
    const packed = { ...shape, passDispatches: 1, cells: 1, cellColours: 2, passRounds: 2 };
    expect(planTraffic(xpbdFramePlan({ ...f, partition: packed }), twoTets).extraRounds).toBe(6 * 1);
    // One dispatch per colour: each colour is its own round, none inside a dispatch.
    expect(planTraffic(xpbdFramePlan({ ...f, solveOrder: 'gauss-seidel', colours: 2 }), twoTets).extraRounds).toBe(0);
    expect(() => xpbdFramePlan(frame({ solveOrder: 'partitioned' }))).toThrow(/needs the partition shape/);
  });

  it('the warm start runs in predict\'s pass, its gather inside predict\'s kernel; the colliders inside the partitioned cells: their bytes counted, no dispatch of their own', () => {
    const x = [0, 0, 0, 0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01, 0.01, 0.01, 0.01];
    const shape = partitionShape(partitionedColouring(new Uint32Array([0, 1, 2, 3, 1, 2, 3, 4]), 4, x, 5, new Uint8Array(5)));
    const base = frame({ mesh: twoTets, solveOrder: 'partitioned', partition: shape, substeps: 2, iterations: 3, colliders: 1 });
    const cold = planTraffic(xpbdFramePlan(base), twoTets);
    const warm = planTraffic(xpbdFramePlan({ ...base, warmStart: true }), twoTets);
    // Per substep one dispatch more (the warm start), in the predict phase.
    expect(warm.byPhase.predict.dispatches - cold.byPhase.predict.dispatches).toBe(2);
    expect(warm.byPhase.material.dispatches).toBe(cold.byPhase.material.dispatches);
    expect(warm.byKernel.gatherTets.dispatches).toBe(0);
    expect(warm.byKernel.gatherTets.read).toBeGreaterThan(0);
    const inCells = planTraffic(xpbdFramePlan({ ...base, collidersInCells: true }), twoTets);
    expect(cold.byPhase.material.dispatches - inCells.byPhase.material.dispatches).toBe(6);
    expect(inCells.read).toBe(cold.read);
    // Gauss-Seidel keeps the collide pass.
    const gs = frame({ mesh: twoTets, colours: 2, substeps: 2, iterations: 3, colliders: 1 });
    expect(planTraffic(xpbdFramePlan({ ...gs, collidersInCells: true }), twoTets).dispatches).toBe(planTraffic(xpbdFramePlan(gs), twoTets).dispatches);
  });

  it('an unknown solve order is refused by name', () => {
    expect(() => xpbdFramePlan(frame({ solveOrder: 'red-black' }))).toThrow(/solve order "red-black" has no plan/);
  });
});
