// What the rest-pose penetration kernels share (shaders/ddfQuery.wgsl, shaders/restClosestQuery.wgsl,
// bound by src/penetration/gpu/penetrationKernels.ts): their uniforms, and the query an invocation
// answers with its tet's frame at the query point. The including shader declares `params`
// (PenetrationParams), `list` (QueryListR) and `tets`, and includes threadIndex, queryList and
// tetFrame before this.

struct PenetrationParams {
  rowStride: u32,       // threadIndex's row stride (direct dispatches; 0 for an indirect one)
  nodeCount: u32,       // nodes of the tree the nearest-point walk descends
  offOrder: u32,        // where that tree's triangle order starts (a topo or tree word)
  offTetComponent: u32, // topo's tet-component section
}

struct PenetrationQuery {
  listed: bool,     // false past the list's count: nothing to answer
  index: u32,       // the query's index (its result record's too)
  q: Query,
  ids: vec4<u32>,   // the query tet's vertices
  frame: TetFrame,  // the query tet's current frame at q.p (barycentrics u, validity)
}

fn penetrationQueryAt(gid: vec3<u32>) -> PenetrationQuery {
  var out: PenetrationQuery;
  out.index = threadIndex(gid, params.rowStride);
  out.listed = out.index < min(list.header[QL_COUNT], list.header[QL_CAPACITY]);
  if (!out.listed) { return out; }
  out.q = list.queries[out.index];
  out.ids = tets[2u * out.q.tet];
  out.frame = tetFrameAt(out.ids, out.q.p);
  return out;
}
