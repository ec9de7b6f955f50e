// The inversion floor (SolverParams.inversionFloor, sliverFloor; docs/collisions.md "The
// inversion floor"), twin of src/collision/cpu/inversionFloor.ts: after a collision round's
// contacts, each tet the floor holds (every tet in recovery mode, the slivers otherwise: floor6[t]
// = floor x 6 V_rest, NOT_FLOORED for the others) whose 6 V is below floor6[t] is lifted back by
// the hard volume constraint C = 6 V - floor 6 V_rest >= 0, dx_i = w_i lambda grad_i C, lambda = -C / sum w_j |grad_j C|^2.
// Jacobi with mass splitting (a vertex in u violated tets lends each 1/u of its mass: lambda =
// -C / sum_j w_j u_j |grad_j C|^2, dx_i = w_i sum_t lambda_t grad_i C_t, which keeps linear and
// angular momentum); one pass = three dispatches over the vertices:
//   countFloorUses    u[v]: the vertex's tets below the floor that some corner can move; the
//                     invocation of a tet's corner 0 counts the tet in the first pass
//                     (QL_INVERSION_FLOOR_TETS)
//   gatherFloorShift  shift[v] = w_v sum over those tets of lambda_t grad_v C_t (reads u of the corners)
//   applyFloorShift   positions and start positions (prev) move by shift[v]: split impulse, no
//                     velocity
// Outside recovery the floor holds the slivers only (sliverFloor), in one dispatch of one
// workgroup: liftSliversByColour, Gauss-Seidel (each tet with its corners' full masses) colour by
// colour, a colour's tets at once (they share no corner), SLIVER_FLOOR_SWEEPS sweeps. With
// sliverLift 'after-contacts' once a substep after its last round's contacts, the start positions
// moved with the positions; with 'with-contacts' (startMoves SHIFT) before that round's collision
// stages and before each contact pass after the first, the moves summed in shift, which
// applySliverShift gives to the start positions after the round's contacts; with 'holding-contacts'
// as 'after-contacts', the corners a contact pushed this substep held still (inverse mass 0, their
// CONTACT_PUSHED touch bit), then as many sweeps with every corner free for the slivers still
// below the floor (those whose corners were all pushed); with 'clipped-to-contacts' as
// 'after-contacts', each corner's gradient kept off the way the last round's contacts between
// bodies push it (its push-direction words, lib/pushDirection.wgsl). With sliverFloorInSweeps the same lift
// runs after every material sweep too (MaterialStage), on the positions alone (startMoves NONE):
// a constraint of the material solve, its moves become velocity. Only the uniform slot
// with countPass counts (the lift after the contacts, or the one before the collision stages).
// Twin: liftSlivers in inversionFloor.ts, which goes through the same order one tet at a time.
#include "threadIndex"
#include "queryList"
#include "colliderTouch"
#include "pushDirection"

struct FloorParams {
  vertexCount: u32,
  rowStride: u32,
  countPass: u32,   // 1: this pass's count (or the sliver lift's first sweep) counts the tets below the floor
  offCorners: u32,  // topo: offsets (vertexCount + 1) at 0, corners 4t+k at offCorners, tets (4 per tet) at offTets
  offTets: u32,
  startMoves: u32,       // where liftSliversByColour's moves go besides the positions: START_MOVES_* (inversionFloorStage.ts StartMoves)
  holdPushed: u32,       // 1: liftSliversByColour holds still the vertices a contact pushed this substep (sliverLift 'holding-contacts')
  touchBase: u32,        // the first vertex's touch word in status (lib/colliderTouch.wgsl)
  clipPushes: u32,       // 1: liftSliversByColour keeps each corner's gradient off the way the last round's contacts between bodies push it (sliverLift 'clipped-to-contacts'; lib/pushDirection.wgsl)
}

@group(0) @binding(0) var<uniform> params: FloorParams;
@group(0) @binding(1) var<storage, read_write> positions: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> topo: array<u32>;
@group(0) @binding(4) var<storage, read> floor6: array<f32>;
@group(0) @binding(5) var<storage, read_write> shift: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> list: QueryListRW;
@group(0) @binding(7) var<storage, read_write> uses: array<f32>;
// [colours, colourStart (colours + 1), tets in colour order] (inversionFloor.ts colourSlivers).
@group(0) @binding(8) var<storage, read> sliverOrder: array<u32>;
// The solver's status words: per vertex at touchBase + v its touch word, whose CONTACT_PUSHED bit
// the contacts set (lib/colliderTouch.wgsl); read here only.
@group(0) @binding(9) var<storage, read> status: array<u32>;

// FloorParams.startMoves: the start positions (prev) move with the positions (sliverLift
// 'after-contacts', 'holding-contacts'), the moves are summed in shift (sliverLift 'with-contacts'),
// or the positions move alone (sliverFloorInSweeps, inside the material sweeps).
const START_MOVES_PREV = 0u;
const START_MOVES_SHIFT = 1u;
const SLIVER_FLOOR_SWEEPS = 8u;  // inversionFloor.ts SLIVER_FLOOR_SWEEPS
const SLIVER_LANES = 64u;

// floor6 of a tet the floor does not hold: -3e38 (inversionFloorStage.ts NOT_FLOORED).
fn floored(t: u32) -> bool { return floor6[t] > -1e38; }

// Tet t: its corners, C = 6 V - floor 6 V_rest, the gradient of 6 V at each corner.
struct FloorTet { ids: vec4<u32>, c: f32, g0: vec3<f32>, g1: vec3<f32>, g2: vec3<f32>, g3: vec3<f32>, w: vec4<f32> }

fn floorTet(t: u32) -> FloorTet {
  var r: FloorTet;
  r.ids = vec4<u32>(topo[params.offTets + 4u * t], topo[params.offTets + 4u * t + 1u], topo[params.offTets + 4u * t + 2u], topo[params.offTets + 4u * t + 3u]);
  let pa = positions[r.ids.x];
  let pb = positions[r.ids.y];
  let pc = positions[r.ids.z];
  let pd = positions[r.ids.w];
  let e = pb.xyz - pa.xyz;
  let f = pc.xyz - pa.xyz;
  let g = pd.xyz - pa.xyz;
  r.g1 = cross(f, g);
  r.g2 = cross(g, e);
  r.g3 = cross(e, f);
  r.g0 = -(r.g1 + r.g2 + r.g3);
  r.c = dot(e, r.g1) - floor6[t];
  r.w = vec4<f32>(pa.w, pb.w, pc.w, pd.w);
  return r;
}

// sliverLift 'holding-contacts': inverse mass 0 at the corners a contact pushed this substep.
fn heldByContacts(r: FloorTet) -> vec4<f32> {
  if (params.holdPushed == 0u) { return r.w; }
  let b = params.touchBase;
  let pushed = vec4<u32>(status[b + r.ids.x], status[b + r.ids.y], status[b + r.ids.z], status[b + r.ids.w]) & vec4<u32>(CONTACT_PUSHED);
  return select(r.w, vec4<f32>(0.0), pushed != vec4<u32>(0u));
}

// Below the floor with a corner that can move.
fn belowFloor(r: FloorTet) -> bool {
  return r.c < 0.0 && r.w.x * dot(r.g0, r.g0) + r.w.y * dot(r.g1, r.g1) + r.w.z * dot(r.g2, r.g2) + r.w.w * dot(r.g3, r.g3) > 0.0;
}

@compute @workgroup_size(64)
fn countFloorUses(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = threadIndex(gid, params.rowStride);
  if (v >= params.vertexCount) { return; }
  var count = 0.0;
  for (var j = topo[v]; j < topo[v + 1u]; j++) {
    let corner = topo[params.offCorners + j];
    if (!floored(corner >> 2u) || !belowFloor(floorTet(corner >> 2u))) { continue; }
    count += 1.0;
    if ((corner & 3u) == 0u && params.countPass != 0u) { atomicAdd(&list.header[QL_INVERSION_FLOOR_TETS], 1u); }
  }
  uses[v] = count;
}

@compute @workgroup_size(64)
fn gatherFloorShift(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = threadIndex(gid, params.rowStride);
  if (v >= params.vertexCount) { return; }
  var sum = vec3<f32>(0.0);
  for (var j = topo[v]; j < topo[v + 1u]; j++) {
    let corner = topo[params.offCorners + j];
    if (!floored(corner >> 2u)) { continue; }
    let r = floorTet(corner >> 2u);
    if (!(r.c < 0.0)) { continue; }
    let u = vec4<f32>(uses[r.ids.x], uses[r.ids.y], uses[r.ids.z], uses[r.ids.w]);
    let denom = r.w.x * u.x * dot(r.g0, r.g0) + r.w.y * u.y * dot(r.g1, r.g1) + r.w.z * u.z * dot(r.g2, r.g2) + r.w.w * u.w * dot(r.g3, r.g3);
    if (!(denom > 0.0)) { continue; }
    let k = corner & 3u;
    var mine = r.g0;
    if (k == 1u) { mine = r.g1; } else if (k == 2u) { mine = r.g2; } else if (k == 3u) { mine = r.g3; }
    sum += (-r.c / denom) * mine;
  }
  shift[v] = vec4<f32>(positions[v].w * sum, 0.0);
}

@compute @workgroup_size(64)
fn applyFloorShift(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = threadIndex(gid, params.rowStride);
  if (v >= params.vertexCount) { return; }
  let d = shift[v].xyz;
  positions[v] = vec4<f32>(positions[v].xyz + d, positions[v].w);
  prev[v] = vec4<f32>(prev[v].xyz + d, prev[v].w);
  // Zero again: outside recovery the sliver lift with the contacts adds its moves to shift, and the
  // settings can leave recovery between frames.
  shift[v] = vec4<f32>(0.0);
}

// sliverLift 'with-contacts', after the last round's contacts: the start positions take the sliver
// lifts' moves (summed in shift), which are cleared; split impulse, no velocity.
@compute @workgroup_size(64)
fn applySliverShift(@builtin(global_invocation_id) gid: vec3<u32>) {
  let v = threadIndex(gid, params.rowStride);
  if (v >= params.vertexCount) { return; }
  let d = shift[v].xyz;
  if (all(d == vec3<f32>(0.0))) { return; }
  prev[v] = vec4<f32>(prev[v].xyz + d, prev[v].w);
  shift[v] = vec4<f32>(0.0);
}

// The sliver lift's move d of vertex v for the start positions: at once (sliverLift
// 'after-contacts'), summed in shift for applySliverShift after the round's contacts
// ('with-contacts'), or none (inside the material sweeps).
fn liftStart(v: u32, d: vec3<f32>) {
  if (params.startMoves == START_MOVES_SHIFT) {
    shift[v] = vec4<f32>(shift[v].xyz + d, 0.0);
  } else if (params.startMoves == START_MOVES_PREV) {
    prev[v] = vec4<f32>(prev[v].xyz + d, prev[v].w);
  }
}

// Corner v's volume gradient g kept off the way the last round's contacts between bodies push v
// (lib/pushDirection.wgsl; twin keepGradientOffPush in inversionFloor.ts): the lift moves
// the corner along w lambda g, lambda > 0, and the clipped g also enters the denominator.
fn gradientOffPush(v: u32, g: vec3<f32>) -> vec3<f32> {
  let word = pushDirectionWord(params.touchBase, params.vertexCount, v);
  return keptOffPush(g, pushDirectionOf(vec3<u32>(status[word], status[word + 1u], status[word + 2u])));
}

@compute @workgroup_size(SLIVER_LANES)
fn liftSliversByColour(@builtin(local_invocation_index) lane: u32) {
  let colours = sliverOrder[0];
  let first = 2u + colours;
  // Holding the pushed corners, a second round of sweeps with every corner free lifts the slivers
  // the held ones left below the floor (all corners pushed): CpuCollisionStage.liftSlivers.
  let rounds = select(1u, 2u, params.holdPushed != 0u);
  for (var liftRound = 0u; liftRound < rounds; liftRound++) {
    for (var sweep = 0u; sweep < SLIVER_FLOOR_SWEEPS; sweep++) {
      for (var c = 0u; c < colours; c++) {
        for (var i = sliverOrder[1u + c] + lane; i < sliverOrder[2u + c]; i += SLIVER_LANES) {
          var r = floorTet(sliverOrder[first + i]);
          if (!(r.c < 0.0)) { continue; }
          // Counted with every corner's own mass, held or not (inversionFloor.ts liftSlivers).
          if (liftRound == 0u && sweep == 0u && params.countPass != 0u && belowFloor(r)) { atomicAdd(&list.header[QL_INVERSION_FLOOR_TETS], 1u); }
          if (liftRound == 0u) { r.w = heldByContacts(r); }
          if (params.clipPushes != 0u) {
            r.g0 = gradientOffPush(r.ids.x, r.g0);
            r.g1 = gradientOffPush(r.ids.y, r.g1);
            r.g2 = gradientOffPush(r.ids.z, r.g2);
            r.g3 = gradientOffPush(r.ids.w, r.g3);
          }
          let denom = r.w.x * dot(r.g0, r.g0) + r.w.y * dot(r.g1, r.g1) + r.w.z * dot(r.g2, r.g2) + r.w.w * dot(r.g3, r.g3);
          if (!(denom > 0.0)) { continue; }
          let lambda = -r.c / denom;
          let d0 = r.w.x * lambda * r.g0;
          let d1 = r.w.y * lambda * r.g1;
          let d2 = r.w.z * lambda * r.g2;
          let d3 = r.w.w * lambda * r.g3;
          positions[r.ids.x] += vec4<f32>(d0, 0.0);
          positions[r.ids.y] += vec4<f32>(d1, 0.0);
          positions[r.ids.z] += vec4<f32>(d2, 0.0);
          positions[r.ids.w] += vec4<f32>(d3, 0.0);
          liftStart(r.ids.x, d0);
          liftStart(r.ids.y, d1);
          liftStart(r.ids.z, d2);
          liftStart(r.ids.w, d3);
        }
        // The next colour reads corners this one moved.
        storageBarrier();
      }
    }
  }
}
