/**
 * Side by side with the peer a web developer would pick instead (issue 11): the same pile of the
 * same meshes in Rapier's JavaScript bindings (npm @dimforge/rapier3d-compat 0.21, volumetric
 * soft bodies on the CPU in WebAssembly; bench/peers/rapierScene.ts) and in ours: the GPU engine
 * (src/sim/simulation.ts on Dawn; SwiftShader here) and the float64 CPU engine (src/sim/cpuSolver.ts).
 * Same vertices, tets, masses, Young's modulus and Poisson ratio, dt, substeps and iterations
 * per substep, friction, ground and walls.
 *
 * Per engine and frame: the time of the step alone (Rapier: world.step(); GPU: Simulation.stepFrame,
 * which waits for the queue; CPU: CpuSolver.stepFrame), then, untimed, the positions handed to
 * the independent brute-force counter tests/support/intersectionCounter.ts (countIntersections,
 * which shares no code with any engine): boundary vertices strictly inside a tet of another
 * object (inter) or a non-incident tet of their own object (self).
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/peers.ts \
 *     [--scene octopus-pile] [--mesh FILE (mesh-pile: ../shared/meshes/Cube.t)] [--size 2 | --copies 2] [--frames 45] [--engines rapier,cpu (default) | rapier,gpu,cpu] \
 *     [--substeps S] [--iterations I] [--impact-substeps N|auto (ours: up to N substeps on impact; default auto)] [--contact-offset-speed V|off (ours)] [--count-every 1] [--rapier-extra-substeps 0] [--rapier-radius R] [--rapier-solver constraints|fem]
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { acquireGpu } from '../src/gpu/device';
import { readMeshFile } from '../src/runner/meshFile';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import type { SceneSetup } from '../src/scenes/types';
import { CpuSolver } from '../src/sim/cpuSolver';
import { Simulation } from '../src/sim/simulation';
import { countIntersections } from '../tests/support/intersectionCounter';
import { checkBenchArgs } from './cli';
import { buildRapierScene } from './peers/rapierScene';

const args = process.argv.slice(2);
checkBenchArgs(args, {
  usage: 'node scripts/run-ts.mjs bench/peers.ts [--scene octopus-pile] [--mesh FILE] [--size N | --copies N] [--frames 45] [--engines rapier,cpu | rapier,gpu,cpu] ' +
    '[--substeps S] [--iterations I] [--impact-substeps N|auto] [--contact-offset-speed V|off] [--count-every 1] [--rapier-extra-substeps 0] [--rapier-radius R] [--rapier-solver constraints|fem]',
  values: ['--scene', '--mesh', '--size', '--copies', '--frames', '--engines', '--substeps', '--iterations', '--impact-substeps', '--contact-offset-speed', '--count-every', '--rapier-extra-substeps', '--rapier-radius', '--rapier-solver'],
});
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const num = (name: string, fallback: number): number => {
  const s = arg(name);
  if (s === undefined) return fallback;
  const n = Number(s);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} ${s}: expected a non-negative number`);
  return n;
};
const ENGINES = ['rapier', 'gpu', 'cpu'] as const;
type Engine = (typeof ENGINES)[number];
// The GPU engine is opt-in: on SwiftShader (this machine) a contact frame of the pile took
// 58-309 s under load, far past the default run's budget; it is no GPU figure anyway.
const engines = (arg('engines') ?? 'rapier,cpu').split(',') as Engine[];
for (const e of engines) if (!ENGINES.includes(e)) throw new Error(`--engines: unknown engine "${e}"; engines: ${ENGINES.join(', ')}`);
const sceneName = arg('scene') ?? 'octopus-pile';
const frames = num('frames', 45);
const countEvery = Math.max(1, num('count-every', 1));
const scene = findScene(sceneName);

function build(): SceneSetup {
  const copies = arg('copies') !== undefined ? num('copies', 2) : undefined;
  const size = arg('size') !== undefined ? num('size', 2) : copies === undefined ? scene.size?.small : undefined;
  const meshFile = arg('mesh') ?? scene.defaultMeshFile;
  if (arg('mesh') !== undefined && !scene.accepts.includes('mesh')) throw new Error(`--mesh: scene ${scene.name} takes no mesh file`);
  const mesh = scene.accepts.includes('mesh') && meshFile ? readMeshFile(meshFile) : undefined;
  const setup = scene.build({ size, copies, meshes: readSceneMeshes(scene), mesh });
  const p = setup.params;
  const impactFlag = arg('impact-substeps');
  const rampFlag = arg('contact-offset-speed');
  setup.params = {
    ...p, substeps: num('substeps', p.substeps), iterations: num('iterations', p.iterations),
    impactSubsteps: impactFlag === undefined || impactFlag === 'auto' ? (impactFlag ?? p.impactSubsteps) : Number(impactFlag),
    contactOffsetSpeed: rampFlag === undefined ? p.contactOffsetSpeed : rampFlag === 'off' ? Infinity : Number(rampFlag),
  };
  if (setup.schedule?.length) console.log(`note: scene ${scene.name} has a schedule of parameter changes; this benchmark leaves it out (Rapier has no counterpart)`);
  return setup;
}

interface Counts { self: number; inter: number; vertices: number; inverted: number }
interface Run { engine: Engine; ms: number[]; counts: Counts[]; note: string; substeps: number[] }

const probe = build();
const m = probe.model;
console.log(`${scene.name}: ${m.objectNames.length} objects, ${m.vertexCount} vertices, ${m.tetCount} tets; dt ${probe.params.dt}, ${probe.params.substeps} substeps x ${probe.params.iterations} iterations, friction ${probe.params.friction}; ${frames} frames, counter every ${countEvery}`);

const positions = new Float64Array(3 * m.vertexCount);
function count(): Counts {
  const c = countIntersections({ positions, tets: m.tets, tetObject: m.tetObject });
  return { self: c.self, inter: c.inter, vertices: c.vertices, inverted: c.hits.filter((h) => h.inverted).length };
}

function centreHeight(): number {
  let s = 0;
  for (let v = 0; v < m.vertexCount; v++) s += positions[3 * v + 1];
  return s / m.vertexCount;
}

interface Stepper {
  engine: Engine; note: string; step(): Promise<void> | void; read(): Promise<void> | void; done(): void;
  /** Substeps the last frame took (ours: more on impact with --impact-substeps); absent for Rapier. */
  substeps?(): number;
  /** The closing speed (m/s) that chose them, when measured (--impact-substeps on). */
  closing?(): number | undefined;
}

async function makeStepper(engine: Engine): Promise<Stepper> {
  const setup = build();
  if (engine === 'rapier') {
    await RAPIER.init();
    const r = buildRapierScene(RAPIER, setup, {
      extraSubsteps: num('rapier-extra-substeps', 0),
      particleRadius: arg('rapier-radius') !== undefined ? num('rapier-radius', 0) : undefined,
      solver: arg('rapier-solver') === 'fem' ? 'fem' : 'constraints',
    });
    return { engine, note: r.describe(), step: () => r.world.step(), read: () => r.readPositions(positions), done: () => r.world.free() };
  }
  if (engine === 'gpu') {
    const ctx = await acquireGpu();
    const sim = new Simulation(ctx, setup);
    let last = setup.params.substeps, closing: number | undefined;
    return {
      engine,
      substeps: () => last,
      closing: () => closing,
      note: `ours, GPU engine on ${ctx.description}: collisions ${setup.params.collisions ? setup.params.collisionMode : 'off'}, self ${setup.params.selfCollision}`,
      step: async () => {
        const r = await sim.stepFrame();
        last = r.substeps;
        closing = r.closingSpeed;
      },
      read: async () => { positions.set(await sim.solver.readPositions()); },
      done: () => { sim.destroy(); ctx.device.destroy(); },
    };
  }
  const solver = new CpuSolver(setup);
  return {
    engine,
    note: `ours, CPU engine (float64 JavaScript): collisions ${setup.params.collisions ? setup.params.collisionMode : 'off'}, self ${setup.params.selfCollision}`,
    substeps: () => solver.frameSubstepCount,
    closing: () => solver.closingSpeed ?? undefined,
    step: () => solver.stepFrame(),
    read: () => { positions.set(solver.x); },
    done: () => {},
  };
}

// The engines advance in lockstep (frame f of each, then frame f + 1), so a change of this shared
// machine's load during the run falls on all of them alike.
const runs: Run[] = [];
const steppers: Stepper[] = [];
for (const e of engines) {
  const s = await makeStepper(e);
  console.log(`[${e}] ${s.note}`);
  steppers.push(s);
  runs.push({ engine: e, ms: [], counts: [], note: s.note, substeps: [] });
}
const failed = new Set<number>();
const t0 = performance.now();
for (let f = 0; f < frames; f++) {
  const line: string[] = [];
  for (let i = 0; i < steppers.length; i++) {
    if (failed.has(i)) continue;
    const s = steppers[i], r = runs[i];
    try {
      const t = performance.now();
      await s.step();
      r.ms.push(performance.now() - t);
      if ((f + 1) % countEvery !== 0 && f + 1 !== frames) continue;
      await s.read();
      const c = count();
      r.counts.push(c);
      const closing = s.closing?.();
      const taken = s.substeps ? `, ${s.substeps()} substeps${closing !== undefined ? ` (closing ${closing.toFixed(2)} m/s)` : ''}` : '';
      // Rapier's own extra substeps (--rapier-extra-substeps) are not reported by its bindings: its budget is counted.
      r.substeps.push(s.substeps?.() ?? probe.params.substeps);
      line.push(`${s.engine} ${r.ms[f].toFixed(0)} ms${taken}, ${c.vertices} penetrating (self ${c.self}, inter ${c.inter}; ${c.inverted} hits in inverted tets), mean height ${centreHeight().toFixed(3)}`);
    } catch (err) {
      console.log(`[${s.engine}] frame ${f + 1} failed, engine stopped: ${(err as Error).message}`);
      failed.add(i);
    }
  }
  console.log(`frame ${f + 1}/${frames} (${((performance.now() - t0) / 1000).toFixed(0)} s): ${line.join('; ')}`);
}
for (const s of steppers) s.done();

const mean = (a: number[]): number => (a.length ? a.reduce((x, y) => x + y, 0) / a.length : NaN);
const median = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};

console.log(`\nSummary: ${scene.name}, ${m.tetCount} tets, ${probe.params.substeps} substeps x ${probe.params.iterations} iterations, ${frames} frames (ms/frame: the first frame left out of the mean and median)`);
const half = Math.floor(frames / 2);
console.log(`engine  | mean ms/frame | median | max | mean frames 2-${half} | mean frames ${half + 1}-${frames} | penetrating vertices per frame: mean | max | last (self/inter) | hits in inverted tets: mean | frames with any / counted | substeps per counted frame: mean / max`);
for (const r of runs) {
  const steady = r.ms.length > 1 ? r.ms.slice(1) : r.ms;
  const v = r.counts.map((c) => c.vertices);
  const last = r.counts[r.counts.length - 1];
  console.log(`${r.engine.padEnd(7)} | ${mean(steady).toFixed(1).padStart(13)} | ${median(steady).toFixed(1).padStart(6)} | ${Math.max(...steady).toFixed(0)} | ${mean(r.ms.slice(1, half)).toFixed(1)} | ${mean(r.ms.slice(half)).toFixed(1)} | ${mean(v).toFixed(1).padStart(36)} | ${Math.max(...v, 0).toString().padStart(3)} | ${last ? `${last.vertices} (${last.self}/${last.inter})` : '-'} | ${mean(r.counts.map((c) => c.inverted)).toFixed(1)} | ${v.filter((x) => x > 0).length} / ${r.counts.length} | ${mean(r.substeps).toFixed(1)} / ${Math.max(...r.substeps)}`);
}
const rapier = runs.find((r) => r.engine === 'rapier');
if (rapier) {
  for (const r of runs) {
    if (r === rapier) continue;
    const a = mean(rapier.ms.slice(1)), b = mean(r.ms.slice(1));
    const late = mean(rapier.ms.slice(half)) / mean(r.ms.slice(half));
    console.log(`Rapier / ${r.engine}: ${(a / b).toFixed(2)}x the time per frame (${a > b ? `${r.engine} faster` : 'Rapier faster'}); frames ${half + 1}-${frames}: ${late.toFixed(2)}x`);
  }
}
process.exit(0);
