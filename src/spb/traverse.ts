/**
 * Robust topological ray traversal (paper 000 section 3.3, supplement 001 Alg. 1), from the
 * candidate boundary point s, inside its boundary tet, toward p.
 *
 * Written like a GPU kernel: flat typed arrays, integer ids, no allocation; the stacks and the
 * visited record live in the workspace, so the same code is the dynamic version (growing
 * arrays, every entered tet remembered) and the static twin of the WGSL kernel (fixed arrays,
 * a ring of the last 16 tets, a step bound). A static stack that would overflow returns
 * TRAVERSE_OVERFLOW: the query is flagged, never answered from a partial search.
 *
 * Departures from the pseudocode, each making an answer more complete, never less:
 * - A branch that reaches the boundary or passes beyond p ends that branch only; the
 *   traversal fails when no branch is left (Alg. 1 returns False at once, which can drop the
 *   one branch that a near-edge ray needed).
 * - Success is entering any tet that contains every vertex of p's tet that p is not opposite
 *   of (barycentric > tolerance): p's own tet, or, when p lies on a face, edge or vertex of it,
 *   the tets around that face/edge/vertex, all of which contain the same pre-image point.
 * - A neighbour already entered is not pushed (it would be skipped when popped), which keeps
 *   the static stacks shallower when a ray through a vertex explores the vertex's star.
 * - A tet is marked entered only once its branch goes on: one reached too far along the ray
 *   (by one branch) stays open to another branch that reaches it in time.
 *
 * The branch bound (Alg. 1 lines 24-26): in a component without inverted tets the ray only moves
 * forward, and a branch whose entry point c has |c - s| > |p - s| ends, ahead of s or behind it.
 * With inverted tets the ray can run backward (section 3.5), so the bound is on the distance
 * travelled along the ray, forward and backward summed: 2 |p - s| (supplement 001 section 1.2).
 */
import { entryParameterRange, exitFaceMask } from './exitFaces';
import type { SpbMeshData } from './meshData';
import type { SpbTolerances } from './settings';
import { STAT_BOUNDARY_HITS, STAT_BRANCHINGS, STAT_TETS_VISITED, STAT_TRAVERSALS, type SpbWorkspace } from './workspace';

export const TRAVERSE_FAIL = 0;
export const TRAVERSE_FOUND = 1;
export const TRAVERSE_OVERFLOW = 2;

const range = new Float64Array(2);

/** True when tet t contains every support vertex of p (so p, as the same pre-image, is in t). */
function acceptsTet(tets: Uint32Array, ws: SpbWorkspace, t: number): boolean {
  const a = tets[4 * t], b = tets[4 * t + 1], c = tets[4 * t + 2], d = tets[4 * t + 3];
  const sup = ws.support;
  for (let i = 0; i < ws.supportCount; i++) {
    const v = sup[i];
    if (v !== a && v !== b && v !== c && v !== d) return false;
  }
  return true;
}

/**
 * Is segment s -> p a valid path (an element traversal contains it)? s is a point of boundary
 * triangle `triangle`; ws.support must describe p's tet (see computeSupport in query.ts).
 */
export function tetrahedralTraverse(
  data: SpbMeshData,
  ws: SpbWorkspace,
  tol: Readonly<SpbTolerances>,
  triangle: number,
  sx: number, sy: number, sz: number,
  px: number, py: number, pz: number,
): number {
  const tets = data.tets;
  const nbr = data.tetNeighbors;
  const x = data.positions;
  const proj = ws.proj;
  const stats = ws.stats;
  stats[STAT_TRAVERSALS]++;

  // Ray frame (Alg. 1 lines 2-3): unit direction n and the orthonormal u, v of Duff et al. 2017.
  const rx = px - sx, ry = py - sy, rz = pz - sz;
  const r2 = rx * rx + ry * ry + rz * rz;
  const rl = Math.sqrt(r2);
  const nx = rx / rl, ny = ry / rl, nz = rz / rl;
  const sg = nz >= 0 ? 1 : -1;
  const ka = -1 / (sg + nz);
  const kb = nx * ny * ka;
  const ux = 1 + sg * nx * nx * ka, uy = sg * kb, uz = -sg * nx;
  const vx = kb, vy = sg + ny * ny * ka, vz = -ny;
  // z coordinate in units of |p - s|: s at 0, p at 1.
  const zx = rx / r2, zy = ry / r2, zz = rz / r2;

  const maxSteps = ws.capacities.maxSteps;
  ws.beginTraversal();
  // The start tet enters the loop like any other, through its boundary face (coded -1 - face).
  const t0 = data.triangleTet[triangle];
  // Backward travel is possible only in a component with inverted tets (section 3.5).
  const inversions = data.componentInverted[data.tetComponent[t0]] !== 0;
  const maxTravel = tol.inversionTravel;
  ws.tetStack[0] = t0;
  ws.faceStack[0] = -1 - data.triangleFace[triangle];
  ws.travelStack[0] = 0;
  let top = 1;
  let steps = 0;
  while (top > 0) {
    top--;
    const t = ws.tetStack[top];
    const fcode = ws.faceStack[top];
    const travel = ws.travelStack[top];
    if (ws.wasEntered(t)) continue; // loop: resume from the stack (Alg. 1 lines 15-16)
    stats[STAT_TETS_VISITED]++;
    if (++steps > maxSteps) return TRAVERSE_OVERFLOW;
    if (acceptsTet(tets, ws, t)) {
      if (ws.trace) ws.trace[t] = fcode >= 0 ? fcode >> 2 : -1;
      ws.foundTet = t;
      return TRAVERSE_FOUND;
    }

    const o = 4 * t;
    const v0 = tets[o], v1 = tets[o + 1], v2 = tets[o + 2], v3 = tets[o + 3];
    // Entry face: the start tet's boundary face, or the face shared with the parent, found by
    // the XOR trick (the vertex of t not on the shared face = xor of t's 4 ids ^ xor of the 3 shared).
    let entry: number;
    if (fcode < 0) entry = -1 - fcode;
    else {
      const po = 4 * (fcode >> 2);
      const shared = tets[po] ^ tets[po + 1] ^ tets[po + 2] ^ tets[po + 3] ^ tets[po + (fcode & 3)];
      const fourth = v0 ^ v1 ^ v2 ^ v3 ^ shared;
      entry = fourth === v0 ? 0 : fourth === v1 ? 1 : fourth === v2 ? 2 : 3;
    }

    // Project the 4 vertices: (u, v) in the ray's 2D frame, z along the ray.
    for (let i = 0; i < 4; i++) {
      const vi = 3 * tets[o + i];
      const dx = x[vi] - sx, dy = x[vi + 1] - sy, dz = x[vi + 2] - sz;
      proj[3 * i] = dx * ux + dy * uy + dz * uz;
      proj[3 * i + 1] = dx * vx + dy * vy + dz * vz;
      proj[3 * i + 2] = dx * zx + dy * zy + dz * zz;
    }
    const h2 = data.tetSize2[t];
    const eps = tol.exitFace * h2;

    // Where the ray enters t (s itself for the start tet), in units of |p - s|.
    let enterLo = 0, enterHi = 0;
    if (fcode >= 0) {
      entryParameterRange(proj, entry, eps, range);
      enterLo = range[0];
      enterHi = range[1];
      if (inversions) {
        // The ray may run backward and past p (section 3.5); only the distance it has travelled
        // bounds a branch (supplement 001 section 1.2: twice |p - s|).
        if (travel > maxTravel) continue;
      } else {
        // Alg. 1 line 25: |c - s| > |p - s| ends the branch, ahead of s or behind it.
        const reach = 1 + (tol.beyond * Math.sqrt(h2)) / rl;
        if (enterLo > reach || enterHi < -reach) continue;
      }
    }
    // Marked only now: a tet that a branch reached too far along the ray stays open to a branch
    // that reaches it in time (the ray's entry point into it depends on the face it came through).
    ws.mark(t);
    if (ws.trace) ws.trace[t] = fcode >= 0 ? fcode >> 2 : -1;

    const mask = exitFaceMask(proj, entry, eps);
    if ((mask & (mask - 1)) !== 0) stats[STAT_BRANCHINGS]++;
    for (let k = 0; k < 4; k++) {
      if ((mask & (1 << k)) === 0) continue;
      const n = nbr[o + k];
      if (n < 0) {
        stats[STAT_BOUNDARY_HITS]++; // this branch leaves the mesh: an invalid path (Fig. 4b)
        continue;
      }
      // Already entered: it would be skipped when popped (Alg. 1 line 15), so keep it off the stack.
      if (ws.wasEntered(n)) continue;
      if (top >= ws.faceStack.length && !ws.growFaceStacks()) return TRAVERSE_OVERFLOW;
      let next = travel;
      if (inversions) {
        // Travel across t: from where the ray entered to where it crosses exit face k.
        entryParameterRange(proj, k, eps, range);
        next += Math.max(0, range[0] - enterHi, enterLo - range[1]);
      }
      ws.tetStack[top] = n;
      ws.faceStack[top] = o + k;
      ws.travelStack[top] = next;
      top++;
    }
  }
  return TRAVERSE_FAIL;
}
