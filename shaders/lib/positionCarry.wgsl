// Moves a vertex by a correction far below its coordinate's f32 resolution without losing the
// part the add rounds away (issue 19: the head-on pair's momentum). A material sweep adds
// corrections of 1e-9 to 1e-5 m to coordinates of metres, where half an ulp is 1.2e-7 m at 2 m:
// every add rounds, unevenly between a tet's corners, so Sum_v m_v dx_v = 0 (momentum, which the
// tet's correction keeps exactly) stops holding for what is stored, and the error grows with
// every visit as a random walk (measured: the float64 solver rounded to f32 after each tet drifts
// 60 kg m/s on the head-on pair, 57 of it in the material sweeps).
// Each add's rounding error, exact in round-to-nearest f32 by TwoSum (Knuth), is kept in
// positionCarry and added to the vertex's next correction: the stored position plus its carry is
// the exact sum of the corrections, and what momentum loses to rounding stays within half an ulp
// a vertex instead of adding up. (A compiler that reassociated floats would fold the carry to 0:
// the old behaviour, nothing worse.) Vertices of inverse mass 0 (handles, stopped objects) are
// never moved by it.
// frame.positionCarry 0 (SolverParams.positionCarry off) adds plainly and leaves the carry alone.
// The including kernel declares frame, positions and positionCarry (read_write, vec4<f32> per
// vertex: the carry in xyz; contract/state.ts).
fn moveVertexCarried(i: u32, d: vec3<f32>) {
  let x = positions[i];
  if (x.w == 0.0) { return; }
  if (frame.positionCarry == 0u) {
    positions[i] = vec4<f32>(x.xyz + d, x.w);
    return;
  }
  let b = d + positionCarry[i].xyz;
  let s = x.xyz + b;
  let bv = s - x.xyz;
  let e = (x.xyz - (s - bv)) + (b - bv);
  positionCarry[i] = vec4<f32>(e, 0.0);
  positions[i] = vec4<f32>(s, x.w);
}
