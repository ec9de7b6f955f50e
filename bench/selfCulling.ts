/**
 * Self-collision culling (paper 002; src/collision/selfCulling/) on the scenes: what each setting
 * (off, plain, enhanced) leaves of the same-object CCD candidates and what the self-collision costs.
 *
 * Each scene runs on the float64 CPU reference (its own settings; --skip frames first, then two
 * frames from which the deviation bound is first learned, then --frames measured). After each
 * frame its state is handed, as the time step hands a snapshot to the worker, to the broad-phase
 * job of each setting (collision/selfCulling/broadPhaseCulling.ts: the box test with the time
 * step's base margin, a quarter of the mean boundary edge, over two frames, then the culling under
 * the deviation bound that each setting's own DeviationMonitor learned from the same snapshots).
 * As in the time step (latency 1), the candidates from the snapshot after frame f serve frame f + 2:
 * once that frame is simulated, the exact CCD (src/collision/ccd, the paper's measure: its CCD
 * timings are CPU too) runs every same-object candidate over the frame's motion. Per setting:
 *
 *   pairs     same-object candidates of the box test, and after culling (mean per frame)
 *   culled    1 - after / before
 *   job       the worker job's time (ms): box test + cones + traversal + filter
 *   cones / traversal / filter   its culling parts (ms)
 *   narrow    exact CCD of the candidates over the frame (ms; each of off's pairs timed once and
 *             credited to every setting that kept it)
 *   self      job + narrow (ms), and off's over it (the speed-up)
 *   contacts  candidates the exact CCD finds touching (enhanced must equal off; plain may miss)
 *   escapes   boundary vertices and edges past their deviation bounds at frame ends (summed)
 *
 * and a last row: the same-object candidates that enhanced culling would leave if it knew the
 * served frame's own motion (no prediction, no deviation bound): what the learned bound costs.
 *
 *   node scripts/run-ts.mjs bench/selfCulling.ts [--frames 6] [--skip 0]
 *     [--scenes rod-knot,beam-twist,noodle-bowl,squishy-squeeze,octopus-pile] [--sizes scene=N,...]
 *
 * --gpu: instead, the GPU time step itself (GpuSolver, collision jobs on this thread) per setting
 * from the scene's start for --frames frames (the first four culled nothing: no bound yet; they are
 * left out of the means): the CCD phase's GPU time per frame (timestamp queries), the job's time,
 * candidates, CCD contacts, and the boundary vertices inside a tet of their own object (the
 * brute-force counter of tests/support/intersectionCounter.ts) per frame, summed. On a software
 * adapter compare ratios only.
 *
 *   VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json node scripts/run-ts.mjs bench/selfCulling.ts --gpu \
 *     --scenes beam-twist --frames 10
 */
import { edgeEdgeCcd, vertexFaceCcd } from '../src/collision/ccd';
import { ccdTopologyOf, type CcdTopology } from '../src/collision/ccd/broadPhase';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { culledSweptCandidates } from '../src/collision/selfCulling/broadPhaseCulling';
import { SelfCulling } from '../src/collision/selfCulling/selfCulling';
import { DeviationMonitor } from '../src/collision/selfCulling/deviationMonitor';
import { SELF_CULLING_MODES, type SelfCullingMode } from '../src/contract/params';
import { readMeshFile } from '../src/runner/meshFile';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import { CpuSolver } from '../src/sim/cpuSolver';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/selfCulling.ts [--frames 6] [--skip 0] [--scenes rod-knot,beam-twist,noodle-bowl,squishy-squeeze,octopus-pile] [--sizes scene=N,...]\n' +
    '  ... bench/selfCulling.ts --gpu [--scenes beam-twist] [--frames 10] [--sizes scene=N,...]',
  values: ['--frames', '--skip', '--scenes', '--sizes'],
  switches: ['--gpu'],
});

const flag = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
};
const FRAMES = Number(flag('frames', '6'));
const SKIP = Number(flag('skip', '0'));
const SCENES = flag('scenes', 'rod-knot,beam-twist,noodle-bowl,squishy-squeeze,octopus-pile').split(',');
const SIZES: Record<string, number> = { 'rod-knot': 95, 'beam-twist': 16, 'noodle-bowl': 130, 'squishy-squeeze': 28, 'octopus-pile': 2 };
for (const part of flag('sizes', '').split(',').filter((s) => s)) {
  const [k, v] = part.split('=');
  SIZES[k] = Number(v);
}

/** The scene at its bench size, with the shared meshes it reads (run from the project root). */
function buildScene(name: string) {
  const scene = findScene(name);
  return scene.build({ size: SIZES[name], meshes: readSceneMeshes(scene), mesh: scene.defaultMeshFile ? readMeshFile(scene.defaultMeshFile) : undefined });
}

interface Totals {
  before: number;
  after: number;
  jobMs: number;
  conesMs: number;
  traversalMs: number;
  filterMs: number;
  narrowMs: number;
  contacts: number;
  escapes: number;
  frames: number;
}

function vec4(x: Float64Array): Float32Array {
  const n = x.length / 3, out = new Float32Array(4 * n);
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) out[4 * i + k] = x[3 * i + k];
  return out;
}

/**
 * Exact CCD of every same-object candidate of `all` (off's candidates: every setting's are among
 * them) over the motion a -> b (xyz), each query timed once; the time and contacts of a query go
 * to every setting whose candidates hold the pair (so the settings are compared on the same
 * measurements, not on runs the machine's load treats differently).
 */
function narrowPhase(topo: CcdTopology, jobs: Map<SelfCullingMode, { vf: Uint32Array; ee: Uint32Array }>, a: Float64Array, b: Float64Array): Map<SelfCullingMode, { contacts: number; ms: number }> {
  const q = new Float64Array(24);
  const put = (ids: number[]): Float64Array => {
    ids.forEach((id, j) => {
      for (let k = 0; k < 3; k++) {
        q[3 * j + k] = a[3 * id + k];
        q[12 + 3 * j + k] = b[3 * id + k];
      }
    });
    return q;
  };
  const keys = new Map<SelfCullingMode, Set<number>>();
  for (const [mode, j] of jobs) {
    const set = new Set<number>();
    for (let i = 0; i < j.vf.length; i += 2) set.add(j.vf[i] * 4294967296 + j.vf[i + 1]);
    for (let i = 0; i < j.ee.length; i += 2) set.add(-(j.ee[i] * 4294967296 + j.ee[i + 1]) - 1);
    keys.set(mode, set);
  }
  const out = new Map<SelfCullingMode, { contacts: number; ms: number }>(SELF_CULLING_MODES.map((m) => [m, { contacts: 0, ms: 0 }]));
  const credit = (key: number, ms: number, hit: boolean): void => {
    for (const mode of SELF_CULLING_MODES) {
      if (!keys.get(mode)!.has(key)) continue;
      const o = out.get(mode)!;
      o.ms += ms;
      if (hit) o.contacts++;
    }
  };
  const T = topo.triangles, E = topo.edges, obj = topo.vertexObject;
  const all = jobs.get('off')!;
  for (let i = 0; i < all.vf.length; i += 2) {
    const v = all.vf[i], t = all.vf[i + 1];
    if (obj[v] !== obj[T[3 * t]]) continue;
    const t0 = performance.now();
    const hit = vertexFaceCcd(put([v, T[3 * t], T[3 * t + 1], T[3 * t + 2]])).hit;
    credit(v * 4294967296 + t, performance.now() - t0, hit);
  }
  for (let i = 0; i < all.ee.length; i += 2) {
    const e = all.ee[i], f = all.ee[i + 1];
    if (obj[E[2 * e]] !== obj[E[2 * f]]) continue;
    const t0 = performance.now();
    const hit = edgeEdgeCcd(put([E[2 * e], E[2 * e + 1], E[2 * f], E[2 * f + 1]])).hit;
    credit(-(e * 4294967296 + f) - 1, performance.now() - t0, hit);
  }
  return out;
}

const f1 = (x: number): string => x.toFixed(1);

/** Same-object pairs among candidates. */
function selfPairs(topo: CcdTopology, vf: Uint32Array, ee: Uint32Array): number {
  const T = topo.triangles, E = topo.edges, obj = topo.vertexObject;
  let n = 0;
  for (let i = 0; i < vf.length; i += 2) if (obj[vf[i]] === obj[T[3 * vf[i + 1]]]) n++;
  for (let i = 0; i < ee.length; i += 2) if (obj[E[2 * ee[i]]] === obj[E[2 * ee[i + 1]]]) n++;
  return n;
}

async function gpuSection(): Promise<void> {
  const { GpuSolver } = await import('../src/sim/gpuSolver');
  const { acquireGpu } = await import('../src/gpu/device');
  const { countIntersections } = await import('../tests/support/intersectionCounter');
  const ctx = await acquireGpu();
  console.log(`self-collision culling in the GPU time step: ${FRAMES} frames from the start (means over frames 4 on), ${ctx.description}`);
  console.log('| scene | setting | CCD GPU ms / frame | job ms | candidates | self pairs before | after | culled | CCD contacts | self-penetrating vertices (sum) | deviation escapes |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const name of SCENES) {
    for (const mode of SELF_CULLING_MODES) {
      const setup = buildScene(name);
      setup.params = { ...setup.params, selfCulling: mode };
      const solver = new GpuSolver(ctx, setup);
      let ccdMs = 0, jobMs = 0, cand = 0, before = 0, after = 0, contacts = 0, inside = 0, escapes = 0, k = 0;
      try {
        for (let f = 0; f < FRAMES; f++) {
          const r = await solver.stepFrame();
          const c = r.collisions!.ccd;
          const x = await solver.readPositions();
          inside += countIntersections({ positions: Float64Array.from(x), tets: setup.model.tets, tetObject: setup.model.tetObject }).self;
          contacts += c.hitsVertexFace + c.hitsEdgeEdge;
          escapes += c.selfDeviationEscapes;
          if (f < 4) continue;
          k++;
          ccdMs += r.gpuPhaseMs?.ccd ?? 0;
          jobMs += c.jobMs;
          cand += c.candidatesVertexFace + c.candidatesEdgeEdge;
          before += c.selfPairsBefore;
          after += c.selfPairsAfter;
        }
      } finally {
        solver.destroy();
      }
      const m = (x: number): string => f1(x / Math.max(1, k));
      console.log(`| ${name} | ${mode} | ${m(ccdMs)} | ${m(jobMs)} | ${Math.round(cand / Math.max(1, k))} | ${Math.round(before / Math.max(1, k))} | ${Math.round(after / Math.max(1, k))} | ${before > 0 ? (100 * (1 - after / before)).toFixed(1) : '0.0'} % | ${contacts} | ${inside} | ${escapes} |`);
    }
  }
}

if (process.argv.includes('--gpu')) {
  await gpuSection();
  process.exit(0);
}

console.log(`self-collision culling: ${FRAMES} frames after ${SKIP}, CPU reference states, jobs and exact CCD on this thread`);
console.log('| scene | setting | pairs before | pairs after | culled | job ms | cones / traversal / filter ms | narrow ms | self ms | vs off | contacts | escapes |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const name of SCENES) {
  const setup = buildScene(name);
  const solver = new CpuSolver(setup);
  const mesh = buildSceneMesh(setup.model);
  const topo = ccdTopologyOf(mesh);
  let edge = 0;
  for (let e = 0; e < mesh.boundaryEdges.length; e += 2) {
    const a = mesh.boundaryEdges[e], b = mesh.boundaryEdges[e + 1];
    edge += Math.hypot(mesh.positions[3 * a] - mesh.positions[3 * b], mesh.positions[3 * a + 1] - mesh.positions[3 * b + 1], mesh.positions[3 * a + 2] - mesh.positions[3 * b + 2]);
  }
  edge /= mesh.boundaryEdges.length / 2;
  const dt = setup.params.dt;
  const bound = { horizon: 2 * dt, gravity: setup.params.gravity, margin: 0.25 * edge };
  const monitors = new Map(SELF_CULLING_MODES.map((m) => [m, new DeviationMonitor(topo, { floor: 0.01 * edge })]));
  const totals = new Map<SelfCullingMode, Totals>(SELF_CULLING_MODES.map((m) => [m, { before: 0, after: 0, jobMs: 0, conesMs: 0, traversalMs: 0, filterMs: 0, narrowMs: 0, contacts: 0, escapes: 0, frames: 0 }]));
  const exact = new SelfCulling(topo);
  let exactKept = 0, exactAll = 0;
  for (let f = 0; f < SKIP; f++) solver.stepFrame();
  const states: Float64Array[] = [Float64Array.from(solver.x)];
  const pending: Map<SelfCullingMode, { vf: Uint32Array; ee: Uint32Array }>[] = [];
  // Frames 0 and 1 only feed the monitors (no bound yet); frames 2 .. FRAMES + 1 are measured.
  const measured = (f: number): boolean => f >= 2 && f < FRAMES + 2;
  for (let f = 0; f < FRAMES + 4; f++) {
    const x4 = vec4(solver.x), v4 = vec4(solver.v);
    const jobs = new Map<SelfCullingMode, { vf: Uint32Array; ee: Uint32Array }>();
    for (const mode of SELF_CULLING_MODES) {
      const seen = mode === 'off' ? null : monitors.get(mode)!.observe(SKIP + f, x4, v4, dt);
      const t = totals.get(mode)!;
      if (seen && measured(f)) t.escapes += seen.observation.escapes;
      const request = { mode, deviation: seen?.bound ?? null, edgeDeviation: seen?.edgeBound ?? null };
      const t0 = performance.now();
      const c = culledSweptCandidates(topo, x4, v4, bound, true, request);
      const jobMs = performance.now() - t0;
      jobs.set(mode, { vf: c.vertexFace, ee: c.edgeEdge });
      if (measured(f)) {
        const rep = c.selfCulling!;
        t.before += rep.pairsBefore;
        t.after += rep.pairsAfter;
        t.jobMs += jobMs;
        t.conesMs += rep.conesMs;
        t.traversalMs += rep.traversalMs;
        t.filterMs += rep.filterMs;
      }
    }
    pending.push(jobs);
    solver.stepFrame();
    states.push(Float64Array.from(solver.x));
    // The job from the snapshot two frames back serves the frame just simulated (latency 1).
    const served = f - 1;
    if (measured(served)) {
      const n = narrowPhase(topo, pending[served], states[f], states[f + 1]);
      for (const mode of SELF_CULLING_MODES) {
        const t = totals.get(mode)!;
        t.narrowMs += n.get(mode)!.ms;
        t.contacts += n.get(mode)!.contacts;
        t.frames++;
      }
      // What enhanced would leave if it knew the frame's own motion (no prediction, no deviation).
      const off = pending[served].get('off')!;
      exact.cull({ start: states[f], move: states[f + 1].map((x, i) => x - states[f][i]), deviation: null }, 'enhanced');
      const kept = exact.filter({ vertexFace: off.vf, edgeEdge: off.ee });
      exactKept += selfPairs(topo, kept.vertexFace, kept.edgeEdge);
      exactAll += selfPairs(topo, off.vf, off.ee);
    }
  }
  console.log(`| ${name} | enhanced, knowing the frame's own motion | ${Math.round(exactAll / FRAMES)} | ${Math.round(exactKept / FRAMES)} | ${(100 * (1 - exactKept / exactAll)).toFixed(1)} % | | | | | | | |`);
  const off = totals.get('off')!;
  const offSelf = (off.jobMs + off.narrowMs) / off.frames;
  for (const mode of SELF_CULLING_MODES) {
    const t = totals.get(mode)!;
    const k = t.frames;
    const self = (t.jobMs + t.narrowMs) / k;
    console.log(
      `| ${name} (${setup.model.vertexCount} v) | ${mode} | ${Math.round(t.before / k)} | ${Math.round(t.after / k)} | ${(100 * (1 - t.after / t.before)).toFixed(1)} % | ` +
        `${f1(t.jobMs / k)} | ${f1(t.conesMs / k)} / ${f1(t.traversalMs / k)} / ${f1(t.filterMs / k)} | ${f1(t.narrowMs / k)} | ${f1(self)} | ${(offSelf / self).toFixed(2)}x | ${t.contacts} | ${t.escapes} |`,
    );
  }
}
