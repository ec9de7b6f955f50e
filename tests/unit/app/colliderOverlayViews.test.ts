import { describe, expect, it } from 'vitest';
import { Box3, BufferAttribute, Vector3, type Mesh, type LineSegments } from 'three/webgpu';
import { ColliderView } from '../../../src/app/render/colliderView';
import { OverlayView } from '../../../src/app/render/overlayView';
import type { Collider } from '../../../src/sim/colliders';

const extent = new Box3(new Vector3(-1, 0, -1), new Vector3(1, 2, 1));

/** World-space corners of a drawn plane square: they must satisfy n.x = offset. */
function planeCorners(shape: Mesh): Vector3[] {
  shape.updateMatrixWorld(true);
  const pos = shape.geometry.getAttribute('position') as BufferAttribute;
  return [0, 1, 2, 3].map((i) => new Vector3(pos.getX(i), pos.getY(i), pos.getZ(i)).applyMatrix4(shape.matrixWorld));
}

describe('ColliderView', () => {
  it('draws a scripted plane where the solver pushes, and hides it when switched off', () => {
    // Top plane n = (0,-1,0): the half-space y <= h, offset -h; descends from 2 to 1, then off at t = 2.
    const top: Collider = { kind: 'plane', normal: [0, -1, 0], offset: (t) => (t < 2 ? -(2 - 0.5 * t) : null) };
    const view = new ColliderView([top], { extent });
    const shape = view.shape(0) as Mesh;
    for (const t of [0, 1, 1.5]) {
      view.update(t);
      expect(shape.visible).toBe(true);
      for (const c of planeCorners(shape)) expect(c.y).toBeCloseTo(2 - 0.5 * t, 12);
    }
    view.update(2.5);
    expect(shape.visible).toBe(false);
  });

  it('leaves a floor at the ground height to the ground plane, draws a tilted wall through its offset', () => {
    const n = new Vector3(1, 0, 1).normalize();
    const colliders: Collider[] = [
      { kind: 'plane', normal: [0, 1, 0], offset: 0 },
      { kind: 'plane', normal: [1, 0, 1], offset: -0.5 },
    ];
    const view = new ColliderView(colliders, { extent, groundY: 0 });
    expect(view.shape(0)).toBeUndefined();
    for (const c of planeCorners(view.shape(1) as Mesh)) expect(n.dot(c)).toBeCloseTo(-0.5, 12);
  });

  it('places a box and a bowl', () => {
    const view = new ColliderView([
      { kind: 'box', min: [0, 0, 0], max: [1, 2, 3] },
      { kind: 'bowl', center: [0, 1, 0], radius: 0.5 },
    ], { extent });
    const box = view.shape(0) as Mesh;
    box.updateMatrixWorld(true);
    const b = new Box3().setFromObject(box, true);
    expect(b.min.toArray().map((x) => +x.toFixed(9))).toEqual([0, 0, 0]);
    expect(b.max.toArray().map((x) => +x.toFixed(9))).toEqual([1, 2, 3]);
    const bowl = view.shape(1) as Mesh;
    bowl.updateMatrixWorld(true);
    const pos = bowl.geometry.getAttribute('position') as BufferAttribute;
    for (let i = 0; i < pos.count; i++) {
      const p = new Vector3(pos.getX(i), pos.getY(i), pos.getZ(i)).applyMatrix4(bowl.matrixWorld);
      expect(p.distanceTo(new Vector3(0, 1, 0))).toBeCloseTo(0.5, 6);
      expect(p.y).toBeLessThanOrEqual(1 + 1e-9); // the lower half only
    }
  });
});

describe('OverlayView', () => {
  it('draws each box as its 12 edges, every edge along one axis between two corners', () => {
    const overlays = new OverlayView();
    const boxes = [0, 0, 0, 1, 2, 3, -1, -1, -1, 0, 0, 0];
    overlays.setBoxes(boxes);
    expect(overlays.count('boxes')).toBe(2);
    const lines = overlays.group.getObjectByName('overlay bvh boxes') as LineSegments;
    const pos = lines.geometry.getAttribute('position') as BufferAttribute;
    for (let b = 0; b < 2; b++) {
      const edges = new Set<string>();
      for (let e = 0; e < 12; e++) {
        const i = 24 * b + 2 * e;
        const a = new Vector3(pos.getX(i), pos.getY(i), pos.getZ(i));
        const c = new Vector3(pos.getX(i + 1), pos.getY(i + 1), pos.getZ(i + 1));
        const d = c.clone().sub(a);
        expect([d.x, d.y, d.z].filter((x) => x !== 0).length).toBe(1);
        for (const p of [a, c]) for (let k = 0; k < 3; k++) expect([boxes[6 * b + k], boxes[6 * b + 3 + k]]).toContain(p.getComponent(k));
        edges.add([a.toArray(), c.toArray()].map(String).sort().join('|'));
      }
      expect(edges.size).toBe(12);
    }
  });

  it('keeps segments and points, grows past its first capacity, toggles layers, rejects bad arrays', () => {
    const overlays = new OverlayView({ pointRadius: 0.05 });
    const segs = Array.from({ length: 6 * 100 }, (_, i) => i * 0.5);
    overlays.setSegments('paths', segs);
    expect(overlays.count('paths')).toBe(100);
    const lines = overlays.group.getObjectByName('overlay paths') as LineSegments;
    expect(Array.from((lines.geometry.getAttribute('position') as BufferAttribute).array.slice(0, 600))).toEqual(segs);
    overlays.setPoints(Array.from({ length: 3 * 200 }, (_, i) => i));
    expect(overlays.count('points')).toBe(200);
    expect(overlays.isVisible('ccd')).toBe(false);
    overlays.setVisible('ccd', true);
    expect(overlays.isVisible('ccd')).toBe(true);
    expect(() => overlays.setSegments('ccd', [1, 2, 3])).toThrow(/multiple of 6/);
    expect(() => overlays.setPoints([1, 2])).toThrow(/multiple of 3/);
  });
});
