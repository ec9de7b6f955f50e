/** Picking the boundary vertex under the mouse and the drag plane, against hand-worked geometry. */
import { describe, expect, it } from 'vitest';
import { dragTarget, pickVertex } from '../../../src/app/interaction/pickVertex';

describe('picking a vertex', () => {
  // Three boundary vertices on the z axis at z = 1, 2, 3 (seen from the origin looking +z), one off to the side, one not on the boundary.
  const positions = [0, 0, 1, 0.01, 0, 2, 0, 0.02, 3, 1, 0, 2, 0, 0, 0.5];
  const boundary = [0, 1, 2, 3];
  const ray = { origin: [0, 0, 0], direction: [0, 0, 1] } as const;

  it('takes the vertex nearest the camera among those within the radius', () => {
    expect(pickVertex(positions, boundary, ray, 0.05)).toEqual({ vertex: 0, position: [0, 0, 1], along: 1 });
    expect(pickVertex(positions, [1, 2, 3], ray, 0.05)?.vertex).toBe(1);
    expect(pickVertex(positions, [2, 3], ray, 0.015)).toBeUndefined();
  });

  it('ignores vertices behind the camera and off the boundary', () => {
    expect(pickVertex(positions, boundary, { origin: [0, 0, 4], direction: [0, 0, 1] }, 0.05)).toBeUndefined();
    expect(pickVertex(positions, [4], ray, 1)?.vertex).toBe(4);
    expect(pickVertex(positions, [3], ray, 0.5)).toBeUndefined();
  });

  it('drags in the plane through the grabbed point facing the camera', () => {
    const target = dragTarget({ origin: [0, 0, 0], direction: [0.6, 0, 0.8] }, [0, 0, 2], [0, 0, 1]);
    expect(target![0]).toBeCloseTo(1.5, 12);
    expect(target![2]).toBeCloseTo(2, 12);
    expect(dragTarget({ origin: [0, 0, 0], direction: [1, 0, 0] }, [0, 0, 2], [0, 0, 1])).toBeUndefined();
  });
});
