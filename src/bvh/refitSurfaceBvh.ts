/**
 * Refit after deformation: recomputes every box bottom-up, keeping the topology.
 *
 * Children are stored after their parents, so one backward pass over the flat array visits
 * children first. Boxes are f32 (the GPU reads them as-is); when positions carry more
 * precision than f32 (a Float64Array), leaf bounds are rounded outward so that every box still
 * contains its triangles exactly.
 */
import { BVH_COUNT, BVH_LINK, BVH_NODE_WORDS, type SurfaceBvh } from './surfaceBvh';

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** Largest f32 <= x (x finite). */
function f32Down(x: number): number {
  const r = Math.fround(x);
  if (r <= x) return r;
  f32[0] = r;
  if (r > 0) u32[0]--;
  else if (r < 0) u32[0]++;
  else u32[0] = 0x80000001; // r == +0 > x: the smallest negative subnormal
  return f32[0];
}

/** Smallest f32 >= x (x finite). */
function f32Up(x: number): number {
  const r = Math.fround(x);
  if (r >= x) return r;
  f32[0] = r;
  if (r > 0) u32[0]++;
  else if (r < 0) u32[0]--;
  else u32[0] = 1; // r == 0 < x: the smallest positive subnormal
  return f32[0];
}

export function refitSurfaceBvh(bvh: SurfaceBvh, positions: ArrayLike<number>): void {
  const nodes = bvh.nodes;
  const words = bvh.nodeWords;
  const tris = bvh.triangles;
  const order = bvh.triangleOrder;
  const exactF32 = positions instanceof Float32Array;
  for (let node = bvh.nodeCount - 1; node >= 0; node--) {
    const o = node * BVH_NODE_WORDS;
    const count = words[o + BVH_COUNT];
    const link = words[o + BVH_LINK];
    if (count === 0) {
      const l = link * BVH_NODE_WORDS;
      const r = l + BVH_NODE_WORDS;
      nodes[o] = Math.min(nodes[l], nodes[r]);
      nodes[o + 1] = Math.min(nodes[l + 1], nodes[r + 1]);
      nodes[o + 2] = Math.min(nodes[l + 2], nodes[r + 2]);
      nodes[o + 4] = Math.max(nodes[l + 4], nodes[r + 4]);
      nodes[o + 5] = Math.max(nodes[l + 5], nodes[r + 5]);
      nodes[o + 6] = Math.max(nodes[l + 6], nodes[r + 6]);
      continue;
    }
    let lx = Infinity, ly = Infinity, lz = Infinity;
    let hx = -Infinity, hy = -Infinity, hz = -Infinity;
    for (let k = link; k < link + count; k++) {
      const t = 3 * order[k];
      for (let c = 0; c < 3; c++) {
        const v = 3 * tris[t + c];
        const x = positions[v], y = positions[v + 1], z = positions[v + 2];
        if (x < lx) lx = x;
        if (x > hx) hx = x;
        if (y < ly) ly = y;
        if (y > hy) hy = y;
        if (z < lz) lz = z;
        if (z > hz) hz = z;
      }
    }
    if (exactF32) {
      nodes[o] = lx; nodes[o + 1] = ly; nodes[o + 2] = lz;
      nodes[o + 4] = hx; nodes[o + 5] = hy; nodes[o + 6] = hz;
    } else {
      nodes[o] = f32Down(lx); nodes[o + 1] = f32Down(ly); nodes[o + 2] = f32Down(lz);
      nodes[o + 4] = f32Up(hx); nodes[o + 5] = f32Up(hy); nodes[o + 6] = f32Up(hz);
    }
  }
}
