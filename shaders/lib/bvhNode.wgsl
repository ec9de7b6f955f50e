// One node of the surface BVH (src/bvh/surfaceBvh.ts, 8 words = 32 bytes, vec3 aligned to 16):
// lo/hi the box; internal (count 0): link = left child, the right child is link + 1; leaf: count
// triangles from triangleOrder[link]. Shared by the refit (bvhRefit.wgsl) and the queries (spbQuery.wgsl, restClosestQuery.wgsl, ddfQuery.wgsl).
struct BvhNode { lo: vec3<f32>, link: u32, hi: vec3<f32>, count: u32 }

// Squared distance from p to the box (0 inside), and to its farthest point: the nearest-first walks.
fn boxDistance2(n: BvhNode, p: vec3<f32>) -> f32 {
  let d = max(max(n.lo - p, vec3<f32>(0.0)), p - n.hi);
  return dot(d, d);
}

fn boxFarDistance2(n: BvhNode, p: vec3<f32>) -> f32 {
  let d = max(p - n.lo, n.hi - p);
  return dot(d, d);
}
