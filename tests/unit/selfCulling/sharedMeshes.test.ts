/**
 * Zero false negatives on the shared meshes (made by others, ../shared/meshes) moved into
 * themselves: Beam_1k bent into a ring of a little more than one turn whose second turn sinks into
 * the first, and octopus_2KFaces half folded (the side x > 0.1 turned up into the other).
 * Every contact of the exhaustive exact search (tests/support/bruteForceContacts.ts) over the
 * linear motion is among the same-object candidates the box test gives, and enhanced culling
 * keeps it.
 */
import { describe, expect, it } from 'vitest';
import { ccdCandidates, ccdTopologyOf } from '../../../src/collision/ccd/broadPhase';
import { SelfCulling } from '../../../src/collision/selfCulling/selfCulling';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import { bruteForceContacts, candidateKeys } from '../../support/bruteForceContacts';
import { loadSharedTetArrays } from '../../support/sharedMeshes';

function check(name: string, deform: (x: Float64Array, s: number) => Float64Array): void {
  const arrays = loadSharedTetArrays(name);
  const mesh = buildTetMesh(arrays).mesh;
  const topo = ccdTopologyOf(mesh);
  const rest = Float64Array.from(mesh.positions);
  const start = deform(rest, 0), end = deform(rest, 1);
  const keys = new Set<string>();
  for (let t = 0; t < mesh.tets.length; t += 4) keys.add([...mesh.tets.subarray(t, t + 4)].sort((a, b) => a - b).join(','));
  const hits = bruteForceContacts(topo, start, end, (ids) => keys.has([...ids].sort((a, b) => a - b).join(',')));
  expect(hits.size).toBeGreaterThan(20);
  const n = mesh.vertexCount, boxes = new Float32Array(6 * n);
  for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) {
    boxes[6 * v + k] = Math.fround(Math.min(start[3 * v + k], end[3 * v + k])) - 1e-6;
    boxes[6 * v + 3 + k] = Math.fround(Math.max(start[3 * v + k], end[3 * v + k])) + 1e-6;
  }
  const candidates = ccdCandidates(topo, boxes, 'self');
  const all = candidateKeys(candidates);
  expect([...hits].filter((h) => !all.has(h))).toEqual([]);
  const culling = new SelfCulling(topo);
  // Trees built at the start of the motion (as a worker builds them from a snapshot).
  culling.cull({ start, move: end.map((x, i) => x - start[i]), deviation: null }, 'enhanced');
  const kept = candidateKeys(culling.filter(candidates));
  expect([...hits].filter((h) => !kept.has(h))).toEqual([]);
  expect(kept.size).toBeLessThan(all.size);
  if (process.env.SELF_CULLING_VERBOSE) console.log(`${name}: ${hits.size} contacts, candidates ${all.size} -> ${kept.size}`);
}

describe('enhanced culling keeps every contact of shared meshes moved into themselves', () => {
  it('Beam_1k bent into a ring whose second turn sinks into the first', () => {
    check('Beam_1k.t', (x, s) => {
      const out = new Float64Array(x.length);
      const x0 = -1, L = 8.38, turns = 1.1, R = L / (2 * Math.PI * turns) + 0.1;
      // The second turn starts 0.05 above the first (thickness 2) and ends 0.3 into it.
      const pitch = (2.05 - 0.35 * s) / (2 * Math.PI);
      for (let v = 0; v < x.length; v += 3) {
        const theta = (2 * Math.PI * turns * (x[v] - x0)) / L;
        const r = R + 0.45 * x[v + 1];
        out[v] = r * Math.cos(theta);
        out[v + 1] = r * Math.sin(theta);
        out[v + 2] = x[v + 2] + pitch * theta;
      }
      return out;
    });
  });

  it('octopus_2KFaces half folded', () => {
    check('octopus_2KFaces.t', (x, s) => {
      const out = Float64Array.from(x);
      // Points past x = 0.1 turn about the z-parallel line through (0.1, 3.3) by up to 100 degrees
      // (fully from x = 0.2 on): the tentacles on that side swing over the others.
      for (let v = 0; v < x.length; v += 3) {
        const w = Math.min(1, Math.max(0, (x[v] - 0.1) / 0.1));
        const phi = (w * (85 + 15 * s) * Math.PI) / 180;
        const dx = x[v] - 0.1, dy = x[v + 1] - 3.3;
        out[v] = 0.1 + dx * Math.cos(phi) - dy * Math.sin(phi);
        out[v + 1] = 3.3 + dx * Math.sin(phi) + dy * Math.cos(phi);
      }
      return out;
    });
  });
});
