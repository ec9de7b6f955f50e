/**
 * Headless runner: runs a scene for N frames on any WebGPU adapter (Node + Dawn) and writes
 * per-frame phase times and counters plus a final summary as JSON.
 *
 *   node scripts/run-ts.mjs scripts/sim.ts --scene octopus-drop --frames 10 [--out run.json]
 *     [--substeps S] [--iterations I] [--dt 0.0166] [--order gauss-seidel|jacobi]
 *     [--constraint neohookean|springs] [--resolution R]
 *
 * Device loss exits with status 3 and the reason; a bad argument exits with status 2.
 */
import { writeFileSync } from 'node:fs';
import { acquireGpu } from '../src/gpu/device';
import { findScene, scenes } from '../src/scenes/registry';
import type { SolverParams } from '../src/sim/params';
import { Simulation, type FrameStats } from '../src/sim/simulation';

function usage(message: string): never {
  console.error(`sim: ${message}`);
  console.error(`usage: sim --scene <${scenes.map((s) => s.name).join('|')}> --frames N [--out file.json] [--substeps S] [--iterations I] [--dt s] [--order gauss-seidel|jacobi] [--constraint neohookean|springs] [--resolution R]`);
  process.exit(2);
}

function parseArgs(argv: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) usage(`unexpected argument "${a}"`);
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) usage(`${a} needs a value`);
    out[a.slice(2)] = v;
    i++;
  }
  return out;
}

function num(args: Record<string, string>, key: string): number | undefined {
  if (!(key in args)) return undefined;
  const v = Number(args[key]);
  if (!Number.isFinite(v)) usage(`--${key} must be a number, got "${args[key]}"`);
  return v;
}

const args = parseArgs(process.argv.slice(2));
const known = new Set(['scene', 'frames', 'out', 'substeps', 'iterations', 'dt', 'order', 'constraint', 'resolution']);
for (const k of Object.keys(args)) if (!known.has(k)) usage(`unknown option --${k}`);
if (!args.scene) usage('--scene is required');
const frames = num(args, 'frames') ?? 10;
if (!(frames >= 1 && Number.isInteger(frames))) usage('--frames must be a positive integer');

let scene;
try {
  scene = findScene(args.scene);
} catch (e) {
  usage((e as Error).message);
}
const ctx = await acquireGpu({
  onLost: (reason) => {
    console.error(`sim: GPU device lost: ${reason}`);
    process.exit(3);
  },
});
const tBuild = performance.now();
const setup = scene.build({ resolution: num(args, 'resolution') });
const overrides: Partial<SolverParams> = {};
const substeps = num(args, 'substeps');
const iterations = num(args, 'iterations');
const dt = num(args, 'dt');
if (substeps !== undefined) overrides.substeps = substeps;
if (iterations !== undefined) overrides.iterations = iterations;
if (dt !== undefined) overrides.dt = dt;
if (args.order) {
  if (args.order !== 'gauss-seidel' && args.order !== 'jacobi') usage(`--order must be gauss-seidel or jacobi, got "${args.order}"`);
  overrides.solveOrder = args.order;
}
if (args.constraint) {
  if (args.constraint !== 'neohookean' && args.constraint !== 'springs') usage(`--constraint must be neohookean or springs, got "${args.constraint}"`);
  overrides.constraint = args.constraint;
}
const sim = new Simulation(ctx, setup);
try {
  sim.setParams(overrides);
} catch (e) {
  usage((e as Error).message);
}
const buildMs = performance.now() - tBuild;
const m = setup.model;
console.error(`sim: ${scene.name}: ${m.vertexCount} vertices, ${m.tetCount} tets, ${m.edgeCount} edges, ${m.tetColouring.colourCount} tet colours, ${m.edgeColouring.colourCount} edge colours; ${ctx.description}; timestamps ${sim.timestampQueries ? 'yes' : 'no'}`);

const perFrame: FrameStats[] = [];
for (let f = 0; f < frames; f++) {
  const s = await sim.stepFrame();
  perFrame.push(s);
  for (const msg of s.stopped) console.error(`sim: ${msg}`);
}

// Summary: one readback of positions and velocities at the end.
const x = await sim.solver.readPositions();
const v = await sim.solver.readVelocities();
const min = [Infinity, Infinity, Infinity];
const max = [-Infinity, -Infinity, -Infinity];
let nonFinite = 0;
let kinetic = 0;
for (let i = 0; i < m.vertexCount; i++) {
  let ok = true;
  for (let k = 0; k < 3; k++) {
    const c = x[3 * i + k];
    if (!Number.isFinite(c)) ok = false;
    else { min[k] = Math.min(min[k], c); max[k] = Math.max(max[k], c); }
  }
  if (!ok) nonFinite++;
  if (m.invMass[i] > 0) kinetic += (0.5 * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2)) / m.invMass[i];
}
const wall = perFrame.map((s) => s.wallMs);
const report = {
  scene: scene.name,
  adapter: ctx.description,
  timing: sim.timestampQueries ? 'timestamp-query' : 'cpu-wall',
  params: sim.params,
  counts: {
    vertices: m.vertexCount,
    tets: m.tetCount,
    edges: m.edgeCount,
    tetColours: m.tetColouring.colourCount,
    edgeColours: m.edgeColouring.colourCount,
  },
  buildMs,
  frames: perFrame.map((s) => ({
    frame: s.frame,
    wallMs: s.wallMs,
    phasesMs: s.gpuPhasesMs ?? { xpbd: s.wallMs },
    counters: { dispatches: s.dispatches, constraintIterations: s.constraintIterations, readbacks: 1 },
  })),
  summary: {
    frames,
    meanFrameMs: wall.reduce((a, b) => a + b, 0) / wall.length,
    constraintIterationsPerSecond: perFrame.reduce((a, s) => a + s.constraintIterations, 0) / (wall.reduce((a, b) => a + b, 0) / 1000),
    boundingBox: { min, max },
    kineticEnergy: kinetic,
    nonFiniteVertices: nonFinite,
    stoppedObjects: sim.stoppedMessages,
  },
};
const json = JSON.stringify(report, null, 2);
if (args.out) writeFileSync(args.out, json);
else console.log(json);
console.error(`sim: ${frames} frames, mean ${report.summary.meanFrameMs.toFixed(1)} ms/frame, bbox y [${min[1].toFixed(3)}, ${max[1].toFixed(3)}], KE ${kinetic.toExponential(3)}, non-finite ${nonFinite}`);
sim.destroy();
ctx.device.destroy();
