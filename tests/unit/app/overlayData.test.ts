import { describe, expect, it } from 'vitest';
import { bvhLevelBoxes, penetrationOverlay } from '../../../src/app/render/overlayData';
import { buildSurfaceBvh, describeNode } from '../../../src/bvh';
import { generateShape } from '../../../src/mesh/procedural/catalog';
import { buildTetMesh } from '../../../src/mesh/tetMesh';

describe('penetrationOverlay', () => {
  it('keeps exactly the vertices with depth > 0, each with its segment to the target', () => {
    const positions = new Float32Array([0, 0, 0, 1, 1, 2, 3, 1, 4, 5, 6, 1]);
    const depth = new Float32Array([9, 9, 9, 0, 1, 1, 1, 0.5, 7, 7, 7, -1]);
    const { points, segments } = penetrationOverlay(positions, depth);
    expect([...points]).toEqual([1, 2, 3]);
    expect([...segments]).toEqual([1, 2, 3, 1, 1, 1]);
  });
});

describe('bvhLevelBoxes', () => {
  const sphere = generateShape('sphere', { radius: 0.5 }, 6);
  const mesh = buildTetMesh({ positions: sphere.positions, tets: sphere.tets }).mesh;
  const bvh = buildSurfaceBvh(mesh.positions, mesh.boundaryTriangles);
  const bytes = bvh.nodes.buffer.slice(bvh.nodes.byteOffset, bvh.nodes.byteOffset + bvh.nodes.byteLength) as ArrayBuffer;

  /** Oracle: node boxes by depth from a recursive walk through describeNode. */
  const byDepth: string[][] = [];
  const walk = (node: number, d: number): void => {
    const n = describeNode(bvh, node);
    (byDepth[d] ??= []).push([...n.lo, ...n.hi].join(','));
    if (!n.leaf) {
      walk(n.link, d + 1);
      walk(n.link + 1, d + 1);
    }
  };
  walk(0, 0);

  it('level 0 is the root box, holding every boundary vertex', () => {
    const root = bvhLevelBoxes(bytes, 0);
    expect(root.length).toBe(6);
    for (const v of mesh.boundaryVertices) {
      for (let c = 0; c < 3; c++) {
        expect(mesh.positions[3 * v + c]).toBeGreaterThanOrEqual(root[c]);
        expect(mesh.positions[3 * v + c]).toBeLessThanOrEqual(root[3 + c]);
      }
    }
  });

  it('gives the boxes of the nodes at each depth, and none below the deepest leaf', () => {
    expect(byDepth.length).toBe(bvh.depth + 1);
    for (let level = 0; level <= bvh.depth; level++) {
      const boxes = bvhLevelBoxes(bytes, level);
      const got: string[] = [];
      for (let i = 0; i < boxes.length; i += 6) got.push([...boxes.subarray(i, i + 6)].join(','));
      expect(got.sort()).toEqual([...byDepth[level]].sort());
    }
    expect(bvhLevelBoxes(bytes, bvh.depth + 1).length).toBe(0);
  });
});
