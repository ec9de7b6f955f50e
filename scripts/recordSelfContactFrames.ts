/**
 * Records frames of a scene at its first self-contacts, for the self-collision culling's
 * zero-false-negative test (tests/unit/selfCulling/recordedFrames.test.ts): the float64 CPU
 * reference solver runs the scene (its own settings; `--collisions off`, the default, leaves the
 * colliders on and lets the body pass through itself, which a frame-level CCD then sees as
 * contacts) until a boundary vertex first lies inside another tet of its own object (the
 * brute-force counter of tests/support/intersectionCounter.ts, checked from frame `--skip` on), and
 * writes the `--frames` frames that end there. Written: the boundary of the scene's mesh
 * (triangles, and the tets whose four corners are all on it, for the rule that a pair within one
 * tet is no candidate) and, per frame, the boundary vertices' positions as float32,
 * gzip-compressed.
 *
 *   node scripts/run-ts.mjs scripts/recordSelfContactFrames.ts --scene beam-twist --size 16 \
 *     --max-frames 900 --frames 3 --out tests/fixtures/selfContact/beam-twist.bin.gz
 *
 * Format (little-endian): u32 header length H, H bytes of JSON header
 * { scene, size, frame0, frames, vertices, triangles, tets, dt, meanEdge }, then u32 triangles
 * (3 each, boundary-vertex indices), u32 tets (4 each, boundary-vertex indices), then f32 xyz per
 * boundary vertex per frame.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import { checkBenchArgs, onOffArg } from '../bench/cli';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { findScene } from '../src/scenes/registry';
import { CpuSolver } from '../src/sim/cpuSolver';
import { countIntersections } from '../tests/support/intersectionCounter';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs scripts/recordSelfContactFrames.ts --scene NAME --size N --out FILE [--max-frames 600] [--frames 3] [--skip 0] [--collisions off|on]',
  values: ['--scene', '--size', '--out', '--max-frames', '--frames', '--skip', '--collisions'],
});

function arg(name: string, fallback?: string): string {
  const i = process.argv.indexOf(`--${name}`);
  if (i >= 0 && process.argv[i + 1] !== undefined) return process.argv[i + 1];
  if (fallback === undefined) throw new Error(`--${name} is required`);
  return fallback;
}

const sceneName = arg('scene');
const size = Number(arg('size'));
const maxFrames = Number(arg('max-frames', '600'));
const keep = Number(arg('frames', '3'));
const skip = Number(arg('skip', '0'));
const out = arg('out');
const collisions = onOffArg(process.argv.slice(2), '--collisions', false);
const setup = findScene(sceneName).build({ size });
setup.params.collisions = collisions;
const solver = new CpuSolver(setup);
const mesh = buildSceneMesh(setup.model);
const bv = mesh.boundaryVertices;
const slot = new Int32Array(mesh.vertexCount).fill(-1);
bv.forEach((v, i) => (slot[v] = i));
const triangles = Uint32Array.from(mesh.boundaryTriangles, (v) => slot[v]);
const tets: number[] = [];
for (let t = 0; t < mesh.tets.length; t += 4) {
  const c = [...mesh.tets.subarray(t, t + 4)];
  if (c.every((v) => slot[v] >= 0)) tets.push(...c.map((v) => slot[v]));
}
let meanEdge = 0;
const E = mesh.boundaryEdges;
for (let e = 0; e < E.length; e += 2) meanEdge += Math.hypot(...[0, 1, 2].map((k) => mesh.positions[3 * E[e] + k] - mesh.positions[3 * E[e + 1] + k]));
meanEdge /= E.length / 2;

const boundary = (): Float32Array => {
  const p = new Float32Array(3 * bv.length);
  for (let i = 0; i < bv.length; i++) for (let k = 0; k < 3; k++) p[3 * i + k] = solver.x[3 * bv[i] + k];
  return p;
};
const frames: Float32Array[] = [boundary()];
let frame0 = -1;
const t0 = performance.now();
const tetObject = setup.model.tetObject;
for (let f = 1; f <= maxFrames; f++) {
  solver.stepFrame();
  frames.push(boundary());
  if (frames.length > keep) frames.shift();
  if (f < skip) continue;
  const self = countIntersections({ positions: solver.x, tets: mesh.tets, tetObject }).self;
  if (f % 10 === 0) console.log(`${sceneName}: frame ${f}, self-penetrating vertices ${self}, ${((performance.now() - t0) / f).toFixed(0)} ms/frame`);
  if (self > 0 && frames.length === keep) {
    frame0 = f - keep + 1;
    break;
  }
}
if (frame0 < 0) throw new Error(`${sceneName}: no self-contact within ${maxFrames} frames`);
const header = JSON.stringify({ scene: sceneName, size, collisions, frame0, frames: frames.length, vertices: bv.length, triangles: triangles.length / 3, tets: tets.length / 4, dt: solver.params.dt, meanEdge });
const head = Buffer.from(header, 'utf8');
const parts = [Buffer.from(Uint32Array.of(head.length).buffer), head, Buffer.from(triangles.buffer), Buffer.from(Uint32Array.from(tets).buffer), ...frames.map((p) => Buffer.from(p.buffer))];
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, gzipSync(Buffer.concat(parts), { level: 9 }));
console.log(`${out}: ${header}`);
