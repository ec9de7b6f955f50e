/**
 * Contact constraints of the collision stage, float64 CPU reference (paper 000 eq. 6; the
 * response rules of docs/collisions.md, identical on the GPU):
 *   C = (x - s) . n - offset >= 0,   x = sum_i wp_i x_i (the point), s = sum_k b_k x_k (its boundary point)
 * with n fixed when the contact is built and `offset` the contact thickness (SolverParams
 * contactOffset). Two sources append records each substep: the shortest path (DCD, appendDcd:
 * n the direction of the path, (s - x) / |s - x|, or the feature's normal where the path is too
 * short to give one) and CCD (src/collision/cpu/ccdCpu.ts). Group 0 holds the point-face contacts
 * (DCD's and CCD's vertex-triangle ones), group 1 CCD's edge-edge contacts, solved as a group of
 * their own after group 0 in every pass (as the GPU), their points moved along the two edges to the
 * lines' nearest points before each pass (followEdgePoints). Projected with XPBD in `contactIterations`
 * Jacobi passes: every contact of a group reads the positions at the group's start, each contact's
 * step is scaled by denom / sum(g_v w_v S_v), S_v the sum of v's weights over the group's contacts
 * violated at that start (mass splitting by use in the denominator), and the corrections are
 * summed per vertex. Each contact's corrections have zero mass-weighted sum (dx_i = w_i wp_i n
 * dlambda on the point, -w_k b_k n dlambda on the triangle), so momentum is conserved exactly.
 * Coulomb friction as the colliders': the relative tangential motion over the substep is cancelled
 * up to friction x the accumulated normal push, each contact's share of it split by friction's own
 * use F_v (the contacts violated or that pushed this substep) and over-relaxed (FRICTION_RELAXATION).
 */
import { closestPointOnTriangle, FEATURE_EDGE01, FEATURE_FACE } from '../../geometry/closestPointOnTriangle';
import { addTriangleAreaVector } from '../../geometry/triangleAreaVector';
import type { SpbMeshData } from '../../spb';
import { QUERY_FOUND } from '../../spb';
import { KIND_CENTROID, KIND_EDGE, sourceIndex, sourceKind, type CpuQueryList } from './queryList';
import type { CpuSpbResults } from './spbCpu';
import { holdThroughContact } from '../../contract/held';
import { rampedOffset } from '../contactOffset';
import { TOUCH_STRIDE, touchInverseMass } from '../../contract/colliderTouch';

/** Point-face contacts (DCD's and CCD's vertex-triangle ones). */
export const GROUP_POINT_FACE = 0;
/** CCD's edge-edge contacts: solved after the point-face group in every pass. */
export const GROUP_EDGE_EDGE = 1;

/**
 * A path shorter than this fraction of its triangle's longest edge gives no direction (the point
 * lies on the boundary up to rounding): the feature's normal is used (contactsBuild.wgsl too).
 */
export const PATH_DIRECTION_MIN_REL = 1e-3;

/**
 * Over-relaxation of a contact's share of the slide (successive over-relaxation of averaged
 * constraints, Macklin et al. 2014 section 4.2, omega 1.5): the share is
 * min(1, omega x denom / denomFriction), so a vertex under K contacts whose friction acts cancels
 * its slide in fewer passes without any one contact cancelling more than the whole of it
 * (shaders/contacts.wgsl FRICTION_RELAXATION).
 */
export const FRICTION_RELAXATION = 1.5;

/**
 * Edges nearer parallel than this squared sine of their angle keep their contact's weights
 * (CpuContacts.followEdgePoints; shaders/contacts.wgsl EDGE_FOLLOW_MIN_SIN2): their lines' nearest
 * points are ill-defined, and along them any pair is as near.
 */
export const EDGE_FOLLOW_MIN_SIN2 = 1e-6;

/**
 * `active` of a contact that only the round that made it solves (shaders/lib/contact.wgsl
 * CONTACT_DETECTING_ROUND_ONLY): an edge-edge CCD contact whose two edges' normal cones do not
 * meet (mutualCone.ts 'apart') between surfaces that do not face each other (ccdCpu.ts
 * APART_FACING_MIN_COS), kept with the edges' common perpendicular, which is no separating
 * direction of the surfaces. Solved again in the later rounds of SolverParams.collideEvery
 * 'contacts' (on records whose closest-point parameters were then fixed), its push along the slide braked
 * a frictionless block on a flat slab from 2.5 to 2.369 m/s in 0.25 s; solved in its own round
 * only, 2.475 (docs/collisions.md "Apart pairs in the later rounds"). The later rounds retire it
 * (retireDetectingRoundOnly); every other rule treats it as active (1).
 */
export const ACTIVE_DETECTING_ROUND_ONLY = 2;

/**
 * A vertex counts as pushed (CpuContacts.pushed) where its weight in the pushing contact is at least
 * this: the point's or the triangle's vertex nearest the contact. An edge that crosses a face near
 * one end marks that end only; marking every corner with a weight held the far ends of a sliver's
 * edges too, and a sliver whose four corners are held cannot be lifted
 * (tests/unit/collision/sliverLiftHolding.test.ts). GPU twin: contacts.wgsl PUSHED_WEIGHT.
 */
export const PUSHED_WEIGHT = 0.5;

export class CpuContacts {
  count = 0;
  /** 4 per contact: point vertices (-1 unused) and their weights wp. */
  pointVertex = new Int32Array(256);
  pointWeight = new Float64Array(256);
  /** 3 per contact: the boundary triangle's vertices (edge-edge: 2, the third -1) and the barycentrics b of s. */
  triVertex = new Int32Array(192);
  triBary = new Float64Array(192);
  normal = new Float64Array(192);
  /** Per contact: the separation it keeps, C = (x - s) . n - offset >= 0. */
  offset = new Float64Array(64);
  /** Per contact: GROUP_POINT_FACE or GROUP_EDGE_EDGE. */
  group = new Uint8Array(64);
  /** Accumulated normal push (a distance) and tangential correction spent, per contact. */
  lambdaN = new Float64Array(64);
  frictionUsed = new Float64Array(64);
  active = new Uint8Array(64);
  /**
   * Edge-edge contacts' points follow their edges in every pass (followEdgePoints); false: fixed at
   * the time of impact's parameters, as before (tests compare: edgeContactsFollow.test.ts).
   */
  followEdges = true;
  /** Per vertex, this pass: the sum of its weights over the contacts violated at the pass's start (its use, S_v). */
  readonly vertexContacts: Float64Array;
  /**
   * Per vertex, this pass: the sum of its weights over the contacts whose friction acts (violated
   * at the pass's start, or pushed earlier this substep: lambdaN > 0): friction's own use F_v.
   */
  readonly vertexFrictionContacts: Float64Array;
  /**
   * Per vertex: 1 once a contact pushed it (a normal step, dlambda > 0) with a weight of at least
   * PUSHED_WEIGHT in the contact (its point's or its triangle's vertex nearest the contact), until the
   * collision stage's liftSlivers clears them at the substep's end; the sliver lift
   * 'holding-contacts' holds these still (GPU twin: CONTACT_PUSHED in the vertex's touch word,
   * shaders/lib/colliderTouch.wgsl). Marked only while `markPushed`.
   */
  readonly pushed: Uint8Array;
  /**
   * Whether the passes mark `pushed`: set by the collision stage for sliverLift 'holding-contacts',
   * the only reader (the GPU twin skips its atomicOr the same way: ContactParams.markPushed).
   */
  markPushed = false;
  /**
   * Per vertex (3 numbers): the sum of the signed unit normals of the active contacts between two
   * bodies (point and triangle of different objects) that it is part of, +n on the point's
   * vertices, -n on the triangle's (each vertex with a weight > 0): the way those contacts hold it.
   * Filled by sumPushDirections for the sliver lift 'clipped-to-contacts', its only reader (GPU
   * twin: contacts.wgsl sumPushDirections, into the push-direction words of the status buffer,
   * shaders/lib/pushDirection.wgsl).
   */
  readonly pushDirection: Float64Array;
  private readonly acc: Float64Array;
  /** Per vertex: the pass's shift of the start positions (split impulse), applied with acc. */
  private readonly accPrev: Float64Array;
  private readonly cpt = new Float64Array(6);
  private readonly mesh: { tets: Uint32Array; boundaryEdges: Uint32Array; vertexObject?: Uint32Array };
  private readonly data: SpbMeshData;

  constructor(mesh: { tets: Uint32Array; boundaryEdges: Uint32Array; vertexCount: number; vertexObject?: Uint32Array }, data: SpbMeshData) {
    this.mesh = mesh;
    this.data = data;
    this.vertexContacts = new Float64Array(mesh.vertexCount);
    this.vertexFrictionContacts = new Float64Array(mesh.vertexCount);
    this.pushed = new Uint8Array(mesh.vertexCount);
    this.pushDirection = new Float64Array(3 * mesh.vertexCount);
    this.acc = new Float64Array(3 * mesh.vertexCount);
    this.accPrev = new Float64Array(3 * mesh.vertexCount);
  }

  /** Room for n contacts, keeping the first `count`. */
  private reserve(n: number): void {
    if (this.lambdaN.length >= n) return;
    const c = Math.max(n, 2 * this.lambdaN.length);
    const grow = <T extends Float64Array | Int32Array | Uint8Array>(a: T, per: number): T => {
      const b = new (a.constructor as new (n: number) => T)(per * c);
      b.set(a.subarray(0, per * this.count));
      return b;
    };
    this.pointVertex = grow(this.pointVertex, 4);
    this.pointWeight = grow(this.pointWeight, 4);
    this.triVertex = grow(this.triVertex, 3);
    this.triBary = grow(this.triBary, 3);
    this.normal = grow(this.normal, 3);
    this.offset = grow(this.offset, 1);
    this.group = grow(this.group, 1);
    this.lambdaN = grow(this.lambdaN, 1);
    this.frictionUsed = grow(this.frictionUsed, 1);
    this.active = grow(this.active, 1);
  }

  /** A later round of SolverParams.collideEvery 'contacts': the contacts that only their own round solves are inactive from now on (ACTIVE_DETECTING_ROUND_ONLY). */
  retireDetectingRoundOnly(): void {
    for (let i = 0; i < this.count; i++) if (this.active[i] === ACTIVE_DETECTING_ROUND_ONLY) this.active[i] = 0;
  }

  /** Forgets the substep's contacts. */
  clear(): void {
    this.count = 0;
  }

  /** A new inactive record at the end (no point, no triangle); returns its index. */
  private next(group: number, offset: number): number {
    this.reserve(this.count + 1);
    const i = this.count++;
    for (let k = 0; k < 4; k++) { this.pointVertex[4 * i + k] = -1; this.pointWeight[4 * i + k] = 0; }
    for (let k = 0; k < 3; k++) { this.triVertex[3 * i + k] = -1; this.triBary[3 * i + k] = 0; this.normal[3 * i + k] = 0; }
    this.group[i] = group;
    this.offset[i] = offset;
    this.active[i] = 0;
    this.lambdaN[i] = 0;
    this.frictionUsed[i] = 0;
    return i;
  }

  /**
   * Appends an active contact: point vertices `pv` with weights `pw` (up to 4), boundary vertices
   * `tv` with barycentrics `tb` (up to 3), unit normal n (pointing from the boundary to the point).
   */
  append(group: number, offset: number, pv: readonly number[], pw: readonly number[], tv: readonly number[], tb: readonly number[], nx: number, ny: number, nz: number): number {
    const i = this.next(group, offset);
    for (let k = 0; k < pv.length; k++) { this.pointVertex[4 * i + k] = pv[k]; this.pointWeight[4 * i + k] = pw[k]; }
    for (let k = 0; k < tv.length; k++) { this.triVertex[3 * i + k] = tv[k]; this.triBary[3 * i + k] = tb[k]; }
    this.normal[3 * i] = nx;
    this.normal[3 * i + 1] = ny;
    this.normal[3 * i + 2] = nz;
    this.active[i] = 1;
    return i;
  }

  /** Adds triangle f's area vector (v1 - v0) x (v2 - v0) at positions x to n[o..o+2]. */
  private addAreaVector(x: Float64Array, f: number, n: Float64Array, o: number): void {
    const t = this.data.triangles;
    addTriangleAreaVector(x, t[3 * f], t[3 * f + 1], t[3 * f + 2], n, o);
  }

  /** Clears the substep's contacts, then appendDcd (one record per query index). Returns the active count. */
  build(x: Float64Array, list: CpuQueryList, res: CpuSpbResults, offset = 0): number {
    this.clear();
    return this.appendDcd(x, list, res, offset);
  }

  /**
   * One record per query (inactive where the query found no path or no normal), built at positions
   * x after the shortest-path pass: the point, s on its triangle (barycentrics), and n the unit
   * direction of the path (s - x) / |s - x| (Theorem 2: it lies in the normal cone of s's feature;
   * on a face it is the face's normal), or, where the path is shorter than PATH_DIRECTION_MIN_REL of
   * the triangle's longest edge, the outward normal by feature (face: its normal; edge: the sum of
   * the two faces' area vectors; vertex: the sum of its faces' area vectors, eq. 6's average).
   * `offset`: the separation kept between objects; `selfOffset` where the point and its triangle are
   * of one object (contactOffset.ts selfContactOffset).
   */
  appendDcd(x: Float64Array, list: CpuQueryList, res: CpuSpbResults, offset: number, selfOffset = offset): number {
    const n = list.count;
    const { tets, boundaryEdges } = this.mesh;
    const d = this.data;
    let active = 0;
    for (let q = 0; q < n; q++) {
      const i = this.next(GROUP_POINT_FACE, offset);
      if (res.status[q] !== QUERY_FOUND) continue;
      const src = list.source[q], kind = sourceKind(src), id = sourceIndex(src);
      if (kind === KIND_EDGE) {
        this.pointVertex[4 * i] = boundaryEdges[2 * id];
        this.pointVertex[4 * i + 1] = boundaryEdges[2 * id + 1];
        this.pointWeight[4 * i] = 1 - list.param[q];
        this.pointWeight[4 * i + 1] = list.param[q];
      } else if (kind === KIND_CENTROID) {
        for (let k = 0; k < 4; k++) { this.pointVertex[4 * i + k] = tets[4 * id + k]; this.pointWeight[4 * i + k] = 0.25; }
      } else {
        this.pointVertex[4 * i] = id;
        this.pointWeight[4 * i] = 1;
      }
      const f = res.triangle[q], feature = res.feature[q];
      const t0 = d.triangles[3 * f], t1 = d.triangles[3 * f + 1], t2 = d.triangles[3 * f + 2];
      const objects = this.mesh.vertexObject;
      if (objects && objects[this.pointVertex[4 * i]] === objects[t0]) this.offset[i] = selfOffset;
      this.triVertex[3 * i] = t0;
      this.triVertex[3 * i + 1] = t1;
      this.triVertex[3 * i + 2] = t2;
      const sx = res.s[3 * q], sy = res.s[3 * q + 1], sz = res.s[3 * q + 2];
      // Barycentrics of s on its triangle: s is its own closest point there.
      closestPointOnTriangle(sx, sy, sz, x[3 * t0], x[3 * t0 + 1], x[3 * t0 + 2], x[3 * t1], x[3 * t1 + 1], x[3 * t1 + 2], x[3 * t2], x[3 * t2 + 1], x[3 * t2 + 2], this.cpt);
      for (let k = 0; k < 3; k++) this.triBary[3 * i + k] = this.cpt[3 + k];
      const nv = this.normal;
      const o = 3 * i;
      // The path's own direction, where it has one and s is not inside a face (there the face's
      // normal is the same direction without the rounding of a short path).
      const dx = sx - list.px[q], dy = sy - list.py[q], dz = sz - list.pz[q];
      const path = Math.hypot(dx, dy, dz);
      if (feature !== FEATURE_FACE && path > PATH_DIRECTION_MIN_REL * this.longestEdge(x, f)) {
        nv[o] = dx / path; nv[o + 1] = dy / path; nv[o + 2] = dz / path;
        this.active[i] = 1;
        active++;
        continue;
      }
      this.addAreaVector(x, f, nv, o);
      if (feature !== FEATURE_FACE && feature >= FEATURE_EDGE01) {
        const across = d.triangleEdgeNeighbor[3 * f + feature - FEATURE_EDGE01];
        if (across >= 0) this.addAreaVector(x, across, nv, o);
      } else if (feature !== FEATURE_FACE) {
        const v = d.triangles[3 * f + feature];
        nv[o] = nv[o + 1] = nv[o + 2] = 0;
        for (let j = d.vertexTriangleOffsets[v]; j < d.vertexTriangleOffsets[v + 1]; j++) this.addAreaVector(x, d.vertexTriangles[j], nv, o);
      }
      const len = Math.hypot(nv[o], nv[o + 1], nv[o + 2]);
      if (!(len > 0)) continue;
      for (let k = 0; k < 3; k++) nv[o + k] /= len;
      this.active[i] = 1;
      active++;
    }
    return active;
  }

  private longestEdge(x: Float64Array, f: number): number {
    const t = this.data.triangles;
    let best = 0;
    for (let k = 0; k < 3; k++) {
      const a = 3 * t[3 * f + k], b = 3 * t[3 * f + ((k + 1) % 3)];
      best = Math.max(best, Math.hypot(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]));
    }
    return best;
  }

  /**
   * Lowers the offset of each active contact in [from, to) to rampedOffset(offset, gap at x0, step,
   * floor, depenetration) (SolverParams.contactOffsetSpeed, depenetrationSpeed): surfaces that
   * start nearer than delta open the layer by `step` in this build, and a depth they start with
   * goes by at most `depenetration`. x0: the substep's start positions. Both Infinity: every offset
   * stays.
   */
  rampOffsets(x0: Float64Array, step: number, floor: number, depenetration: number, from = 0, to = this.count, skip: readonly number[] = []): void {
    if (!(step < Infinity) && !(depenetration < Infinity)) return;
    // `skip`: ascending contact ids ramped elsewhere (exit contacts, ccdCpu.ts, from their end positions).
    let k = 0;
    for (let i = from; i < to; i++) {
      while (k < skip.length && skip[k] < i) k++;
      if (k < skip.length && skip[k] === i) continue;
      this.rampOffset(i, x0, step, floor, depenetration);
    }
  }

  /** rampOffsets for contact i alone, its starting gap read at positions `start`. */
  rampOffset(i: number, start: Float64Array, step: number, floor: number, depenetration: number): void {
    if (!this.active[i] || (!(step < Infinity) && !(depenetration < Infinity))) return;
    const delta = this.offset[i];
    // gap() + delta: (q - r) . n at `start`, before any offset.
    this.offset[i] = rampedOffset(delta, this.gap(start, i) + delta, step, floor, depenetration);
  }

  /** Contacts of group g (active ones), for the counters. */
  activeCount(g?: number): number {
    let n = 0;
    for (let i = 0; i < this.count; i++) if (this.active[i] && (g === undefined || this.group[i] === g)) n++;
    return n;
  }

  /** The contact's C = (x - s) . n - offset at positions x. */
  gap(x: Float64Array, i: number): number {
    const { pointVertex: pv, pointWeight: pw, triVertex: tv, triBary: tb, normal: nv } = this;
    let cx = 0, cy = 0, cz = 0;
    for (let k = 0; k < 4; k++) {
      const g = pw[4 * i + k];
      if (g === 0) continue;
      const v = pv[4 * i + k];
      cx += g * x[3 * v]; cy += g * x[3 * v + 1]; cz += g * x[3 * v + 2];
    }
    for (let k = 0; k < 3; k++) {
      const b = tb[3 * i + k];
      if (b === 0) continue;
      const v = tv[3 * i + k];
      cx -= b * x[3 * v]; cy -= b * x[3 * v + 1]; cz -= b * x[3 * v + 2];
    }
    return cx * nv[3 * i] + cy * nv[3 * i + 1] + cz * nv[3 * i + 2] - this.offset[i];
  }

  /**
   * Each pass's uses (shaders/contacts.wgsl countContact): S_v, the sum of v's weights over the
   * group's contacts violated (C < 0) at the positions x, for the push; F_v, the same over the
   * contacts violated or that pushed earlier in the substep (lambdaN > 0), for the friction.
   * A resting contact pushed to its gap by the first pass is no longer violated, yet its friction
   * still acts in every later pass: counted only in S_v, K such contacts at a vertex would each
   * cancel the whole slide, K times too much, and the passes oscillate tangentially
   * (docs/collisions.md "Static friction between bodies", probe 5).
   */
  private countUses(x: Float64Array, g: number): void {
    const use = this.vertexContacts;
    const frictionUse = this.vertexFrictionContacts;
    use.fill(0);
    frictionUse.fill(0);
    const { pointVertex: pv, pointWeight: pw, triVertex: tv, triBary: tb } = this;
    for (let i = 0; i < this.count; i++) {
      if (!this.active[i] || this.group[i] !== g) continue;
      const violated = this.gap(x, i) < 0;
      if (!violated && !(this.lambdaN[i] > 0)) continue;
      for (let k = 0; k < 4; k++) {
        const wp = pw[4 * i + k];
        if (wp === 0) continue;
        frictionUse[pv[4 * i + k]] += wp;
        if (violated) use[pv[4 * i + k]] += wp;
      }
      for (let k = 0; k < 3; k++) {
        const b = tb[3 * i + k];
        if (b === 0) continue;
        frictionUse[tv[3 * i + k]] += b;
        if (violated) use[tv[3 * i + k]] += b;
      }
    }
  }

  /**
   * Set by CpuCollisionStage for the substep's last round with sliverLift 'with-contacts': the
   * sliver lift on the positions, run between the contact passes (GPU twin: ContactStage.betweenPasses).
   */
  betweenPasses?: () => void;

  /**
   * `passes` Jacobi passes over the active contacts at positions x; x0: the substep's start
   * positions (friction's motion), w: inverse masses. Each pass: the point-face group, then the
   * edge-edge group, each from the positions the previous one left. `betweenPasses`, when set, runs
   * before each pass after the first (the sliver lift with the contacts, SolverParams.sliverLift).
   */
  solve(x: Float64Array, x0: Float64Array, w: Float64Array, friction: number, passes: number, held?: Uint8Array, touch?: Float64Array): void {
    let groups = 0;
    for (let i = 0; i < this.count; i++) if (this.active[i]) groups |= 1 << this.group[i];
    for (let pass = 0; pass < passes; pass++) {
      if (pass > 0) this.betweenPasses?.();
      for (const g of [GROUP_POINT_FACE, GROUP_EDGE_EDGE]) if (groups & (1 << g)) this.solveGroup(x, x0, w, friction, g, held, touch);
    }
  }

  /**
   * pushDirection from the contacts as they stand (the sliver lift 'clipped-to-contacts' calls it
   * after the substep's last round): cleared, then each active contact between two bodies adds its
   * normal to its point's vertices and subtracts it from its triangle's, those with a weight > 0.
   */
  sumPushDirections(): Float64Array {
    const d = this.pushDirection, objects = this.mesh.vertexObject;
    d.fill(0);
    if (!objects) return d;
    const pv = this.pointVertex, pw = this.pointWeight, tv = this.triVertex, tb = this.triBary;
    for (let i = 0; i < this.count; i++) {
      if (!this.active[i] || objects[pv[4 * i]] === objects[tv[3 * i]]) continue;
      const nx = this.normal[3 * i], ny = this.normal[3 * i + 1], nz = this.normal[3 * i + 2];
      for (let k = 0; k < 4; k++) {
        const v = pv[4 * i + k];
        if (v < 0 || pw[4 * i + k] === 0) continue;
        d[3 * v] += nx; d[3 * v + 1] += ny; d[3 * v + 2] += nz;
      }
      for (let k = 0; k < 3; k++) {
        const v = tv[3 * i + k];
        if (v < 0 || tb[3 * i + k] === 0) continue;
        d[3 * v] -= nx; d[3 * v + 1] -= ny; d[3 * v + 2] -= nz;
      }
    }
    return d;
  }

  /**
   * Adds f g (and f n recover to the start position) to vertex v's sums; where v rests on a
   * collider the contact pushes it into (touchInverseMass), only their part along that collider's
   * surface (src/contract/colliderTouch.ts).
   */
  private addShare(v: number, f: number, gx: number, gy: number, gz: number, n: readonly [number, number, number], recover: number, side: number, touch?: Float64Array): void {
    const acc = this.acc, accPrev = this.accPrev;
    let rx = n[0] * recover, ry = n[1] * recover, rz = n[2] * recover;
    if (touch && touchInverseMass(1, touch, v, n[0], n[1], n[2], side) < 1) {
      const o = TOUCH_STRIDE * v, bx = touch[o], by = touch[o + 1], bz = touch[o + 2];
      const gb = gx * bx + gy * by + gz * bz, rb = rx * bx + ry * by + rz * bz;
      gx -= gb * bx; gy -= gb * by; gz -= gb * bz;
      rx -= rb * bx; ry -= rb * by; rz -= rb * bz;
    }
    acc[3 * v] += f * gx; acc[3 * v + 1] += f * gy; acc[3 * v + 2] += f * gz;
    if (recover > 0) { accPrev[3 * v] += f * rx; accPrev[3 * v + 1] += f * ry; accPrev[3 * v + 2] += f * rz; }
  }

  /**
   * Edge-edge contacts' points follow their edges (docs/collisions.md "Edge-edge contacts follow
   * their edges"; GPU twin shaders/contacts.wgsl followEdgePoints): before each pass of the group,
   * where the two edges' lines are nearest at parameters inside both edges at x, those parameters
   * become the points' weights; nearly parallel edges (|u x v|^2 <= EDGE_FOLLOW_MIN_SIN2 |u|^2 |v|^2)
   * and lines nearest beyond an end keep the weights they have. Fixed at the time of impact's
   * parameters, the points of two edges that turn and slide within the substep met the contact
   * (C >= 0) while the edges passed through each other elsewhere along them.
   */
  private followEdgePoints(x: Float64Array): void {
    const { pointVertex: pv, pointWeight: pw, triVertex: tv, triBary: tb } = this;
    for (let i = 0; i < this.count; i++) {
      if (!this.active[i] || this.group[i] !== GROUP_EDGE_EDGE) continue;
      const a0 = 3 * pv[4 * i], a1 = 3 * pv[4 * i + 1], b0 = 3 * tv[3 * i], b1 = 3 * tv[3 * i + 1];
      const ux = x[a1] - x[a0], uy = x[a1 + 1] - x[a0 + 1], uz = x[a1 + 2] - x[a0 + 2];
      const vx = x[b1] - x[b0], vy = x[b1 + 1] - x[b0 + 1], vz = x[b1 + 2] - x[b0 + 2];
      const rx = x[a0] - x[b0], ry = x[a0 + 1] - x[b0 + 1], rz = x[a0 + 2] - x[b0 + 2];
      const uu = ux * ux + uy * uy + uz * uz, uv = ux * vx + uy * vy + uz * vz, vv = vx * vx + vy * vy + vz * vz;
      const ur = ux * rx + uy * ry + uz * rz, vr = vx * rx + vy * ry + vz * rz;
      const mx = uy * vz - uz * vy, my = uz * vx - ux * vz, mz = ux * vy - uy * vx;
      const den = mx * mx + my * my + mz * mz;
      if (!(den > EDGE_FOLLOW_MIN_SIN2 * uu * vv)) continue;
      const sa = (uv * vr - vv * ur) / den, sb = (uu * vr - uv * ur) / den;
      if (!(sa >= 0 && sa <= 1 && sb >= 0 && sb <= 1)) continue;
      pw[4 * i] = 1 - sa; pw[4 * i + 1] = sa;
      tb[3 * i] = 1 - sb; tb[3 * i + 1] = sb;
    }
  }

  /**
   * `held` (per object, src/contract/held.ts): a contact that pushed and still has friction budget after
   * its step (sticking) holds each of its two objects if the other was held in the last substep.
   */
  private solveGroup(x: Float64Array, x0: Float64Array, w: Float64Array, friction: number, g: number, held?: Uint8Array, touch?: Float64Array): void {
    const acc = this.acc;
    const accPrev = this.accPrev;
    const { pointVertex: pv, pointWeight: pw, triVertex: tv, triBary: tb, normal: nv } = this;
    const n: [number, number, number] = [0, 0, 0];
    if (g === GROUP_EDGE_EDGE && this.followEdges) this.followEdgePoints(x);
    this.countUses(x, g);
    for (let i = 0; i < this.count; i++) {
      if (!this.active[i] || this.group[i] !== g) continue;
      const nx = nv[3 * i], ny = nv[3 * i + 1], nz = nv[3 * i + 2];
      n[0] = nx; n[1] = ny; n[2] = nz;
      // Point and boundary point now and at the substep's start; denominator; scale. Inverse
      // masses along n: a vertex this contact would push into a collider it rests on has less
      // (src/contract/colliderTouch.ts).
      let px = 0, py = 0, pz = 0, qx = 0, qy = 0, qz = 0, denom = 0, denomSplit = 0, denomFriction = 0;
      for (let k = 0; k < 4; k++) {
        const wp = pw[4 * i + k];
        if (wp === 0) continue;
        const v = pv[4 * i + k];
        px += wp * x[3 * v]; py += wp * x[3 * v + 1]; pz += wp * x[3 * v + 2];
        qx += wp * x0[3 * v]; qy += wp * x0[3 * v + 1]; qz += wp * x0[3 * v + 2];
        const wv = touchInverseMass(w[v], touch, v, nx, ny, nz, 1);
        denom += wp * wp * wv;
        denomSplit += Math.max(wp, this.vertexContacts[v]) * wp * wv;
        denomFriction += Math.max(wp, this.vertexFrictionContacts[v]) * wp * wv;
      }
      let sx = 0, sy = 0, sz = 0, rx = 0, ry = 0, rz = 0;
      for (let k = 0; k < 3; k++) {
        const b = tb[3 * i + k];
        if (b === 0) continue;
        const v = tv[3 * i + k];
        sx += b * x[3 * v]; sy += b * x[3 * v + 1]; sz += b * x[3 * v + 2];
        rx += b * x0[3 * v]; ry += b * x0[3 * v + 1]; rz += b * x0[3 * v + 2];
        const wv = touchInverseMass(w[v], touch, v, nx, ny, nz, -1);
        denom += b * b * wv;
        denomSplit += Math.max(b, this.vertexContacts[v]) * b * wv;
        denomFriction += Math.max(b, this.vertexFrictionContacts[v]) * b * wv;
      }
      if (!(denom > 0)) continue;
      // Mass splitting in the denominator only (shaders/contacts.wgsl): momentum stays exact.
      const scale = denom / denomSplit;
      const C = (px - sx) * nx + (py - sy) * ny + (pz - sz) * nz - this.offset[i];
      // Correction along n (dlambda > 0 pushes the point out) and along the tangent t.
      let dl = 0;
      // Split impulse: the part of the push that removes depth the contact already had at the
      // substep's start moves the start positions too, so it adds no velocity (v = (x - x0) / h).
      // A pre-existing penetration (unresolved earlier, or a tangled start) is then separated,
      // not launched: without it a collapsing cube's folds gained 12 J from 0.01 J. Recovery mode
      // (section 5.2) too: pushing with velocity there, as the paper does, untangled a strip in 11
      // substeps instead of 15, but wrecked three sunk spheres at 20 substeps (4,600 of 10,440 tets
      // inverted; docs/collisions.md "Split impulse").
      let recover = 0;
      if (C < 0) {
        dl = (-C / denom) * scale;
        const push = dl * denom;
        this.lambdaN[i] += push;
        // The depth still there at the start positions x0, which earlier passes' split parts
        // have already moved out: subtracting what they recovered as well counted it twice, and
        // about half of a depth that took several passes became velocity (docs/collisions.md
        // "Depenetration speed").
        const depth0 = this.offset[i] - ((qx - rx) * nx + (qy - ry) * ny + (qz - rz) * nz);
        const q = Math.min(push, depth0);
        if (q > 0) recover = (q / push) * dl;
      }
      let dt = 0, tx = 0, ty = 0, tz = 0;
      const budget = friction * this.lambdaN[i] - this.frictionUsed[i];
      if (budget > 0) {
        const dx = px - qx - (sx - rx), dy = py - qy - (sy - ry), dz = pz - qz - (sz - rz);
        const dn = dx * nx + dy * ny + dz * nz;
        tx = dx - dn * nx; ty = dy - dn * ny; tz = dz - dn * nz;
        const tl = Math.hypot(tx, ty, tz);
        // This contact's share of the slide (split by friction's use F_v, over-relaxed by
        // FRICTION_RELAXATION and capped at the whole slide), limited by its Coulomb budget
        // (lambdaN holds its scaled pushes).
        const share = Math.min(1, FRICTION_RELAXATION * denom / denomFriction);
        const cut = Math.min(tl * share, budget);
        if (cut > 0) {
          dt = cut / denom;
          tx /= tl; ty /= tl; tz /= tl;
          this.frictionUsed[i] += cut;
        }
      }
      const objects = this.mesh.vertexObject;
      if (held && objects && this.lambdaN[i] > 0 && friction * this.lambdaN[i] - this.frictionUsed[i] > 0) holdThroughContact(held, objects[pv[4 * i]], objects[tv[3 * i]]);
      if (dl === 0 && dt === 0) continue;
      // Point vertices move along +n dl - t dt, triangle vertices the opposite way.
      const gx = nx * dl - tx * dt, gy = ny * dl - ty * dt, gz = nz * dl - tz * dt;
      const pushes = this.markPushed && dl > 0;
      for (let k = 0; k < 4; k++) {
        const wp = pw[4 * i + k];
        if (wp === 0) continue;
        if (pushes && wp >= PUSHED_WEIGHT) this.pushed[pv[4 * i + k]] = 1;
        this.addShare(pv[4 * i + k], w[pv[4 * i + k]] * wp, gx, gy, gz, n, recover, 1, touch);
      }
      for (let k = 0; k < 3; k++) {
        const b = tb[3 * i + k];
        if (b === 0) continue;
        if (pushes && b >= PUSHED_WEIGHT) this.pushed[tv[3 * i + k]] = 1;
        this.addShare(tv[3 * i + k], -w[tv[3 * i + k]] * b, gx, gy, gz, n, recover, -1, touch);
      }
    }
    for (let j = 0; j < acc.length; j++) {
      if (acc[j] !== 0) {
        x[j] += acc[j];
        acc[j] = 0;
      }
      if (accPrev[j] !== 0) {
        x0[j] += accPrev[j];
        accPrev[j] = 0;
      }
    }
  }
}
