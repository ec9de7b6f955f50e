/**
 * The rest-pose methods' kernels in the GPU time step (shaders/restClosestQuery.wgsl,
 * shaders/ddfQuery.wgsl, recorded by the spb stage when SolverParams.penetration says so)
 * against their float64 CPU twin (src/penetration/penetrationTargets.ts) on one frame's queries.
 *
 * Scene: a beam (3 x 3 cells across, so that it has interior vertices: the field is 0 on the
 * boundary) whose rest shape is straight, posed bent through 1.15 turns so that its ends overlap
 * (self-intersection: the rest pose's closest point and field differ from the current shape's),
 * and a small cube posed into its first quarter (inter-object). One DCD frame
 * of one substep with a tiny time step: the material solve then moves nothing measurable, so
 * the queries are answered at the posed positions. Every query the GPU's detection made is
 * answered again by the twin from the same point, tet and excluded vertices: same status, and
 * the same target and depth within 1e-4 of the beam's thickness (f32 against float64); the
 * triangle may differ only where two are equally near, which the targets' agreement covers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { QL, QL_HEADER_WORDS, QUERY_WORDS, RESULT_WORDS } from '../../src/collision/gpu/queryList';
import { PenetrationTargets } from '../../src/penetration/penetrationTargets';
import type { PenetrationMethod } from '../../src/penetration/methods';
import { buildSceneMesh } from '../../src/collision/sceneMesh';
import { GpuSolver } from '../../src/sim/gpuSolver';
import { buildModel } from '../../src/sim/model';
import { defaultParams } from '../../src/contract/params';
import { createSpbMeshData, updateSpbMeshData } from '../../src/spb/meshData';
import { QUERY_FOUND } from '../../src/spb/query';
import { cubePart, latticePart } from '../unit/collision/scenes';
import { readBuffer, testGpu } from '../support/gpu';

const summary: string[] = [];
afterAll(() => console.log(summary.join('\n')));

const THICKNESS = 0.3;

/**
 * Beam of 24 x 3 x 3 cells, 4 long, straight at rest; posed around the z axis at radius 0.55
 * through 1.15 turns (rising 0.04 per turn, so the overlapping layers are not coplanar).
 */
function scene(): { setup: ReturnType<typeof makeSetup>; posed: Float32Array } {
  const L = 4, a = THICKNESS, R = 0.55, turns = 1.15;
  const rest = latticePart([24, 3, 3], (u, v, w) => [(u / 24) * L, (v / 3 - 0.5) * a, (w / 3 - 0.5) * a]);
  const bent = new Float64Array(rest.positions.length);
  for (let i = 0; i < bent.length; i += 3) {
    const s = rest.positions[i] / L, r = R - rest.positions[i + 1];
    const th = 2 * Math.PI * turns * s;
    bent.set([r * Math.cos(th), r * Math.sin(th), rest.positions[i + 2] + 0.04 * turns * s], i);
  }
  const cube = cubePart(2, 0.2, [0.47, 0.03, -0.09]);
  const setup = makeSetup(rest.positions, rest.tets, cube.positions, cube.tets);
  const posed = new Float32Array(setup.model.vertexCount * 3);
  posed.set(bent);
  posed.set(cube.positions, bent.length);
  return { setup, posed };
}

function makeSetup(beamX: Float64Array, beamT: Uint32Array, cubeX: Float64Array, cubeT: Uint32Array) {
  const material = { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000 };
  const model = buildModel([
    { name: 'beam', positions: beamX, tets: beamT, material },
    { name: 'cube', positions: cubeX, tets: cubeT, material },
  ]);
  return { model, colliders: [], handles: [], params: defaultParams({ dt: 1e-6, substeps: 1, iterations: 1, gravity: [0, 0, 0], collisionMode: 'dcd', contactIterations: 1 }) };
}

describe('rest-pose methods: the GPU time step against the float64 twin on a frame\'s queries', () => {
  it('restClosest, then ddf (one solver, switched between frames): every query gets the twin\'s status, target and depth', async () => {
    const ctx = await testGpu();
    const { setup, posed } = scene();
    const solver = new GpuSolver(ctx, setup);
    const m = setup.model;
    const mesh = buildSceneMesh(m);
    const current = createSpbMeshData(mesh);
    updateSpbMeshData(current, posed);
    const targets = new PenetrationTargets(mesh, m.restPositions);
    for (const method of ['restClosest', 'ddf'] as const satisfies readonly PenetrationMethod[]) {
      solver.params = { ...solver.params, penetration: method };
      // Positions and start positions, each buffer's w (inverse mass, object id) kept: the
      // detection tells self from inter-object queries by the ids (two objects here).
      solver.writePositions(posed);
      const prev = await readBuffer(ctx, solver.prevBuffer), pos = new Float32Array(await readBuffer(ctx, solver.positionBuffer));
      const ids = new Uint32Array(prev), prevXyz = new Float32Array(prev);
      for (let v = 0; v < m.vertexCount; v++) {
        expect(ids[4 * v + 3]).toBe(m.vertexObject[v]);
        expect(pos[4 * v + 3]).toBe(Math.fround(m.invMass[v]));
        for (let k = 0; k < 3; k++) expect(prevXyz[4 * v + k]).toBe(Math.fround(posed[3 * v + k]));
      }
      const frame = await solver.stepFrame();
      const c = solver.collisions!;
      const list = new Uint32Array(await readBuffer(ctx, c.queryList.list));
      const results = await readBuffer(ctx, c.spb.resultsBuffer);
      expect(frame.collisions!.penetration).toBe(method);
      const n = Math.min(list[QL.count], list[QL.capacity]);
      const lf = new Float32Array(list.buffer), li = new Int32Array(list.buffer);
      const rf = new Float32Array(results), ru = new Uint32Array(results), ri = new Int32Array(results);
      const points = new Float64Array(3 * n), tets = new Uint32Array(n), e1 = new Int32Array(n), e2 = new Int32Array(n);
      let self = 0;
      for (let i = 0; i < n; i++) {
        const o = QL_HEADER_WORDS + QUERY_WORDS * i;
        points.set([lf[o], lf[o + 1], lf[o + 2]], 3 * i);
        tets[i] = list[o + 3];
        e1[i] = li[o + 4];
        e2[i] = li[o + 5];
        if (e1[i] >= 0 && m.vertexObject[e1[i]] === m.tetObject[tets[i]]) self++;
      }
      const twin = targets.answerBatch(method, current, points, tets, e1, e2);
      let found = 0, triangleDiffers = 0, worst = 0;
      for (let i = 0; i < n; i++) {
        const o = RESULT_WORDS * i;
        expect(ru[o + 6], `query ${i} status`).toBe(twin.status[i]);
        if (twin.status[i] !== QUERY_FOUND) continue;
        found++;
        const gap = Math.hypot(rf[o] - twin.point[3 * i], rf[o + 1] - twin.point[3 * i + 1], rf[o + 2] - twin.point[3 * i + 2]);
        worst = Math.max(worst, gap, Math.abs(rf[o + 3] - twin.distance[i]));
        expect(gap, `query ${i} target`).toBeLessThan(1e-4 * THICKNESS);
        expect(Math.abs(rf[o + 3] - twin.distance[i]), `query ${i} depth`).toBeLessThan(1e-4 * THICKNESS);
        if (ri[o + 4] !== twin.triangle[i]) triangleDiffers++;
      }
      summary.push(`${method}: ${n} queries (${self} self), ${found} targets, worst gap ${worst.toExponential(2)}, triangle differs ${triangleDiffers}`);
      // Both kinds of contact were there, and most got a target.
      expect(self).toBeGreaterThan(10);
      expect(n - self).toBeGreaterThan(5);
      expect(found).toBeGreaterThan(n / 2);
      expect(frame.collisions!.contacts).toBe(found);
    }
    solver.destroy();
  });
});
