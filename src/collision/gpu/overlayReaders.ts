/**
 * Readers for the page's debug overlays (issue 10 "Rendering": CCD contacts, BVH boxes of one
 * level): non-blocking copies of GPU buffers the time step already keeps, read between frames.
 * Each is a sync point of its own (a staging copy and mapAsync); nothing per substep.
 */
import { levelOrder, type SurfaceBvhGpu } from '../../bvh/surfaceBvhGpu';
import { BVH_HI, BVH_LO, BVH_NODE_WORDS } from '../../bvh/surfaceBvh';
import { readBufferToCpu } from '../../gpu/buffers';
import type { GpuState } from '../../contract/state';
import type { CcdStage } from './ccdStage';
import { CONTACT_WORDS } from './contactStage';

/** Contact words (shaders/lib/contact.wgsl struct Contact). */
const C = { pointVertex: 0, pointWeight: 4, triVertex: 8, triBary: 12, normal: 16 } as const;
const CONTACT_NONE = 0xffffffff;

export interface CcdContactReadout {
  /** Per contact xyz: the contact point sum_i w_i x_i (vertex-face: the vertex; edge-edge: the point on the first edge). */
  points: Float32Array;
  /** Per contact xyz: the other side's point sum_k b_k x_k (on the triangle, or on the second edge). */
  targets: Float32Array;
  /** Per contact xyz: the contact normal CCD stored (unit, pointing from the target's side to the point's). */
  normals: Float32Array;
  /** Per contact: 0 vertex-face, 1 edge-edge. */
  kinds: Uint8Array;
}

/**
 * The CCD contacts of the frame's LAST substep (each substep rebuilds the lists), their points
 * evaluated at the frame's end positions. Empty when CCD did not run (dcd mode, collisions off,
 * or no candidates yet).
 */
export async function readCcdContacts(device: GPUDevice, ccd: CcdStage, state: GpuState): Promise<CcdContactReadout> {
  const lists = [ccd.vertexFace, ccd.edgeEdge];
  // Zero workgroups: the last frame ran no CCD (its lists hold an older frame's contacts) or had no candidates.
  if (ccd.contactWorkgroups() === 0) return { points: new Float32Array(0), targets: new Float32Array(0), normals: new Float32Array(0), kinds: new Uint8Array(0) };
  const counts = await Promise.all(lists.map((l) => readBufferToCpu(device, l.header, 4, 'overlay.ccdCount')));
  const n = counts.map((c, i) => Math.min(new Uint32Array(c)[0], lists[i].capacity));
  const [records0, records1, positions] = await Promise.all([
    readBufferToCpu(device, lists[0].contacts, 4 * CONTACT_WORDS * n[0], 'overlay.ccdVertexFace'),
    readBufferToCpu(device, lists[1].contacts, 4 * CONTACT_WORDS * n[1], 'overlay.ccdEdgeEdge'),
    readBufferToCpu(device, state.positions, state.positions.size, 'overlay.positions'),
  ]);
  const x = new Float32Array(positions);
  const total = n[0] + n[1];
  const out: CcdContactReadout = { points: new Float32Array(3 * total), targets: new Float32Array(3 * total), normals: new Float32Array(3 * total), kinds: new Uint8Array(total) };
  let at = 0;
  for (const [kind, records] of [records0, records1].entries()) {
    const u = new Uint32Array(records);
    const f = new Float32Array(records);
    for (let c = 0; c < n[kind]; c++, at++) {
      const o = CONTACT_WORDS * c;
      for (let k = 0; k < 4; k++) {
        const pv = u[o + C.pointVertex + k], tv = u[o + C.triVertex + k];
        for (let j = 0; j < 3; j++) {
          if (pv !== CONTACT_NONE) out.points[3 * at + j] += f[o + C.pointWeight + k] * x[4 * pv + j];
          if (tv !== CONTACT_NONE) out.targets[3 * at + j] += f[o + C.triBary + k] * x[4 * tv + j];
        }
      }
      for (let j = 0; j < 3; j++) out.normals[3 * at + j] = f[o + C.normal + j];
      out.kinds[at] = kind;
    }
  }
  return out;
}

export interface BvhLevelReadout {
  /** Per box xyz of its low and high corners. */
  lo: Float32Array;
  hi: Float32Array;
  /** Node ids of the boxes (the GPU tree's order). */
  nodes: Uint32Array;
  /** Levels of the tree (valid `level` arguments are 0 .. levelCount - 1; 0 is the root). */
  levelCount: number;
}

/**
 * The boxes of the surface BVH's nodes at depth `level` (0 = the root) as the GPU holds them now
 * (refitted at the last shortest-path run: the last substep's, or the intersection display's).
 */
export async function readBvhLevel(device: GPUDevice, bvhGpu: SurfaceBvhGpu, level: number): Promise<BvhLevelReadout> {
  const bvh = bvhGpu.bvh;
  const order = levelOrder(bvh);
  const levelCount = order.starts.length - 1;
  if (!Number.isInteger(level) || level < 0 || level >= levelCount) {
    throw new RangeError(`readBvhLevel: level must be an integer in [0, ${levelCount - 1}] (0 = root) for this tree, got ${level}`);
  }
  // levelOrder lists the deepest level first.
  const slot = levelCount - 1 - level;
  const nodes = order.nodes.slice(order.starts[slot], order.starts[slot + 1]);
  const words = new Float32Array(await readBufferToCpu(device, bvhGpu.nodes, 4 * BVH_NODE_WORDS * bvh.nodeCount, 'overlay.bvhNodes'));
  const lo = new Float32Array(3 * nodes.length);
  const hi = new Float32Array(3 * nodes.length);
  for (let i = 0; i < nodes.length; i++) {
    const o = BVH_NODE_WORDS * nodes[i];
    for (let k = 0; k < 3; k++) {
      lo[3 * i + k] = words[o + BVH_LO + k];
      hi[3 * i + k] = words[o + BVH_HI + k];
    }
  }
  return { lo, hi, nodes, levelCount };
}
