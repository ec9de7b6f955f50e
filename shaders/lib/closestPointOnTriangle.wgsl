// Closest point on triangle (a, b, c) to p, with the feature it lies on: the WGSL port of
// src/geometry/closestPointOnTriangle.ts (Ericson 5.1.5 Voronoi regions; a point exactly on a
// region border gets the lower-dimensional feature; degenerate triangles fall back to the nearest
// of their three edges). Feature codes as there: 0..2 vertex k, 3..5 edge k (vertex k to
// vertex (k + 1) % 3), 6 the face interior. A pure function.

const FEATURE_VERTEX2 = 2u;
const FEATURE_EDGE01 = 3u;
const FEATURE_EDGE20 = 5u;
const FEATURE_FACE = 6u;
const CPT_DEGENERATE_REL = 1e-14; // DEGENERATE_REL of the TypeScript file

struct ClosestPoint { point: vec3<f32>, feature: u32 }

fn cptSegmentParam(d: vec3<f32>, e: vec3<f32>) -> f32 {
  let ee = dot(e, e);
  if (!(ee > 0.0)) { return 0.0; }
  return clamp(dot(d, e) / ee, 0.0, 1.0);
}

fn cptCorner(a: vec3<f32>, b: vec3<f32>, c: vec3<f32>, k: u32) -> vec3<f32> {
  return select(select(c, b, k == 1u), a, k == 0u);
}

// Degenerate triangle: the nearest point of its three edges.
fn cptDegenerate(p: vec3<f32>, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> ClosestPoint {
  var best = 3.0e38;
  var out = ClosestPoint(a, 0u);
  for (var k = 0u; k < 3u; k++) {
    let k1 = (k + 1u) % 3u;
    let s = cptCorner(a, b, c, k);
    let e = cptCorner(a, b, c, k1) - s;
    let t = cptSegmentParam(p - s, e);
    let x = s + t * e;
    let d2 = dot(x - p, x - p);
    if (d2 < best) {
      best = d2;
      if (t <= 0.0) { out = ClosestPoint(s, k); }
      else if (t >= 1.0) { out = ClosestPoint(cptCorner(a, b, c, k1), k1); }
      else { out = ClosestPoint((1.0 - t) * s + t * (s + e), FEATURE_EDGE01 + k); }
    }
  }
  return out;
}

fn closestPointOnTriangle(p: vec3<f32>, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> ClosestPoint {
  let ab = b - a;
  let ac = c - a;
  let bc = c - b;
  let n = cross(ab, ac);
  let n2 = dot(n, n);
  let maxE2 = max(dot(ab, ab), max(dot(ac, ac), dot(bc, bc)));
  if (!(n2 > CPT_DEGENERATE_REL * maxE2 * maxE2)) { return cptDegenerate(p, a, b, c); }
  let ap = p - a;
  let d1 = dot(ab, ap);
  let d2 = dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) { return ClosestPoint(a, 0u); }
  let bp = p - b;
  let d3 = dot(ab, bp);
  let d4 = dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) { return ClosestPoint(b, 1u); }
  let vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    let t = d1 / (d1 - d3);
    return ClosestPoint((1.0 - t) * a + t * b, FEATURE_EDGE01);
  }
  let cp = p - c;
  let d5 = dot(ab, cp);
  let d6 = dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) { return ClosestPoint(c, 2u); }
  let vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    let t = d2 / (d2 - d6);
    return ClosestPoint((1.0 - t) * a + t * c, FEATURE_EDGE20);
  }
  let va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0) {
    let t = (d4 - d3) / (d4 - d3 + (d5 - d6));
    return ClosestPoint((1.0 - t) * b + t * c, FEATURE_EDGE01 + 1u);
  }
  let inv = 1.0 / (va + vb + vc);
  let v = vb * inv;
  let w = vc * inv;
  return ClosestPoint((1.0 - v - w) * a + v * b + w * c, FEATURE_FACE);
}

// Barycentrics (b1, b2) of b and c for p's projection on the plane of (a, b, c) (Ericson 3.4),
// unclamped (a's is 1 - b1 - b2); (0, 0) for a degenerate triangle. Twin:
// src/geometry/closestPointOnTriangle.ts projectedBarycentrics.
fn projectedBarycentrics(p: vec3<f32>, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> vec2<f32> {
  let v0 = b - a;
  let v1 = c - a;
  let v2 = p - a;
  let d00 = dot(v0, v0);
  let d01 = dot(v0, v1);
  let d11 = dot(v1, v1);
  let d20 = dot(v2, v0);
  let d21 = dot(v2, v1);
  let den = d00 * d11 - d01 * d01;
  if (!(den > 0.0)) { return vec2<f32>(0.0); }
  return vec2<f32>((d11 * d20 - d01 * d21) / den, (d00 * d21 - d01 * d20) / den);
}

// projectedBarycentrics as (b0, b1, b2), clamped to the triangle against rounding; p on the
// triangle (a closest point) gives its own weights. Degenerate triangles give (1, 0, 0).
fn triangleBarycentrics(p: vec3<f32>, a: vec3<f32>, b: vec3<f32>, c: vec3<f32>) -> vec3<f32> {
  let w = projectedBarycentrics(p, a, b, c);
  let b1 = clamp(w.x, 0.0, 1.0);
  let b2 = clamp(w.y, 0.0, 1.0 - b1);
  return vec3<f32>(1.0 - b1 - b2, b1, b2);
}
