/**
 * The case the plain dual-cone method gets wrong (paper 002 section 4.3, Fig. 3: a pipe through
 * itself): a square beam bent into a figure eight whose two branches cross, one object
 * (tests/support/figureEight.ts). Its culling trees are built with both branches at the same
 * height, so boxes near the crossing hold the bottoms of both branches (and nothing else): normals
 * within a few degrees of -y. Then the
 * second branch sweeps down through the first. The exhaustive exact-CCD search finds the contacts;
 * plain (theta_n < pi/2 is all it asks of a closed surface) culls some of them; enhanced keeps
 * every one (such a node's contour is two loops, and the test refuses it).
 */
import { describe, expect, it } from 'vitest';
import { ccdCandidates, ccdTopologyOf, sweptVertexBoxes } from '../../../src/collision/ccd/broadPhase';
import { SelfCulling } from '../../../src/collision/selfCulling/selfCulling';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import { bruteForceContacts, candidateKeys } from '../../support/bruteForceContacts';
import { figureEight, secondBranch } from '../../support/figureEight';

const HALF = 0.08;
const SEGMENTS = 56;

describe('plain dual-cone culling misses contacts of a beam through itself; enhanced does not', () => {
  it('every contact of the exhaustive exact search is a candidate after enhanced culling, not after plain', () => {
    const rest = figureEight(SEGMENTS, HALF, () => 0);
    const mesh = buildTetMesh({ positions: rest.positions, tets: rest.tets }).mesh;
    const topo = ccdTopologyOf(mesh);
    const n = mesh.vertexCount;
    // Built with the rest shape (branches crossing at the same height), never rebuilt.
    const at = (lift: (phi: number) => number): Float64Array => Float64Array.from(figureEight(SEGMENTS, HALF, lift).positions);
    const start = at((p) => 0.3 * secondBranch(p)), end = at((p) => -0.3 * secondBranch(p));
    const move = end.map((x, i) => x - start[i]);

    const tetKeys = new Set<string>();
    for (let t = 0; t < mesh.tets.length; t += 4) tetKeys.add([...mesh.tets.subarray(t, t + 4)].sort((a, b) => a - b).join(','));
    const hits = bruteForceContacts(topo, start, end, (ids) => tetKeys.has([...ids].sort((a, b) => a - b).join(',')));
    expect(hits.size).toBeGreaterThan(50);

    // The box test over the motion (positions vec4, velocities = move over a unit horizon).
    const pos4 = new Float32Array(4 * n), vel4 = new Float32Array(4 * n);
    for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) {
      pos4[4 * v + k] = start[3 * v + k];
      vel4[4 * v + k] = move[3 * v + k];
    }
    const boxes = sweptVertexBoxes(pos4, vel4, { horizon: 1, gravity: [0, 0, 0], margin: 1e-3 });
    const candidates = ccdCandidates(topo, boxes, 'self');
    const all = candidateKeys(candidates);
    expect([...hits].filter((h) => !all.has(h))).toEqual([]);

    const missed = (mode: 'plain' | 'enhanced'): string[] => {
      const culling = new SelfCulling(topo, { rebuildEvery: 0 });
      culling.cull({ start: Float64Array.from(rest.positions), move: new Float64Array(3 * n), deviation: null }, mode);
      const stats = culling.cull({ start, move, deviation: null }, mode);
      expect(stats.culledTriangles).toBeGreaterThan(0);
      const kept = candidateKeys(culling.filter(candidates));
      if (process.env.SELF_CULLING_VERBOSE) console.log(mode, 'kept', kept.size, 'of', all.size, 'missed', [...hits].filter((h) => !kept.has(h)).length, 'of', hits.size);
      return [...hits].filter((h) => !kept.has(h));
    };
    expect(missed('plain').length).toBeGreaterThan(0);
    expect(missed('enhanced')).toEqual([]);
  });
});
