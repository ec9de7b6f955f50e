/**
 * Infeasible-region culling must never change an answer, and the static twin (fixed stacks, a
 * ring of 16 visited tets) must answer exactly like the dynamic version wherever it does not
 * overflow; with deliberately tiny stacks it overflows, and every overflow is flagged.
 */
import { describe, expect, it } from 'vitest';
import type { TetMesh } from '../../../src/mesh/types';
import {
  QUERY_FOUND,
  QUERY_NONE,
  QUERY_OVERFLOW,
  SPB_DEFAULT_TOLERANCES,
  SPB_DYNAMIC_CAPACITIES,
  SPB_STATIC_CAPACITIES,
  SpbWorkspace,
  createSpbMeshData,
  shortestPathToBoundary,
  type SpbCapacities,
} from '../../../src/spb';
import { STAT_CULLED, STAT_OVERFLOWS } from '../../../src/spb/workspace';
import { generateShape } from '../../../src/mesh/procedural/catalog';
import { randomInteriorPoint, rng } from '../../support/random';
import { loadSharedTetMesh } from '../../support/sharedMeshes';
import { meshFrom } from './helpers';
import { foldedSlabMap } from './foldedSlab';
import { latticeMesh } from './lattice';

/** A folded slab (as in selfIntersection.test.ts, smaller) so that many candidates are invalid. */
function foldedSlab(): TetMesh {
  return latticeMesh(40, 3, 4, foldedSlabMap({ armCells: 16, bendCells: 8, thicknessCells: 3, widthCells: 2 })).mesh;
}

interface Outcome {
  status: Int32Array;
  distance: Float64Array;
  culled: number;
  overflows: number;
}

/** Random interior points, or with `onVertices` random interior lattice vertices (rays through vertices branch). */
function runAll(mesh: TetMesh, count: number, seed: number, capacities: Readonly<SpbCapacities>, culling: boolean, onVertices = false): Outcome {
  const data = createSpbMeshData(mesh);
  const ws = new SpbWorkspace(capacities, data.tetCount);
  const cfg = { culling, tolerances: SPB_DEFAULT_TOLERANCES };
  const r = rng(seed);
  const out: Outcome = { status: new Int32Array(count), distance: new Float64Array(count), culled: 0, overflows: 0 };
  for (let i = 0; i < count; i++) {
    const tet = Math.floor(r() * mesh.tetCount);
    let p = randomInteriorPoint(mesh.positions, mesh.tets, tet, r);
    if (onVertices) {
      // A vertex of the tet (on the boundary too: then its zero-length candidates are rejected).
      const v = mesh.tets[4 * tet + Math.floor(r() * 4)];
      p = [mesh.positions[3 * v], mesh.positions[3 * v + 1], mesh.positions[3 * v + 2]];
    }
    out.status[i] = shortestPathToBoundary(data, ws, cfg, p[0], p[1], p[2], tet, -1);
    out.distance[i] = out.status[i] === QUERY_FOUND ? Math.sqrt(ws.resultDistance2) : -1;
  }
  out.culled = ws.totals[STAT_CULLED];
  out.overflows = ws.totals[STAT_OVERFLOWS];
  return out;
}

const meshes: [string, () => TetMesh][] = [
  ['OverhandKnot.t', () => loadSharedTetMesh('OverhandKnot.t')],
  ['octopus_2KFaces.t', () => loadSharedTetMesh('octopus_2KFaces.t')],
  ['folded slab', foldedSlab],
  ['generated squishy ball (BCC lattice, lattice-aligned faces)', () => {
    const g = generateShape('squishyBall');
    return meshFrom(g.positions, g.tets);
  }],
];

describe('culling on and off give identical answers', () => {
  for (const [name, make] of meshes) {
    it(name, () => {
      const mesh = make();
      const on = runAll(mesh, 400, 21, SPB_DYNAMIC_CAPACITIES, true);
      const off = runAll(mesh, 400, 21, SPB_DYNAMIC_CAPACITIES, false);
      expect(on.culled).toBeGreaterThan(0); // culling really ran
      expect(off.culled).toBe(0);
      for (let i = 0; i < 400; i++) {
        expect(on.status[i]).toBe(off.status[i]);
        // Ties between faces at exactly the same distance may pick different triangles; the
        // distance is the answer.
        expect(on.distance[i]).toBe(off.distance[i]);
      }
    });
  }
});

describe('static twin (fixed stacks) vs dynamic', () => {
  for (const [name, make] of meshes) {
    it(`${name}: identical answers with the GPU's sizes`, () => {
      const mesh = make();
      const dyn = runAll(mesh, 400, 22, SPB_DYNAMIC_CAPACITIES, true);
      const fixed = runAll(mesh, 400, 22, SPB_STATIC_CAPACITIES, true);
      let overflows = 0;
      for (let i = 0; i < 400; i++) {
        expect(dyn.status[i]).not.toBe(QUERY_OVERFLOW); // the dynamic version never overflows
        if (fixed.status[i] === QUERY_OVERFLOW) overflows++;
        else {
          expect(fixed.status[i]).toBe(dyn.status[i]);
          expect(fixed.distance[i]).toBe(dyn.distance[i]);
        }
      }
      expect(overflows).toBe(fixed.overflows);
      expect(overflows).toBeLessThan(4); // at most 1% with the GPU's sizes on these meshes
    });
  }

  it('tiny stacks overflow, every overflow is flagged, every other answer is exact', () => {
    const mesh = foldedSlab();
    const dyn = runAll(mesh, 300, 23, SPB_DYNAMIC_CAPACITIES, true);
    const tinies: [SpbCapacities, boolean][] = [
      [{ bvhStack: 3, faceStack: 32, tetStack: 32, visitedRing: 16, maxSteps: 4096 }, false],
      [{ bvhStack: 64, faceStack: 32, tetStack: 32, visitedRing: 1, maxSteps: 6 }, false],
      // Stacks of 1 overflow only when a ray branches: rays through lattice vertices.
      [{ bvhStack: 64, faceStack: 1, tetStack: 1, visitedRing: 16, maxSteps: 4096 }, true],
    ];
    const lattice = latticeMesh(5, 5, 5, (i, j, k) => [i, j, k]).mesh;
    const dynLattice = runAll(lattice, 300, 23, SPB_DYNAMIC_CAPACITIES, true, true);
    for (const [caps, onVertices] of tinies) {
      const fixed = runAll(onVertices ? lattice : mesh, 300, 23, caps, true, onVertices);
      const truth = onVertices ? dynLattice : dyn;
      let overflows = 0;
      for (let i = 0; i < 300; i++) {
        if (fixed.status[i] === QUERY_OVERFLOW) overflows++;
        else {
          expect([QUERY_FOUND, QUERY_NONE]).toContain(fixed.status[i]);
          expect(fixed.distance[i], JSON.stringify(caps)).toBe(truth.distance[i]);
        }
      }
      expect(overflows, JSON.stringify(caps)).toBeGreaterThan(0);
      expect(fixed.overflows).toBe(overflows);
    }
  });
});
