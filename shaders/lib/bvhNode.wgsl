// One node of the surface BVH (src/bvh/surfaceBvh.ts, 8 words = 32 bytes, vec3 aligned to 16):
// lo/hi the box; internal (count 0): link = left child, the right child is link + 1; leaf: count
// triangles from triangleOrder[link]. Shared by the refit (bvhRefit.wgsl) and the query (spbQuery.wgsl).
struct BvhNode { lo: vec3<f32>, link: u32, hi: vec3<f32>, count: u32 }
