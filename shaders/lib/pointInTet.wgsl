// Point in tet by its four barycentric sub-volumes: the WGSL port of src/collision/cpu/tetGeometry.ts
// (subVolumes, strictlyInside). Included by name (`#include "pointInTet"`) by discrete detection
// (dcdDetect.wgsl) and by CCD's back-face rule (ccdNarrow.wgsl); pure functions, no bindings.

fn signedVolume6(x0: vec3<f32>, x1: vec3<f32>, x2: vec3<f32>, x3: vec3<f32>) -> f32 {
  return dot(x1 - x0, cross(x2 - x0, x3 - x0));
}

// The four sub-volumes (x 6) with corner i replaced by p: all > 0 <=> p strictly inside a
// positively oriented tet; each is an affine function of p.
fn subVolumes(p: vec3<f32>, x0: vec3<f32>, x1: vec3<f32>, x2: vec3<f32>, x3: vec3<f32>) -> vec4<f32> {
  return vec4<f32>(
    signedVolume6(p, x1, x2, x3),
    signedVolume6(x0, p, x2, x3),
    signedVolume6(x0, x1, p, x3),
    signedVolume6(x0, x1, x2, p));
}

fn strictlyInside(v: vec4<f32>) -> bool {
  return v.x > 0.0 && v.y > 0.0 && v.z > 0.0 && v.w > 0.0;
}
