// Area-weighted vertex normals of the drawn surface (src/app/render/vertexNormalsKernel.ts):
// one invocation per boundary vertex sums cross(b - a, c - a) over its incident boundary
// triangles (a CSR built once, src/app/render/sceneSurface.ts). The cross product's length is
// twice the triangle's area, so the sum weights each face normal by its area; each vertex owns
// its sum, so no float atomics are needed and the order of the sum is fixed.
// Output: 3 floats per scene vertex (a packed vec3 vertex attribute); interior vertices are
// never written (no triangle draws them).
#include "threadIndex"
#include "positions"

struct NormalParams {
  boundaryVertexCount: u32,
  rowStride: u32,
  pad0: u32,
  pad1: u32,
}

@group(0) @binding(0) var<uniform> params: NormalParams;
@group(0) @binding(1) var<storage, read> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> triangles: array<u32>;
@group(0) @binding(3) var<storage, read> boundaryVertices: array<u32>;
@group(0) @binding(4) var<storage, read> vertexTriangleOffsets: array<u32>;
@group(0) @binding(5) var<storage, read> vertexTriangles: array<u32>;
@group(0) @binding(6) var<storage, read_write> normals: array<f32>;

@compute @workgroup_size(64)
fn vertexNormals(@builtin(global_invocation_id) gid: vec3<u32>) {
  let i = threadIndex(gid, params.rowStride);
  if (i >= params.boundaryVertexCount) {
    return;
  }
  var sum = vec3<f32>(0.0);
  for (var k = vertexTriangleOffsets[i]; k < vertexTriangleOffsets[i + 1u]; k++) {
    let t = vertexTriangles[k];
    let a = vertexPosition(triangles[3u * t]);
    let b = vertexPosition(triangles[3u * t + 1u]);
    let c = vertexPosition(triangles[3u * t + 2u]);
    sum += cross(b - a, c - a);
  }
  // A vertex whose triangles all collapsed keeps a zero normal rather than NaN.
  let len = length(sum);
  let n = select(vec3<f32>(0.0), sum / len, len > 0.0);
  let v = boundaryVertices[i];
  normals[3u * v] = n.x;
  normals[3u * v + 1u] = n.y;
  normals[3u * v + 2u] = n.z;
}
