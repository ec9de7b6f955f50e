// Paper section 3.5's test, one vertex at a time: v is a corner of a boundary triangle whose tet
// is inverted (6 V <= 0, or not a number) at the positions fanPosition gives. Detection skips
// such a vertex's self queries (dcdDetect.wgsl, at the positions it detects at); CCD with
// SolverParams.ccdSkipInverted leaves out its same-object contacts (ccdNarrow.wgsl, at the
// substep's start). The walk reads the vertex's fan of boundary triangles and each one's tet:
// about 9 reads a triangle. The float64 twin marks every vertex at once
// (src/collision/cpu/invertedBoundary.ts). Needs shaders/lib pointInTet, and from the includer:
//   fn fanPosition(v: u32) -> vec3<f32>     vertex v where the test measures
// and the bindings `topo` and `params` with offVtOffsets, offVtList (the boundary triangles at
// each vertex), offTriangleTet and offTets.
fn invertedBoundaryFan(v: u32) -> bool {
  let fanEnd = topo[params.offVtOffsets + v + 1u];
  for (var j = topo[params.offVtOffsets + v]; j < fanEnd; j++) {
    let t = params.offTets + 4u * topo[params.offTriangleTet + topo[params.offVtList + j]];
    let volume6 = signedVolume6(fanPosition(topo[t]), fanPosition(topo[t + 1u]), fanPosition(topo[t + 2u]), fanPosition(topo[t + 3u]));
    if (!(volume6 > 0.0)) { return true; }
  }
  return false;
}

// Whether any of the first `count` vertices of `corners` is such a vertex, in order. One call
// site for the walk, however many corners a kernel asks about: a software adapter (SwiftShader)
// inlines each call and pays for every inlined copy in every workgroup.
fn anyInvertedBoundaryFan(corners: vec4<u32>, count: u32) -> bool {
  for (var k = 0u; k < count; k++) {
    if (invertedBoundaryFan(corners[k])) { return true; }
  }
  return false;
}
