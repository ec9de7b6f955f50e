/**
 * Traversals from the last call's culled nodes (SelfCullingOptions.fullTraversalEvery,
 * selfCulling.ts) with one SelfCulling serving several parts of a scene, as a worker of the pool
 * does when it is handed another part (workers/ccdJobs.ts splitParts): each tree keeps its own count
 * of traversals since its last full one, so a tree traversed for the first time starts from its
 * root. On a motion that does not change, a node culled once passes again, so every call culls what
 * a traversal from the roots culls. (Soundness on changing motions, against exhaustive exact CCD:
 * recordedFrames.test.ts runs both schedules.)
 */
import { describe, expect, it } from 'vitest';
import { SelfCulling } from '../../../src/collision/selfCulling/selfCulling';
import { copies, xyzOf } from '../../support/ccdPairOracle';

describe('self-culling traversals from the last culled nodes', () => {
  it('two octopi culled by turns (one object a call, as pool parts): each call culls what a full traversal culls', () => {
    // Two copies side by side along x, one object each (tests/support/ccdPairOracle.ts).
    const topo = copies('octopus_2KFaces.t', [[0, 0, 0], [0.6, 0, 0]]);
    const mesh = { vertexCount: topo.vertexCount, positions: xyzOf(topo.rest) };
    const start = Float64Array.from(mesh.positions);
    const motion = { start, move: new Float64Array(start.length), deviation: new Float64Array(mesh.vertexCount).fill(0.001) };
    const fromRoots = new SelfCulling(topo, { fullTraversalEvery: 1, rebuildEvery: 0 });
    const fromFrontier = new SelfCulling(topo, { fullTraversalEvery: 4, rebuildEvery: 0 });
    let frontierCalls = 0;
    for (let call = 0; call < 8; call++) {
      const objects: [number, number] = [call % 2, call % 2 + 1];
      const a = fromRoots.cull(motion, 'enhanced', objects);
      const b = fromFrontier.cull(motion, 'enhanced', objects);
      if (b.fullTraversals === 0) frontierCalls++;
      expect(a.culledTriangles, `call ${call}`).toBeGreaterThan(0);
      expect(b.culledTriangles, `call ${call}`).toBe(a.culledTriangles);
      expect(Array.from(fromFrontier.culledBy).map((c) => c >= 0), `call ${call}`).toEqual(Array.from(fromRoots.culledBy).map((c) => c >= 0));
      // From the frontier only the culled nodes are tested; from the roots the failing ones above them too.
      if (b.fullTraversals === 0) expect(b.nodes.tested).toBeLessThan(a.nodes.tested);
    }
    // Each object's tree: full at its first call, then from its frontier for 3 calls, then full again.
    expect(frontierCalls).toBe(6);
  });
});
