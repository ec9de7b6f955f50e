// Stable Neo-Hookean tets (Macklin & Müller 2021): deviatoric C_D = ||F||_F and hydrostatic
// C_H = det F - gamma, solved as one coupled 2x2 XPBD block per tet (at F = I the two
// gradients are parallel; only the coupled solve keeps the rest shape at rest).
// solveColour: Gauss-Seidel over one colour (tets independent), corrections applied in place.
// solveJacobi: every tet from the same positions, scaled corrections stored per tet corner
// for xpbdGather.wgsl. CPU reference: neoHookeanCorrection in src/sim/constraintsCpu.ts.

@group(0) @binding(0) var<uniform> frame: Frame;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> tets: array<vec4<u32>>;
@group(0) @binding(3) var<storage, read> dmInv: array<vec4<f32>>;     // 3 columns per tet
@group(0) @binding(4) var<storage, read> constants: array<vec4<f32>>; // alphaD, alphaH (<0: off), gamma, Jacobi step scale
@group(0) @binding(5) var<storage, read_write> lambda: array<vec2<f32>>;
@group(0) @binding(6) var<storage, read> colourOrder: array<u32>;
@group(0) @binding(7) var<storage, read_write> corrections: array<vec4<f32>>; // 4 per tet
@group(1) @binding(0) var<uniform> slot: Slot;

struct Delta { d0: vec3<f32>, d1: vec3<f32>, d2: vec3<f32>, d3: vec3<f32>, ok: bool }

// Jacobi: the step (multipliers and corrections alike) is scaled by the relaxation / mean
// vertex count (constants.w) and xpbdGather.wgsl sums the corrections. The relaxation must
// scale the multiplier too, or the positions solve the problem for masses / relaxation.
fn project(t: u32, jacobi: bool) -> Delta {
  var out: Delta;
  out.ok = false;
  let ids = tets[t];
  let x0 = positions[ids.x];
  let x1 = positions[ids.y];
  let x2 = positions[ids.z];
  let x3 = positions[ids.w];
  if (x0.w + x1.w + x2.w + x3.w == 0.0) { return out; }
  let m = mat3x3<f32>(dmInv[3u * t].xyz, dmInv[3u * t + 1u].xyz, dmInv[3u * t + 2u].xyz);
  let F = mat3x3<f32>(x1.xyz - x0.xyz, x2.xyz - x0.xyz, x3.xyz - x0.xyz) * m;
  // d det F / dF: cofactor columns.
  let PH = mat3x3<f32>(cross(F[1], F[2]), cross(F[2], F[0]), cross(F[0], F[1]));
  let detF = dot(F[0], PH[0]);
  let normF = sqrt(dot(F[0], F[0]) + dot(F[1], F[1]) + dot(F[2], F[2]));
  let k = constants[t];
  let alphaD = k.x * frame.invH2;
  let hydro = k.y >= 0.0;
  var alphaH = 0.0;
  if (hydro) { alphaH = k.y * frame.invH2; }
  var invNorm = 0.0;
  if (normF > 1e-12) { invNorm = 1.0 / normF; }
  // Vertex gradients G = P Dm^-T; columns belong to vertices 1..3.
  let GD = F * transpose(m) * invNorm;
  let GH = PH * transpose(m);
  let gD0 = -(GD[0] + GD[1] + GD[2]);
  let gH0 = -(GH[0] + GH[1] + GH[2]);
  let aDD = alphaD + x0.w * dot(gD0, gD0) + x1.w * dot(GD[0], GD[0]) + x2.w * dot(GD[1], GD[1]) + x3.w * dot(GD[2], GD[2]);
  let aDH = x0.w * dot(gD0, gH0) + x1.w * dot(GD[0], GH[0]) + x2.w * dot(GD[1], GH[1]) + x3.w * dot(GD[2], GH[2]);
  let aHH = alphaH + x0.w * dot(gH0, gH0) + x1.w * dot(GH[0], GH[0]) + x2.w * dot(GH[1], GH[1]) + x3.w * dot(GH[2], GH[2]);
  let l = lambda[t];
  let bD = -normF - alphaD * l.x;
  var dl = vec2<f32>(0.0);
  if (hydro) {
    let bH = -(detF - k.z) - alphaH * l.y;
    let det = aDD * aHH - aDH * aDH;
    if (!(abs(det) > 1e-30 * aDD * aHH)) { return out; }
    dl = vec2<f32>(bD * aHH - aDH * bH, aDD * bH - aDH * bD) / det;
  } else {
    if (!(aDD > 0.0)) { return out; }
    dl = vec2<f32>(bD / aDD, 0.0);
  }
  if (jacobi) { dl = dl * (k.w * frame.relaxation); }
  lambda[t] = l + dl;
  out.d0 = x0.w * (gD0 * dl.x + gH0 * dl.y);
  out.d1 = x1.w * (GD[0] * dl.x + GH[0] * dl.y);
  out.d2 = x2.w * (GD[1] * dl.x + GH[1] * dl.y);
  out.d3 = x3.w * (GD[2] * dl.x + GH[2] * dl.y);
  out.ok = true;
  return out;
}

fn addTo(i: u32, d: vec3<f32>) {
  let x = positions[i];
  positions[i] = vec4<f32>(x.xyz + d, x.w);
}

@compute @workgroup_size(64)
fn solveColour(@builtin(global_invocation_id) gid: vec3<u32>) {
  let n = gid.x + gid.y * slot.c;
  if (n >= slot.b) { return; }
  let t = colourOrder[slot.a + n];
  let d = project(t, false);
  if (!d.ok) { return; }
  let ids = tets[t];
  addTo(ids.x, d.d0);
  addTo(ids.y, d.d1);
  addTo(ids.z, d.d2);
  addTo(ids.w, d.d3);
}

@compute @workgroup_size(64)
fn solveJacobi(@builtin(global_invocation_id) gid: vec3<u32>) {
  let t = gid.x + gid.y * frame.elementStride;
  if (t >= frame.tetCount) { return; }
  let d = project(t, true);
  if (!d.ok) {
    corrections[4u * t] = vec4<f32>(0.0);
    corrections[4u * t + 1u] = vec4<f32>(0.0);
    corrections[4u * t + 2u] = vec4<f32>(0.0);
    corrections[4u * t + 3u] = vec4<f32>(0.0);
    return;
  }
  corrections[4u * t] = vec4<f32>(d.d0, 0.0);
  corrections[4u * t + 1u] = vec4<f32>(d.d1, 0.0);
  corrections[4u * t + 2u] = vec4<f32>(d.d2, 0.0);
  corrections[4u * t + 3u] = vec4<f32>(d.d3, 0.0);
}
