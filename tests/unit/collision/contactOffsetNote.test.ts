import { describe, expect, it } from 'vitest';
import { colliderContactOffset, CONTACT_OFFSET_SELF_CAP, contactOffsetNote, modelContactOffset, selfContactOffset } from '../../../src/collision/contactOffset';
import { findScene } from '../../../src/scenes/registry';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { totalEnergy } from '../../../src/sim/energy';
import { shortestEdgeOfObjects } from '../../../src/sim/resolution';

describe('contactOffsetNote and selfContactOffset: an explicit offset against the smallest element', () => {
  it("'auto' and offsets up to the self-contacts' cap pass; larger ones name their ratio and what self-contacts keep", () => {
    expect(CONTACT_OFFSET_SELF_CAP).toBeCloseTo(0.5 / Math.sqrt(3), 12);
    expect(contactOffsetNote('auto', 0.05)).toBeNull();
    expect(contactOffsetNote(0, 0.05)).toBeNull();
    expect(contactOffsetNote(0.014, 0.05)).toBeNull();
    const w = contactOffsetNote(0.05, 0.05);
    expect(w).toMatch(/contact offset 0\.05 is 1\.00 of the smallest element edge \(0\.050\)/);
    expect(w).toMatch(/self-contacts keep 0\.014/);
    // Scale-free: the same ratio gives the same note at any mesh scale.
    expect(contactOffsetNote(50, 50)).toMatch(/is 1\.00 of the smallest element edge \(50\)/);
    expect(contactOffsetNote(14, 50)).toBeNull();
    // No mesh yet (no edge): nothing to compare with.
    expect(contactOffsetNote(1, 0)).toBeNull();
    // Between objects, up to six element edges held on the measured stack; beyond, the note says so.
    expect(contactOffsetNote(0.3, 0.05)).not.toMatch(/Between objects/);
    expect(contactOffsetNote(0.35, 0.05)).toMatch(/Between objects, contacts were measured to hold up to 6 element edges .*; a thicker layer was not measured/);
  });

  it("self-contacts keep the offset up to the cap of the scene's shortest edge, never more; 'auto' is never capped", () => {
    const run = findScene('cube-stack').build({ copies: 2 });
    const shortest = Math.min(...shortestEdgeOfObjects(run.model));
    expect(selfContactOffset(run.model, 0.001)).toBe(0.001);
    expect(selfContactOffset(run.model, 0.05)).toBeCloseTo(CONTACT_OFFSET_SELF_CAP * shortest, 12);
    expect(selfContactOffset(run.model, 0)).toBe(0);
  });

  it("'auto' by kind: 3 % of the mean boundary edge between objects, 1 % for self-contacts and the colliders; an explicit offset is the same for all (below the cap)", () => {
    const run = findScene('cube-stack').build({ copies: 2 });
    // The mean boundary edge by brute force: the tet faces that occur once, each edge of each.
    const { restPositions: x, tets } = run.model;
    const faces = new Map<string, number[]>();
    for (let t = 0; t < tets.length; t += 4) {
      for (const [a, b, c] of [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]) {
        const f = [tets[t + a], tets[t + b], tets[t + c]];
        const key = [...f].sort((p, q) => p - q).join(',');
        if (faces.has(key)) faces.delete(key);
        else faces.set(key, f);
      }
    }
    let sum = 0;
    for (const f of faces.values()) for (let k = 0; k < 3; k++) {
      const p = f[k], q = f[(k + 1) % 3];
      sum += Math.hypot(x[3 * p] - x[3 * q], x[3 * p + 1] - x[3 * q + 1], x[3 * p + 2] - x[3 * q + 2]);
    }
    const mean = sum / (3 * faces.size);
    expect(modelContactOffset(run.model, 'auto')).toBeCloseTo(0.03 * mean, 12);
    expect(selfContactOffset(run.model, 'auto')).toBeCloseTo(0.01 * mean, 12);
    expect(colliderContactOffset(run.model, 'auto')).toBeCloseTo(0.01 * mean, 12);
    for (const at of [modelContactOffset, selfContactOffset, colliderContactOffset]) expect(at(run.model, 0.002)).toBe(0.002);
  });
});

/**
 * Truth: the two cubes start 5 mm apart and 5 mm above the ground and settle (the fall releases
 * about 18 J); the offset layers open at the ramp's 0.1 m/s (SolverParams.contactOffsetSpeed),
 * lifting them slowly. Before self-contacts were capped (contactOffset.ts selfContactOffset), an
 * offset of one smallest element edge made features of one cube's surface (coplanar neighbours among
 * them) contacts of each other: the surface pushed itself apart, 329 J of motion and strain after 4
 * frames (26 % of the start), 2.4 times the start's total after 12 frames (docs/collisions.md
 * "Contact offset"). Capped: 68 J, the same as with self-collision off (the layers' opening).
 */
describe('an offset of one smallest element edge against the energy law (float64 CPU engine)', () => {
  it('two cubes stacked 5 mm apart: motion and strain energy under 10 % of the start over 4 frames', () => {
    const run = findScene('cube-stack').build({ copies: 2 });
    const shortest = Math.min(...shortestEdgeOfObjects(run.model));
    run.params = { ...run.params, contactOffset: shortest };
    const solver = new CpuSolver(run);
    const p = solver.params;
    const energy = () => totalEnergy(solver.model, solver.x, solver.v, { constraint: p.constraint, springCompliance: p.springCompliance, gravity: p.gravity });
    const start = energy().total;
    let most = 0;
    for (let f = 1; f <= 4; f++) {
      solver.stepFrame();
      const e = energy();
      most = Math.max(most, e.kinetic + e.elastic);
    }
    console.log(`cube stack at offset ${shortest.toPrecision(2)} (one smallest edge): largest motion + strain energy ${most.toFixed(1)} J of ${start.toFixed(0)} J`);
    expect(most).toBeLessThan(0.1 * start);
  });
});
