import { describe, expect, it } from 'vitest';
import { CpuContacts, GROUP_EDGE_EDGE, GROUP_POINT_FACE } from '../../../src/collision/cpu/contactsCpu';
import { dropFarSideContacts } from '../../../src/collision/cpu/farSideContacts';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import { findScene } from '../../../src/scenes/registry';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { createSpbMeshData } from '../../../src/spb';
import { countIntersections } from '../../support/intersectionCounter';
import { kuhnLattice } from '../../support/kuhnLattice';

/**
 * Far-side contacts (SolverParams.farSideContacts; docs/collisions.md "Far-side contacts").
 *
 * The rule, on contacts written by hand at hand-placed points (expected drops from the rule's
 * statement): a shortest-path contact i is dropped when one of its point vertices is a triangle
 * corner of the shallowest contact j at that vertex, j pushes the same way (n_i . n_j > 0), is
 * shallower (depth (s - x) . n) and its point belongs to the object of i's triangle.
 *
 * What it is for, against the brute-force counter (no code shared with detection or contacts):
 * the tangled noodle of paper Fig. 17 (the scene noodle-recovery at its smallest resolution, 935
 * vertices, tangled by 50 frames with self-collision off) in recovery mode, one substep a step.
 * The paper resolves every self-intersection within 10 substeps. Keeping the far-side contacts
 * leaves the tug of war of docs/collisions.md "What the noodle keeps after 10 substeps".
 */

/** 12 free vertices (no tets needed: the rule reads positions, records and weights only). */
function records(): { contacts: CpuContacts; x: Float64Array } {
  const lattice = kuhnLattice(1, 1, 2, (u, v, w) => [u, v, w]);
  const { mesh } = buildTetMesh({ positions: lattice.positions, tets: lattice.tets });
  return { contacts: new CpuContacts(mesh, createSpbMeshData(mesh)), x: new Float64Array(3 * mesh.vertexCount) };
}

function place(x: Float64Array, v: number, p: [number, number, number]): void {
  x.set(p, 3 * v);
}

/**
 * Vertex 0 is the point of contact i: its path leads up (+z) to the triangle (4, 5, 6) in the plane
 * z = 0.3 (depth 0.3). The triangle (0, 1, 2) lies in the plane z = 0 with vertex 0 a corner; a
 * point q (vertex 7 or 8) at height `qz` below or above it has a contact j onto it with normal
 * `nz` (depth (s - q) . n), s at barycentrics `bary` (vertex 0 first).
 */
function scene(qz: number, nz: 1 | -1, bary: [number, number, number] = [0.2, 0.4, 0.4], q = 7) {
  const { contacts, x } = records();
  place(x, 0, [0, 0, 0]);
  place(x, 1, [1, 0, 0]);
  place(x, 2, [0, 1, 0]);
  for (const [v, p] of [[4, [-1, -1, 0.3]], [5, [2, -1, 0.3]], [6, [-1, 2, 0.3]]] as const) place(x, v, [p[0], p[1], p[2]]);
  const s = [bary[1], bary[2], 0];
  place(x, q, [s[0], s[1], qz]);
  // i: vertex 0 onto (4, 5, 6) at s = (0, 0, 0.3), barycentrics of (0, 0) in that triangle.
  const i = contacts.append(GROUP_POINT_FACE, 0, [0], [1], [4, 5, 6], [1 / 3, 1 / 3, 1 / 3], 0, 0, 1);
  const j = contacts.append(GROUP_POINT_FACE, 0, [q], [1], [0, 1, 2], bary, 0, 0, nz);
  return { contacts, x, i, j };
}

describe('far-side contacts: the rule', () => {
  it('drops the point contact whose point is a corner of a shallower contact pushing the same way, and keeps that one', () => {
    const { contacts, x, i, j } = scene(-0.1, 1);
    expect(-(contacts.gap(x, i) + contacts.offset[i])).toBeCloseTo(0.3, 12);
    expect(-(contacts.gap(x, j) + contacts.offset[j])).toBeCloseTo(0.1, 12);
    expect(dropFarSideContacts(contacts, x, 12)).toBe(1);
    expect([contacts.active[i], contacts.active[j]]).toEqual([0, 1]);
  });

  it('keeps it where that contact pushes the other way, is deeper, or has the vertex at barycentric 0', () => {
    const opposite = scene(0.1, -1);
    expect(dropFarSideContacts(opposite.contacts, opposite.x, 12)).toBe(0);
    const deeper = scene(-0.5, 1);
    expect(dropFarSideContacts(deeper.contacts, deeper.x, 12)).toBe(0);
    const offCorner = scene(-0.1, 1, [0, 0.5, 0.5]);
    expect(dropFarSideContacts(offCorner.contacts, offCorner.x, 12)).toBe(0);
  });

  it('compares with the shallowest contact at the vertex only (as the GPU does), and only with shortest-path point-face contacts of the range', () => {
    // A shallower contact pushing the other way (q at z = +0.05 above, n = -z) beside the same-way one: i stays.
    const two = scene(-0.1, 1);
    place(two.x, 8, [0.4, 0.4, 0.05]);
    two.contacts.append(GROUP_POINT_FACE, 0, [8], [1], [0, 1, 2], [0.2, 0.4, 0.4], 0, 0, -1);
    expect(dropFarSideContacts(two.contacts, two.x, 12)).toBe(0);
    // The same-way contact outside [from, to) (appended by CCD after the shortest-path ones): i stays.
    const ranged = scene(-0.1, 1);
    expect(dropFarSideContacts(ranged.contacts, ranged.x, 12, 0, 1)).toBe(0);
    // An edge-edge contact (CCD's group) is not compared.
    const { contacts, x } = records();
    place(x, 7, [0.4, 0.4, -0.1]);
    for (const [v, p] of [[4, [-1, -1, 0.3]], [5, [2, -1, 0.3]], [6, [-1, 2, 0.3]], [1, [1, 0, 0]], [2, [0, 1, 0]]] as const) place(x, v, [p[0], p[1], p[2]]);
    contacts.append(GROUP_POINT_FACE, 0, [0], [1], [4, 5, 6], [1 / 3, 1 / 3, 1 / 3], 0, 0, 1);
    contacts.append(GROUP_EDGE_EDGE, 0, [7], [1], [0, 1], [0.5, 0.5], 0, 0, 1);
    expect(dropFarSideContacts(contacts, x, 12)).toBe(0);
  });

  it('between two parts only: a shallower same-way contact of a third object\'s point keeps the contact', () => {
    // Objects: A = vertices 0-3 (vertex 0 and the triangle (0, 1, 2)), B = 4-7 (i's triangle
    // (4, 5, 6), and q = 7), C = 8-11. In a pile, C may press on A through the corner 0 while 0 sits
    // just inside B: C's contact says nothing about 0's path out of B.
    const objects = Uint32Array.from([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
    const partner = scene(-0.1, 1, undefined, 7);
    expect(dropFarSideContacts(partner.contacts, partner.x, 12, 0, partner.contacts.count, objects)).toBe(1);
    expect(partner.contacts.active[partner.i]).toBe(0);
    const third = scene(-0.1, 1, undefined, 8);
    expect(dropFarSideContacts(third.contacts, third.x, 12, 0, third.contacts.count, objects)).toBe(0);
    expect([third.contacts.active[third.i], third.contacts.active[third.j]]).toEqual([1, 1]);
  });

  it('a tet centroid point (weights 1/4) is dropped through any of its corners', () => {
    const { contacts, x, j } = scene(-0.1, 1);
    const c = contacts.append(GROUP_POINT_FACE, 0, [9, 10, 11, 0], [0.25, 0.25, 0.25, 0.25], [4, 5, 6], [1 / 3, 1 / 3, 1 / 3], 0, 0, 1);
    for (const v of [9, 10, 11]) place(x, v, [0, 0, -0.2]);
    // Centroid at z = -0.15: depth 0.45 under the plane z = 0.3.
    expect(-(contacts.gap(x, c) + contacts.offset[c])).toBeCloseTo(0.45, 12);
    expect(dropFarSideContacts(contacts, x, 12)).toBe(2);
    expect(contacts.active[c]).toBe(0);
    expect(contacts.active[j]).toBe(1);
  });
});

describe('far-side contacts: the tangled noodle (paper Fig. 17) in recovery mode', () => {
  it('dropping them leaves a tenth of the self-intersections at substep 10; keeping them, about a third (the tug of war)', () => {
    const scene = findScene('noodle-recovery');
    const setup = scene.build({ selfCollisionFrom: 50, resolution: 80 });
    const tangled = new CpuSolver(setup);
    for (let f = 0; f < 50; f++) tangled.stepFrame();
    const m = setup.model;
    const inside = (x: Float64Array): number => countIntersections({ positions: x, tets: m.tets, tetObject: m.tetObject }).self;
    const start = inside(tangled.x);
    const h = setup.params.dt / setup.params.substeps;
    const run = (farSideContacts: 'drop' | 'keep'): { counts: number[]; dropped: number } => {
      const s = new CpuSolver({ ...setup, params: { ...setup.params, selfCollision: true, recovery: true, farSideContacts, dt: h, substeps: 1, impactSubsteps: 0 } });
      s.x.set(tangled.x);
      s.v.set(tangled.v);
      s.time = tangled.time;
      const counts = [start];
      let dropped = 0;
      for (let k = 0; k < 10; k++) {
        s.stepFrame();
        dropped += s.collisionCounters.farSideDropped;
        counts.push(inside(s.x));
      }
      return { counts, dropped };
    };
    const drop = run('drop'), keep = run('keep');
    console.log(`tangled noodle (${m.vertexCount} vertices), self-penetrating boundary vertices per substep: far-side contacts dropped ${drop.counts.join(' ')} (${drop.dropped} contacts dropped); kept ${keep.counts.join(' ')}`);
    expect(start).toBeGreaterThan(100);
    expect(keep.dropped).toBe(0);
    expect(drop.dropped).toBeGreaterThan(0);
    expect(drop.counts[10]).toBeLessThanOrEqual(0.1 * start);
    expect(keep.counts[10]).toBeGreaterThan(0.2 * start);
  });
});
