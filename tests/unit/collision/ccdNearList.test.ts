/**
 * The later rounds' near list on the float64 CPU reference (SolverParams.ccdEveryRound;
 * src/collision/ccd/laterRounds.ts, CpuCcd.run's `near` and runListed): the detecting round lists
 * the pairs within the later rounds' reach, and the later rounds test only those instead of
 * finding candidates anew. Two cubes 4 mm apart and a third 0.2 m off; round 0 moves the first
 * cube 1 mm towards the second, a later round 2.4 mm more (inside the reach), into contact.
 * Independent truths: the list against a brute force over every pair of boundary features of two
 * objects (its own axis gap, no code of src/); the later round's contacts against a fresh
 * candidate search of the later motion (CpuCcd.run without the list), filtered by the same brute
 * force, which is what the later rounds tested before the list.
 */
import { describe, expect, it } from 'vitest';
import { CpuCcd, type CcdNearList, type CcdPairsInContact } from '../../../src/collision/cpu/ccdCpu';
import { CpuContacts } from '../../../src/collision/cpu/contactsCpu';
import { emptyCcdCounters } from '../../../src/collision/counters';
import { createSpbMeshData } from '../../../src/spb';
import type { TetMesh } from '../../../src/mesh/types';
import { rng } from '../../support/random';
import { cubePart, sceneOf } from './scenes';

const SEPARATION = 1e-3;
const REACH = 2.5e-3;
const LIMIT = SEPARATION + 2 * REACH;

/** The largest separation along x, y or z of the boxes of point sets a and b at x (0 when they overlap). */
function axisGap(x: Float64Array, a: number[], b: number[]): number {
  let gap = 0;
  for (let k = 0; k < 3; k++) {
    const ca = a.map((i) => x[3 * i + k]), cb = b.map((i) => x[3 * i + k]);
    gap = Math.max(gap, Math.min(...cb) - Math.max(...ca), Math.min(...ca) - Math.max(...cb));
  }
  return gap;
}

/** Every vertex-triangle and edge-edge pair of two different objects within LIMIT at x, as keys "v/f" and "ea/eb" (ea < eb). */
function bruteNear(mesh: TetMesh, x: Float64Array): { vertexFace: Set<string>; edgeEdge: Set<string> } {
  const obj = mesh.vertexObject, tris = mesh.boundaryTriangles, edges = mesh.boundaryEdges;
  const vertexFace = new Set<string>(), edgeEdge = new Set<string>();
  for (const v of mesh.boundaryVertices) {
    for (let f = 0; f < tris.length / 3; f++) {
      const t = [tris[3 * f], tris[3 * f + 1], tris[3 * f + 2]];
      if (obj[v] !== obj[t[0]] && axisGap(x, [v], t) <= LIMIT) vertexFace.add(`${v}/${f}`);
    }
  }
  const edgeCount = edges.length / 2;
  for (let a = 0; a < edgeCount; a++) {
    for (let b = a + 1; b < edgeCount; b++) {
      if (obj[edges[2 * a]] !== obj[edges[2 * b]] && axisGap(x, [edges[2 * a], edges[2 * a + 1]], [edges[2 * b], edges[2 * b + 1]]) <= LIMIT) edgeEdge.add(`${a}/${b}`);
    }
  }
  return { vertexFace, edgeEdge };
}

function keysOf(flat: number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push(`${flat[i]}/${flat[i + 1]}`);
  return out.sort();
}

function scene() {
  const { mesh, x } = sceneOf([cubePart(2, 0.1, [0, 0, 0]), cubePart(2, 0.1, [0.104, 0.012, 0.007]), cubePart(2, 0.1, [0.4, 0, 0])]);
  const random = rng(7);
  const x0 = Float64Array.from(x);
  // Round 0's motion: the first cube 1 mm towards the second, every vertex jittered by up to 0.2 mm.
  const x1 = x0.map((c, i) => c + (mesh.vertexObject[Math.floor(i / 3)] === 0 && i % 3 === 0 ? 1e-3 : 0) + 4e-4 * (random() - 0.5));
  // A later round's: 2.4 mm more, jittered by up to 0.05 mm (within the reach of x1 on every axis).
  const x2 = x1.map((c, i) => c + (mesh.vertexObject[Math.floor(i / 3)] === 0 && i % 3 === 0 ? 2.4e-3 : 0) + 1e-4 * (random() - 0.5));
  return { mesh, x0, x1, x2 };
}

const copyPairs = (p: CcdPairsInContact): CcdPairsInContact => ({ vertexFace: new Set(p.vertexFace), edgeEdge: new Set(p.edgeEdge) });

describe('the later rounds near list (CPU reference)', () => {
  it('holds exactly the pairs within the later rounds reach of the detecting round, by a brute force over every pair of two objects', () => {
    const { mesh, x0, x1 } = scene();
    const ccd = new CpuCcd(mesh);
    const list: CcdNearList = { vertexFace: [], edgeEdge: [] };
    const counters = emptyCcdCounters();
    ccd.run(x0, x1, SEPARATION, SEPARATION, false, null, new CpuContacts(mesh, createSpbMeshData(mesh)), counters, { vertexFace: new Set(), edgeEdge: new Set() }, SEPARATION, { reach: REACH, limit: LIMIT, list });
    const brute = bruteNear(mesh, x1);
    console.log(`near list: ${list.vertexFace.length / 2} vertex-triangle and ${list.edgeEdge.length / 2} edge-edge pairs (brute force ${brute.vertexFace.size} + ${brute.edgeEdge.size}); round 0 tested ${counters.tests}, candidates ${counters.candidatesVertexFace} + ${counters.candidatesEdgeEdge}`);
    expect(brute.vertexFace.size).toBeGreaterThan(0);
    expect(brute.edgeEdge.size).toBeGreaterThan(0);
    expect(keysOf(list.vertexFace)).toEqual([...brute.vertexFace].sort());
    expect(keysOf(list.edgeEdge)).toEqual([...brute.edgeEdge].sort());
    expect(counters.laterRoundListed).toBe(brute.vertexFace.size + brute.edgeEdge.size);
    // The cubes are 3 mm apart at x1, farther than the separation: round 0 makes no contact.
    expect(counters.hitsVertexFace + counters.hitsEdgeEdge).toBe(0);
  });

  it('a later round over the list makes the contacts of every near pair that a fresh candidate search of its motion finds, and no other', () => {
    const { mesh, x0, x1, x2 } = scene();
    const ccd = new CpuCcd(mesh);
    const list: CcdNearList = { vertexFace: [], edgeEdge: [] };
    const data = createSpbMeshData(mesh);
    const pairs: CcdPairsInContact = { vertexFace: new Set(), edgeEdge: new Set() };
    ccd.run(x0, x1, SEPARATION, SEPARATION, true, null, new CpuContacts(mesh, data), emptyCcdCounters(), pairs, SEPARATION, { reach: REACH, limit: LIMIT, list });
    const listed = copyPairs(pairs);
    const listedOut = new CpuContacts(mesh, data);
    ccd.runListed(x0, x2, SEPARATION, SEPARATION, listedOut, emptyCcdCounters(), listed, list, SEPARATION);
    const fresh = copyPairs(pairs);
    ccd.run(x0, x2, SEPARATION, SEPARATION, true, null, new CpuContacts(mesh, data), emptyCcdCounters(), fresh);
    // What the later rounds tested before the list: the fresh candidates near at x1.
    const tris = mesh.boundaryTriangles, edges = mesh.boundaryEdges;
    const triangleCount = tris.length / 3, edgeCount = edges.length / 2;
    const nearVf = (key: number) => {
      const v = Math.floor(key / triangleCount), f = key % triangleCount;
      return axisGap(x1, [v], [tris[3 * f], tris[3 * f + 1], tris[3 * f + 2]]) <= LIMIT;
    };
    const nearEe = (key: number) => {
      const a = Math.floor(key / edgeCount), b = key % edgeCount;
      return axisGap(x1, [edges[2 * a], edges[2 * a + 1]], [edges[2 * b], edges[2 * b + 1]]) <= LIMIT;
    };
    const expectedVf = [...fresh.vertexFace].filter(nearVf).sort(), expectedEe = [...fresh.edgeEdge].filter(nearEe).sort();
    console.log(`later round over the list: ${listed.vertexFace.size} vertex-triangle and ${listed.edgeEdge.size} edge-edge pairs in contact (${listedOut.count} contacts); fresh search, near: ${expectedVf.length} + ${expectedEe.length}`);
    expect(listed.vertexFace.size).toBeGreaterThan(0);
    expect(listed.edgeEdge.size).toBeGreaterThan(0);
    expect([...listed.vertexFace].sort()).toEqual(expectedVf);
    expect([...listed.edgeEdge].sort()).toEqual(expectedEe);
    expect(listedOut.count).toBe(listed.vertexFace.size + listed.edgeEdge.size);
  });
});
