/**
 * CCD's pairs between objects on the states a pile really reaches, for two ways of predicting each
 * vertex's world box over the job's horizon (issue 24; docs/benchmarks.md "World boxes around each
 * object's mean path"). The scene runs on the float64 CPU reference; at the end of each frame
 * listed, the pairs between objects (broadPhase.ts ccdCandidates, filter 'inter') are counted and
 * timed on:
 *   - the world boxes of today (broadPhase.ts sweptVertexBoxes): the vertex's gravity arc grown by
 *     margin + |v| H on every side, the ball of any motion that does not speed it up;
 *   - mean-path boxes (src/collision/ccd/meanPathBoxes.ts): the object's mean path (its mean
 *     velocity and gravity over [0, H]) plus the vertex's own deviation from it, margin +
 *     |v - v_mean| H on every side, plus the growth for obstacles the own-frame boxes take
 *     (obstacleGrowth.ts, the other objects only: no colliders here); and the same without that growth;
 *   - the world box clipped to the mean-path box with growth (SolverParams.ccdWorldBoxes
 *     'mean-path', broadPhase.ts worldBoxes): a vertex whose motion both predictions hold stays inside it.
 * Every box here would be the GPU's escape check for that vertex (ccdNarrow.wgsl), so a smaller
 * box is sound but escapes more often. So the two-frame boxes of each listed frame are also held
 * against the boundary vertices' positions at the end of each of the next two frames: the
 * vertices outside each kind (an escape the GPU would count at a substep's end; its substeps in
 * between are not sampled here, so this is a lower bound).
 * Base margin as the GPU engine sets it (max(2 delta, CCD_BASE_MARGIN_RATIO x mean boundary edge)).
 *
 *   node scripts/run-ts.mjs bench/meanPathBoxes.ts [--scene octopus-box] [--copies N] [--mesh FILE] [--speed V] [--frames 24,32,40,45]
 *
 * The octopus box takes about 3-6 s a frame on the CPU reference on this 2-core machine.
 */
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { ccdCandidates, ownFrameReferences, sweptVertexBoxes, worldBoxes, type CcdCandidates, type MotionBound } from '../src/collision/ccd/broadPhase';
import { clipToMeanPath } from '../src/collision/ccd/meanPathBoxes';
import { obstacleGrowth } from '../src/collision/ccd/obstacleGrowth';
import { checkBenchArgs } from './cli';
import { ccdSceneStates } from './ccdSceneStates';

const usage = 'node scripts/run-ts.mjs bench/meanPathBoxes.ts [--scene octopus-box] [--copies N] [--mesh FILE] [--speed V] [--frames 24,32,40,45]';
checkBenchArgs(process.argv.slice(2), { usage, values: ['--scene', '--copies', '--mesh', '--speed', '--frames'] });
const { frames, scene, solver, model, p, topo, n, margin, state } = ccdSceneStates(process.argv.slice(2), '24,32,40,45');

/** The mean-path box alone (meanPathBoxes.ts: an unbounded box clipped to it), with `bound`'s growth if any. */
function meanPathOnly(positions: Float32Array, velocities: Float32Array, bound: MotionBound): Float32Array {
  const boxes = new Float32Array(6 * n);
  for (let o = 0; o < boxes.length; o += 6) boxes.set([-Infinity, -Infinity, -Infinity, Infinity, Infinity, Infinity], o);
  clipToMeanPath(topo, positions, velocities, bound, boxes);
  return boxes;
}

/** The pairs between objects on `boxes`, and the join's time. */
function between(boxes: Float32Array): string {
  const t = performance.now();
  const c: CcdCandidates = ccdCandidates(topo, boxes, 'inter');
  return `${(c.vertexFace.length + c.edgeEdge.length) / 2} (${(performance.now() - t).toFixed(0)} ms)`;
}

console.log(`${scene.name}: ${n} vertices, dt ${p.dt.toFixed(5)} s, base margin ${(1000 * margin).toFixed(2)} mm`);
console.log('| frame | horizon | ball (sweptVertexBoxes) | mean path + obstacle growth | mean path alone | ball clipped to mean path + growth (worldBoxes mean-path) |');
console.log('|---|---|---|---|---|---|');
/** Boundary vertices outside their box at a later frame's end, per box kind. */
const boundary = buildSceneMesh(model).boundaryVertices;
const held: { frame: number; kinds: [string, Float32Array][] }[] = [];
const escapes: string[] = [];
function outside(boxes: Float32Array): number {
  let count = 0;
  for (let q = 0; q < boundary.length; q++) {
    const v = boundary[q];
    for (let k = 0; k < 3; k++) {
      const x = solver.x[3 * v + k];
      if (x < boxes[6 * v + k] || x > boxes[6 * v + 3 + k]) {
        count++;
        break;
      }
    }
  }
  return count;
}
/** At the end of `frame`: the boxes of the frames one and two before it, held to the positions. */
function checkHeld(frame: number): void {
  for (const h of held) {
    if (frame - h.frame < 1 || frame - h.frame > 2) continue;
    escapes.push(`| ${h.frame} | ${frame} | ${h.kinds.map(([, b]) => outside(b)).join(' | ')} |`);
  }
}
for (let frame = 1; frame <= Math.max(...frames); frame++) {
  solver.stepFrame();
  checkHeld(frame);
  if (!frames.includes(frame)) continue;
  const { positions, velocities } = state();
  for (const horizonFrames of [2, 1]) {
    const H = horizonFrames * p.dt;
    const bound: MotionBound = { horizon: H, gravity: [...p.gravity], margin };
    const world = sweptVertexBoxes(positions, velocities, bound);
    const growth = obstacleGrowth({ topology: topo, worldBoxes: world, velocities, references: ownFrameReferences(topo, positions), horizon: H, reachesCollider: null });
    const grown = meanPathOnly(positions, velocities, { ...bound, ownGrowth: growth }), alone = meanPathOnly(positions, velocities, bound);
    // What the broad phase builds with worldBoxes 'mean-path' (broadPhase.ts worldBoxes).
    const both = worldBoxes(topo, positions, velocities, { ...bound, ownGrowth: growth, worldBoxes: 'mean-path' });
    console.log(`| ${frame} | ${horizonFrames} dt | ${between(world)} | ${between(grown)} | ${between(alone)} | ${between(both)} |`);
    if (horizonFrames === 2) held.push({ frame, kinds: [['world', world], ['grown', grown], ['alone', alone], ['both', both]] });
  }
}
// The last listed frames' boxes are held to the two frames after them too.
for (let frame = Math.max(...frames) + 1; frame <= Math.max(...frames) + 2; frame++) {
  solver.stepFrame();
  checkHeld(frame);
}
console.log(`\nBoundary vertices (of ${boundary.length}) outside their two-frame box at the end of a later frame:`);
console.log('| boxes of frame | at the end of frame | ball | mean path + obstacle growth | mean path alone | ball clipped |');
console.log('|---|---|---|---|---|---|');
for (const line of escapes) console.log(line);
