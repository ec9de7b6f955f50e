import { describe, expect, it } from 'vitest';
import { dispatchGrid, gridRowStride, storageBuffer, uniformBuffer } from '../../src/gpu/buffers';
import { BindingTable } from '../../src/gpu/bindingTable';
import { isSoftwareAdapter, type GpuContext } from '../../src/gpu/device';
import { withIncludes } from '../../src/gpu/wgsl';
import { GpuSolver } from '../../src/sim/gpuSolver';
import type { SimSetup } from '../../src/sim/setup';
import type { SolverParams } from '../../src/contract/params';
import type { GpuStage, PhaseName, SubstepContext } from '../../src/contract/stage';
import { packVec4, type GpuState } from '../../src/contract/state';
import { readBuffer, testGpu } from '../support/gpu';
import { loadSharedTetArrays } from '../support/sharedMeshes';
import { makeSetup } from '../unit/sim/support/setups';
import { twistingHandle, fixedHandle } from '../../src/sim/handles';
import { bodiesSetup, cubePart } from '../unit/collision/scenes';
import { DetectSnapshot } from '../support/detectSnapshot';
import { countIntersections } from '../support/intersectionCounter';
import { detectionRefitsOn, REFIT_IN_DETECTION_STORAGE_BUFFERS } from '../../src/collision/gpu/detectStage';
import { PIN_INTER } from '../../src/collision/pinMark';

/**
 * The stepping owner (src/sim/timeStep.ts): the solver's stage list and the dispatches each
 * phase records (counted from the algorithm: per substep 1 predict; iterations x (colours, or
 * Jacobi + gather, + 1 colliders); finalize fused with the damping's 3 passes into 2), and a stage inserted by
 * phase running between material and finalize, checked by what it does to the motion.
 */

const SHIFT_WGSL = /* wgsl */ `
#include "threadIndex"
struct Shift { d: vec3<f32>, count: u32, rowStride: u32 }
@group(0) @binding(0) var<uniform> shift: Shift;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> snapshot: array<vec4<f32>>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, shift.rowStride);
  if (i >= shift.count) { return; }
  let x = positions[i];
  snapshot[i] = x;
  if (x.w > 0.0) { positions[i] = vec4<f32>(x.xyz + shift.d, x.w); }
}`;

/**
 * A real stage: keeps a copy of the positions it sees, then moves every free vertex by d. If it
 * runs after predict and before finalize, finalize turns the shift into velocity: like a
 * constant acceleration d / h^2 (symplectic Euler), after n substeps the body has moved
 * d n (n + 1) / 2 and has velocity n d / h. Run after finalize (or before predict), the body
 * would move n d with no velocity.
 */
class ShiftStage implements GpuStage {
  readonly phase: PhaseName = 'contacts';
  readonly snapshot: GPUBuffer;
  beginFrames = 0;
  encodes = 0;
  private readonly pipeline: GPUComputePipeline;
  private readonly group: GPUBindGroup;
  private readonly params: GPUBuffer;
  private readonly grid: [number, number];

  constructor(device: GPUDevice, state: GpuState, d: [number, number, number]) {
    const table = new BindingTable(device, 'test.shift', { shift: 'uniform', positions: 'storage', snapshot: 'storage' });
    this.pipeline = device.createComputePipeline({
      layout: device.createPipelineLayout({ bindGroupLayouts: [table.layout] }),
      compute: { module: device.createShaderModule({ code: withIncludes(SHIFT_WGSL, 'test.shift') }), entryPoint: 'main' },
    });
    const n = state.vertexCount;
    this.params = uniformBuffer(device, 'test.shift', 32);
    const words = new ArrayBuffer(32);
    new Float32Array(words).set(d, 0);
    new Uint32Array(words).set([n, gridRowStride(n)], 3);
    device.queue.writeBuffer(this.params, 0, words);
    this.snapshot = storageBuffer(device, 'test.snapshot', 16 * n);
    this.group = table.group({ shift: this.params, positions: state.positions, snapshot: this.snapshot });
    this.grid = dispatchGrid(n);
  }

  beginFrame(): void {
    this.beginFrames++;
  }

  encode(encoder: GPUCommandEncoder, _state: GpuState, step: SubstepContext): void {
    this.encodes++;
    const pass = step.beginPass(encoder, this.phase, 'test.shift');
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, this.group);
    pass.dispatchWorkgroups(this.grid[0], this.grid[1]);
    step.countDispatches(1);
    pass.end();
  }

  destroy(): void {
    this.params.destroy();
    this.snapshot.destroy();
  }
}

const cube = loadSharedTetArrays('Cube.t');

/** The centre of mass's y over vertex positions `x` (xyz each), masses 1 / invMass (no handles). */
function centreOfMassY(m: { vertexCount: number; invMass: ArrayLike<number> }, x: ArrayLike<number>): number {
  let my = 0, mt = 0;
  for (let i = 0; i < m.vertexCount; i++) { my += x[3 * i + 1] / m.invMass[i]; mt += 1 / m.invMass[i]; }
  return my / mt;
}

async function vec4s(ctx: GpuContext, buffer: GPUBuffer, n: number): Promise<Float32Array> {
  return new Float32Array(await readBuffer(ctx, buffer, 16 * n));
}

/**
 * Two cubes starting 2 cm into each other and closing at 1 m/s each, no gravity, hybrid: boundary
 * vertices are inside the other cube at the start of substeps (Pin), others reach it within a
 * substep (CCD) (the checks of plans that fuse detection's and the shortest path's kernels).
 */
function overlappingCubes(overrides: Partial<SolverParams> = {}): SimSetup {
  return bodiesSetup(
    [
      { part: cubePart(3, 0.2, [0, 0, 0]), velocity: [1, 0, 0] },
      { part: cubePart(3, 0.2, [0.18, 0.05, 0.04]), velocity: [-1, 0, 0] },
    ],
    { gravity: [0, 0, 0], substeps: 4, damping: 0, friction: 0.2, collisionMode: 'hybrid', ...overrides },
  );
}

/** Linear momentum sum m v of the velocities v (xyz per vertex). */
function momentumOf(m: { vertexCount: number; invMass: ArrayLike<number> }, v: Float32Array): number[] {
  const p = [0, 0, 0];
  for (let i = 0; i < m.vertexCount; i++) for (let k = 0; k < 3; k++) p[k] += v[3 * i + k] / m.invMass[i];
  return p;
}

/**
 * One frame of each of two solvers recording the same physics by different plans: the first
 * records with no validation error, and both find the same DCD, CCD vertex-face and edge-edge
 * contacts.
 */
async function stepPairWithSameContacts(ctx: GpuContext, a: GpuSolver, b: GpuSolver, f: number) {
  ctx.device.pushErrorScope('validation');
  const ra = await a.stepFrame();
  expect(await ctx.device.popErrorScope(), `frame ${f}`).toBeNull();
  const rb = await b.stepFrame();
  expect(ra.collisions?.contacts, `frame ${f}`).toBe(rb.collisions?.contacts);
  expect(ra.collisions?.ccd.hitsVertexFace, `frame ${f}`).toBe(rb.collisions?.ccd.hitsVertexFace);
  expect(ra.collisions?.ccd.hitsEdgeEdge, `frame ${f}`).toBe(rb.collisions?.ccd.hitsEdgeEdge);
  return [ra, rb] as const;
}

/**
 * The hybrid's Pin flags of the last substep (DetectStage.pin) against the brute-force
 * intersection counter (tests/support/intersectionCounter.ts, float64, no code shared with
 * dcdDetect.wgsl) on its start positions (copied by DetectSnapshot): a boundary vertex strictly
 * inside another object's positively oriented tet is Pin with the inter-object mark, any other is not.
 */
async function pinAgainstOracle(ctx: GpuContext, solver: GpuSolver, snapshot: DetectSnapshot): Promise<{ flagged: number; wrong: string[] }> {
  const m = solver.model;
  const start = await vec4s(ctx, snapshot.start, m.vertexCount);
  const pin = new Uint32Array(await readBuffer(ctx, solver.collisions!.detect.pin, 4 * m.vertexCount));
  const xyz = Float64Array.from({ length: 3 * m.vertexCount }, (_, k) => start[4 * Math.floor(k / 3) + (k % 3)]);
  const inside = new Set(countIntersections({ positions: xyz, tets: m.tets, tetObject: m.tetObject }, { self: false, skipInverted: true }).hits.map((h) => h.vertex));
  let flagged = 0;
  const wrong: string[] = [];
  for (const v of solver.collisions!.mesh.boundaryVertices) {
    if (pin[v] !== 0) flagged++;
    // Inside another object: the mark of an inter-object hit (src/collision/pinMark.ts PIN_INTER).
    if (pin[v] !== (inside.has(v) ? PIN_INTER : 0)) wrong.push(`vertex ${v}: pin ${pin[v]}, inside by the counter ${inside.has(v)}`);
  }
  return { flagged, wrong };
}

describe('TimeStep: stages over one state', () => {
  it('by default the collision stages sit between material and finalize, and switch off with params.collisions', async () => {
    const ctx = await testGpu();
    const solver = new GpuSolver(ctx, makeSetup([{ ...cube }], { substeps: 2 }));
    try {
      expect(solver.timeStep.phases).toEqual(['predict', 'material', 'air', 'detect', 'spb', 'ccd', 'contacts', 'finalize']);
      // DCD only: one readback per frame; no CCD pass.
      solver.params = { ...solver.params, collisionMode: 'dcd' };
      let r = await solver.stepFrame();
      expect(r.passes.slice(0, 6)).toEqual(['predict', 'material', 'detect', 'spb', 'contacts', 'finalize']);
      expect(r.collisions?.readbacks).toBe(1);
      // Hybrid (the default): detection with the Pin marks in it, spb, CCD, contacts. The first frame reads the
      // state back for CCD's broad phase (positions, velocities: blocking), and every frame copies
      // its end state next to the counters for the next broad phase (one more readback, no wait).
      solver.params = { ...solver.params, collisionMode: 'hybrid' };
      r = await solver.stepFrame();
      expect(r.passes.slice(0, 7)).toEqual(['predict', 'material', 'detect', 'spb', 'ccd', 'contacts', 'finalize']);
      expect(r.collisions?.readbacks).toBe(4);
      r = await solver.stepFrame();
      expect(r.collisions?.readbacks).toBe(2);
      // Collisions after every material iteration (collideEvery): the material and collision
      // stages run as one block per iteration; the Pin marks once a substep, at its start (inside
      // the first round's detect dispatch, so every round records the same 3 detect dispatches).
      const byPhase = (f: typeof r) => f.dispatchesByPhase;
      solver.params = { ...solver.params, iterations: 3, collideEvery: 'substep' };
      const once = byPhase(await solver.stepFrame());
      // CCD's detecting round: one dispatch, or on a software adapter a sweep of the candidates'
      // boxes and the solve over what it leaves (CcdStage.substepBoxes; so does each later round's narrow phase).
      const sweeps = solver.collisions!.ccd.substepBoxes ? 1 : 0;
      expect(once.ccd).toBe(2 * (1 + sweeps));
      solver.params = { ...solver.params, collideEvery: 'iteration' };
      r = await solver.stepFrame();
      if (r.gpuPhaseMs) expect(r.passes.slice(0, 10)).toEqual(['predict', 'material', 'detect', 'spb', 'ccd', 'contacts', 'material', 'detect', 'spb', 'ccd']);
      const every = byPhase(r);
      expect(every.material).toBe(once.material);
      expect(every.detect).toBe(3 * once.detect!);
      for (const phase of ['spb', 'ccd', 'contacts'] as const) expect(every[phase]).toBe(3 * once[phase]!);
      // Detection once, the contacts after every iteration ('contacts'): the later rounds record
      // the contact passes only, with no build (one dispatch a substep fewer than a round of its own),
      // after CCD's retirement of the edge-edge contacts only round 0 solves and its narrow phase
      // again with ccdEveryRound (two dispatches a round; docs/collisions.md "Apart pairs in the later rounds"),
      // whose grid over the near list the detecting round sizes (one more dispatch there; "The later rounds' near list").
      solver.params = { ...solver.params, collideEvery: 'contacts', ccdEveryRound: true };
      r = await solver.stepFrame();
      if (r.gpuPhaseMs) expect(r.passes.slice(0, 10)).toEqual(['predict', 'material', 'detect', 'spb', 'ccd', 'contacts', 'material', 'ccd', 'contacts', 'material']);
      const contactsOnly = byPhase(r);
      expect(contactsOnly.material).toBe(once.material);
      for (const phase of ['detect', 'spb'] as const) expect(contactsOnly[phase]).toBe(once[phase]);
      expect(contactsOnly.ccd).toBe(2 * ((1 + sweeps) + 1 + 2 * (2 + sweeps)));
      expect(contactsOnly.contacts).toBe(3 * once.contacts! - 2 * 2);
      solver.params = { ...solver.params, ccdEveryRound: false };
      r = await solver.stepFrame();
      if (r.gpuPhaseMs) expect(r.passes.slice(0, 11)).toEqual(['predict', 'material', 'detect', 'spb', 'ccd', 'contacts', 'material', 'ccd', 'contacts', 'material', 'contacts']);
      // Without it, the retirement alone, in the first later round.
      expect(byPhase(r).ccd).toBe(2 * ((1 + sweeps) + 1));
      // Recovery mode (DCD only) takes it by default ('auto').
      solver.params = { ...solver.params, collideEvery: 'auto', recovery: true };
      r = await solver.stepFrame();
      // 2 substeps x 3 rounds x (hash, detect): no writeArgs, as the contacts sweep (few contacts)
      // and the exact query and the contact build dispatch directly.
      expect(r.dispatchesByPhase.detect).toBe(2 * 2 * 3);
      solver.params = { ...solver.params, recovery: false, iterations: 1 };
      solver.params = { ...solver.params, collisions: false };
      r = await solver.stepFrame();
      // Shared passes (sharedPass.ts): with timestamps the first substep has a pass per phase,
      // the second substep's stages share one (no clear between them: warm start).
      expect(r.passes).toEqual(r.gpuPhaseMs ? ['predict', 'material', 'finalize', 'predict'] : ['predict']);
      solver.timeStep.mergePasses = false;
      r = await solver.stepFrame();
      expect(r.passes).toEqual(['predict', 'material', 'finalize', 'predict', 'material', 'finalize']);
    } finally {
      solver.destroy();
    }
  });

  it('the solver steps predict, material, finalize; each phase records the dispatches the algorithm needs', async () => {
    const ctx = await testGpu();
    const setup: SimSetup = makeSetup([{ ...cube }], { substeps: 3, iterations: 2, solveOrder: 'jacobi', damping: 1 }, [
      { kind: 'plane', normal: [0, 1, 0], offset: -5 },
    ]);
    const solver = new GpuSolver(ctx, setup, { collisions: false });
    try {
      expect(solver.timeStep.phases).toEqual(['predict', 'material', 'air', 'finalize']);
      // Jacobi: constraint + gather per iteration, colliders after each; finalize and the whole
      // damping of the one-chunk cube in one workgroup (1 dispatch; 2 per chunk, 4 unfused).
      let r = await solver.stepFrame();
      expect(r.dispatchesByPhase).toEqual({ predict: 3, material: 3 * 2 * (2 + 1), finalize: 3 });
      expect(r.dispatches).toBe(3 + 18 + 3);
      // Jacobi clears the multipliers every substep (encoder.clearBuffer), which ends the shared pass.
      expect(r.passes).toEqual(r.gpuPhaseMs ? ['predict', 'material', 'finalize', 'predict', 'material', 'material'] : ['predict', 'material', 'material']);
      // Gauss-Seidel: one dispatch per colour; per substep the Neo-Hookean warm start, recorded in
      // predict's pass, whose kernel then gathers its corrections (predictWarm: 2 dispatches for
      // predict, warm start and gather); no damping passes at damping 0.
      const tetColours = setup.model.tetColouring.colourCount;
      const edgeColours = setup.model.edgeColouring.colourCount;
      expect(tetColours).toBeGreaterThan(1);
      solver.params = { ...solver.params, solveOrder: 'gauss-seidel', damping: 0, substeps: 2, iterations: 3 };
      r = await solver.stepFrame();
      expect(r.dispatchesByPhase).toEqual({ predict: 2 * 2, material: 2 * 3 * (tetColours + 1), finalize: 2 });
      solver.params = { ...solver.params, warmStart: false };
      r = await solver.stepFrame();
      expect(r.dispatchesByPhase).toEqual({ predict: 2, material: 2 * 3 * (tetColours + 1), finalize: 2 });
      solver.params = { ...solver.params, constraint: 'springs' };
      r = await solver.stepFrame();
      expect(r.dispatchesByPhase).toEqual({ predict: 2, material: 2 * 3 * (edgeColours + 1), finalize: 2 });
      // Partitioned: one dispatch per pass with cells, one per leftover colour (independent count from the partition).
      const part = setup.model.tetPartition;
      const passes = part.passes.filter((p) => p.cellCount > 0).length;
      expect(passes).toBeGreaterThan(0);
      solver.params = { ...solver.params, constraint: 'neohookean', solveOrder: 'partitioned', warmStart: true };
      r = await solver.stepFrame();
      // The colliders run inside the cells (each vertex after its last visit) unless leftover
      // colours are dispatched one by one; then their pass follows each iteration.
      const collidersApart = part.leftoverColourCount > 0 ? 1 : 0;
      expect(r.dispatchesByPhase).toEqual({ predict: 2 * 2, material: 2 * 3 * (passes + part.leftoverColourCount + collidersApart), finalize: 2 });
      expect(passes + part.leftoverColourCount).toBeLessThan(tetColours);
      // With timestamps (SwiftShader has them), exactly the phases that ran are timed, and the
      // passes' GPU time fits in the frame's wall time. 100 substeps = 300 passes: more than one
      // query set of the timer (256 pairs each).
      solver.params = { ...solver.params, substeps: 100, iterations: 1, solveOrder: 'jacobi' };
      solver.timeStep.mergePasses = false;
      const t0 = performance.now();
      r = await solver.stepFrame();
      const wallMs = performance.now() - t0;
      expect(r.passes).toHaveLength(300);
      if (r.gpuPhaseMs) {
        expect(Object.keys(r.gpuPhaseMs).sort()).toEqual(['finalize', 'material', 'predict']);
        const gpuMs = Object.values(r.gpuPhaseMs).reduce((a, b) => a + b, 0);
        expect(gpuMs).toBeGreaterThan(0);
        expect(gpuMs).toBeLessThanOrEqual(wallMs);
      }
      // Merged: the first substep timed per phase, the rest shared out in proportion (timing.ts).
      solver.timeStep.mergePasses = true;
      r = await solver.stepFrame();
      expect(r.passes).toHaveLength(r.gpuPhaseMs ? 3 + 1 + 99 : 1 + 99);
      if (r.gpuPhaseMs) expect(Object.keys(r.gpuPhaseMs).sort()).toEqual(['finalize', 'material', 'predict']);
    } finally {
      solver.destroy();
    }
  });

  it('insertBefore places a stage by phase and names the phase when it is missing', async () => {
    const ctx = await testGpu();
    const solver = new GpuSolver(ctx, makeSetup([{ ...cube }], { substeps: 1 }), { collisions: false });
    try {
      const stage = new ShiftStage(ctx.device, solver.state, [0, 0, 0]);
      expect(() => solver.timeStep.insertBefore('spb', stage)).toThrow(/no stage of phase 'spb' \(have: predict, material, air, finalize\)/);
      solver.timeStep.insertBefore('finalize', stage);
      expect(solver.timeStep.phases).toEqual(['predict', 'material', 'air', 'contacts', 'finalize']);
      expect(() => solver.timeStep.insertAfter('material', stage)).toThrow(/already in the list/);
      solver.timeStep.remove(stage);
      solver.timeStep.insertAfter('material', stage);
      expect(solver.timeStep.stages.map((s) => s.phase)).toEqual(['predict', 'material', 'contacts', 'air', 'finalize']);
    } finally {
      solver.destroy();
    }
  });

  it('an inserted stage runs after material and before finalize: its shift acts as d / h^2 and material sees its input', async () => {
    const ctx = await testGpu();
    const substeps = 4;
    const setup = makeSetup([{ ...cube }], { gravity: [0, 0, 0], substeps, iterations: 4, damping: 0 });
    const m = setup.model;
    const n = m.vertexCount;
    const solver = new GpuSolver(ctx, setup, { collisions: false });
    const d: [number, number, number] = [2e-3, -1e-3, 5e-4];
    const stage = new ShiftStage(ctx.device, solver.state, d);
    solver.timeStep.insertBefore('finalize', stage);
    const h = setup.params.dt / substeps;
    try {
      // 1. From rest (material has nothing to correct): x - x_rest = d n(n+1)/2, v = n d / h.
      const r = await solver.stepFrame();
      expect(r.passes.slice(0, 4)).toEqual(['predict', 'material', 'contacts', 'finalize']);
      expect(r.dispatchesByPhase.contacts).toBe(substeps);
      if (r.gpuPhaseMs) expect(Object.keys(r.gpuPhaseMs).sort()).toEqual(['contacts', 'finalize', 'material', 'predict']);
      expect(stage.beginFrames).toBe(1);
      expect(stage.encodes).toBe(substeps);
      const x = await solver.readPositions();
      const v = await solver.readVelocities();
      const moved = (substeps * (substeps + 1)) / 2;
      let dx = 0, dv = 0;
      for (let i = 0; i < n; i++) {
        for (let k = 0; k < 3; k++) {
          dx = Math.max(dx, Math.abs(x[3 * i + k] - m.restPositions[3 * i + k] - moved * d[k]));
          dv = Math.max(dv, Math.abs(v[3 * i + k] - (substeps * d[k]) / h));
        }
      }
      // f32 on a 2-unit cube (measured 4.7e-7 and 4.5e-5 on SwiftShader); the wrong order would be
      // off by 6 d in x and by 4 d / h (0.58 m/s) in v.
      expect(dx).toBeLessThan(5e-6);
      expect(dv).toBeLessThan(1e-3);

      // 2. From a stretched state at rest, one substep: material moves the vertices; the stage's
      // snapshot is that result (not the prediction), finalize's velocity includes the shift, and
      // since the material's corrections conserve momentum, total momentum is M d / h.
      solver.reset();
      solver.params = { ...solver.params, substeps: 1 };
      const stretched = new Float64Array(3 * n);
      for (let i = 0; i < 3 * n; i++) stretched[i] = 1.15 * m.restPositions[i];
      ctx.device.queue.writeBuffer(solver.state.positions, 0, packVec4(stretched, n, (i) => m.invMass[i]));
      await solver.stepFrame();
      const seen = await vec4s(ctx, stage.snapshot, n);
      const x1 = await solver.readPositions();
      const v1 = await solver.readVelocities();
      const h1 = setup.params.dt;
      let materialMoved = 0, snapshotGap = 0, mass = 0;
      const p = [0, 0, 0];
      for (let i = 0; i < n; i++) {
        const mi = 1 / m.invMass[i];
        mass += mi;
        for (let k = 0; k < 3; k++) {
          materialMoved = Math.max(materialMoved, Math.abs(seen[4 * i + k] - stretched[3 * i + k]));
          snapshotGap = Math.max(snapshotGap, Math.abs(x1[3 * i + k] - (seen[4 * i + k] + d[k])));
          p[k] += mi * v1[3 * i + k];
        }
      }
      expect(materialMoved).toBeGreaterThan(1e-3);
      expect(snapshotGap).toBeLessThan(1e-6);
      // Measured 2.5e-5 of M |d| / h (f32 round-off of the material's corrections).
      for (let k = 0; k < 3; k++) expect(Math.abs(p[k] - (mass * d[k]) / h1)).toBeLessThan(1e-4 * mass * Math.hypot(...d) / h1);
    } finally {
      solver.destroy();
    }
  });

  it('shared passes record the same frames as one pass per stage: overlapping cubes, same contacts, positions within 1e-6, momentum kept', async () => {
    const ctx = await testGpu();
    // Not the head-on cubes at 2 m/s: the contacts' f32 sums (compare-exchange, contacts.wgsl)
    // depend on the threads' order, and at that impact the order alone moved frame 2 by up to
    // 8e-5 between two runs of one plan; the 2 cm, 1 m/s overlap stays within 2.4e-7.
    const merged = new GpuSolver(ctx, overlappingCubes());
    const perStage = new GpuSolver(ctx, overlappingCubes());
    perStage.timeStep.mergePasses = false;
    try {
      const m = merged.model;
      const momentum = (v: Float32Array): number[] => momentumOf(m, v);
      const p0 = momentum(Float32Array.from(m.initialVelocities));
      // Sum of m |v| at the start (both cubes at 1 m/s).
      const scale = m.invMass.reduce((a, w) => a + 1 / w, 0);
      let contacts = 0;
      // 2 frames (3 before): the first frame's plan (CCD's blocking readback of the start state)
      // and the plan of every later one (the broad phase on the previous frame's copied state);
      // a third records the second's passes again. The cubes overlap from the start: contacts in both.
      for (let f = 0; f < 2; f++) {
        // A merged pass the API refuses would show as a validation error (and an unchanged state).
        ctx.device.pushErrorScope('validation');
        const a = await merged.stepFrame();
        expect(await ctx.device.popErrorScope(), `frame ${f}`).toBeNull();
        const b = await perStage.stepFrame();
        expect(a.dispatchesByPhase, `frame ${f}`).toEqual(b.dispatchesByPhase);
        expect(a.passes.length, `frame ${f}`).toBeLessThan(b.passes.length);
        expect(a.collisions?.contacts, `frame ${f}`).toBe(b.collisions?.contacts);
        expect(a.collisions?.ccd.hitsVertexFace, `frame ${f}`).toBe(b.collisions?.ccd.hitsVertexFace);
        contacts += a.collisions!.contacts + a.collisions!.ccd.hitsVertexFace + a.collisions!.ccd.hitsEdgeEdge;
        const xa = await merged.readPositions();
        const xb = await perStage.readPositions();
        let gap = 0;
        for (let i = 0; i < xa.length; i++) gap = Math.max(gap, Math.abs(xa[i] - xb[i]));
        expect(gap, `frame ${f}`).toBeLessThan(1e-6);
        const p = momentum(await merged.readVelocities());
        const drift = Math.hypot(p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]) / scale;
        console.log(`shared passes, frame ${f}: ${a.passes.length} passes against ${b.passes.length}, ${a.collisions!.contacts + a.collisions!.ccd.hitsVertexFace + a.collisions!.ccd.hitsEdgeEdge} contacts, positions within ${gap.toExponential(2)}, momentum drift ${drift.toExponential(2)}`);
        expect(drift, `frame ${f}`).toBeLessThan(1e-4);
      }
      expect(contacts).toBeGreaterThan(0);
    } finally {
      merged.destroy();
      perStage.destroy();
    }
  });

  it('contact passes swept in one workgroup (contactDispatch) give the frames of the count / solve / apply dispatches bit for bit: overlapping cubes, hybrid, same contacts, momentum kept, fewer dispatches', async () => {
    const ctx = await testGpu();
    // The two dispatch the same Jacobi passes with different threads: the corrections' sums are
    // fixed point (contacts.wgsl addFixed), so their order changes no bit. With f32 sums (a
    // compare-exchange loop) the two differed by up to 1.3e-7 here, and head-on cubes at 2 m/s
    // moved frame 2 by 8.3e-5 in one run of two.
    const swept = new GpuSolver(ctx, overlappingCubes({ contactDispatch: 'workgroup' }));
    const grid = new GpuSolver(ctx, overlappingCubes({ contactDispatch: 'grid' }));
    try {
      const m = swept.model;
      const momentum = (v: Float32Array): number[] => momentumOf(m, v);
      const p0 = momentum(Float32Array.from(m.initialVelocities));
      // Sum of m |v| at the start (both cubes at 1 m/s).
      const scale = m.invMass.reduce((a, w) => a + 1 / w, 0);
      let contacts = 0, edgeEdge = 0, gapMax = 0;
      const dispatches = { swept: 0, grid: 0 };
      for (let f = 0; f < 4; f++) {
        const [a, b] = await stepPairWithSameContacts(ctx, swept, grid, f);
        contacts += a.collisions!.contacts + a.collisions!.ccd.hitsVertexFace + a.collisions!.ccd.hitsEdgeEdge;
        edgeEdge += a.collisions!.ccd.hitsEdgeEdge;
        dispatches.swept += a.dispatchesByPhase.contacts!;
        dispatches.grid += b.dispatchesByPhase.contacts!;
        const xa = await swept.readPositions();
        const xb = await grid.readPositions();
        let gap = 0;
        for (let i = 0; i < xa.length; i++) gap = Math.max(gap, Math.abs(xa[i] - xb[i]));
        gapMax = Math.max(gapMax, gap);
        expect(gap, `frame ${f}`).toBe(0);
        const p = momentum(await swept.readVelocities());
        expect(Math.hypot(p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]) / scale, `frame ${f}`).toBeLessThan(1e-4);
      }
      console.log(`overlapping cubes, 4 frames: ${contacts} contacts (${edgeEdge} CCD edge-edge: the group with uses of its own); contact dispatches ${dispatches.swept} swept against ${dispatches.grid} grid; positions within ${gapMax.toExponential(2)}`);
      expect(contacts).toBeGreaterThan(0);
      expect(edgeEdge).toBeGreaterThan(0);
      expect(dispatches.swept).toBeLessThan(dispatches.grid / 2);
    } finally {
      swept.destroy();
      grid.destroy();
    }
  });

  it('hybrid Pin marked inside the detect dispatch on a swept hash: the Pin of a brute-force point-in-tet test at the substep start, the frames of the separate Pin pass (same contacts, 1e-6), 2 dispatches fewer a substep', async () => {
    const ctx = await testGpu();
    const fused = new GpuSolver(ctx, overlappingCubes());
    const separate = new GpuSolver(ctx, overlappingCubes(), { collisions: { separatePinPass: true } });
    const copies = [fused, separate].map((solver) => {
      const copy = new DetectSnapshot(ctx.device, 16 * solver.model.vertexCount);
      solver.timeStep.insertAfter('detect', copy);
      return copy;
    });
    try {
      let pinned = 0, contacts = 0, gapMax = 0;
      for (let f = 0; f < 3; f++) {
        const [a, b] = await stepPairWithSameContacts(ctx, fused, separate, f);
        expect(a.collisions?.pin, `frame ${f}`).toBe(b.collisions?.pin);
        // The separate plan's hash and detect of the start positions, once per substep.
        expect(a.dispatchesByPhase.detect, `frame ${f}`).toBe(b.dispatchesByPhase.detect! - 2 * a.substeps);
        pinned += a.collisions!.pin;
        contacts += a.collisions!.contacts;
        const xa = await fused.readPositions();
        const xb = await separate.readPositions();
        let gap = 0;
        for (let i = 0; i < xa.length; i++) gap = Math.max(gap, Math.abs(xa[i] - xb[i]));
        gapMax = Math.max(gapMax, gap);
        expect(gap, `frame ${f}`).toBeLessThan(1e-6);

        // Oracle: the last substep's Pin flags of the boundary vertices against a brute-force
        // strict point-in-tet test of its start positions over the other cube's positively
        // oriented tets (no code shared with dcdDetect.wgsl).
        const oracleA = await pinAgainstOracle(ctx, fused, copies[0]);
        const oracleB = await pinAgainstOracle(ctx, separate, copies[1]);
        expect(oracleA.wrong, `frame ${f}: fused`).toEqual([]);
        expect(oracleB.wrong, `frame ${f}: separate`).toEqual([]);
        const flagged = oracleA.flagged;
        if (f === 0) expect(flagged).toBeGreaterThan(0);
      }
      console.log(`overlapping cubes, 3 frames: ${pinned} Pin points, ${contacts} DCD contacts; fused against separate Pin pass positions within ${gapMax.toExponential(2)}`);
      expect(pinned).toBeGreaterThan(0);
      expect(contacts).toBeGreaterThan(0);
    } finally {
      fused.destroy();
      separate.destroy();
    }
  });

  it('the shortest path\'s per-tet measures taken in the hash build: h^2 and inversions of a float64 pass over the positions detection saw, the frames of the separate prepass (same contacts, 1e-6), 1 dispatch fewer a substep', async () => {
    const ctx = await testGpu();
    // DCD queries every substep (the Pin points), whose answers read the measures.
    const inHash = new GpuSolver(ctx, overlappingCubes());
    const separate = new GpuSolver(ctx, overlappingCubes(), { collisions: { separatePrepass: true } });
    const snapshot = new DetectSnapshot(ctx.device, 16 * inHash.model.vertexCount);
    inHash.timeStep.insertAfter('detect', snapshot);
    try {
      const m = inHash.model;
      let contacts = 0, gapMax = 0, h2Gap = 0;
      for (let f = 0; f < 3; f++) {
        const [a, b] = await stepPairWithSameContacts(ctx, inHash, separate, f);
        expect(a.dispatchesByPhase.spb, `frame ${f}`).toBe(b.dispatchesByPhase.spb! - a.substeps);
        expect(a.dispatchesByPhase.detect, `frame ${f}`).toBe(b.dispatchesByPhase.detect);
        contacts += a.collisions!.contacts;
        const xa = await inHash.readPositions();
        const xb = await separate.readPositions();
        for (let i = 0; i < xa.length; i++) gapMax = Math.max(gapMax, Math.abs(xa[i] - xb[i]));
        expect(gapMax, `frame ${f}`).toBeLessThan(1e-6);
        // Oracle: the last substep's measures against float64 from the positions detection saw.
        const x = await vec4s(ctx, snapshot.end, m.vertexCount);
        const measures = new Float32Array(await readBuffer(ctx, inHash.collisions!.spb.mesh.measures, 8 * m.tetCount));
        const inverted = new Uint32Array(await readBuffer(ctx, inHash.collisions!.spb.mesh.counters, 4))[0];
        let invertedOracle = 0;
        for (let t = 0; t < m.tetCount; t++) {
          const p = [0, 1, 2, 3].map((k) => { const v = m.tets[4 * t + k]; return [x[4 * v], x[4 * v + 1], x[4 * v + 2]]; });
          let h2 = 0;
          for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) h2 = Math.max(h2, (p[i][0] - p[j][0]) ** 2 + (p[i][1] - p[j][1]) ** 2 + (p[i][2] - p[j][2]) ** 2);
          h2Gap = Math.max(h2Gap, Math.abs(measures[2 * t] - h2) / h2);
          const e = [1, 2, 3].map((k) => [p[k][0] - p[0][0], p[k][1] - p[0][1], p[k][2] - p[0][2]]);
          const vol6 = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
          if (!(vol6 > 0)) invertedOracle++;
          expect(measures[2 * t + 1], `frame ${f}, tet ${t}: inverted flag`).toBe(vol6 > 0 ? 0 : 1);
        }
        expect(inverted, `frame ${f}: inverted count`).toBe(invertedOracle);
      }
      console.log(`overlapping cubes, 3 frames: ${contacts} DCD contacts; measures in the hash build: h^2 within ${h2Gap.toExponential(2)} of float64, positions within ${gapMax.toExponential(2)} of the separate prepass`);
      expect(h2Gap).toBeLessThan(1e-5);
      expect(contacts).toBeGreaterThan(0);
    } finally {
      inHash.destroy();
      separate.destroy();
    }
  });

  it('the BVH refit inside the hash build\'s and detection\'s dispatches on a device of 10 storage buffers per kernel (Chrome on Metal): every node the bounds of its triangles at the positions detection saw, the frames of the separate refit (same contacts, 1e-6), 2 dispatches fewer a substep', async () => {
    // The tests' device is capped at 10 (tests/support/gpu.ts; SwiftShader offers 12): WebGPU
    // validation itself rejects a kernel binding an 11th storage buffer (the error scopes below and
    // in stepPairWithSameContacts).
    const ctx = await testGpu();
    expect(ctx.device.limits.maxStorageBuffersPerShaderStage).toBe(10);
    expect(REFIT_IN_DETECTION_STORAGE_BUFFERS).toBeLessThanOrEqual(10);
    expect(detectionRefitsOn(ctx.device)).toBe(true);
    await refitInDetectionChecks(ctx);
  });

  /** The fused refit's checks on `ctx`'s device (which has detectionRefitsOn). */
  async function refitInDetectionChecks(ctx: GpuContext): Promise<void> {
    // Resolution 3: a tree of one group (the whole refit in the hash build's dispatch); 7: subtrees
    // there and the top in detection's. Closing at 0.5 m/s: at 2 m/s the rebound swept nearly every
    // pair of the two res-7 cubes into CCD (1.35 M narrow-phase tests a frame, 19 s of SwiftShader
    // for a frame that the refit does not touch); at 0.5 m/s 35-60 k, and the same contacts to compare.
    for (const resolution of [3, 7]) {
      const setup = () => bodiesSetup(
        [
          { part: cubePart(resolution, 0.2, [0, 0, 0]), velocity: [0.25, 0, 0] },
          { part: cubePart(resolution, 0.2, [0.18, 0.05, 0.04]), velocity: [-0.25, 0, 0] },
        ],
        { gravity: [0, 0, 0], substeps: 2, damping: 0, friction: 0.2, collisionMode: 'hybrid' },
      );
      ctx.device.pushErrorScope('validation');
      const inDetection = new GpuSolver(ctx, setup());
      const separate = new GpuSolver(ctx, setup(), { collisions: { separateRefit: true } });
      expect((await ctx.device.popErrorScope())?.message, `resolution ${resolution}: building the solvers`).toBeUndefined();
      expect(inDetection.collisions!.spb.refitInDetect, `resolution ${resolution}`).toBe(true);
      const snapshot = new DetectSnapshot(ctx.device, 16 * inDetection.model.vertexCount);
      inDetection.timeStep.insertAfter('detect', snapshot);
      try {
        const m = inDetection.model;
        const tree = inDetection.collisions!.spb.mesh.bvhGpu;
        const refits = tree.refitDispatches;
        expect(refits, `resolution ${resolution}`).toBe(resolution === 3 ? 1 : 2);
        let contacts = 0, gapMax = 0;
        for (let f = 0; f < 2; f++) {
          const [a, b] = await stepPairWithSameContacts(ctx, inDetection, separate, f);
          expect(a.dispatchesByPhase.spb, `resolution ${resolution}, frame ${f}`).toBe(b.dispatchesByPhase.spb! - refits * a.substeps);
          expect(a.dispatchesByPhase.detect, `resolution ${resolution}, frame ${f}`).toBe(b.dispatchesByPhase.detect);
          contacts += a.collisions!.contacts;
          const xa = await inDetection.readPositions();
          const xb = await separate.readPositions();
          for (let i = 0; i < xa.length; i++) gapMax = Math.max(gapMax, Math.abs(xa[i] - xb[i]));
          expect(gapMax, `resolution ${resolution}, frame ${f}`).toBeLessThan(1e-6);
          // Oracle: each node's box is the bounds of every triangle below it, at the positions the
          // last substep's detection saw (a recursion over the CPU tree's words, min and max exact).
          const x = await vec4s(ctx, snapshot.end, m.vertexCount);
          const nodes = new Float32Array(await readBuffer(ctx, tree.nodes, 32 * tree.bvh.nodeCount));
          const words = tree.bvh.nodeWords, order = tree.bvh.triangleOrder, tris = tree.bvh.triangles;
          const bounds = (i: number): number[] => {
            const link = words[8 * i + 3], count = words[8 * i + 7];
            const b = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
            const take = (c: number[]) => { for (let k = 0; k < 3; k++) { b[k] = Math.min(b[k], c[k]); b[3 + k] = Math.max(b[3 + k], c[3 + k]); } };
            if (count === 0) { take(bounds(link)); take(bounds(link + 1)); return b; }
            for (let k = link; k < link + count; k++) {
              for (let c = 0; c < 3; c++) { const v = tris[3 * order[k] + c]; take([x[4 * v], x[4 * v + 1], x[4 * v + 2], x[4 * v], x[4 * v + 1], x[4 * v + 2]]); }
            }
            return b;
          };
          const wrong: string[] = [];
          const check = (i: number): void => {
            const b = bounds(i);
            const got = [nodes[8 * i], nodes[8 * i + 1], nodes[8 * i + 2], nodes[8 * i + 4], nodes[8 * i + 5], nodes[8 * i + 6]];
            if (got.some((g, k) => g !== b[k])) wrong.push(`node ${i}: [${got.join(', ')}] against [${b.join(', ')}]`);
            if (words[8 * i + 7] === 0) { check(words[8 * i + 3]); check(words[8 * i + 3] + 1); }
          };
          check(0);
          expect(wrong.slice(0, 5), `resolution ${resolution}, frame ${f}: ${wrong.length} of ${tree.bvh.nodeCount} nodes`).toEqual([]);
        }
        console.log(`overlapping cubes at resolution ${resolution} (${tree.bvh.nodeCount} nodes, ${refits} refit dispatches), 2 frames: ${contacts} DCD contacts; refit in detection (${ctx.device.limits.maxStorageBuffersPerShaderStage} storage buffers per kernel): positions within ${gapMax.toExponential(2)} of the separate refit`);
        expect(contacts).toBeGreaterThan(0);
      } finally {
        inDetection.destroy();
        separate.destroy();
      }
    }
  }

  it('the warm start gathered by predict\'s kernel: the frames of warm start, predict and gather apart (1e-6), the centre of mass in free fall, and the warm start acting', async () => {
    const ctx = await testGpu();
    const g = -9.81;
    const setup = () => {
      const st = makeSetup([{ ...cube }], { gravity: [0, g, 0], substeps: 4, iterations: 2, damping: 0 });
      // Expanding: the material's stress (and so the warm start's share of it) is not zero.
      const { restPositions: x, initialVelocities: v } = st.model;
      for (let i = 0; i < 3 * st.model.vertexCount; i++) v[i] = 2 * x[i];
      return st;
    };
    const fused = new GpuSolver(ctx, setup(), { collisions: false });
    const apart = new GpuSolver(ctx, setup(), { collisions: false });
    const cold = new GpuSolver(ctx, setup(), { collisions: false });
    (apart.timeStep.stages.find((st) => st.phase === 'material') as unknown as { fusePredictWithWarmStart: boolean }).fusePredictWithWarmStart = false;
    cold.params = { ...cold.params, warmStart: false };
    try {
      const m = fused.model;
      const centreY = (x: ArrayLike<number>) => centreOfMassY(m, x);
      const y0 = centreY(m.restPositions);
      const vy0 = centreY(m.initialVelocities);
      const dt = fused.params.dt;
      let warmEffect = 0;
      for (let f = 0; f < 3; f++) {
        const a = await fused.stepFrame();
        const b = await apart.stepFrame();
        await cold.stepFrame();
        expect(a.dispatchesByPhase.predict, `frame ${f}`).toBe(4 * 2);
        expect(b.dispatchesByPhase.predict, `frame ${f}`).toBe(4 * 3);
        const [xa, xb, xc] = [await fused.readPositions(), await apart.readPositions(), await cold.readPositions()];
        let gap = 0;
        for (let i = 0; i < xa.length; i++) { gap = Math.max(gap, Math.abs(xa[i] - xb[i])); warmEffect = Math.max(warmEffect, Math.abs(xa[i] - xc[i])); }
        expect(gap, `frame ${f}`).toBeLessThan(1e-6);
        // Internal forces move no centre of mass (sum_v m_v w_v S g_v = S sum_v g_v = 0): the
        // centre falls as a point under gravity, with the substeps' symplectic Euler.
        const n = 4 * (f + 1), h = dt / 4;
        const expected = y0 + n * h * vy0 + 0.5 * g * h * h * n * (n + 1);
        expect(Math.abs(centreY(xa) - expected), `frame ${f} centre of mass`).toBeLessThan(1e-5);
      }
      // The warm start acted: its frames differ from the cold start's.
      console.log(`warm start gathered by predict: largest difference from the cold start ${warmEffect.toExponential(2)} m`);
      expect(warmEffect).toBeGreaterThan(1e-5);
    } finally {
      fused.destroy();
      apart.destroy();
      cold.destroy();
    }
  });

  it('the next substep\'s predict in finalize\'s per-object workgroup, or its warm start beside them (objects too large): the frames of predict on its own (1e-6) with damping, handles and colliders, the centre of mass in free fall, one dispatch less a substep', async () => {
    const ctx = await testGpu();
    const g = -9.81;
    // Two expanding cubes in free fall (their warm start is not zero; deformation-only damping
    // keeps the centre's motion; two objects, so the damping table holds several), and a beam
    // twisted by two handles onto a box (each substep's handle poses come from the next substep's slot).
    const falling = () => {
      const st = makeSetup([{ ...cube }, { ...cube, offset: [3, 0.5, 0] }], { gravity: [0, g, 0], substeps: 4, iterations: 2, damping: 2 });
      const { restPositions: x, initialVelocities: v } = st.model;
      for (let i = 0; i < 3 * st.model.vertexCount; i++) v[i] = 2 * x[i];
      return st;
    };
    const beam = loadSharedTetArrays('Beam.t');
    const twisted = () => makeSetup(
      [{ ...beam, material: { youngsModulus: 5e4, poissonRatio: 0.3 }, pin: (x) => (x < -4.5 ? 0 : x > 4.5 ? 1 : -1) }],
      { dt: 1 / 60, substeps: 4, iterations: 2, friction: 0.3, damping: 2 },
      [{ kind: 'box', min: [-1, -3, -3], max: [1, -1.02, 3] }],
      [fixedHandle, twistingHandle([0, 0, 0], [1, 0, 0], 3)],
    );
    type FinalizeJoin = { predictNextSubstep: boolean; warmStartNextSubstep: boolean; predictJoinMaxVertices: number; nextSubstepJoin(first: unknown): string | null };
    const finalizeOf = (s: GpuSolver) => s.timeStep.stages.find((st) => st.phase === 'finalize') as unknown as FinalizeJoin;
    const cases = [['falling cubes', falling, 'predict'], ['twisted beam', twisted, 'predict'], ['falling cubes', falling, 'warm-start'], ['twisted beam', twisted, 'warm-start']] as const;
    for (const [mesh, setup, plan] of cases) {
      const name = `${mesh}, ${plan} joined`;
      const joined = new GpuSolver(ctx, setup(), { collisions: false });
      const apart = new GpuSolver(ctx, setup(), { collisions: false });
      finalizeOf(apart).predictNextSubstep = false;
      // Objects past this many vertices get the warm start beside finalize (the octopi's plan on a
      // hardware adapter; off by default on a software one, where it is slow).
      expect(finalizeOf(joined).warmStartNextSubstep).toBe(!isSoftwareAdapter(ctx));
      if (plan === 'warm-start') Object.assign(finalizeOf(joined), { predictJoinMaxVertices: 0, warmStartNextSubstep: true });
      expect(finalizeOf(joined).nextSubstepJoin(joined.timeStep.stages[0]), name).toBe(plan);
      try {
        const m = joined.model;
        const centreY = (x: ArrayLike<number>) => centreOfMassY(m, x);
        const y0 = centreY(m.restPositions);
        const vy0 = centreY(m.initialVelocities);
        const h = joined.params.dt / 4;
        let gapMax = 0;
        let moved = 0;
        for (let f = 0; f < 3; f++) {
          const a = await joined.stepFrame();
          const b = await apart.stepFrame();
          // Substep 0: warm start + predictWarm; substeps 1-3: the warm start before the previous
          // finalize and predict inside it, or the warm start inside it and predictWarm after;
          // finalize: 1 a substep either way.
          expect(a.dispatchesByPhase.predict, `${name}, frame ${f}`).toBe(2 + 3);
          expect(b.dispatchesByPhase.predict, `${name}, frame ${f}`).toBe(4 * 2);
          expect(a.dispatchesByPhase.finalize, `${name}, frame ${f}`).toBe(4);
          expect(b.dispatchesByPhase.finalize, `${name}, frame ${f}`).toBe(4);
          const [xa, xb, va, vb] = [await joined.readPositions(), await apart.readPositions(), await joined.readVelocities(), await apart.readVelocities()];
          let gap = 0;
          for (let i = 0; i < xa.length; i++) {
            gap = Math.max(gap, Math.abs(xa[i] - xb[i]), Math.abs(va[i] - vb[i]));
            moved = Math.max(moved, Math.abs(xa[i] - m.restPositions[i]));
          }
          gapMax = Math.max(gapMax, gap);
          expect(gap, `${name}, frame ${f}`).toBeLessThan(1e-6);
          if (mesh === 'falling cubes') {
            // The centre falls as a point (internal forces and deformation-only damping move it not).
            const n = 4 * (f + 1);
            const expected = y0 + n * h * vy0 + 0.5 * g * h * h * n * (n + 1);
            expect(Math.abs(centreY(xa) - expected), `frame ${f} centre of mass`).toBeLessThan(1e-5);
          }
        }
        console.log(`${name}: positions and velocities within ${gapMax.toExponential(2)} of predict apart; moved up to ${moved.toFixed(3)} m`);
        expect(moved).toBeGreaterThan(0.05);
      } finally {
        joined.destroy();
        apart.destroy();
      }
    }
  });

  it('the colliders inside the partitioned cells (each vertex after its last visit): the frames of the colliders\' pass after each iteration (1e-6), one dispatch less an iteration, friction that only slows, nothing below the ground', async () => {
    const ctx = await testGpu();
    const friction = 0.4;
    let bottom = Infinity;
    for (let i = 1; i < cube.positions.length; i += 3) bottom = Math.min(bottom, cube.positions[i]);
    // A cube standing on the ground, sliding at 2 m/s: kinetic friction slows it by mu g.
    const setup = () => {
      const st = makeSetup([{ ...cube }], { substeps: 4, iterations: 3, damping: 0, friction }, [
        { kind: 'plane', normal: [0, 1, 0], offset: bottom },
      ]);
      const v = st.model.initialVelocities;
      for (let i = 0; i < st.model.vertexCount; i++) v[3 * i] = 2;
      return st;
    };
    const inCells = new GpuSolver(ctx, setup(), { collisions: false });
    const apart = new GpuSolver(ctx, setup(), { collisions: false });
    (apart.timeStep.stages.find((st) => st.phase === 'material') as unknown as { fuseCollidersIntoCells: boolean }).fuseCollidersIntoCells = false;
    try {
      const m = inCells.model;
      const part = m.tetPartition;
      const passes = part.passes.filter((p) => p.cellCount > 0).length;
      expect(part.leftoverColourCount).toBe(0);
      const meanVx: number[] = [];
      let lowest = Infinity;
      for (let f = 0; f < 8; f++) {
        const a = await inCells.stepFrame();
        const b = await apart.stepFrame();
        expect(a.dispatchesByPhase.material, `frame ${f}`).toBe(4 * 3 * passes);
        expect(b.dispatchesByPhase.material, `frame ${f}`).toBe(4 * 3 * (passes + 1));
        const [xa, va, xb, vb] = [await inCells.readPositions(), await inCells.readVelocities(), await apart.readPositions(), await apart.readVelocities()];
        let gap = 0;
        for (let i = 0; i < xa.length; i++) gap = Math.max(gap, Math.abs(xa[i] - xb[i]), Math.abs(va[i] - vb[i]));
        expect(gap, `frame ${f}`).toBeLessThan(1e-6);
        let sum = 0;
        for (let i = 0; i < m.vertexCount; i++) { sum += va[3 * i]; lowest = Math.min(lowest, xa[3 * i + 1]); }
        meanVx.push(sum / m.vertexCount);
      }
      // Friction only takes sliding speed, at most mu g a frame (the weight not yet all on the
      // ground while the soft cube settles), and the cube stays on top of the ground.
      console.log(`colliders in cells: mean vx by frame ${meanVx.map((v) => v.toFixed(4)).join(' ')}; lowest y ${lowest.toExponential(3)} over ground ${bottom.toExponential(3)}`);
      const most = friction * 9.81 * inCells.params.dt;
      for (let f = 0; f < 8; f++) {
        const slowed = (f === 0 ? 2 : meanVx[f - 1]) - meanVx[f];
        expect(slowed, `frame ${f}`).toBeGreaterThan(0);
        expect(slowed, `frame ${f}`).toBeLessThan(most * 1.05);
      }
      expect(lowest).toBeGreaterThan(bottom - 1e-6);
    } finally {
      inCells.destroy();
      apart.destroy();
    }
  });

  it('finalize fused into the damping\'s reduction, its solve into its apply: the same frames as the 4 separate dispatches (1e-6), momentum and angular momentum kept', async () => {
    const ctx = await testGpu();
    const setup = () => {
      const st = makeSetup([{ ...cube }], { gravity: [0, 0, 0], substeps: 4, iterations: 2, damping: 4 });
      const { restPositions: x, initialVelocities: v } = st.model;
      // Spinning about y and expanding: damping must take the expansion and keep the spin.
      for (let i = 0; i < st.model.vertexCount; i++) {
        v[3 * i] = 3 * x[3 * i + 2] + 0.5 * x[3 * i];
        v[3 * i + 1] = 0.5 * x[3 * i + 1];
        v[3 * i + 2] = -3 * x[3 * i] + 0.5 * x[3 * i + 2];
      }
      return st;
    };
    const fused = new GpuSolver(ctx, setup(), { collisions: false });
    const separate = new GpuSolver(ctx, setup(), { collisions: false });
    (separate.timeStep.stages.find((st) => st.phase === 'finalize') as unknown as { fuseWithDamping: boolean }).fuseWithDamping = false;
    try {
      const m = fused.model;
      const moments = (x: ArrayLike<number>, v: ArrayLike<number>) => {
        const p = [0, 0, 0], l = [0, 0, 0];
        for (let i = 0; i < m.vertexCount; i++) {
          const mi = 1 / m.invMass[i];
          const [rx, ry, rz] = [x[3 * i], x[3 * i + 1], x[3 * i + 2]];
          const [vx, vy, vz] = [v[3 * i], v[3 * i + 1], v[3 * i + 2]];
          p[0] += mi * vx; p[1] += mi * vy; p[2] += mi * vz;
          l[0] += mi * (ry * vz - rz * vy); l[1] += mi * (rz * vx - rx * vz); l[2] += mi * (rx * vy - ry * vx);
        }
        return { p, l };
      };
      const start = moments(m.restPositions, m.initialVelocities);
      let expansionLeft = 0;
      for (let f = 0; f < 3; f++) {
        const a = await fused.stepFrame();
        const b = await separate.stepFrame();
        // One object of one chunk: the whole damping in one workgroup (finalizeDampObject).
        expect(a.dispatchesByPhase.finalize, `frame ${f}`).toBe(4 * 1);
        expect(b.dispatchesByPhase.finalize, `frame ${f}`).toBe(4 * 4);
        const [xa, va, xb, vb] = [await fused.readPositions(), await fused.readVelocities(), await separate.readPositions(), await separate.readVelocities()];
        let gap = 0;
        for (let i = 0; i < xa.length; i++) gap = Math.max(gap, Math.abs(xa[i] - xb[i]), Math.abs(va[i] - vb[i]));
        expect(gap, `frame ${f}`).toBeLessThan(1e-6);
        const now = moments(xa, va);
        const scale = Math.hypot(...start.l);
        const dl = Math.hypot(...now.l.map((x, k) => x - start.l[k])) / scale;
        console.log(`fused damping, frame ${f}: momentum drift ${Math.hypot(...now.p.map((x, k) => x - start.p[k])).toExponential(2)}, angular momentum drift ${dl.toExponential(2)} of |L|`);
        for (let k = 0; k < 3; k++) expect(Math.abs(now.p[k] - start.p[k]), `frame ${f} momentum ${k}`).toBeLessThan(1e-4 * scale);
        // Both paths alike (gap above); the drift is the stiff material's f32 round-off at this spin.
        expect(dl, `frame ${f} angular momentum`).toBeLessThan(5e-3);
        expansionLeft = 0;
        for (let i = 0; i < m.vertexCount; i++) expansionLeft += va[3 * i + 1] * xa[3 * i + 1];
      }
      // The expansion (radial velocity) was damped: sum v_y y started at 0.5 sum y^2.
      let start2 = 0;
      for (let i = 0; i < m.vertexCount; i++) start2 += 0.5 * m.restPositions[3 * i + 1] ** 2;
      expect(expansionLeft).toBeLessThan(0.8 * start2);
    } finally {
      fused.destroy();
      separate.destroy();
    }
  });

  it('fused damping on objects of several chunks, one held by the ground: per object in one workgroup and per chunk, the frames and held bits of the separate dispatches (1e-6), the free body\'s rigid motion kept', async () => {
    const ctx = await testGpu();
    // 4,913 vertices: five damping chunks of 1,024 (one workgroup per object reduces 4 at a time,
    // then the fifth), solved by each chunk's workgroup in the per-chunk plan. It lands on
    // the ground with friction, so it is held (sticking contact) and damped as a whole; the small
    // cube beside it falls freely (deformation-only damping).
    const setup = (): SimSetup => bodiesSetup(
      [
        { part: cubePart(16, 0.5, [0, 0.002, 0]), velocity: [0.3, -0.5, 0] },
        { part: cubePart(2, 0.1, [1, 0.5, 0]), velocity: [0, 0, 1] },
      ],
      { substeps: 2, iterations: 1, damping: 4, friction: 0.8, collisions: false },
      [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
    );
    const fused = new GpuSolver(ctx, setup(), { collisions: false });
    const perChunk = new GpuSolver(ctx, setup(), { collisions: false });
    const separate = new GpuSolver(ctx, setup(), { collisions: false });
    type FinalizeOptions = { fuseWithDamping: boolean; dampPerObject: boolean };
    const finalizeOf = (solver: GpuSolver) => solver.timeStep.stages.find((st) => st.phase === 'finalize') as unknown as FinalizeOptions;
    finalizeOf(perChunk).dampPerObject = false;
    finalizeOf(separate).fuseWithDamping = false;
    try {
      const big = 17 ** 3;
      let gapMax = 0;
      let va: Float32Array = new Float32Array(0);
      let heldFrames = 0;
      for (let f = 0; f < 3; f++) {
        const a = await fused.stepFrame();
        const c = await perChunk.stepFrame();
        const b = await separate.stepFrame();
        // Five chunks, at most DAMP_OBJECT_MAX_CHUNKS: one workgroup per object, 1 dispatch a substep.
        expect(a.dispatchesByPhase.finalize, `frame ${f}`).toBe(2 * 1);
        expect(c.dispatchesByPhase.finalize, `frame ${f}`).toBe(2 * 2);
        expect(b.dispatchesByPhase.finalize, `frame ${f}`).toBe(2 * 4);
        const [xa, xc, vc, xb, vb] = [await fused.readPositions(), await perChunk.readPositions(), await perChunk.readVelocities(), await separate.readPositions(), await separate.readVelocities()];
        va = await fused.readVelocities();
        let gap = 0;
        for (let i = 0; i < xa.length; i++) gap = Math.max(gap, Math.abs(xa[i] - xb[i]), Math.abs(va[i] - vb[i]), Math.abs(xc[i] - xb[i]), Math.abs(vc[i] - vb[i]));
        gapMax = Math.max(gapMax, gap);
        expect(gap, `frame ${f}`).toBeLessThan(1e-6);
        // The held bits as the separate plan's solve aged them (held.ts: HELD_BEFORE = 4).
        const status = async (solver: GpuSolver) => new Uint32Array(await readBuffer(ctx, solver.objectStatusBuffer, 8));
        const [sa, sc, sb] = [await status(fused), await status(perChunk), await status(separate)];
        expect([...sa], `frame ${f}: status words`).toEqual([...sb]);
        expect([...sc], `frame ${f}: status words`).toEqual([...sb]);
        if (sa[0] & 4) heldFrames++;
        expect(sa[1] & 4, `frame ${f}: the free cube is not held`).toBe(0);
      }
      // The big cube reaches the ground (2 mm below it, 0.5 m/s) in the first frame and sticks.
      expect(heldFrames).toBeGreaterThanOrEqual(2);
      // The free cube keeps its rigid motion (1 m/s along z, no gravity loss along z).
      let vz = 0;
      for (let i = big; i < va.length / 3; i++) vz += va[3 * i + 2];
      vz /= va.length / 3 - big;
      console.log(`fused damping, five chunks: positions and velocities within ${gapMax.toExponential(2)}; big cube held in ${heldFrames} of 3 frames, free cube mean vz ${vz.toFixed(4)} m/s`);
      expect(vz).toBeGreaterThan(0.98);
    } finally {
      fused.destroy();
      perChunk.destroy();
      separate.destroy();
    }
  });
});
