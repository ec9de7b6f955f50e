// A point as the point of its tet in the tet's current shape (src/penetration/tetFrame.ts, the
// float64 twin; Fisher and Lin 2001 eqs. 2 and 4): edges a, b, c from x0 (columns of Ds) and
// their cofactors b x c, c x a, a x b (rows of det(Ds) Ds^-1) give the barycentrics, and map a
// rest-frame covector's components y = Dm^T g to det(Ds) F^-T g. tetFrameAt reads the current
// positions through shaders/lib/positions.wgsl.

struct TetFrame {
  u: vec4<f32>,       // barycentrics of the point, sum 1
  bc: vec3<f32>,
  ca: vec3<f32>,
  ab: vec3<f32>,
  det: f32,           // det(Ds) = 6 x signed volume
  valid: bool,        // false: flat or inverted (det <= TET_FLAT_REL x longest edge^3)
}

const TET_FLAT_REL = 1e-12; // FLAT_REL of tetFrame.ts

fn tetFrame(x0: vec3<f32>, x1: vec3<f32>, x2: vec3<f32>, x3: vec3<f32>, p: vec3<f32>) -> TetFrame {
  let a = x1 - x0;
  let b = x2 - x0;
  let c = x3 - x0;
  var f: TetFrame;
  f.bc = cross(b, c);
  f.ca = cross(c, a);
  f.ab = cross(a, b);
  f.det = dot(a, f.bc);
  let l2 = max(dot(a, a), max(dot(b, b), dot(c, c)));
  f.valid = f.det > TET_FLAT_REL * l2 * sqrt(l2);
  let d = p - x0;
  let u1 = dot(d, f.bc) / f.det;
  let u2 = dot(d, f.ca) / f.det;
  let u3 = dot(d, f.ab) / f.det;
  f.u = vec4<f32>(1.0 - u1 - u2 - u3, u1, u2, u3);
  return f;
}

// The frame of the tet with vertices `ids` at the current positions.
fn tetFrameAt(ids: vec4<u32>, p: vec3<f32>) -> TetFrame {
  return tetFrame(vertexPosition(ids.x), vertexPosition(ids.y), vertexPosition(ids.z), vertexPosition(ids.w), p);
}

// det(Ds) F^-T g for y = Dm^T g (a positive multiple when the tet is valid).
fn mapCovector(f: TetFrame, y: vec3<f32>) -> vec3<f32> {
  return y.x * f.bc + y.y * f.ca + y.z * f.ab;
}
