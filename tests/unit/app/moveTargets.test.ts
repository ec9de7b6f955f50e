/** Moving colliders and pins by a translation, checked through the encoding the solvers read (sim/colliders.ts, sim/handles.ts). */
import { describe, expect, it } from 'vitest';
import { anchorOf, movedCollider, movedHandle, moveTargetsOf } from '../../../src/app/interaction/moveTargets';
import { encodeCollider, projectOutOfCollider, type Collider } from '../../../src/sim/colliders';
import { encodeHandle, HANDLE_STRIDE, twistingHandle } from '../../../src/sim/handles';

/** Penetration depth of point p in collider c at time t (the solvers' own test). */
function depth(c: Collider, p: [number, number, number], t = 0): number {
  const enc = new Float64Array(12);
  encodeCollider(c, t, enc, 0);
  return projectOutOfCollider(enc, 0, new Float64Array(p), 0, new Float64Array(3));
}

describe('moving colliders and pins', () => {
  it('a ground plane moved up by 0.3 pushes a point at y = 0.2 out by 0.1', () => {
    const ground: Collider = { kind: 'plane', normal: [0, 1, 0], offset: 0 };
    expect(depth(ground, [0, 0.2, 0])).toBe(0);
    expect(depth(movedCollider(ground, [5, 0.3, -2]), [0, 0.2, 0])).toBeCloseTo(0.1, 12);
  });

  it('a scripted plane keeps its script and its switch-off', () => {
    const squeeze: Collider = { kind: 'plane', normal: [0, -1, 0], offset: (t) => (t > 1 ? null : -1 + 0.5 * t) };
    const moved = movedCollider(squeeze, [0, -0.25, 0]);
    // At t = 0.5 the plane is at y = 0.75, moved down to 0.5: a point at y = 0.6 is 0.1 inside.
    expect(depth(moved, [0, 0.6, 0], 0.5)).toBeCloseTo(0.1, 12);
    expect(depth(moved, [0, 0.6, 0], 2)).toBe(0);
  });

  it('boxes and bowls shift by delta', () => {
    const box: Collider = { kind: 'box', min: [0, 0, 0], max: [1, 1, 1] };
    expect(depth(movedCollider(box, [2, 0, 0]), [0.5, 0.5, 0.5])).toBe(0);
    expect(depth(movedCollider(box, [2, 0, 0]), [2.5, 0.5, 0.1])).toBeCloseTo(0.1, 12);
    const bowl: Collider = { kind: 'bowl', center: [0, 1, 0], radius: 1 };
    const moved = movedCollider(bowl, [0, 0, 3]);
    expect(moved).toEqual({ kind: 'bowl', center: [0, 1, 3], radius: 1 });
  });

  it('a pin moves with its script plus delta', () => {
    const twist = twistingHandle([0, 0, 0], [1, 0, 0], 2);
    const a = new Float64Array(HANDLE_STRIDE), b = new Float64Array(HANDLE_STRIDE);
    encodeHandle(twist, 0.7, a, 0);
    encodeHandle(movedHandle(twist, [0.1, -0.2, 0.3]), 0.7, b, 0);
    for (let i = 0; i < 12; i++) expect(b[i]).toBe(a[i]);
    expect([b[12]! - a[12]!, b[13]! - a[13]!, b[14]! - a[14]!].map((x) => Number(x.toFixed(12)))).toEqual([0.1, -0.2, 0.3]);
  });

  it('lists colliders and pins, and anchors the gizmo on them', () => {
    const setup = {
      colliders: [{ kind: 'plane', normal: [0, 2, 0], offset: 1 } as Collider, { kind: 'box', min: [0, 0, 0], max: [2, 4, 6] } as Collider],
      handles: [twistingHandle([0, 0, 0], [0, 0, 1], Math.PI)],
      model: { vertexCount: 2, handleOfVertex: new Int32Array([0, 0]), restPositions: new Float64Array([1, 0, 0, 3, 0, 0]) },
    };
    expect(moveTargetsOf(setup as never).map((t) => t.label)).toEqual(['collider 0: plane', 'collider 1: box', 'pin 0']);
    // The plane 2y >= 1 is y = 0.5; nearest point to (3, 7, -1) is (3, 0.5, -1).
    expect(anchorOf({ kind: 'collider', index: 0, label: '' }, setup as never, 0, [3, 7, -1])).toEqual([3, 0.5, -1]);
    expect(anchorOf({ kind: 'collider', index: 1, label: '' }, setup as never, 0, [0, 0, 0])).toEqual([1, 2, 3]);
    // Half a turn about z at t = 1: (1,0,0), (3,0,0) -> (-1,0,0), (-3,0,0), centroid (-2, 0, 0).
    const pin = anchorOf({ kind: 'pin', index: 0, label: '' }, setup as never, 1, [0, 0, 0]);
    expect(pin[0]).toBeCloseTo(-2, 12);
    expect(pin[1]).toBeCloseTo(0, 12);
  });
});
