/**
 * Edge-tet hits as detection issues them (paper 000 section 4), for the shortest-path tests: on the
 * folded slab (foldedSlab.ts), each boundary edge of the upper arm that crosses a tet of the
 * lower arm's overlap gives one query, the centre of the part of the edge inside the first such
 * tet, excluding the pair (a, b). The lower arm alone is intersection-free, so the answer is the
 * brute-force closest point over its triangles.
 */
import type { TetMesh } from '../../../src/mesh/types';
import { clipSegmentToTet, minBarycentric } from './edgeClip';
import { foldedSlabMap } from './foldedSlab';
import { latticeMesh } from './lattice';

export interface EdgeHits {
  mesh: TetMesh;
  /** True for tets of the lower arm (the host layer, whose boundary holds the answers). */
  lower: (t: number) => boolean;
  /** True for tets of the upper arm (the edges' layer). */
  upper: (t: number) => boolean;
  points: Float64Array;
  tets: Int32Array;
  exclude: Int32Array;
  exclude2: Int32Array;
}

export function foldedSlabEdgeHits(): EdgeHits {
  const { mesh, cellOfTet } = latticeMesh(60, 4, 8, foldedSlabMap({ armCells: 24, bendCells: 12, thicknessCells: 4, widthCells: 4 }));
  const lower = (t: number): boolean => cellOfTet[3 * t] < 24;
  const upper = (t: number): boolean => cellOfTet[3 * t] >= 36;
  const x = mesh.positions;
  const tris = mesh.boundaryTriangles;
  const upperVertex = new Uint8Array(mesh.vertexCount);
  for (let f = 0; f < tris.length / 3; f++) if (upper(mesh.boundaryTriangleTet[f])) for (let k = 0; k < 3; k++) upperVertex[tris[3 * f + k]] = 1;
  const hosts: number[] = [];
  for (let t = 0; t < mesh.tetCount; t++) if (cellOfTet[3 * t] >= 2 && cellOfTet[3 * t] < 10) hosts.push(t);
  // Each host's box (lo xyz, hi xyz), to skip the clip where the edge's box misses it.
  const box = new Float64Array(6 * hosts.length);
  hosts.forEach((t, h) => {
    for (let c = 0; c < 3; c++) {
      const v = [0, 1, 2, 3].map((k) => x[3 * mesh.tets[4 * t + k] + c]);
      box[6 * h + c] = Math.min(...v);
      box[6 * h + 3 + c] = Math.max(...v);
    }
  });
  const pts: number[] = [], tets: number[] = [], e1: number[] = [], e2: number[] = [];
  for (let e = 0; e < mesh.boundaryEdges.length / 2; e++) {
    const ia = mesh.boundaryEdges[2 * e], ib = mesh.boundaryEdges[2 * e + 1];
    if (!upperVertex[ia] || !upperVertex[ib]) continue;
    const a = [x[3 * ia], x[3 * ia + 1], x[3 * ia + 2]], b = [x[3 * ib], x[3 * ib + 1], x[3 * ib + 2]];
    for (let h = 0; h < hosts.length; h++) {
      let misses = false;
      for (let c = 0; c < 3; c++) misses ||= Math.max(a[c], b[c]) < box[6 * h + c] || Math.min(a[c], b[c]) > box[6 * h + 3 + c];
      if (misses) continue;
      const t = hosts[h];
      const clip = clipSegmentToTet(x, mesh.tets, t, a, b);
      if (!clip) continue;
      const m = 0.5 * (clip[0] + clip[1]);
      const p = [0, 1, 2].map((c) => a[c] + m * (b[c] - a[c]));
      if (!(minBarycentric(x, mesh.tets, t, p) > 1e-6)) continue;
      pts.push(p[0], p[1], p[2]);
      tets.push(t);
      e1.push(ia);
      e2.push(ib);
      break; // one query per edge: the first containing tet, as detection does
    }
  }
  return { mesh, lower, upper, points: Float64Array.from(pts), tets: Int32Array.from(tets), exclude: Int32Array.from(e1), exclude2: Int32Array.from(e2) };
}
