import { describe, expect, it } from 'vitest';
import { buildSurfaceBvh, queryNearestTriangles, refitSurfaceBvh, sahCost } from '../../../src/bvh';
import { listSharedMeshes, loadSharedTetMesh } from '../../support/sharedMeshes';
import { pointTriangleDistance2 } from './support/pointTriangle';
import { rng } from '../../support/random';
import { deform } from './support/surfaces';

/**
 * Real meshes made by others: the shrinking-radius query over the boundary triangles finds the
 * brute-force closest triangle for random points (interior points of random tets, and points
 * around the bounding box), before and after a deformation + refit.
 */
describe('surface BVH on the shared meshes', () => {
  const files = listSharedMeshes('.t');
  it('lists the shared meshes', () => expect(files.length).toBeGreaterThanOrEqual(10));

  for (const file of files) {
    it(`${file}: nearest triangle equals brute force for 400 points, also after deform + refit`, () => {
      const mesh = loadSharedTetMesh(file);
      const tris = mesh.boundaryTriangles;
      const nTri = tris.length / 3;
      const bvh = buildSurfaceBvh(mesh.positions, tris);
      expect(sahCost(bvh)).toBeLessThan(sahCost(buildSurfaceBvh(mesh.positions, tris, { split: 'median' })) * 1.05);
      let lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
      for (let v = 0; v < mesh.vertexCount; v++) {
        for (let a = 0; a < 3; a++) {
          lo[a] = Math.min(lo[a], mesh.positions[3 * v + a]);
          hi[a] = Math.max(hi[a], mesh.positions[3 * v + a]);
        }
      }
      const size = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
      const r = rng(nTri);
      let wrong = 0;
      for (const positions of [mesh.positions, deform(mesh.positions, size, 0.4, 7)]) {
        refitSurfaceBvh(bvh, positions);
        for (let i = 0; i < 200; i++) {
          let px: number, py: number, pz: number;
          if (i % 2 === 0) {
            // Interior point: random barycentric of a random tet.
            const t = Math.floor(r() * mesh.tetCount);
            let w = [r(), r(), r(), r()];
            const s = w[0] + w[1] + w[2] + w[3];
            w = w.map((x) => x / s);
            px = py = pz = 0;
            for (let k = 0; k < 4; k++) {
              const v = 3 * mesh.tets[4 * t + k];
              px += w[k] * positions[v]; py += w[k] * positions[v + 1]; pz += w[k] * positions[v + 2];
            }
          } else {
            px = lo[0] + (r() * 1.4 - 0.2) * (hi[0] - lo[0]);
            py = lo[1] + (r() * 1.4 - 0.2) * (hi[1] - lo[1]);
            pz = lo[2] + (r() * 1.4 - 0.2) * (hi[2] - lo[2]);
          }
          let best = Infinity;
          queryNearestTriangles(bvh, px, py, pz, Infinity, (t, r2) => {
            const d2 = pointTriangleDistance2(positions, tris, t, px, py, pz);
            best = Math.min(best, d2);
            return Math.min(r2, d2);
          });
          let truth = Infinity;
          for (let t = 0; t < nTri; t++) truth = Math.min(truth, pointTriangleDistance2(positions, tris, t, px, py, pz));
          if (best !== truth) wrong++;
        }
      }
      expect(wrong).toBe(0);
    });
  }
});
