/**
 * The WGSL kernel on the scenes of the inversion and zero-length fixes (tests/unit/spb/: the
 * unit tests check the TypeScript twin on them against own-layer and pre-image oracles):
 * - inverted interior tets inside overlapping layers (folded ring, folded beam) and around the
 *   squeezed squishy ball's inverted roots: the GPU agrees with the twin (culling guard, travel
 *   bound, prepass list of inverted tets), gives the same answers with culling on and off, and,
 *   where the straight path to the own layer's nearest point is valid within the travel bound,
 *   the own-layer distance itself;
 * - points exactly on boundary faces, edges and vertices of their own tet: distance 0.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { QUERY_FOUND, QUERY_OVERFLOW } from '../../src/spb';
import { loadSharedTetMesh } from '../support/sharedMeshes';
import { kuhnLattice } from '../support/kuhnLattice';
import { onBoundary, vertexTets } from '../unit/spb/boundaryPoints';
import { meshFrom } from '../unit/spb/helpers';
import { foldedBeam, foldedRing, pointsNear, withRootPoints, type FoldedLayers } from '../unit/spb/invertedScenes';
import { arcTracer, layerClosest } from '../unit/spb/layerOracle';
import { squeezedSquishyBallQueries } from '../unit/spb/scenes';
import { compareBatch, countInverted, expectAgreement, summary } from './spbCompare';
import type { QueryBatch } from './spbCases';

function foldedBatch(name: string, scene: FoldedLayers, q: { points: Float64Array; tets: Int32Array }): QueryBatch {
  return { name, mesh: scene.mesh, positions: scene.positions, points: Float32Array.from(q.points), tets: Uint32Array.from(q.tets), exclude: new Int32Array(q.tets.length).fill(-1) };
}

/** Culling on and off on the GPU, each against the twin; the two GPU answers must agree too. */
async function onAndOff(batch: QueryBatch): Promise<Float32Array> {
  const on = await compareBatch(batch, true);
  const off = await compareBatch(batch, false);
  expectAgreement(on);
  expectAgreement(off);
  expect(on.found).toBe(off.found);
  let differ = 0;
  for (let q = 0; q < batch.tets.length; q++) {
    if (on.gpu.status[q] !== off.gpu.status[q] || Math.abs(on.gpu.distance[q] - off.gpu.distance[q]) > 1e-6 * Math.max(1e-3, on.gpu.distance[q])) differ++;
  }
  expect(differ).toBe(0);
  return on.gpu.distance;
}

/** GPU distances against the own-layer oracle where the straight path to it is valid within 2 |p - s|. */
function expectOwnLayer(scene: FoldedLayers, batch: QueryBatch, distance: Float32Array): number {
  const trace = arcTracer(scene.positions, scene.tets);
  let checked = 0;
  for (let q = 0; q < batch.tets.length; q++) {
    const p = Array.from(batch.points.subarray(3 * q, 3 * q + 3));
    const tet = batch.tets[q];
    const own = layerClosest(scene.positions, scene.faces, scene.faceTet, p, (owner) => scene.ownLayer(tet, owner));
    const arc = trace(tet, p, own.point);
    if (!(arc.reachesS && arc.travel <= 2 * (1 - 1e-6))) continue;
    checked++;
    expect(Math.abs(distance[q] - own.distance), `query ${q}: gpu ${distance[q]}, own layer ${own.distance}`).toBeLessThan(1e-5);
  }
  return checked;
}

describe('WGSL kernel: inverted tets in overlapping layers, points on the boundary', () => {
  afterAll(() => console.log(summary.join('\n')));

  it('ring with ends overlapping and tets inverted inside the overlap: twin, culling on = off, own layer', async () => {
    const scene = foldedRing(55, [0.0245, -0.096, 0.0053]);
    const batch = foldedBatch('folded ring', scene, pointsNear(scene, 55, 2, 2, 1));
    const distance = await onAndOff(batch);
    expect(expectOwnLayer(scene, batch, distance)).toBeGreaterThan(0.95 * batch.tets.length);
  });

  it('folded beam, interior vertex moved inside the overlap: twin, culling on = off, own layer', async () => {
    const scene = foldedBeam([34, 2, 1], [0.1966, -0.0919, 0.0474]);
    const batch = foldedBatch('folded beam', scene, pointsNear(scene, 34, 1, 1, 3));
    const distance = await onAndOff(batch);
    expect(expectOwnLayer(scene, batch, distance)).toBeGreaterThan(0.95 * batch.tets.length);
  });

  it('squeezed squishy ball: points around the inverted roots (culling guard from the prepass list of inverted tets)', async () => {
    const { mesh, queries } = squeezedSquishyBallQueries();
    // Only the points around the roots (the DCD hits stay away from them, dcdScenes.test.ts).
    const none = { points: queries.points.subarray(0, 0), tets: queries.tets.subarray(0, 0), exclude: queries.exclude.subarray(0, 0) };
    const q = withRootPoints(mesh, none, 1);
    const batch: QueryBatch = { name: 'squeezed ball roots', mesh, positions: mesh.positions, points: Float32Array.from(q.points), tets: Uint32Array.from(q.tets), exclude: Int32Array.from(q.exclude) };
    const on = await compareBatch(batch, true);
    expectAgreement(on);
    expect(on.invertedTets).toBe(countInverted(mesh.tets, mesh.positions));
    const off = await compareBatch(batch, false);
    expectAgreement(off);
    for (let i = 0; i < batch.tets.length; i++) expect(Math.abs(on.gpu.distance[i] - off.gpu.distance[i]), `query ${i}`).toBeLessThan(1e-6);
  });

  it('points exactly on boundary faces, edges and vertices of their own tet: distance 0', async () => {
    const lat = kuhnLattice(4, 4, 4, (i, j, k) => [0.1 * i, 0.1 * j, 0.1 * k]);
    for (const [name, mesh] of [['lattice cube', meshFrom(lat.positions, lat.tets)], ['octopus_2KFaces.t', loadSharedTetMesh('octopus_2KFaces.t')]] as const) {
      const b = onBoundary(mesh, 15, 4);
      const batch: QueryBatch = { name: `${name} boundary points`, mesh, positions: mesh.positions, points: Float32Array.from(b.points), tets: Uint32Array.from(b.tets), exclude: Int32Array.from(b.exclude) };
      const c = await compareBatch(batch, true);
      expectAgreement(c);
      for (let i = 0; i < batch.tets.length; i++) {
        expect(c.gpu.status[i], b.kind[i]).toBe(QUERY_FOUND);
        // f32 points: on the face up to rounding (1e-7 of the coordinates).
        expect(c.gpu.distance[i], b.kind[i]).toBeLessThan(1e-5);
      }
    }
  });

  it('p at the excluded vertex in a tet of its own: its faces rejected, culling blind to them (culling on = off)', async () => {
    const lat = kuhnLattice(3, 3, 3, (i, j, k) => [0.1 * i, 0.1 * j, 0.1 * k]);
    const mesh = meshFrom(lat.positions, lat.tets);
    const around = vertexTets(mesh);
    const pts: number[] = [], tets: number[] = [], excl: number[] = [];
    for (const v of mesh.boundaryVertices) {
      for (const t of around[v]) {
        pts.push(mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]);
        tets.push(t);
        excl.push(v);
      }
    }
    const batch: QueryBatch = { name: 'lattice cube, own vertex excluded', mesh, positions: mesh.positions, points: Float32Array.from(pts), tets: Uint32Array.from(tets), exclude: Int32Array.from(excl) };
    const on = await compareBatch(batch, true);
    const off = await compareBatch(batch, false);
    expectAgreement(on);
    expectAgreement(off);
    for (let i = 0; i < tets.length; i++) {
      // Rays grazing the cube's faces branch a lot: some overflow the fixed stacks (flagged, the
      // CPU answers them), more often without culling.
      if (on.gpu.status[i] === QUERY_OVERFLOW || off.gpu.status[i] === QUERY_OVERFLOW) continue;
      expect(on.gpu.status[i]).toBe(off.gpu.status[i]);
      expect(on.gpu.distance[i]).toBe(off.gpu.distance[i]);
      if (on.gpu.status[i] === QUERY_FOUND) expect(Array.from(mesh.boundaryTriangles.subarray(3 * on.gpu.triangle[i], 3 * on.gpu.triangle[i] + 3))).not.toContain(excl[i]);
    }
  });
});
