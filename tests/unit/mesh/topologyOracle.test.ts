import { describe, expect, it } from 'vitest';
import { loadSharedTetMesh } from '../../support/sharedMeshes';
import { TET_FACES } from '../../../src/mesh/types';
import { bruteForceFaces } from './meshChecks';

describe('fast topology equals the O(n^2) oracle', () => {
  for (const name of ['GlassBox.t', 'Beam_lowRes.t', 'Beam.t', 'Cube.t', 'CubeRandom.t']) {
    it(name, () => {
      const mesh = loadSharedTetMesh(name);
      const oracle = bruteForceFaces(mesh.tets);
      expect(Array.from(mesh.tetNeighbors)).toEqual(Array.from(oracle.neighbors));
      const boundary: string[] = [];
      for (let k = 0; k < mesh.boundaryTriangleTet.length; k++) boundary.push(`${mesh.boundaryTriangleTet[k]}:${mesh.boundaryTriangleFace[k]}`);
      expect(boundary.sort()).toEqual(oracle.boundary);

      // Each boundary triangle is its tet's face, wound outward: the tet's 4th vertex lies behind it.
      const p = mesh.positions;
      for (let k = 0; k < mesh.boundaryTriangleTet.length; k++) {
        const t = mesh.boundaryTriangleTet[k], i = mesh.boundaryTriangleFace[k];
        const tri = [0, 1, 2].map((j) => mesh.boundaryTriangles[3 * k + j]);
        expect(tri).toEqual(TET_FACES[i].map((j) => mesh.tets[4 * t + j]));
        const [a, b, c] = tri.map((v) => [p[3 * v], p[3 * v + 1], p[3 * v + 2]]);
        const opp = mesh.tets[4 * t + i];
        const d = [p[3 * opp], p[3 * opp + 1], p[3 * opp + 2]];
        const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
        const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
        expect(n[0] * (d[0] - a[0]) + n[1] * (d[1] - a[1]) + n[2] * (d[2] - a[2])).toBeLessThan(0);
      }

      // Boundary edges: both triangles contain the edge; CSR lists agree with a plain scan.
      const tris = mesh.boundaryTriangles;
      const E = mesh.boundaryEdges.length / 2;
      for (let e = 0; e < E; e++) {
        const a = mesh.boundaryEdges[2 * e], b = mesh.boundaryEdges[2 * e + 1];
        expect(a).toBeLessThan(b);
        for (let s = 0; s < 2; s++) {
          const t = mesh.boundaryEdgeTriangles[2 * e + s];
          const set = [tris[3 * t], tris[3 * t + 1], tris[3 * t + 2]];
          expect(set).toContain(a);
          expect(set).toContain(b);
        }
        expect(mesh.boundaryEdgeTriangles[2 * e]).not.toBe(mesh.boundaryEdgeTriangles[2 * e + 1]);
      }
      for (let v = 0; v < mesh.vertexCount; v++) {
        const expectedTris: number[] = [];
        for (let t = 0; t < tris.length / 3; t++) if (tris[3 * t] === v || tris[3 * t + 1] === v || tris[3 * t + 2] === v) expectedTris.push(t);
        const got = Array.from(mesh.vertexTriangles.subarray(mesh.vertexTriangleOffsets[v], mesh.vertexTriangleOffsets[v + 1]));
        expect(got.sort((x, y) => x - y)).toEqual(expectedTris);
        const expectedNb = new Set<number>();
        for (let e = 0; e < E; e++) {
          if (mesh.boundaryEdges[2 * e] === v) expectedNb.add(mesh.boundaryEdges[2 * e + 1]);
          if (mesh.boundaryEdges[2 * e + 1] === v) expectedNb.add(mesh.boundaryEdges[2 * e]);
        }
        const nb = Array.from(mesh.vertexNeighbors.subarray(mesh.vertexNeighborOffsets[v], mesh.vertexNeighborOffsets[v + 1]));
        expect(nb).toEqual([...expectedNb].sort((x, y) => x - y));
        expect(Array.from(mesh.boundaryVertices).includes(v)).toBe(expectedTris.length > 0);
      }
    });
  }
});
