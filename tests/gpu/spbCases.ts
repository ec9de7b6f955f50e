/**
 * Query batches for the shortest-path kernel tests and benchmark: random interior points of real
 * meshes made by others, boundary vertices of one octopus pushed into another (DCD-like hits),
 * a beam bent past a full turn so its ends interpenetrate, and a block with an inverted tet.
 */
import { buildTetMesh, mergeTetMeshes } from '../../src/mesh/tetMesh';
import type { TetMesh } from '../../src/mesh/types';
import { testGpu } from '../support/gpu';
import { kuhnLattice } from '../support/kuhnLattice';
import { pushedCopies } from '../support/pushedCopies';
import { rng } from '../support/random';

export interface QueryBatch {
  name: string;
  mesh: TetMesh;
  /** Positions the queries are posed in (may differ from mesh.positions: a deformation). */
  positions: Float32Array;
  points: Float32Array;
  tets: Uint32Array;
  exclude: Int32Array;
  /** Edge points: the edge's second vertex per query (absent: -1). */
  exclude2?: Int32Array;
  /** 1 per Euclidean-mode query (absent: exact mode). */
  euclidean?: Uint8Array;
}

/** n random points strictly inside random tets (random barycentrics), in `positions`. */
export function interiorPoints(name: string, mesh: TetMesh, positions: Float32Array, n: number, seed: number, tetFilter?: (t: number) => boolean): QueryBatch {
  const r = rng(seed);
  const points = new Float32Array(3 * n);
  const tets = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    let t: number;
    do t = Math.floor(r() * mesh.tetCount);
    while (tetFilter && !tetFilter(t));
    const w = [r(), r(), r(), r()].map((v) => 0.02 + v);
    const s = w[0] + w[1] + w[2] + w[3];
    for (let c = 0; c < 3; c++) {
      let x = 0;
      for (let k = 0; k < 4; k++) x += (w[k] / s) * positions[3 * mesh.tets[4 * t + k] + c];
      points[3 * i + c] = x;
    }
    tets[i] = t;
  }
  return { name, mesh, positions, points, tets, exclude: new Int32Array(n).fill(-1) };
}

/** Tet of [t0, t1) strictly containing p, by brute force over tets whose box contains p (grid-free: fine for tests). */
function locate(mesh: TetMesh, x: ArrayLike<number>, t0: number, t1: number, boxes: Float32Array, px: number, py: number, pz: number): number {
  for (let t = t0; t < t1; t++) {
    const b = 6 * t;
    if (px < boxes[b] || py < boxes[b + 1] || pz < boxes[b + 2] || px > boxes[b + 3] || py > boxes[b + 4] || pz > boxes[b + 5]) continue;
    const v = [0, 1, 2, 3].map((k) => 3 * mesh.tets[4 * t + k]);
    const d = (a: number, b2: number, c: number): number => {
      const ax = x[a] - px, ay = x[a + 1] - py, az = x[a + 2] - pz;
      const bx = x[b2] - px, by = x[b2 + 1] - py, bz = x[b2 + 2] - pz;
      const cx = x[c] - px, cy = x[c + 1] - py, cz = x[c + 2] - pz;
      return ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
    };
    if (d(v[1], v[2], v[3]) > 0 && -d(v[0], v[2], v[3]) > 0 && d(v[0], v[1], v[3]) > 0 && -d(v[0], v[1], v[2]) > 0) return t;
  }
  return -1;
}

/**
 * Two copies of a mesh, the second moved `push` along +x into the first: the second's boundary
 * vertices found inside tets of the first, each excluding itself (paper's octopus-pair test).
 */
export function pushedPair(name: string, push: number): QueryBatch {
  const { mesh, firstTetCount: t1 } = pushedCopies(name, push);
  const x = mesh.positions;
  const boxes = new Float32Array(6 * t1);
  for (let t = 0; t < t1; t++) {
    for (let c = 0; c < 3; c++) {
      let lo = Infinity, hi = -Infinity;
      for (let k = 0; k < 4; k++) {
        const v = x[3 * mesh.tets[4 * t + k] + c];
        lo = Math.min(lo, v);
        hi = Math.max(hi, v);
      }
      boxes[6 * t + c] = lo;
      boxes[6 * t + 3 + c] = hi;
    }
  }
  const pts: number[] = [], tets: number[] = [], excl: number[] = [];
  for (const v of mesh.boundaryVertices) {
    if (mesh.vertexObject[v] !== 1) continue;
    const t = locate(mesh, x, 0, t1, boxes, x[3 * v], x[3 * v + 1], x[3 * v + 2]);
    if (t < 0) continue;
    pts.push(x[3 * v], x[3 * v + 1], x[3 * v + 2]);
    tets.push(t);
    excl.push(v);
  }
  return { name: `${name} pair pushed ${push}`, mesh, positions: mesh.positions, points: Float32Array.from(pts), tets: Uint32Array.from(tets), exclude: Int32Array.from(excl) };
}

interface Posed {
  /** Rest arrays (positively oriented: the topology is built from them). */
  rest: { positions: Float32Array; tets: Uint32Array };
  /** The deformed positions the queries are posed in. */
  posed: Float32Array;
}

/**
 * A beam (nu x thick x thick cells) bent into a ring over 1.2 turns, flat (no rise): its two ends occupy
 * the same space, so points there have their Euclidean nearest boundary on the other end.
 */
function ringBeam(nu: number, thick = 2): Posed {
  const h = 0.1;
  const turns = 1.2;
  const radius = (nu * h) / (2 * Math.PI * turns);
  const rest = kuhnLattice(nu, thick, thick, (u, v, w) => [u * h, v * h, w * h]);
  const ring = kuhnLattice(nu, thick, thick, (u, v, w) => {
    const a = (2 * Math.PI * turns * u) / nu;
    // v runs inward so that the map keeps the orientation (tangent x inward radial = +z).
    const r = radius + (thick / 2 - v) * h;
    return [r * Math.cos(a), r * Math.sin(a), w * h];
  });
  return { rest, posed: ring.positions };
}

/** A block of 6^3 cells with one interior vertex pushed 1.5 cells along x: inverted interior tets. */
function blockWithInversions(): Posed {
  const N = 6;
  const h = 0.05;
  const rest = kuhnLattice(N, N, N, (u, v, w) => [u * h, v * h, w * h]);
  const posed = Float32Array.from(rest.positions);
  const centre = (3 * (N + 1) + 3) * (N + 1) + 3;
  // Past its +x neighbour, through the opposite faces of the tets beyond it.
  posed[3 * centre] += 1.5 * h;
  posed[3 * centre + 1] += 0.3 * h;
  posed[3 * centre + 2] += 0.2 * h;
  return { rest, posed };
}

function batchOf(name: string, p: Posed, n: number, seed: number): QueryBatch {
  const mesh = buildTetMesh(p.rest, { source: name }).mesh;
  return interiorPoints(name, mesh, p.posed, n, seed);
}

export function overlappingRing(nu: number, seed: number, n: number): QueryBatch {
  return batchOf(`ring beam ${nu} cells, 1.2 turns`, ringBeam(nu), n, seed);
}

export function invertedBlock(seed: number, n: number): QueryBatch {
  return batchOf('block with inverted tets', blockWithInversions(), n, seed);
}

/**
 * Both of the above as two objects of one mesh: inverted tets in one component only, so the
 * other keeps the "beyond p" cut (per-component inversion mode).
 */
export function ringBesideInvertedBlock(seed: number, n: number): QueryBatch {
  const a = blockWithInversions();
  const b = ringBeam(48, 4);
  const merged = mergeTetMeshes([a.rest, b.rest]);
  const mesh = buildTetMesh(merged.arrays, { objectIds: merged.tetObject, source: 'ring + block' }).mesh;
  const posed = new Float32Array(a.posed.length + b.posed.length);
  posed.set(a.posed);
  posed.set(b.posed, a.posed.length);
  return interiorPoints('ring beside an inverted block', mesh, posed, n, seed);
}

/**
 * The GPU tests' one device (tests/support/gpu.ts: one per process), for these tests and the
 * benchmark, instead of a second device of their own.
 */
export function spbTestDevice(): Promise<GPUDevice> {
  return testGpu().then((ctx) => ctx.device);
}
