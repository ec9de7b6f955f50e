/** Shared helpers of the shortest-path tests: meshes, random interior points, brute-force oracles. */
import { CPT_OUT_LENGTH, closestPointOnTriangle } from '../../../src/geometry/closestPointOnTriangle';
import { parseGaiaT } from '../../../src/mesh/io/gaiaT';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import type { TetMesh } from '../../../src/mesh/types';
import { readSharedMesh } from '../../support/sharedMeshes';

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function loadShared(name: string): TetMesh {
  const loaded = parseGaiaT(readSharedMesh(name), name);
  return buildTetMesh(loaded, loaded).mesh;
}

/** Builds a TetMesh from plain arrays (procedural test shapes). */
export function meshFrom(positions: ArrayLike<number>, tets: ArrayLike<number>): TetMesh {
  return buildTetMesh({ positions: Float32Array.from(positions), tets: Uint32Array.from(tets) }, { source: 'test' }).mesh;
}

/** A random point of a random tet (random barycentrics from sorted uniforms). */
export function randomInteriorPoint(positions: ArrayLike<number>, tets: ArrayLike<number>, tet: number, r: () => number): [number, number, number] {
  let w = [r(), r(), r(), r()].map((v) => -Math.log(v + 1e-300));
  const sum = w.reduce((a, b) => a + b, 0);
  w = w.map((v) => v / sum);
  const p: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < 4; i++) {
    const v = tets[4 * tet + i];
    for (let c = 0; c < 3; c++) p[c] += w[i] * positions[3 * v + c];
  }
  return p;
}

const out = new Float64Array(CPT_OUT_LENGTH);

/** Brute force: Euclidean distance from p to the nearest of the given triangles (all when `only` is absent). */
export function bruteForceDistance(positions: ArrayLike<number>, triangles: ArrayLike<number>, p: ArrayLike<number>, only?: (t: number) => boolean): number {
  let best = Infinity;
  for (let t = 0; t < triangles.length / 3; t++) {
    if (only && !only(t)) continue;
    const a = 3 * triangles[3 * t], b = 3 * triangles[3 * t + 1], c = 3 * triangles[3 * t + 2];
    closestPointOnTriangle(
      p[0], p[1], p[2],
      positions[a], positions[a + 1], positions[a + 2],
      positions[b], positions[b + 1], positions[b + 2],
      positions[c], positions[c + 1], positions[c + 2],
      out,
    );
    const d2 = (out[0] - p[0]) ** 2 + (out[1] - p[1]) ** 2 + (out[2] - p[2]) ** 2;
    if (d2 < best) best = d2;
  }
  return Math.sqrt(best);
}
