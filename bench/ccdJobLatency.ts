/**
 * CCD's broad-phase job over one frame's motion (latency 0) against two frames' (latency 1), on the
 * states a scene really reaches (SolverParams.ccdJobLatency, collision/ccd/ccdSchedule.ts). The
 * scene runs on the float64 CPU reference; at the end of each frame listed, the job the GPU engine's
 * schedule would start from that state is timed at both horizons: world and own-frame boxes at the
 * scene's base margin (max(2 delta, 0.25 x mean boundary edge), as the GPU engine sets it), same-object
 * pairs in the adaptive frame, joined afresh (no kept lists: a landing pile rebuilds them every job),
 * without the self-collision culling (it drops 1-22 % of the same-object pairs). Prints per frame the
 * boundary vertices' speeds, the pairs (and those between objects) and the job's best time of
 * `--repeat` at each horizon, and their ratios.
 *
 * `--world-boxes ball|mean-path` (default: the scene's SolverParams.ccdWorldBoxes): the world boxes'
 * prediction (collision/ccd/meanPathBoxes.ts). The obstacle growth (of the own-frame boxes, and of
 * the clip) comes from the other objects only, as bench/meanPathBoxes.ts takes it.
 *
 * With `--speed-caps C1,C2,...` (m/s) it also counts the two-frame job's pairs with every vertex's
 * speed capped at each C (directions kept): how many of the pairs the fastest vertices make.
 *
 * With `--job-parts K1,K2,...` it also splits each job as a pool of K workers does (workers/ccdJobs.ts
 * splitParts) and times every part alone on this thread, as K free cores would run them: the longest
 * part with the pairs between objects in one part (no history: a job's first split), and sliced
 * as chooseInterSlices plans from those parts' times (what the next job would get).
 *
 *   node scripts/run-ts.mjs bench/ccdJobLatency.ts [--scene octopus-box] [--copies N] [--mesh FILE] [--speed V] [--frames 16,24,32,40,45,50] [--repeat 2] [--speed-caps 8,4,2] [--job-parts 4,15] [--world-boxes ball|mean-path]
 *
 * The octopus box on this 2-core machine takes about 6 s a frame on the CPU reference: 5 minutes to frame 50.
 */
import { ccdCandidates, ownFrameReferences, sweptCandidates, sweptVertexBoxes, worldBoxes, type CandidatePart, type MotionBound } from '../src/collision/ccd/broadPhase';
import { obstacleGrowth } from '../src/collision/ccd/obstacleGrowth';
import { CCD_WORLD_BOXES, type CcdWorldBoxes } from '../src/contract/params';
import { chooseInterSlices, splitParts, type JobPartTimes } from '../src/workers/ccdJobs';
import { checkBenchArgs } from './cli';
import { argOf, ccdSceneStates } from './ccdSceneStates';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/ccdJobLatency.ts [--scene octopus-box] [--copies N] [--mesh FILE] [--speed V] [--frames 16,24,32,40,45,50] [--repeat 2] [--speed-caps 8,4,2] [--job-parts 4,15] [--world-boxes ball|mean-path]',
  values: ['--scene', '--copies', '--mesh', '--speed', '--frames', '--repeat', '--speed-caps', '--job-parts', '--world-boxes'],
});

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => argOf(args, name);
const repeat = Number(arg('repeat') ?? 2);
if (!(Number.isInteger(repeat) && repeat >= 1)) throw new RangeError(`--repeat: an integer >= 1, got ${arg('repeat')}`);
const speedCaps = arg('speed-caps') === undefined ? [] : arg('speed-caps')!.split(',').map(Number);
if (!speedCaps.every((c) => Number.isFinite(c) && c > 0)) throw new RangeError(`--speed-caps: speeds > 0 (m/s), comma-separated, got ${arg('speed-caps')}`);
const jobParts = arg('job-parts') === undefined ? [] : arg('job-parts')!.split(',').map(Number);
if (!jobParts.every((k) => Number.isInteger(k) && k >= 2)) throw new RangeError(`--job-parts: worker counts >= 2, comma-separated, got ${arg('job-parts')}`);
const { frames, scene, solver, p, mesh, topo, n, margin, state } = ccdSceneStates(args, '16,24,32,40,45,50');
const worldBoxKind = (arg('world-boxes') ?? p.ccdWorldBoxes) as CcdWorldBoxes;
if (!CCD_WORLD_BOXES.includes(worldBoxKind)) throw new RangeError(`--world-boxes: one of ${CCD_WORLD_BOXES.join(', ')}, got ${arg('world-boxes')}`);
console.log(`${scene.name}: ${n} vertices, ${mesh.boundaryVertices.length} on the boundary, dt ${p.dt.toFixed(5)} s, base margin ${(1000 * margin).toFixed(2)} mm, world boxes ${worldBoxKind}`);
console.log('frame | speed p50 / p99 / max (m/s) | horizon | vertex-face | edge-edge | of them between objects | job ms (best of repeat)');

/** The job's bound over `horizonFrames` frames (MotionBound as the GPU engine's schedule starts it, joined afresh). */
/**
 * The job's bound over `horizonFrames` frames at this state (MotionBound as the GPU engine's schedule
 * starts it, joined afresh): with self-collision or world boxes clipped to the mean path, the
 * obstacle growth the own-frame boxes and the clip take, from the other objects only (no colliders
 * here).
 */
const boundOver = (horizonFrames: number, positions: Float32Array, velocities: Float32Array): MotionBound => {
  const bound: MotionBound = { horizon: horizonFrames * p.dt, gravity: [...p.gravity], margin, selfPairFrame: p.ccdSelfPairFrame, selfPairSkin: 0, worldBoxes: worldBoxKind };
  if (!p.selfCollision && worldBoxKind !== 'mean-path') return bound;
  const ownGrowth = obstacleGrowth({ topology: topo, worldBoxes: sweptVertexBoxes(positions, velocities, bound), velocities, references: ownFrameReferences(topo, positions), horizon: bound.horizon, reachesCollider: null });
  return { ...bound, ownGrowth };
};
const last = Math.max(...frames);
const t0 = performance.now();
for (let frame = 1; frame <= last; frame++) {
  solver.stepFrame();
  if (!frames.includes(frame)) continue;
  const { positions, velocities } = state();
  const speeds = Array.from(mesh.boundaryVertices, (b) => Math.hypot(velocities[4 * b], velocities[4 * b + 1], velocities[4 * b + 2])).sort((a, b) => a - b);
  const at = (q: number) => speeds[Math.min(speeds.length - 1, Math.floor(q * speeds.length))].toFixed(2);
  const rows: { pairs: number; ms: number }[] = [];
  for (const horizonFrames of [2, 1]) {
    const bound = boundOver(horizonFrames, positions, velocities);
    let best = Infinity;
    let c: ReturnType<typeof sweptCandidates> | undefined;
    for (let r = 0; r < repeat; r++) {
      const t = performance.now();
      c = sweptCandidates(topo, positions, velocities, bound, p.selfCollision);
      best = Math.min(best, performance.now() - t);
    }
    const between = ccdCandidates(topo, worldBoxes(topo, positions, velocities, bound), 'inter');
    const vf = c!.vertexFace.length / 2, ee = c!.edgeEdge.length / 2;
    rows.push({ pairs: vf + ee, ms: best });
    console.log(`${frame} | ${at(0.5)} / ${at(0.99)} / ${speeds[speeds.length - 1].toFixed(2)} | ${horizonFrames} dt | ${vf} | ${ee} | ${between.vertexFace.length / 2 + between.edgeEdge.length / 2} | ${best.toFixed(1)}`);
    for (const workers of jobParts) {
      // Each part alone, best of `repeat`, with what it spent on the pairs between objects.
      const timeParts = (parts: CandidatePart[]): { longest: number; sum: number; times: JobPartTimes } => {
        let longest = 0, sum = 0, interJoinMs = 0, interSetupMs = 0;
        const selfMs: number[] = [];
        for (const part of parts) {
          let partBest = Infinity, inter = { ms: 0, setup: 0 };
          for (let r = 0; r < repeat; r++) {
            const t = performance.now();
            const c = sweptCandidates(topo, positions, velocities, bound, p.selfCollision, undefined, part);
            const ms = performance.now() - t;
            if (ms < partBest) [partBest, inter] = [ms, { ms: c.interMs, setup: c.interSetupMs }];
          }
          longest = Math.max(longest, partBest);
          sum += partBest;
          selfMs.push(Math.max(0, partBest - inter.ms));
          interJoinMs += Math.max(0, inter.ms - inter.setup);
          interSetupMs = Math.max(interSetupMs, inter.setup);
        }
        return { longest, sum, times: { selfMs, interJoinMs, interSetupMs } };
      };
      const whole = timeParts(splitParts(topo, workers));
      const plan = chooseInterSlices(whole.times);
      const sliced = timeParts(splitParts(topo, workers, plan));
      console.log(`${frame} | ${horizonFrames} dt | ${workers} workers | between objects in one part: longest part ${whole.longest.toFixed(1)} ms (sum ${whole.sum.toFixed(1)}; their joins ${whole.times.interJoinMs.toFixed(1)}, setup ${whole.times.interSetupMs.toFixed(1)}) | as the next job would: sliced over ${plan.parts.length} parts, longest ${sliced.longest.toFixed(1)} ms (sum ${sliced.sum.toFixed(1)}) | ${(whole.longest / sliced.longest).toFixed(2)}x`);
    }
  }
  for (const cap of speedCaps) {
    const capped = new Float32Array(velocities);
    let over = 0;
    for (let i = 0; i < n; i++) {
      const speed = Math.hypot(velocities[4 * i], velocities[4 * i + 1], velocities[4 * i + 2]);
      if (speed <= cap) continue;
      over++;
      for (let k = 0; k < 3; k++) capped[4 * i + k] *= cap / speed;
    }
    const c = sweptCandidates(topo, positions, capped, boundOver(2, positions, capped), p.selfCollision);
    const pairs = (c.vertexFace.length + c.edgeEdge.length) / 2;
    console.log(`${frame} | speeds capped at ${cap} m/s (${over} vertices faster) | 2 dt | pairs ${pairs}, ${(100 * (1 - pairs / rows[0].pairs)).toFixed(0)} % fewer`);
  }
  console.log(`${frame} | two frames / one: pairs ${(rows[0].pairs / Math.max(1, rows[1].pairs)).toFixed(2)}x, job ${(rows[0].ms / rows[1].ms).toFixed(2)}x (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}
