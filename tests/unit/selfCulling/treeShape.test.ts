/**
 * The culling trees' periodic rebuild (SelfCullingOptions.rebuildEvery) keeps the tree of an
 * object that has not changed shape since its build (treeShape.ts). Checked against a SelfCulling
 * that really rebuilds: a fresh one built at the current positions, run through the same calls. A
 * translated object keeps its tree and culls exactly what a rebuilt tree culls; a deformed one is
 * rebuilt.
 */
import { describe, expect, it } from 'vitest';
import { SelfCulling } from '../../../src/collision/selfCulling/selfCulling';
import { copies, xyzOf } from '../../support/ccdPairOracle';

describe('self-culling trees kept while their object keeps its shape', () => {
  it('two octopi: translated by 3 m, both trees kept, culled as a rebuild culls; one squashed, only its tree rebuilt', () => {
    // Two copies side by side along x, one object each (tests/support/ccdPairOracle.ts).
    const topo = copies('octopus_2KFaces.t', [[0, 0, 0], [1.2, 0, 0]]);
    const mesh = { vertexCount: topo.vertexCount, positions: xyzOf(topo.rest) };
    const n = mesh.vertexCount / 2;
    const rest = Float64Array.from(mesh.positions);
    const deviation = new Float64Array(mesh.vertexCount).fill(0.0005);
    const motion = (start: Float64Array) => ({ start, move: new Float64Array(start.length), deviation });
    const kept = new SelfCulling(topo, { rebuildEvery: 2 });
    expect(kept.cull(motion(rest), 'enhanced').rebuilt).toBe(2);
    kept.cull(motion(rest), 'enhanced');
    // Call 2 is a due rebuild: the pile 3 m down (float64 positions of a float32-like shift).
    const moved = rest.map((x, i) => (i % 3 === 1 ? Math.fround(x - 3) : x));
    const a = kept.cull(motion(moved), 'enhanced');
    expect(a.rebuilt, 'trees rebuilt after a translation').toBe(0);
    const fresh = new SelfCulling(topo, { rebuildEvery: 2 });
    const b = fresh.cull(motion(moved), 'enhanced');
    expect(b.rebuilt).toBe(2);
    expect(a.culledTriangles).toBeGreaterThan(1000);
    expect(a.culledTriangles).toBe(b.culledTriangles);
    expect(a.culledNodes).toBe(b.culledNodes);
    expect(Array.from(kept.culledBy).map((c) => c >= 0)).toEqual(Array.from(fresh.culledBy).map((c) => c >= 0));
    // Octopus 1 squashed to 80 % of its height (each vertex's y about its centroid): only its tree is rebuilt at the next due call.
    const squashed = moved.slice();
    let cy = 0;
    for (let v = n; v < 2 * n; v++) cy += squashed[3 * v + 1] / n;
    for (let v = n; v < 2 * n; v++) squashed[3 * v + 1] = cy + 0.8 * (squashed[3 * v + 1] - cy);
    kept.cull(motion(squashed), 'enhanced');
    expect(kept.cull(motion(squashed), 'enhanced').rebuilt, 'trees rebuilt after one octopus squashed').toBe(1);
  });
});
