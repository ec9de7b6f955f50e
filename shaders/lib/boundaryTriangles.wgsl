// The boundary triangles' section of the shortest-path topology buffer (src/spb/gpu/packSpbBuffers.ts):
// 8 words per triangle (v0, v1, v2, tet * 4 + face, the triangle across edge k = 0..2 or NONE,
// component) at its start. The includer declares `topo: array<u32>`. With the query's excluded
// triangles (src/spb/exclusion.ts): a vertex point excludes every triangle at its vertex, an
// edge point only the edge's two triangles.

fn triVert(f: u32, k: u32) -> u32 { return topo[8u * f + k]; }
fn triTet(f: u32) -> u32 { return topo[8u * f + 3u] >> 2u; }
fn triComponent(f: u32) -> u32 { return topo[8u * f + 7u]; }

// Triangle (i0, i1, i2) holds e1 and (e2 < 0 or e2).
fn excludesTriangle(i0: u32, i1: u32, i2: u32, e1: i32, e2: i32) -> bool {
  if (e1 < 0) { return false; }
  let a = u32(e1);
  if (i0 != a && i1 != a && i2 != a) { return false; }
  if (e2 < 0) { return true; }
  let b = u32(e2);
  return i0 == b || i1 == b || i2 == b;
}

fn excluded(f: u32, e1: i32, e2: i32) -> bool {
  return excludesTriangle(triVert(f, 0u), triVert(f, 1u), triVert(f, 2u), e1, e2);
}
