/**
 * JavaScript time of the colliders' per-frame scans on the main thread (prints figures; asserts
 * nothing): colliderClosingSpeed (impact substeps, before every submit) and collidersReached (CCD's
 * own-frame growth, after every frame's readback), on the octopus box's start state with every
 * vertex given the same velocity (5 walls and floor planes; docs/benchmarks.md "Collider scans").
 *
 *   node scripts/run-ts.mjs bench/colliderReach.ts [--copies 8] [--speed 2] [--repeat 200]
 */
import { colliderClosingSpeed, collidersReached, type ColliderClosingInput } from '../src/sim/colliderClosingSpeed';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/colliderReach.ts [--copies 8] [--speed 2] [--repeat 200]',
  values: ['--copies', '--speed', '--repeat'],
});

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}
const copies = Number(flag('copies', '8'));
const speed = Number(flag('speed', '2'));
const repeat = Number(flag('repeat', '200'));
const scene = findScene('octopus-box')!;
const built = scene.build({ copies, meshes: readSceneMeshes(scene) });
const m = built.model;
const n = m.vertexCount;
const positions = new Float32Array(4 * n), velocities = new Float32Array(4 * n);
for (let i = 0; i < n; i++) {
  for (let k = 0; k < 3; k++) positions[4 * i + k] = m.restPositions[3 * i + k];
  velocities[4 * i + 1] = -speed;
}
const input: ColliderClosingInput = {
  colliders: built.colliders, time: 0, horizon: built.params.dt, gravity: built.params.gravity, thickness: 0.001,
  positions, velocities, stride: 4, vertexCount: n, inverseMass: m.invMass,
};
console.log(`octopus-box, ${copies} octopi: ${n} vertices, ${built.colliders.length} colliders (${built.colliders.map((c) => c.kind).join(', ')}); every vertex at ${speed} m/s down`);
const median = (f: () => void): number => {
  const times: number[] = [];
  for (let r = 0; r < repeat; r++) {
    const t0 = performance.now();
    f();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
};
let sink = 0;
// Warm up both before timing either.
for (let r = 0; r < 20; r++) sink += colliderClosingSpeed(input) + collidersReached(input)[0];
const closing = median(() => (sink += colliderClosingSpeed(input)));
const reached = median(() => (sink += collidersReached(input)[0]));
console.log(`median of ${repeat}: colliderClosingSpeed ${closing.toFixed(3)} ms, collidersReached ${reached.toFixed(3)} ms (checksum ${sink.toFixed(3)})`);
