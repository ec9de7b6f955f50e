import { describe, expect, it } from 'vitest';
import { buildSceneMesh } from '../../src/collision/sceneMesh';
import { CollisionTopologyGpu } from '../../src/collision/gpu/collisionTopology';
import { ACCUMULATOR_WORDS, ContactStage, MAIN_COUNT_WORD } from '../../src/collision/gpu/contactStage';
import { DetectStage } from '../../src/collision/gpu/detectStage';
import { countersFromHeader } from '../../src/collision/gpu/frameCounters';
import { QL, QL_HEADER_WORDS, QueryList, RESULT_WORDS } from '../../src/collision/gpu/queryList';
import { createSpbMeshData } from '../../src/spb';
import { SpbQueryGpu } from '../../src/spb/gpu/spbQueryGpu';
import { GpuState } from '../../src/contract/state';
import { stackedCubes, plainSubstep } from '../support/collisionScenes';
import { readBuffer, testGpu } from '../support/gpu';

/**
 * Detection -> the shortest-path kernel -> contacts on the GPU, on the overlapping cubes with no
 * material solve: each substep's contact passes conserve sum m x, every query's status is
 * counted once, and the deepest penetration (shortest-path distance) shrinks every substep.
 */
describe('GPU collision pipeline: detect, shortest path, contacts', () => {
  it('two cubes stacked 0.04 into each other: momentum kept, statuses counted, hits shrink over substeps', async () => {
    const ctx = await testGpu();
    const { device } = ctx;
    const model = stackedCubes(0.04);
    const mesh = buildSceneMesh(model);
    const state = new GpuState(device, model);
    const topology = new CollisionTopologyGpu(device, mesh);
    const list = new QueryList(device, 1024);
    const detect = new DetectStage(device, topology, list, () => ({ collisions: true, selfCollision: true, recovery: false, interObject: 'exact' }));
    const contacts = new ContactStage(device, topology, list, () => ({ collisions: true, friction: 0, contactIterations: 2 }));
    const spb = new SpbQueryGpu(device, createSpbMeshData(mesh), { positions: state.positions });
    const momentum = (x: Float32Array) => {
      const p = [0, 0, 0];
      for (let i = 0; i < model.vertexCount; i++) for (let k = 0; k < 3; k++) p[k] += x[3 * i + k] / model.invMass[i];
      return p;
    };
    const p0 = momentum(await state.readPositions());
    const counts: number[] = [];
    const depths: number[] = [];
    for (let substep = 0; substep < 4; substep++) {
      let encoder = device.createCommandEncoder();
      detect.beginFrame(encoder);
      contacts.beginFrame(encoder);
      detect.encode(encoder, state, plainSubstep());
      device.queue.submit([encoder.finish()]);
      // The test reads the count to size the shortest-path kernel's direct dispatch.
      const n = new Uint32Array(await readBuffer(ctx, list.list, 4))[0];
      counts.push(n);
      encoder = device.createCommandEncoder();
      spb.encode(encoder, list.list, list.results, n);
      contacts.encode(encoder, state, plainSubstep());
      device.queue.submit([encoder.finish()]);
      const header = new Uint32Array(await readBuffer(ctx, list.list, 4 * QL_HEADER_WORDS));
      // Depth: the shortest-path distance of every FOUND query.
      const r = new Float32Array(await readBuffer(ctx, list.results, 4 * RESULT_WORDS * n));
      const status = new Uint32Array(r.buffer);
      let deepest = 0;
      for (let i = 0; i < n; i++) if (status[RESULT_WORDS * i + 6] === 1) deepest = Math.max(deepest, r[RESULT_WORDS * i + 3]);
      depths.push(deepest);
      expect(header[QL.contacts] + header[QL.noPath] + header[QL.skipped] + header[QL.spbOverflows]).toBe(n);
      const c = countersFromHeader(header, list.capacity);
      expect(c.spbQueries).toBe(n);
      expect(c.dcdHits.vertexInter + c.dcdHits.edgeInter).toBe(n);
      if (substep === 0) expect(header[QL.contacts]).toBeGreaterThan(0.9 * n);
      const p = momentum(await state.readPositions());
      expect(Math.hypot(p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]) / Math.hypot(...p0)).toBeLessThan(1e-6);
    }
    const maxCount = Math.max(...new Uint32Array(await readBuffer(ctx, contacts.accumulators)).filter((_, i) => i % ACCUMULATOR_WORDS === MAIN_COUNT_WORD));
    console.log(`contacts only, no material solve, 2 passes per substep: DCD hits ${counts.join(', ')}; deepest ${depths.map((d) => d.toFixed(4)).join(', ')}; most contacts at one vertex ${maxCount}`);
    // Each step is scaled by mass splitting (up to 20 contacts share a vertex here), so a pass
    // moves a fraction of the depth: it falls every substep (0.040 -> 0.0135 in the first), the hit count slowly.
    expect(depths[0]).toBeGreaterThan(0.039);
    for (let k = 1; k < depths.length; k++) expect(depths[k]).toBeLessThan(depths[k - 1]);
    expect(depths[depths.length - 1]).toBeLessThan(0.5 * depths[0]);
    spb.destroy();
  });
});
