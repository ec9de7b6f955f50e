// Detection's last kernel (detectStage.ts, after dcdDetect.wgsl): one invocation writes the
// indirect dispatch args over this substep's queries, where a kernel still reads them (the
// rest-pose penetration methods, the contacts' grid passes, the intersection display; the exact
// query and the contact build dispatch directly over the capacity), and the frame's largest count
// (which the contact build also keeps). Its own bindings (issue 24): `args` is no binding of
// detection's kernel, which with the BVH refit's top inside binds 10 storage buffers.
#include "queryList"
#include "spatialHash"

@group(0) @binding(0) var<uniform> params: DetectParams;
@group(0) @binding(1) var<storage, read_write> list: QueryListRW;
@group(0) @binding(2) var<storage, read_write> args: array<u32>;

@compute @workgroup_size(1)
fn writeArgs() {
  let count = atomicLoad(&list.header[QL_COUNT]);
  let n = min(count, params.listCapacity);
  args[0] = (n + 63u) / 64u;
  args[1] = 1u;
  args[2] = 1u;
  atomicMax(&list.header[QL_MAX_COUNT], count);
}
