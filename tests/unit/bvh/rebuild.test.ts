/**
 * The worker side of a BVH rebuild (rebuildJob.ts) and the check a rebuilt tree passes before it
 * replaces the GPU's (validateSurfaceBvh.ts): leaf boxes hold their triangles (checked from the
 * positions, not through the build), the transfer list survives a real structured clone, bad
 * input and each kind of malformed tree are named.
 */
import { describe, expect, it } from 'vitest';
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS, BvhInputError, buildSurfaceBvh, type SurfaceBvh } from '../../../src/bvh';
import { rebuildSurfaceBvhFromVec4, surfaceBvhTransferables } from '../../../src/bvh/rebuildJob';
import { validateSurfaceBvh } from '../../../src/bvh/validateSurfaceBvh';
import { loadSharedTetMesh } from '../../support/sharedMeshes';

function vec4(x: Float32Array): Float32Array {
  const out = new Float32Array((x.length / 3) * 4).fill(0.5);
  for (let i = 0; i < x.length / 3; i++) out.set(x.subarray(3 * i, 3 * i + 3), 4 * i);
  return out;
}

function copyBvh(bvh: SurfaceBvh, patch: Partial<Record<keyof SurfaceBvh, unknown>> = {}): SurfaceBvh {
  const buf = bvh.nodes.slice().buffer;
  return { ...bvh, nodes: new Float32Array(buf), nodeWords: new Uint32Array(buf), triangleOrder: bvh.triangleOrder.slice(), ...patch } as SurfaceBvh;
}

/** Hand-made tree over 3 triangles: root 0 -> (1, 2); leaf 1 = order[0..2), leaf 2 = order[2..3). */
function tinyTree(): { bvh: SurfaceBvh; triangles: Uint32Array } {
  const triangles = new Uint32Array([0, 1, 2, 1, 2, 3, 2, 3, 0]);
  const buf = new ArrayBuffer(3 * BVH_NODE_WORDS * 4);
  const w = new Uint32Array(buf);
  w.set([0, 0, 0, 1, 0, 0, 0, 0], 0);
  w.set([0, 0, 0, 0, 0, 0, 0, 2], 8);
  w.set([0, 0, 0, 2, 0, 0, 0, 1], 16);
  const bvh: SurfaceBvh = { nodes: new Float32Array(buf), nodeWords: w, nodeCount: 3, triangleOrder: new Uint32Array([2, 0, 1]), triangles, triangleCount: 3, depth: 1 };
  return { bvh, triangles };
}

describe('rebuildSurfaceBvhFromVec4 (the worker job)', () => {
  it('builds a valid tree from vec4 positions whose leaf boxes hold their triangles', () => {
    const mesh = loadSharedTetMesh('octopus_2KFaces.t');
    const x = mesh.positions;
    const tris = mesh.boundaryTriangles;
    const bvh = rebuildSurfaceBvhFromVec4(vec4(x), tris);
    expect(() => validateSurfaceBvh(bvh, tris)).not.toThrow();
    expect(bvh.triangles).toBe(tris);
    const seen = new Uint8Array(bvh.triangleCount);
    for (let node = 0; node < bvh.nodeCount; node++) {
      const o = node * BVH_NODE_WORDS;
      const count = bvh.nodeWords[o + BVH_COUNT];
      for (let k = bvh.nodeWords[o + BVH_LINK]; count > 0 && k < bvh.nodeWords[o + BVH_LINK] + count; k++) {
        const t = bvh.triangleOrder[k];
        seen[t]++;
        for (let c = 0; c < 3; c++) {
          const v = tris[3 * t + c];
          for (let a = 0; a < 3; a++) {
            expect(x[3 * v + a]).toBeGreaterThanOrEqual(bvh.nodes[o + a]);
            expect(x[3 * v + a]).toBeLessThanOrEqual(bvh.nodes[o + 4 + a]);
          }
        }
      }
    }
    expect(seen.every((s) => s === 1)).toBe(true);
  });

  it('names bad input', () => {
    const tris = new Uint32Array([0, 1, 2]);
    expect(() => rebuildSurfaceBvhFromVec4(new Float32Array(10), tris)).toThrow(/length 10 is not a multiple of 4/);
    expect(() => rebuildSurfaceBvhFromVec4(new Float32Array(8), tris)).toThrow(/triangle 0 references vertex 2, but there are only 2 vertices/);
    const nan = new Float32Array(12);
    nan[5] = NaN;
    expect(() => rebuildSurfaceBvhFromVec4(nan, tris)).toThrow(BvhInputError);
    expect(() => rebuildSurfaceBvhFromVec4(nan, tris)).toThrow(/vertex 1 .* non-finite/);
  });

  it('its transfer list survives a structured clone with transfer: buffers moved, triangles kept', () => {
    const mesh = loadSharedTetMesh('Beam_1k.t');
    const tris = mesh.boundaryTriangles;
    const bvh = rebuildSurfaceBvhFromVec4(vec4(mesh.positions), tris);
    const words = bvh.nodeWords.slice(), order = bvh.triangleOrder.slice();
    const transfer = surfaceBvhTransferables(bvh);
    expect(transfer.length).toBe(2); // node array (nodes and nodeWords share it) and triangleOrder
    const clone = structuredClone(bvh, { transfer });
    expect(bvh.nodeWords.length).toBe(0); // detached: moved, not copied
    expect(bvh.triangleOrder.length).toBe(0);
    expect(tris.length).toBe(mesh.boundaryTriangles.length);
    expect(clone.nodeWords).toEqual(words);
    expect(clone.triangleOrder).toEqual(order);
    expect(clone.nodes.buffer).toBe(clone.nodeWords.buffer);
    expect(() => validateSurfaceBvh(clone, tris)).not.toThrow();
  });
});

describe('validateSurfaceBvh: what a swapped-in tree must be', () => {
  it('accepts built trees (SAH and median) and a hand-made one', () => {
    const mesh = loadSharedTetMesh('Beam_1k.t');
    for (const split of ['sah', 'median'] as const) {
      expect(() => validateSurfaceBvh(buildSurfaceBvh(mesh.positions, mesh.boundaryTriangles, { split }), mesh.boundaryTriangles)).not.toThrow();
    }
    const { bvh, triangles } = tinyTree();
    expect(() => validateSurfaceBvh(bvh, triangles)).not.toThrow();
  });

  it('names each fault', () => {
    const { bvh, triangles } = tinyTree();
    const bad = (patch: (b: SurfaceBvh) => SurfaceBvh | void, message: RegExp, tris = triangles): void => {
      const b = copyBvh(bvh);
      const c = patch(b) ?? b;
      expect(() => validateSurfaceBvh(c, tris, 'here')).toThrow(RangeError);
      expect(() => validateSurfaceBvh(c, tris, 'here')).toThrow(message);
    };
    bad(() => undefined, /here: rejected BVH: triangleCount 3, but the mesh has 2 boundary triangles/, triangles.subarray(0, 6));
    bad(() => undefined, /triangle 1 has vertex 2 at corner 1, the mesh's boundary triangle has 7/, new Uint32Array([0, 1, 2, 1, 7, 3, 2, 3, 0]));
    bad((b) => copyBvh(b, { triangleOrder: new Uint32Array([2, 0]) }), /triangleOrder holds 2 ids for 3 triangles/);
    bad((b) => void (b.triangleOrder[1] = 3), /triangleOrder\[1\] = 3 is not a triangle id/);
    bad((b) => void (b.triangleOrder[2] = 2), /triangleOrder\[2\] = 2 repeats an earlier entry/);
    bad((b) => copyBvh(b, { nodeCount: 6 }), /nodeCount 6 outside \[1, 5\]/);
    bad((b) => copyBvh(b, { nodeCount: 2 }), /nodes holds 24 floats, 2 nodes need 16/);
    bad((b) => copyBvh(b, { nodeWords: new Uint32Array(24) }), /do not view the same memory/);
    bad((b) => void (b.nodeWords[BVH_LINK] = 0), /internal node 0 has children 0, 1: not after it/);
    bad((b) => void (b.nodeWords[BVH_LINK] = 2), /internal node 0 has children 2, 3: not after it and below nodeCount 3/);
    bad((b) => void (b.nodeWords[8 + BVH_COUNT] = 5), /leaf 1 holds 5 triangles, at most 4/);
    bad((b) => void (b.nodeWords[16 + BVH_LINK] = 3), /leaf 2 covers triangleOrder\[3 \.\. 4\), beyond its 3 entries/);
    bad((b) => void (b.nodeWords[16 + BVH_LINK] = 1), /triangleOrder slot 1 is covered by leaf 2 and another leaf/);
    bad((b) => void (b.nodeWords[8 + BVH_COUNT] = 1), /the leaves cover 2 of the 3 triangleOrder slots/);
    bad((b) => copyBvh(b, { depth: 0 }), /depth field 0, the tree's deepest node is at depth 1/);
  });

  it('refuses a node with two parents and an unreachable node', () => {
    // 5 triangles: root 0 -> (1, 2), node 1 -> (3, 4), and node 2 also claims (3, 4).
    const triangles = new Uint32Array(15);
    const buf = new ArrayBuffer(5 * BVH_NODE_WORDS * 4);
    const w = new Uint32Array(buf);
    w.set([0, 0, 0, 1, 0, 0, 0, 0], 0);
    w.set([0, 0, 0, 3, 0, 0, 0, 0], 8);
    w.set([0, 0, 0, 3, 0, 0, 0, 0], 16);
    w.set([0, 0, 0, 0, 0, 0, 0, 2], 24);
    w.set([0, 0, 0, 2, 0, 0, 0, 3], 32);
    const tree: SurfaceBvh = { nodes: new Float32Array(buf), nodeWords: w, nodeCount: 5, triangleOrder: new Uint32Array([0, 1, 2, 3, 4]), triangles, triangleCount: 5, depth: 2 };
    expect(() => validateSurfaceBvh(tree, triangles)).toThrow(/node 3 has two parents \(node 2 is one\)/);
    // Root -> (1, 2) leaves, node 3 and 4 left over: unreachable.
    w.set([0, 0, 0, 0, 0, 0, 0, 2], 8);
    w.set([0, 0, 0, 2, 0, 0, 0, 3], 16);
    expect(() => validateSurfaceBvh({ ...tree, depth: 1 }, triangles)).toThrow(/node 3 is not reached from the root/);
  });
});
