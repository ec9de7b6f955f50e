/**
 * Cost of the intersection display (src/collision/gpu/intersectionDisplay.ts: the blue tint's
 * data, one detection + shortest path per frame on the final positions) against the frame it
 * follows. Prints a markdown table and one JSON line per size; asserts nothing.
 *
 *   [VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json] node scripts/run-ts.mjs bench/intersectionDisplay.ts \
 *     [--copies 1,2,4] [--frames N] [--substeps N] [--repeat N]
 *
 * Scene: `octopus-pile` (shared octopus_2KFaces.t alternating with generated octopi; dt 1/60,
 * self-collision on), --substeps per frame (default the scene's 20). Per size:
 *  - frame wall ms (submit to readback, median of --frames after 2 warm-up frames) with the
 *    display off and on (the same solver, alternating frames), and the frame's detect + spb GPU
 *    time (all substeps; timestamp queries, where the adapter has them);
 *  - the display alone (its own command buffer, submit to onSubmittedWorkDone, median of
 *    --repeat) on the pile's positions, and with every octopus moved onto the first one's centre
 *    (0.2 apart along x), so that they interpenetrate deeply and many boundary vertices get a
 *    query (with one octopus nothing overlaps); there also with the time step's static stacks
 *    (SPB_STATIC_CAPACITIES) instead of the display's deeper ones, and how many queries those
 *    leave unanswered (stack overflow).
 * SwiftShader (no GPU) runs it on the CPU: compare ratios within one run only.
 */
import { existsSync } from 'node:fs';
import { acquireGpu } from '../src/gpu/device';
import { readMeshFile } from '../src/runner/meshFile';
import { findScene } from '../src/scenes/registry';
import { GpuSolver } from '../src/sim/gpuSolver';
import { packVec4 } from '../src/contract/state';
import { IntersectionDisplay } from '../src/collision/gpu/intersectionDisplay';
import { SPB_STATIC_CAPACITIES } from '../src/spb/settings';
import { checkBenchArgs } from './cli';

const USAGE = '[VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json] node scripts/run-ts.mjs bench/intersectionDisplay.ts [--copies 1,2,4] [--frames N] [--substeps N] [--repeat N]';
checkBenchArgs(process.argv.slice(2), {
  usage: USAGE,
  values: ['--copies', '--frames', '--substeps', '--repeat'],
});

const MESH_FILE = '../shared/meshes/octopus_2KFaces.t';

function fail(message: string): never {
  console.error(`bench/intersectionDisplay: ${message}\nusage: ${USAGE}`);
  process.exit(2);
}
const argv = process.argv.slice(2); // checked above by checkBenchArgs
function arg(name: string): string | undefined {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) fail(`--${name} needs a value`);
  return v;
}
function positiveInt(s: string | undefined, name: string, def: number): number {
  if (s === undefined) return def;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 1) fail(`--${name} must be a positive integer, got "${s}"`);
  return n;
}
const copiesList = (arg('copies') ?? '1,2,4').split(',').map((s) => positiveInt(s, 'copies', 1));
const frames = positiveInt(arg('frames'), 'frames', 4);
const repeat = positiveInt(arg('repeat'), 'repeat', 5);
const substeps = arg('substeps') === undefined ? undefined : positiveInt(arg('substeps'), 'substeps', 20);
if (!existsSync(MESH_FILE)) fail(`the octopus mesh ${MESH_FILE} is missing (run from the project root, next to ../shared)`);
const mesh = readMeshFile(MESH_FILE);

const median = (a: number[]): number => [...a].sort((p, q) => p - q)[Math.floor(a.length / 2)];

const ctx = await acquireGpu();
const device = ctx.device;
const info = ctx.adapter.info;
console.log(`adapter: ${info?.description || info?.architecture || info?.vendor || 'unknown'} (${ctx.backend})`);
console.log('| octopi | vertices | tets | substeps | frame ms (off) | frame ms (on) | display alone ms | frame detect + spb GPU ms | overlapped: queries | overlapped: display ms | static stacks: ms (answered) | display / frame |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const copies of copiesList) {
  const setup = findScene('octopus-pile').build({ mesh, copies });
  if (substeps !== undefined) setup.params = { ...setup.params, substeps };
  const solver = new GpuSolver(ctx, setup);
  const m = setup.model;
  const displayAlone = async (d = solver.intersectionDisplay!): Promise<number> => {
    const times: number[] = [];
    for (let r = 0; r < repeat + 1; r++) {
      const t0 = performance.now();
      const encoder = device.createCommandEncoder();
      d.encode(encoder, solver.state);
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
      if (r > 0) times.push(performance.now() - t0);
    }
    return median(times);
  };
  // Warm-up: pipelines of the frame and of the display compiled outside the measurements.
  solver.showIntersections = true;
  for (let f = 0; f < 2; f++) await solver.stepFrame();
  const off: number[] = [], on: number[] = [], detectSpb: number[] = [];
  for (let f = 0; f < 2 * frames; f++) {
    solver.showIntersections = f % 2 === 1;
    const t0 = performance.now();
    const r = await solver.stepFrame();
    (solver.showIntersections ? on : off).push(performance.now() - t0);
    if (r.gpuPhaseMs && !solver.showIntersections) detectSpb.push((r.gpuPhaseMs.detect ?? 0) + (r.gpuPhaseMs.spb ?? 0));
  }
  const frameDetectSpb = detectSpb.length > 0 ? median(detectSpb) : null;
  const alone = await displayAlone();
  // Overlap: every octopus moved onto the first one's centre, 0.2 apart along x (an affine
  // squash would create no intersection): deep interpenetration, many queries.
  const x = await solver.readPositions();
  const objects = m.objectNames.length;
  const centre = new Float64Array(3 * objects);
  const count = new Float64Array(objects);
  for (let v = 0; v < m.vertexCount; v++) {
    const o = m.vertexObject[v];
    count[o]++;
    for (let k = 0; k < 3; k++) centre[3 * o + k] += x[3 * v + k];
  }
  for (let v = 0; v < m.vertexCount; v++) {
    const o = m.vertexObject[v];
    for (let k = 0; k < 3; k++) x[3 * v + k] += centre[k] / count[0] - centre[3 * o + k] / count[o] + (k === 0 ? 0.2 * o : 0);
  }
  device.queue.writeBuffer(solver.state.positions, 0, packVec4(x, m.vertexCount, (i) => m.invMass[i]));
  const overlapped = await displayAlone();
  const r = await solver.readIntersections();
  const c = solver.collisions!;
  const staticStacks = new IntersectionDisplay(device, c.topology, c.spb, c.detect.hash, () => solver.params, SPB_STATIC_CAPACITIES);
  const overlappedStatic = await displayAlone(staticStacks);
  const rs = await staticStacks.readIntersections(solver.state);
  staticStacks.destroy();
  const row = {
    copies, vertices: m.vertexCount, tets: m.tetCount, substeps: setup.params.substeps,
    frameOffMs: median(off), frameOnMs: median(on), displayMs: alone, overlappedQueries: r.detected, overlappedAnswered: r.vertexIds.length, overlappedDisplayMs: overlapped, frameDetectSpbGpuMs: frameDetectSpb, staticStacksMs: overlappedStatic, staticStacksAnswered: rs.vertexIds.length,
  };
  console.log(
    `| ${copies} | ${row.vertices} | ${row.tets} | ${row.substeps} | ${row.frameOffMs.toFixed(1)} | ${row.frameOnMs.toFixed(1)} | ${alone.toFixed(1)} | ${frameDetectSpb === null ? 'no timestamps' : frameDetectSpb.toFixed(2)} | ` +
      `${r.detected} (${r.vertexIds.length} answered) | ${overlapped.toFixed(1)} | ${overlappedStatic.toFixed(1)} (${rs.vertexIds.length}) | ${(alone / row.frameOffMs).toFixed(3)} |`,
  );
  console.log(JSON.stringify(row));
  solver.destroy();
}
process.exit(0);
