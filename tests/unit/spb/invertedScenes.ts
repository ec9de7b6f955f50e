/**
 * Overlapping layers with interior tets inverted inside the overlap (paper section 3.5 meets
 * section 3.1's self-intersections), built on a Kuhn lattice so that the own layer of every point
 * is known from the construction: the cells within `layerCells` of its cell along the lattice's
 * long axis (a range short enough not to overlap itself).
 *
 * The inversion: one interior lattice vertex (all its neighbours stay put, so the boundary is
 * unchanged) is moved by a fixed displacement until tets around it fold over (signed volume < 0).
 * The own-layer answer (layerOracle.ts) does not change with it.
 */
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import type { TetMesh } from '../../../src/mesh/types';
import { kuhnLattice } from '../../support/kuhnLattice';
import { randomInteriorPoint, rng } from '../../support/random';
import { foldedSlabMap } from './foldedSlab';
import { latticeBoundaryFaces, type LatticeScene } from './layerOracle';
import type { Queries } from './scenes';

export interface FoldedLayers extends LatticeScene {
  /** Topology from the rest lattice (validation rejects inverted input), positions deformed. */
  mesh: TetMesh;
  /** Boundary faces from the construction (layerOracle.ts), vertex triples and owning tets. */
  faces: Uint32Array;
  faceTet: Uint32Array;
  /** The moved vertex and the tets that invert. */
  moved: number;
  inverted: number[];
  /** True when boundary face owner `faceTet` is in the own layer of a point of tet `tet`. */
  ownLayer(tet: number, faceTet: number): boolean;
}

function signedVolume(x: ArrayLike<number>, tets: ArrayLike<number>, t: number): number {
  const v = [0, 1, 2, 3].map((k) => 3 * tets[4 * t + k]);
  const e = [1, 2, 3].map((k) => [0, 1, 2].map((c) => x[v[k] + c] - x[v[0] + c]));
  return e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
}

function folded(
  nu: number, nv: number, nw: number,
  map: (u: number, v: number, w: number) => [number, number, number],
  vertex: [number, number, number],
  displacement: [number, number, number],
  layerCells: number,
): FoldedLayers {
  const lat = kuhnLattice(nu, nv, nw, map);
  const rest = buildTetMesh({ positions: lat.positions, tets: lat.tets }, { source: 'foldedLayers' }).mesh;
  const latticeOf = new Int32Array(3 * rest.vertexCount);
  for (let k = 0; k <= nw; k++) for (let j = 0; j <= nv; j++) for (let i = 0; i <= nu; i++) latticeOf.set([i, j, k], 3 * lat.vertexId(i, j, k));
  const positions = Float32Array.from(lat.positions);
  const moved = lat.vertexId(...vertex);
  for (let c = 0; c < 3; c++) positions[3 * moved + c] += displacement[c];
  const inverted: number[] = [];
  for (let t = 0; t < rest.tetCount; t++) if (signedVolume(positions, lat.tets, t) <= 0) inverted.push(t);
  const scene: LatticeScene = { positions, tets: lat.tets, cellOfTet: lat.cellOfTet, latticeOf, size: [nu, nv, nw] };
  const { faces, faceTet } = latticeBoundaryFaces(scene);
  return {
    ...scene,
    mesh: { ...rest, positions },
    faces,
    faceTet,
    moved,
    inverted,
    ownLayer: (tet, owner) => Math.abs(lat.cellOfTet[3 * owner] - lat.cellOfTet[3 * tet]) <= layerCells,
  };
}

/**
 * A 60 x 2 x 2-cell beam (cells 0.1) bent flat over 1.2 turns, rising `rise` per turn, so its last
 * 10 cells lie on (rise 0: exactly on) its first 10: the "two-cell-thick ring whose ends overlap"
 * of the culling tests. The centre-line vertex (u, 1, 1) is moved by `displacement`.
 */
export function foldedRing(u: number, displacement: [number, number, number], rise = 0): FoldedLayers {
  const nu = 60, h = 0.1, turns = 1.2;
  const radius = (nu * h) / (2 * Math.PI * turns);
  const map = (i: number, j: number, k: number): [number, number, number] => {
    const a = (2 * Math.PI * turns * i) / nu;
    const r = radius + (1 - j) * h; // j runs inward: the map keeps the orientation
    return [r * Math.cos(a), r * Math.sin(a), k * h + (rise * a) / (2 * Math.PI)];
  };
  return folded(nu, 2, 2, map, [u, 1, 1], displacement, 20);
}

/**
 * A 40 x 3 x 3-cell beam (1 thick, 1 wide) folded over a half turn, its returning leg lowered by
 * 1.6 so that its last cells pass through the first ones (the folded slab of the culling tests,
 * as a beam). An interior vertex (u, j, k), 1 <= j, k <= 2, is moved by `displacement`.
 */
export function foldedBeam(vertex: [number, number, number], displacement: [number, number, number]): FoldedLayers {
  const map = foldedSlabMap({ armCells: 16, bendCells: 8, thicknessCells: 3, widthCells: 3 });
  return folded(40, 3, 3, map, vertex, displacement, 8);
}

/** `perTet` random interior points of every tet whose cell is within `cells` of lattice column `u`. */
export function pointsNear(scene: FoldedLayers, u: number, cells: number, perTet: number, seed: number): { points: Float64Array; tets: Int32Array } {
  const r = rng(seed);
  const pts: number[] = [], tets: number[] = [];
  for (let t = 0; t < scene.tets.length / 4; t++) {
    if (Math.abs(scene.cellOfTet[3 * t] - u) > cells) continue;
    for (let i = 0; i < perTet; i++) {
      pts.push(...randomInteriorPoint(scene.positions, scene.tets, t, r));
      tets.push(t);
    }
  }
  return { points: Float64Array.from(pts), tets: Int32Array.from(tets) };
}

/**
 * The scene's DCD hits plus `perTet` random interior points of every tet sharing a vertex with an
 * inverted tet (the inverted ones included): points whose paths run through or by the folds.
 */
export function withRootPoints(mesh: TetMesh, q: Queries, perTet: number): Queries {
  const near = new Set<number>();
  for (let t = 0; t < mesh.tetCount; t++) if (signedVolume(mesh.positions, mesh.tets, t) <= 0) for (let k = 0; k < 4; k++) near.add(mesh.tets[4 * t + k]);
  const r = rng(17);
  const pts = Array.from(q.points), tets = Array.from(q.tets), excl = Array.from(q.exclude);
  for (let t = 0; t < mesh.tetCount; t++) {
    if (![0, 1, 2, 3].some((k) => near.has(mesh.tets[4 * t + k]))) continue;
    for (let j = 0; j < perTet; j++) {
      pts.push(...randomInteriorPoint(mesh.positions, mesh.tets, t, r));
      tets.push(t);
      excl.push(-1);
    }
  }
  return { points: Float64Array.from(pts), tets: Int32Array.from(tets), exclude: Int32Array.from(excl) };
}
