/** Query points exactly on the boundary of their own tet (the zero-length case of section 3.3). */
import type { TetMesh } from '../../../src/mesh/types';
import { rng } from '../../support/random';
import type { QueryBatchIn } from './queryRuns';

export interface BoundaryPoints extends QueryBatchIn {
  points: Float64Array;
  tets: Int32Array;
  exclude: Int32Array;
  kind: string[];
}

/** Tets around each vertex (brute force over the tets: test sizes). */
export function vertexTets(mesh: TetMesh): number[][] {
  const out: number[][] = Array.from({ length: mesh.vertexCount }, () => []);
  for (let t = 0; t < mesh.tetCount; t++) for (let k = 0; k < 4; k++) out[mesh.tets[4 * t + k]].push(t);
  return out;
}

/**
 * Points exactly on the boundary: on `count` boundary faces (random barycentrics, in the face's
 * own tet), on `count` boundary edges (in every tet holding the edge) and at `count` boundary
 * vertices (in every tet holding the vertex), none excluded.
 */
export function onBoundary(mesh: TetMesh, count: number, seed: number): BoundaryPoints {
  const r = rng(seed);
  const x = mesh.positions;
  const around = vertexTets(mesh);
  const b: BoundaryPoints = { points: new Float64Array(0), tets: new Int32Array(0), exclude: new Int32Array(0), kind: [] };
  const pts: number[] = [], tets: number[] = [];
  const add = (p: number[], t: number, kind: string): void => {
    pts.push(...p);
    tets.push(t);
    b.kind.push(kind);
  };
  const nTri = mesh.boundaryTriangles.length / 3;
  for (let i = 0; i < count; i++) {
    const f = Math.floor(r() * nTri);
    const w = [0.05 + r(), 0.05 + r(), 0.05 + r()];
    const sum = w[0] + w[1] + w[2];
    const p = [0, 1, 2].map((c) => [0, 1, 2].reduce((s, k) => s + (w[k] / sum) * x[3 * mesh.boundaryTriangles[3 * f + k] + c], 0));
    add(p, mesh.boundaryTriangleTet[f], `face ${f}`);
  }
  const nEdge = mesh.boundaryEdges.length / 2;
  for (let i = 0; i < count; i++) {
    const e = Math.floor(r() * nEdge);
    const a = mesh.boundaryEdges[2 * e], c = mesh.boundaryEdges[2 * e + 1];
    const t = 0.1 + 0.8 * r();
    const p = [0, 1, 2].map((k) => (1 - t) * x[3 * a + k] + t * x[3 * c + k]);
    for (const tet of around[a]) if (around[c].includes(tet)) add(p, tet, `edge ${a}-${c}`);
  }
  for (let i = 0; i < count; i++) {
    const v = mesh.boundaryVertices[Math.floor(r() * mesh.boundaryVertices.length)];
    for (const tet of around[v]) add([x[3 * v], x[3 * v + 1], x[3 * v + 2]], tet, `vertex ${v}`);
  }
  b.points = Float64Array.from(pts);
  b.tets = Int32Array.from(tets);
  b.exclude = new Int32Array(tets.length).fill(-1);
  return b;
}
