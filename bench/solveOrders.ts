/**
 * Solve orders at equal frame cost (issue 11, "Dispatch count"): partitioned Gauss-Seidel,
 * coloured Gauss-Seidel, Jacobi, and fewer iterations with more substeps (Macklin et al. 2019,
 * "Small Steps"), on a measure of convergence:
 *
 *  - the cantilever's tip error: the clamped beam (scene `cantilever`, E = 1e8 by default, stiff
 *    so that the solve has work to do: Euler-Bernoulli sag 38 mm) sagging under gravity for `--seconds`; the tip's height against a
 *    converged reference (coloured Gauss-Seidel, 10 substeps x 100 iterations; damping 10/s so
 *    it has settled), as a fraction
 *    of the reference's sag. An unconverged solve is softer than its E and sags more.
 *
 *  - the settled pile's residual: two aligned cubes (side 0.5, resolution 3, E 1e5, friction
 *    0.4, damping 20/s) resting on each other and on the ground, collisions on, started 1 mm
 *    apart; after `--pile-seconds` (default 2.5), the RMS vertex speed over the last 30 frames
 *    (m/s; a settled pile is at rest) and the top cube's mean height over those frames against
 *    the converged reference's (mm). (The scene `cube-stack` was tried first: its top cube is
 *    dropped off-centre and turned, slides off and bounces on the ground for seconds, so it
 *    measured the stack's dynamics, not the solve. On the GPU, SwiftShader takes 30-300 s a frame
 *    for a pile with collisions, so the pile runs on the CPU solver like the beam.)
 *
 * Convergence runs on the float64 CPU solver, which executes each order exactly as the GPU does
 * (tests/gpu/xpbdMatchesCpu.test.ts). Frame cost is projected from the XPBD stages' dispatch
 * plan and bytes (src/sim/traffic.ts): dispatches x per-dispatch cost + the partitioned cells'
 * serial rounds x a round's latency (bench/projection.ts ROUND_LATENCY) + bytes / bandwidth, for
 * a native per-dispatch cost (2 us, wgpu) and a browser one (30 us, Vulkan in Chrome), both
 * from the measurements, and 1,008 GB/s (RTX 4090, NVIDIA's spec sheet). With a GPU
 * adapter (Dawn; on this machine SwiftShader) one frame of each configuration also runs on the
 * GPU solver to check that the plan's dispatch count is the one the solver records.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/solveOrders.ts [--seconds 2] [--resolution 16] [--young 1e8] [--pile-seconds 2.5] [--no-gpu]
 */
import { acquireGpu } from '../src/gpu/device';
import { generateShape } from '../src/mesh/procedural/catalog';
import { cantilever } from '../src/scenes/cantilever';
import { placeAbove } from '../src/scenes/place';
import { CpuSolver } from '../src/sim/cpuSolver';
import { GpuSolver } from '../src/sim/gpuSolver';
import { buildModel, updateMaterialData } from '../src/sim/model';
import { defaultParams, type SolveOrder, type SolverParams } from '../src/contract/params';
import type { SimSetup } from '../src/sim/setup';
import { collidersRunInCells } from '../src/sim/stages/materialStage';
import { dampsPerObject, predictJoinsFinalize, warmStartJoinsFinalize } from '../src/sim/stages/finalizeStage';
import { partitionShape, planTraffic, xpbdFramePlan } from '../src/sim/traffic';
import { ROUND_LATENCY } from './projection';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/solveOrders.ts [--seconds 2] [--resolution 16] [--young 1e8] [--pile-seconds 2.5] [--no-gpu]',
  values: ['--seconds', '--resolution', '--young', '--pile-seconds'],
  switches: ['--no-gpu'],
});
const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  if (!(v > 0)) throw new Error(`--${name} must be a positive number, got ${args[i + 1]}`);
  return v;
};
const seconds = flag('seconds', 2);
const resolution = flag('resolution', 16);
const young = flag('young', 1e8);
const pileSeconds = flag('pile-seconds', 2.5);
const useGpu = !args.includes('--no-gpu');

/** Per-dispatch costs (s) and bandwidth (B/s) of the projection; sources in the header. */
const NATIVE_DISPATCH = 2e-6;
const BROWSER_DISPATCH = 30e-6;
const BANDWIDTH = 1008e9;

interface Config {
  order: SolveOrder;
  substeps: number;
  iterations: number;
  note: string;
}

const CONFIGS: Config[] = [
  { order: 'gauss-seidel', substeps: 10, iterations: 3, note: 'before (coloured)' },
  { order: 'partitioned', substeps: 10, iterations: 3, note: 'new default' },
  { order: 'jacobi', substeps: 10, iterations: 3, note: '' },
  { order: 'gauss-seidel', substeps: 10, iterations: 12, note: '' },
  { order: 'partitioned', substeps: 10, iterations: 12, note: '' },
  { order: 'jacobi', substeps: 10, iterations: 24, note: '' },
  { order: 'partitioned', substeps: 30, iterations: 1, note: 'small steps' },
  { order: 'partitioned', substeps: 40, iterations: 3, note: 'small steps' },
  { order: 'jacobi', substeps: 40, iterations: 6, note: 'small steps' },
];

/** Projected XPBD cost of one frame (s) and its dispatches and bytes, from the traffic plan. */
function projectedCost(setup: SimSetup, c: Config) {
  const m = setup.model;
  const plan = xpbdFramePlan({
    mesh: { vertices: m.vertexCount, tets: m.tetCount, edges: m.edgeCount },
    colours: m.tetColouring.colourCount,
    partition: partitionShape(m.tetPartition),
    substeps: c.substeps,
    iterations: c.iterations,
    solveOrder: c.order,
    constraint: 'neohookean',
    colliders: setup.colliders.length,
    damping: setup.params.damping,
    warmStart: setup.params.warmStart,
    collidersInCells: collidersRunInCells(m),
    dampingPerObject: dampsPerObject(m),
    predictInFinalize: predictJoinsFinalize(m), warmStartInFinalize: warmStartJoinsFinalize(m),
  });
  const t = planTraffic(plan, { vertices: m.vertexCount, tets: m.tetCount, edges: m.edgeCount });
  const bytes = t.read + t.write;
  return {
    dispatches: t.dispatches,
    material: t.byPhase.material?.dispatches ?? 0,
    bytes,
    // The partitioned cells' serial rounds inside their dispatches cost a round's latency each (bench/projection.ts).
    native: t.dispatches * NATIVE_DISPATCH + t.extraRounds * ROUND_LATENCY.seconds + bytes / BANDWIDTH,
    browser: t.dispatches * BROWSER_DISPATCH + t.extraRounds * ROUND_LATENCY.seconds + bytes / BANDWIDTH,
  };
}

function withParams(setup: SimSetup, p: Partial<SolverParams>): SimSetup {
  return { ...setup, params: { ...setup.params, ...p } };
}

/** Height of the beam's free end: mean y of the vertices at the largest x. */
function tipHeight(setup: SimSetup, x: Float64Array): number {
  const m = setup.model;
  let xmax = -Infinity;
  for (let i = 0; i < m.vertexCount; i++) xmax = Math.max(xmax, m.restPositions[3 * i]);
  let sum = 0, n = 0;
  for (let i = 0; i < m.vertexCount; i++) {
    if (m.restPositions[3 * i] > xmax - 1e-9) { sum += x[3 * i + 1]; n++; }
  }
  return sum / n;
}

function runCantilever(setup: SimSetup, c: Pick<Config, 'order' | 'substeps' | 'iterations'>): number {
  const s = new CpuSolver(withParams(setup, { solveOrder: c.order, substeps: c.substeps, iterations: c.iterations }));
  const frames = Math.round(seconds / setup.params.dt);
  for (let f = 0; f < frames; f++) s.stepFrame();
  return tipHeight(setup, s.x);
}

/** Two aligned cubes, 1 mm apart, the lower 1 mm above the ground (see the header). */
function alignedPile(): SimSetup {
  const side = 0.5;
  const cube = generateShape('cube', { size: side }, 3);
  const onGround = placeAbove(cube.positions, 0);
  const objects = [0, 1].map((i) => ({
    name: `cube ${i + 1}`,
    positions: onGround.map((p, k) => (k % 3 === 1 ? p + 0.001 + i * (side + 0.002) : p)),
    tets: cube.tets,
    material: { youngsModulus: 1e5, poissonRatio: 0.4, density: 1000 },
  }));
  return {
    model: buildModel(objects),
    colliders: [{ kind: 'plane', normal: [0, 1, 0], offset: 0 }],
    handles: [],
    params: defaultParams({ dt: 1 / 60, friction: 0.4, damping: 20, collisions: true, selfCollision: true }),
  };
}

/** The pile's RMS vertex speed and the top cube's mean height over the last 30 frames. */
function runPile(setup: SimSetup, c: Pick<Config, 'order' | 'substeps' | 'iterations'>): { speed: number; top: number } {
  const s = new CpuSolver(withParams(setup, { solveOrder: c.order, substeps: c.substeps, iterations: c.iterations }));
  const m = setup.model;
  const frames = Math.round(pileSeconds / setup.params.dt);
  const window = Math.min(30, frames);
  let sq = 0, top = 0;
  for (let f = 0; f < frames; f++) {
    s.stepFrame();
    if (f < frames - window) continue;
    for (let i = 0; i < 3 * m.vertexCount; i++) sq += s.v[i] * s.v[i];
    for (let i = 0; i < m.vertexCount; i++) if (m.vertexObject[i] === 1) top += s.x[3 * i + 1];
  }
  const topCount = m.vertexCount - m.objectVertexOffsets[1];
  return { speed: Math.sqrt(sq / (window * m.vertexCount)), top: top / (window * topCount) };
}

async function gpuMaterialDispatches(setup: SimSetup, c: Config): Promise<number | null> {
  if (!gpu) return null;
  const solver = new GpuSolver(gpu, withParams(setup, { solveOrder: c.order, substeps: c.substeps, iterations: c.iterations }), { collisions: false });
  const r = await solver.stepFrame();
  solver.destroy();
  return r.dispatchesByPhase.material ?? 0;
}

const gpu = useGpu ? await acquireGpu({ onLost: (r) => console.error(`device lost: ${r}`) }).catch((e: Error) => (console.error(`no GPU adapter (${e.message}): dispatch counts from the plan only`), null)) : null;

const beam = withParams(cantilever.build({ resolution }), { damping: 10 });
beam.model.materials.forEach((mat) => (mat.youngsModulus = young));
// Young's modulus changed in place: refresh the constants the solvers read.
updateMaterialData(beam.model);
const m = beam.model;
const part = m.tetPartition;
console.log(`cantilever: resolution ${resolution}, E ${young.toExponential(0)}, ${m.vertexCount} vertices, ${m.tetCount} tets, ${m.tetColouring.colourCount} colours; partition: cell ${part.cellSize.toFixed(3)} m, passes ${part.passSizes.join('/')} tets, local colours ${part.passes.map((p) => p.maxColours).join('/')}, ${part.leftoverCount} left over`);
console.log(`simulated ${seconds} s each`);
const restTip = tipHeight(beam, m.restPositions);
process.stdout.write('reference (coloured Gauss-Seidel, 10 x 100) ... ');
const refTip = runCantilever(beam, { order: 'gauss-seidel', substeps: 10, iterations: 100 });
const refSag = restTip - refTip;
console.log(`sag ${(refSag * 1000).toFixed(2)} mm`);
const pile = alignedPile();
process.stdout.write(`pile: ${pile.model.tetCount} tets, ${pile.model.tetColouring.colourCount} colours, ${pileSeconds} s; reference (coloured Gauss-Seidel, 10 x 100) ... `);
const refPile = runPile(pile, { order: 'gauss-seidel', substeps: 10, iterations: 100 });
console.log(`RMS speed ${(refPile.speed * 1000).toFixed(1)} mm/s, top cube at ${(refPile.top * 1000).toFixed(1)} mm`);

console.log('\n| order | substeps x iterations | material dispatches / frame (GPU-recorded) | all XPBD dispatches | MB moved / frame | projected ms native / browser | cantilever tip error (of the sag) | pile RMS speed (mm/s) | pile top height - reference (mm) | note |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const c of CONFIGS) {
  const cost = projectedCost(beam, c);
  const recorded = await gpuMaterialDispatches(beam, c);
  if (recorded !== null && recorded !== cost.material) throw new Error(`${c.order} ${c.substeps}x${c.iterations}: the GPU recorded ${recorded} material dispatches, the plan says ${cost.material}`);
  const tipError = Math.abs(runCantilever(beam, c) - refTip) / refSag;
  const p = runPile(pile, c);
  console.log(
    `| ${c.order} | ${c.substeps} x ${c.iterations} | ${cost.material}${recorded !== null ? ' (same)' : ''} | ${cost.dispatches} | ${(cost.bytes / 1e6).toFixed(1)} | ${(cost.native * 1e3).toFixed(2)} / ${(cost.browser * 1e3).toFixed(2)} | ${(100 * tipError).toFixed(2)} % | ${(p.speed * 1000).toFixed(1)} | ${((p.top - refPile.top) * 1000).toFixed(1)} | ${c.note} |`,
  );
}
console.log(`\nProjection: dispatches x ${NATIVE_DISPATCH * 1e6} us (native) or ${BROWSER_DISPATCH * 1e6} us (browser) + serial rounds inside dispatches x ${ROUND_LATENCY.seconds * 1e6} us + bytes / ${BANDWIDTH / 1e9} GB/s.`);
process.exit(0);
