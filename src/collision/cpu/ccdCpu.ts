/**
 * The CCD stage of one substep on the CPU, float64 (supplement Alg. 5 lines 13-16): the twin of
 * shaders/ccdNarrow.wgsl with the same contact rules (docs/collisions.md "CCD contacts"), and the
 * oracle the GPU stage is tested against.
 *
 * Candidates: unlike the GPU, whose broad phase runs once per frame in a worker on boxes swept
 * over a horizon (and can miss motion that leaves them, counted as escapes), the reference finds
 * its candidates every substep from the motion itself: each vertex's box is the hull of its start
 * and end positions grown by the separation, so a pair whose linear motions come within the
 * separation always has overlapping boxes (ccdCandidates, broadPhase.ts). Nothing can escape.
 * With SolverParams.ccdEveryRound the later rounds search no candidates: they test the pairs the
 * detecting round listed within their reach (run's `near`, runListed), as the GPU's do.
 *
 * Narrow phase per candidate (src/collision/ccd/separationCcd.ts, the float64 twin of
 * shaders/lib/ccd.wgsl): the first time the pair comes within the separation over the motion from
 * the substep's start (x0) to after the material solve (x1). A hit makes a contact (contactsCpu.ts)
 * taken at toi:
 *   vertex-triangle: s the closest point of the triangle; n its outward face normal, or, where s
 *     lies on an edge or a vertex of the triangle and the vertex is in front of the face, the
 *     direction from s to the vertex (no torque: x - s parallel to n) kept inside that feature's
 *     normal cone on the surface (ccd/featureNormal.ts); none when the vertex was behind the
 *     face's plane at t0 by more than the separation, nor when it was directly behind the face
 *     (its closest point inside the triangle) by more than BEHIND_FACE_REL of the separation
 *     without being inside the tet behind it: it lies beyond a part thinner than the separation
 *     (a crushed wall), on the solid side of this face; but a vertex released from Pin
 *     (SolverParams.pinRelease, pinMark.ts PIN_RELEASED) that was behind the face at t0 and is in
 *     front of it at t1 came out through it: an exit contact, taken at t1 (s, n and the gap its
 *     offset opens from all at t1, where the vertex is outside);
 *   edge-edge: the closest points of the two edges (none within EE_END_PARAM of an end; with
 *     SolverParams.ccdEdgeInterior searched over the edges' interiors, ccd/interiorEdges.ts, and at
 *     an end of an interior n is the gap between the closest points where it exceeds
 *     EDGE_SIDE_MIN_REL of the separation), n their common normal, on the side edge a was at t0
 *     when that gap is clear (> EDGE_SIDE_MIN_REL of the separation), else on the side the
 *     surfaces' outward normals at the two edges say;
 *   both: n also in the point side's cone (ccd/mutualCone.ts: a vertex or an internal edge of a
 *     flat surface has one normal).
 */
import { closestPointOnTriangle, FEATURE_FACE } from '../../geometry/closestPointOnTriangle';
import type { TetMesh } from '../../mesh/types';
import { ccdCandidates, ccdTopologyOf, roundDown, roundUp, type CcdTopology } from '../ccd/broadPhase';
import { ccdWithin } from '../ccd/separationCcd';
import { besideFeature, featureConeNormal, nearestOnPointSide } from '../ccd/featureNormal';
import { mutualEdgeCone, mutualVertexCone, type MutualConeTopology } from '../ccd/mutualCone';
import { trianglesAcross } from '../trianglesAcross';
import { segmentClosestParams } from '../ccd/segmentClosest';
import { EE_END_PARAM, interiorEdgeParams, interiorEdgeQuery } from '../ccd/interiorEdges';
import type { CcdFrameCounters } from '../counters';
import { pairBoxGap } from '../ccd/laterRounds';
import { strictlyInside, tetVolume6 } from './tetGeometry';
import { markInvertedBoundaryVertices } from './invertedBoundary';
import { ACTIVE_DETECTING_ROUND_ONLY, CpuContacts, GROUP_EDGE_EDGE, GROUP_POINT_FACE, PATH_DIRECTION_MIN_REL } from './contactsCpu';
import { PIN_RELEASED, pinSkips } from '../pinMark';

/**
 * An edge-edge CCD contact whose two normal cones do not meet (mutualCone.ts 'apart') keeps its
 * contact in the later rounds of SolverParams.collideEvery 'contacts' only where the two surfaces
 * face each other: their edges' summed normals more than acos(0.1), about 84 degrees, apart. There
 * the edges' common perpendicular still pushes the surfaces apart, and the later rounds hold the
 * pair: on the default 4-octopus box, retiring every apart pair after its round took DCD hits
 * between octopi from 30 / 1,763 (vertex / edge, 56 frames) to 234 / 4,260, and retiring only the
 * non-facing ones gave 8 / 780. Where they do not face each other (a block's side face over a slab,
 * cos 0), the push runs along one of the surfaces and each later round braked a frictionless slide
 * (2.5 -> 2.369 m/s in 0.25 s; solved in its own round only, 2.475). docs/collisions.md "Apart
 * pairs that face each other".
 */
export const APART_FACING_MIN_COS = 0.1;

/**
 * A vertex directly behind a face at t0 (its closest point inside the triangle) by more than this
 * fraction of the separation, and not inside the tet behind the face, gets no contact with it: it
 * lies beyond a part thinner than the separation, the other surface of a wall crushed that thin.
 * Its contact held the wall's thickness from growing at every build (a ratchet against the
 * material), and a GlassBox.t dropped at 30 m/s gained 2 MJ that way (docs/collisions.md
 * "Contacts across a crushed wall"). The fraction leaves rounding at a resting face (a DCD push leaves
 * 0 +- 1e-7) its contact; a vertex that deep in the tet behind the face keeps it (ccd mode's
 * only way to hold a penetration; in hybrid mode such a vertex is Pin, DCD's).
 */
export const BEHIND_FACE_REL = 0.01;
/** An edge-edge contact takes its side from the gap at t0 only when it exceeds this fraction of the separation. */
export const EDGE_SIDE_MIN_REL = 0.25;

/**
 * The pairs that already have a CCD contact in the substep (SolverParams.ccdEveryRound): keys
 * vertex x triangles + triangle and edge a x edges + edge b. A later round skips them (the GPU's
 * per-candidate marks, ccdNarrow.wgsl CCD_LATER_ROUND).
 */
export interface CcdPairsInContact {
  vertexFace: Set<number>;
  edgeEdge: Set<number>;
}

/**
 * The pairs a detecting round found within the later rounds' reach (SolverParams.ccdEveryRound;
 * ccd/laterRounds.ts), flat: vertex, triangle, ... and edge a, edge b, .... The later rounds test
 * these again (CpuCcd.runListed) instead of finding candidates anew.
 */
export interface CcdNearList {
  vertexFace: number[];
  edgeEdge: number[];
}

export class CpuCcd {
  readonly topology: CcdTopology;
  private readonly mesh: TetMesh;
  private readonly objects: Uint32Array;
  private boxes: Float32Array;
  /** With a near list: the boxes grown by the later rounds' reach. */
  private wideBoxes = new Float32Array(0);
  /** The vertices' boxes grown by twice the self separation (run): the same-object pairs' own filter. */
  private selfBoxes = new Float32Array(0);
  private readonly q = new Float64Array(24);
  private readonly qInterior = new Float64Array(24);
  private readonly cpt = new Float64Array(6);
  /** strictlyInside's 4 words. */
  private readonly insideScratch = new Float64Array(4);

  /**
   * The exit contacts (pinRelease) the last run or runListed appended, ascending contact ids: their
   * offsets open from the gap at the motion's end (CpuCollisionStage ramps them).
   */
  readonly exitContacts: number[] = [];
  /** The Pin marks of the substep (run's `pin`), read for PIN_RELEASED in this and the later rounds; null: none. */
  private pinMarks: Uint8Array | null = null;

  /** Edge and vertex features' normals kept in their normal cones (featureNormal.ts); false: the path direction alone, as before (tests compare). */
  coneNormals = true;
  /** SolverParams.pinByKind: a Pin point skips only the pairs of its mark's kind (pinMark.ts); false: all its pairs (Alg. 5 as written). */
  pinByKind = false;
  /** The mutual normal cone rule (mutualCone.ts); false: the triangle side's cone alone, as before (tests compare). */
  mutualCones = true;
  /** An apart edge-edge pair of surfaces that face each other keeps its contact in the later rounds (surfacesFace); false: every apart pair's contact is its own round's only (tests compare: facingApartPairs.test.ts). */
  facingApartKept = true;
  /** What an apart pair solved in its detecting round only keeps at most: the run's selfSeparation (contactOffset.ts selfContactOffset). */
  private apartOffset = Infinity;
  /** SolverParams.ccdEdgeInterior: edge-edge CCD searches the edges' interiors (interiorEdgeQuery); false: whole edges, and a pair first near at an end is left to its vertex's pairs. */
  interiorEdges = false;
  /**
   * SolverParams.ccdSkipInverted: same-object pairs with a vertex on a boundary triangle whose tet is
   * inverted at the substep's start are left out (startInvertedBoundaryVertices; the GPU's
   * ccdNarrow.wgsl, lib/invertedBoundaryFan.wgsl); false: every pair is tested.
   */
  skipInverted = false;
  /** Per vertex, 1 where startInvertedBoundaryVertices marked it this substep. */
  private readonly startInverted: Uint8Array;
  private readonly cone: MutualConeTopology;
  private readonly u = new Float64Array(3);
  private readonly nT = new Float64Array(3);
  private readonly nEdge = new Float64Array(3);

  constructor(mesh: TetMesh) {
    this.mesh = mesh;
    this.cone = {
      boundaryTriangles: mesh.boundaryTriangles, triangleAcross: trianglesAcross(mesh), vertexTriangleOffsets: mesh.vertexTriangleOffsets, vertexTriangles: mesh.vertexTriangles,
      boundaryEdgeTriangles: mesh.boundaryEdgeTriangles,
    };
    this.topology = ccdTopologyOf(mesh);
    this.objects = mesh.vertexObject;
    this.boxes = new Float32Array(6 * mesh.vertexCount);
    this.startInverted = new Uint8Array(mesh.vertexCount);
  }

  /**
   * Paper section 3.5 carried over to CCD (skipInverted): marks the corners of every boundary
   * triangle whose tet is inverted (6 V <= 0) at the substep's start `x0`. Turning such a tet back
   * moves the two boundary triangles of the fold it makes back through each other, which CCD would
   * take for a collision and stop, so the material never turns it back (docs/collisions.md "An
   * inverted tet held by CCD"). Judged at the start: after the first material iteration the tet is
   * often positive for a moment, and CCD still stops the motion from x0.
   */
  private startInvertedBoundaryVertices(x0: Float64Array): Uint8Array {
    const tets = this.mesh.tets;
    markInvertedBoundaryVertices(this.mesh, (t) => tetVolume6(x0, tets, t), this.startInverted);
    return this.startInverted;
  }

  /**
   * One substep: candidates from the motion x0 -> x1, narrow phase, contacts appended to `out`
   * with `offset` as their separation. `separation`: how near counts as contact. `pin` (hybrid):
   * 1 per vertex, then per boundary edge (at vertexCount + e), for points penetrating at the
   * substep's start: their pairs are skipped (DCD's). Adds to `counters`. `pairs`: the pairs given
   * a contact are added to it, and pairs already in it are skipped (after the Pin test, as the GPU).
   * `near` (the detecting round of a substep whose later rounds run CCD, ccd/laterRounds.ts): the
   * pairs not skipped by Pin whose box gap at x1 is at most `near.limit` go on `near.list`, from
   * candidates of boxes grown by `near.reach` too, so that the list holds every pair that the later
   * rounds' own boxes could meet while no vertex moves farther than the reach (the GPU's near list,
   * ccdNarrow.wgsl markForLaterRounds); this round still tests only the pairs its own boxes meet.
   */
  run(
    x0: Float64Array, x1: Float64Array, separation: number, offset: number, selfCollision: boolean, pin: Uint8Array | null, out: CpuContacts, counters: CcdFrameCounters,
    pairs?: CcdPairsInContact, selfSeparation = separation, near?: { reach: number; limit: number; list: CcdNearList },
  ): void {
    this.apartOffset = selfSeparation;
    this.pinMarks = pin;
    this.exitContacts.length = 0;
    const m = this.mesh;
    const b = sweptBoxes(x0, x1, separation, this.boxes);
    let boxes = b;
    if (near) {
      if (this.wideBoxes.length !== b.length) this.wideBoxes = new Float32Array(b.length);
      boxes = sweptBoxes(x0, x1, separation + near.reach, this.wideBoxes);
      near.list.vertexFace.length = 0;
      near.list.edgeEdge.length = 0;
    }
    const cand = ccdCandidates(this.topology, boxes, selfCollision ? 'all' : 'inter');
    const selfBoxes = this.sameObjectBoxes(x0, x1, separation, selfSeparation, selfCollision);
    const tris = m.boundaryTriangles, edges = m.boundaryEdges;
    const inverted = this.skipInverted && selfCollision ? this.startInvertedBoundaryVertices(x0) : null;
    const vf = cand.vertexFace, ee = cand.edgeEdge;
    let vfTested = 0, eeTested = 0;
    for (let i = 0; i < vf.length; i += 2) {
      const v = vf[i], f = vf[i + 1];
      const ta = tris[3 * f], tb = tris[3 * f + 1], tc = tris[3 * f + 2];
      // With `near` the candidates come from the grown boxes: this round tests those its own boxes meet.
      const meets = !near || boxesMeet(b, v, v, ta, tb, tc);
      if (meets) vfTested++;
      if (pin && (pin[v] & pinSkips(this.objects[v] === this.objects[ta], this.pinByKind))) {
        if (meets) counters.skippedPin++;
        continue;
      }
      if (inverted && this.objects[v] === this.objects[ta] && (inverted[v] | inverted[ta] | inverted[tb] | inverted[tc])) {
        if (meets) counters.skippedInverted++;
        continue;
      }
      if (near && pairBoxGap(x1, v, v, ta, tb, tc) <= near.limit) near.list.vertexFace.push(v, f);
      if (meets && !this.sameObjectApart(selfBoxes, v, v, ta, tb, tc)) this.testVertexFace(x0, x1, v, f, separation, offset, selfSeparation, out, counters, pairs);
    }
    for (let i = 0; i < ee.length; i += 2) {
      const ea = ee[i], eb = ee[i + 1];
      const a0 = edges[2 * ea], a1 = edges[2 * ea + 1], b0 = edges[2 * eb], b1 = edges[2 * eb + 1];
      const meets = !near || boxesMeet(b, a0, a1, b0, b1, b1);
      if (meets) eeTested++;
      if (pin && ((pin[m.vertexCount + ea] | pin[m.vertexCount + eb]) & pinSkips(this.objects[a0] === this.objects[b0], this.pinByKind))) {
        if (meets) counters.skippedPin++;
        continue;
      }
      if (inverted && this.objects[a0] === this.objects[b0] && (inverted[a0] | inverted[a1] | inverted[b0] | inverted[b1])) {
        if (meets) counters.skippedInverted++;
        continue;
      }
      if (near && pairBoxGap(x1, a0, a1, b0, b1, b1) <= near.limit) near.list.edgeEdge.push(ea, eb);
      if (meets && !this.sameObjectApart(selfBoxes, a0, a1, b0, b1, b1)) this.testEdgeEdge(x0, x1, ea, eb, separation, offset, selfSeparation, out, counters, pairs);
    }
    counters.candidatesVertexFace = Math.max(counters.candidatesVertexFace, vfTested);
    counters.candidatesEdgeEdge = Math.max(counters.candidatesEdgeEdge, eeTested);
    if (near) counters.laterRoundListed += (near.list.vertexFace.length + near.list.edgeEdge.length) / 2;
  }

  /**
   * A same-object pair is tested at the self separation (contactOffset.ts selfContactOffset),
   * often well below the separation run's boxes are grown by (an explicit offset of several
   * element edges: a cube alone at 4 edges took 2.9 s a frame in such tests with no contact).
   * Boxes grown by twice the self separation s meet wherever the pair comes within 4 s on every
   * axis; a hit of the search needs 1.06 s plus 3e-5 of the pair's edges' length
   * (separationCcd.ts), less than 4 s unless an edge is 1e5 s long (s is at least 0.29 of the
   * shortest element edge or 1 % of the mean boundary edge wherever this runs: 'auto', or an
   * explicit offset over twice the self-contacts' cap). So the pairs they keep apart are not
   * tested: the same contacts, in the same order.
   * Null where the filter would keep every pair (no self-collision, or a self separation not below
   * half the separation).
   */
  private sameObjectBoxes(x0: Float64Array, x1: Float64Array, separation: number, selfSeparation: number, selfCollision: boolean): Float32Array | null {
    if (!selfCollision || !(selfSeparation > 0) || !(2 * selfSeparation < separation)) return null;
    if (this.selfBoxes.length !== this.boxes.length) this.selfBoxes = new Float32Array(this.boxes.length);
    return sweptBoxes(x0, x1, 2 * selfSeparation, this.selfBoxes);
  }

  /** Whether a pair (points a, b against c, d, e) is of one object and its sameObjectBoxes keep it apart. */
  private sameObjectApart(selfBoxes: Float32Array | null, a: number, b: number, c: number, d: number, e: number): boolean {
    return selfBoxes !== null && this.objects[a] === this.objects[c] && !boxesMeet(selfBoxes, a, b, c, d, e);
  }

  /**
   * A later round of a substep whose later rounds run CCD (SolverParams.ccdEveryRound): the pairs
   * of the detecting round's near list (run's `near`) again, on the motion x0 -> x1 from the
   * substep's start to now, those already in contact skipped (`pairs`) and those whose boxes of this
   * motion do not meet left untested (they cannot come within the separation), the rest as run
   * tests them. No broad phase: the GPU's later rounds dispatch over its near list likewise.
   */
  runListed(
    x0: Float64Array, x1: Float64Array, separation: number, offset: number, out: CpuContacts, counters: CcdFrameCounters,
    pairs: CcdPairsInContact, list: CcdNearList, selfSeparation = separation,
  ): void {
    this.apartOffset = selfSeparation;
    this.exitContacts.length = 0;
    const m = this.mesh;
    const b = sweptBoxes(x0, x1, separation, this.boxes);
    const selfBoxes = this.sameObjectBoxes(x0, x1, separation, selfSeparation, true);
    const tris = m.boundaryTriangles, edges = m.boundaryEdges;
    const triangleCount = tris.length / 3, edgeCount = edges.length / 2;
    const vf = list.vertexFace, ee = list.edgeEdge;
    for (let i = 0; i < vf.length; i += 2) {
      const v = vf[i], f = vf[i + 1];
      const ta = tris[3 * f], tb = tris[3 * f + 1], tc = tris[3 * f + 2];
      if (pairs.vertexFace.has(v * triangleCount + f) || !boxesMeet(b, v, v, ta, tb, tc) || this.sameObjectApart(selfBoxes, v, v, ta, tb, tc)) continue;
      this.testVertexFace(x0, x1, v, f, separation, offset, selfSeparation, out, counters, pairs);
    }
    for (let i = 0; i < ee.length; i += 2) {
      const ea = ee[i], eb = ee[i + 1];
      const a0 = edges[2 * ea], a1 = edges[2 * ea + 1], b0 = edges[2 * eb], b1 = edges[2 * eb + 1];
      if (pairs.edgeEdge.has(ea * edgeCount + eb) || !boxesMeet(b, a0, a1, b0, b1, b1) || this.sameObjectApart(selfBoxes, a0, a1, b0, b1, b1)) continue;
      this.testEdgeEdge(x0, x1, ea, eb, separation, offset, selfSeparation, out, counters, pairs);
    }
  }

  /**
   * The narrow phase of vertex v against boundary triangle f, unless `pairs` already holds it (then
   * recorded there when it makes a contact). A pair of one object comes within at most
   * selfSeparation (contactOffset.ts selfContactOffset), as separation and as the offset its
   * contact keeps.
   */
  private testVertexFace(
    x0: Float64Array, x1: Float64Array, v: number, f: number, separation: number, offset: number, selfSeparation: number, out: CpuContacts, counters: CcdFrameCounters, pairs?: CcdPairsInContact,
  ): void {
    const tris = this.mesh.boundaryTriangles;
    const key = v * (tris.length / 3) + f;
    if (pairs?.vertexFace.has(key)) return;
    const self = this.objects[v] === this.objects[tris[3 * f]];
    counters.tests++;
    const before = out.count;
    this.vertexFace(x0, x1, v, f, tris[3 * f], tris[3 * f + 1], tris[3 * f + 2], self ? Math.min(separation, selfSeparation) : separation, self ? Math.min(offset, selfSeparation) : offset, out, counters);
    if (pairs && out.count > before) pairs.vertexFace.add(key);
  }

  /** The narrow phase of boundary edges ea and eb, as testVertexFace. */
  private testEdgeEdge(
    x0: Float64Array, x1: Float64Array, ea: number, eb: number, separation: number, offset: number, selfSeparation: number, out: CpuContacts, counters: CcdFrameCounters, pairs?: CcdPairsInContact,
  ): void {
    const edges = this.mesh.boundaryEdges;
    const key = ea * (edges.length / 2) + eb;
    if (pairs?.edgeEdge.has(key)) return;
    const self = this.objects[edges[2 * ea]] === this.objects[edges[2 * eb]];
    counters.tests++;
    const before = out.count;
    this.edgeEdge(x0, x1, ea, eb, edges[2 * ea], edges[2 * ea + 1], edges[2 * eb], edges[2 * eb + 1], self ? Math.min(separation, selfSeparation) : separation, self ? Math.min(offset, selfSeparation) : offset, out, counters);
    if (pairs && out.count > before) pairs.edgeEdge.add(key);
  }

  private load(x0: Float64Array, x1: Float64Array, a: number, b: number, c: number, d: number): Float64Array {
    const q = this.q;
    const ids = [a, b, c, d];
    for (let j = 0; j < 4; j++) {
      for (let k = 0; k < 3; k++) {
        q[3 * j + k] = x0[3 * ids[j] + k];
        q[12 + 3 * j + k] = x1[3 * ids[j] + k];
      }
    }
    return q;
  }

  private vertexFace(x0: Float64Array, x1: Float64Array, v: number, f: number, a: number, b: number, c: number, sep: number, offset: number, out: CpuContacts, counters: CcdFrameCounters): void {
    const q = this.load(x0, x1, v, a, b, c);
    let toi = ccdWithin(true, q, sep);
    if (toi < 0) return;
    const n0 = cross(q[6] - q[3], q[7] - q[4], q[8] - q[5], q[9] - q[3], q[10] - q[4], q[11] - q[5]);
    const behind = -((q[0] - q[3]) * n0[0] + (q[1] - q[4]) * n0[1] + (q[2] - q[5]) * n0[2]);
    const n0Length = Math.hypot(n0[0], n0[1], n0[2]);
    // An exit (pinRelease): a released vertex, behind the face at t0 beyond rounding and in front of
    // it at t1, came out through it. Its contact is taken at t1, where the vertex is outside, so
    // that the later rounds cannot carry it back through this face.
    const exit = behind > BEHIND_FACE_REL * sep * n0Length && this.pinMarks !== null && this.pinMarks[v] === PIN_RELEASED && inFrontAtEnd(q);
    if (exit) {
      toi = 1;
    } else {
      // Behind the face at t0 by more than the separation: not approaching this face from outside.
      if (behind > sep * n0Length) {
        counters.backFace++;
        return;
      }
      // Directly behind the face by more than rounding, and not inside the tet behind it: beyond a crushed wall (BEHIND_FACE_REL).
      if (behind > BEHIND_FACE_REL * sep * n0Length
        && closestPointOnTriangle(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], q[8], q[9], q[10], q[11], this.cpt) === FEATURE_FACE
        && !strictlyInside(x0, this.mesh.tets, this.mesh.boundaryTriangleTet[f], q[0], q[1], q[2], this.insideScratch)) {
        counters.backFace++;
        return;
      }
    }
    const at = (j: number, k: number): number => q[3 * j + k] + toi * (q[12 + 3 * j + k] - q[3 * j + k]);
    const xt = [at(0, 0), at(0, 1), at(0, 2)], pa = [at(1, 0), at(1, 1), at(1, 2)], pb = [at(2, 0), at(2, 1), at(2, 2)], pc = [at(3, 0), at(3, 1), at(3, 2)];
    let nf = cross(pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2], pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]);
    if (!(nf[0] * nf[0] + nf[1] * nf[1] + nf[2] * nf[2] > 0)) nf = cross(q[18] - q[15], q[19] - q[16], q[20] - q[17], q[21] - q[15], q[22] - q[16], q[23] - q[17]);
    const len = Math.hypot(nf[0], nf[1], nf[2]);
    if (!(len > 0)) return;
    let nx = nf[0] / len, ny = nf[1] / len, nz = nf[2] / len;
    const cpt = this.cpt;
    const feature = closestPointOnTriangle(xt[0], xt[1], xt[2], pa[0], pa[1], pa[2], pb[0], pb[1], pb[2], pc[0], pc[1], pc[2], cpt);
    // On an edge or a vertex of the triangle, the direction from s to the vertex: the face's normal
    // there would push a vertex that lies beside the face (a coplanar rim) sideways by the offset.
    const dx = xt[0] - cpt[0], dy = xt[1] - cpt[1], dz = xt[2] - cpt[2];
    const d = Math.hypot(dx, dy, dz);
    const longest = Math.max(dist(pa, pb), dist(pb, pc), dist(pc, pa));
    if (feature !== FEATURE_FACE && d > PATH_DIRECTION_MIN_REL * longest) {
      // ... kept inside the feature's normal cone on the surface (featureNormal.ts: an internal
      // edge between coplanar triangles is no corner).
      const u = this.u, nT = this.nT;
      u[0] = dx / d; u[1] = dy / d; u[2] = dz / d;
      nT[0] = nx; nT[1] = ny; nT[2] = nz;
      const pos = (i: number, k: number): number => x0[3 * i + k] + toi * (x1[3 * i + k] - x0[3 * i + k]);
      // Where the search reaches past the triangle's longest edge (a thick layer), a vertex beside
      // no feature of this triangle (besideFeature), or one that is not its own surface's point
      // nearest s (nearestOnPointSide), gets its contact from the nearer pair only; within the
      // triangle's reach the clamp stays (docs/collisions.md "Several element edges between
      // bodies": leaving those out too let octopi through each other).
      if (this.coneNormals && sep > longest) {
        if (!besideFeature(this.cone, f, feature, xt, nT, u, pos) || !nearestOnPointSide(this.cone, v, cpt, pos)) {
          counters.offFeature++;
          return;
        }
      } else if (this.coneNormals) featureConeNormal(this.cone, f, feature, xt, nT, u, pos);
      // ... and its opposite inside the vertex's own cone (mutualCone.ts: a vertex of a flat
      // surface has one normal, so a convex edge sliding over it cannot push it sideways).
      if (this.mutualCones) mutualVertexCone(this.cone, v, f, feature, u, pos, sep > longest);
      nx = u[0]; ny = u[1]; nz = u[2];
    }
    const made = out.append(GROUP_POINT_FACE, offset, [v], [1], [a, b, c], [cpt[3], cpt[4], cpt[5]], nx, ny, nz);
    counters.hitsVertexFace++;
    if (exit) {
      this.exitContacts.push(made);
      counters.exitContacts++;
    }
  }

  private edgeEdge(x0: Float64Array, x1: Float64Array, ea: number, eb: number, a0: number, a1: number, b0: number, b1: number, sep: number, offset: number, out: CpuContacts, counters: CcdFrameCounters): void {
    const q = this.load(x0, x1, a0, a1, b0, b1);
    let toi: number, wa: number, wb: number, atInteriorEnd = false;
    const at = (j: number): number[] => [0, 1, 2].map((k) => q[3 * j + k] + toi * (q[12 + 3 * j + k] - q[3 * j + k]));
    if (this.interiorEdges) {
      const qi = interiorEdgeQuery(q, this.qInterior);
      toi = ccdWithin(false, qi, sep);
      if (toi < 0) return;
      [wa, wb, atInteriorEnd] = interiorEdgeParams(qi, toi);
    } else {
      toi = ccdWithin(false, q, sep);
      if (toi < 0) return;
      [wa, wb] = segmentClosestParams(at(0), at(1), at(2), at(3));
      if (Math.min(wa, wb) <= EE_END_PARAM || Math.max(wa, wb) >= 1 - EE_END_PARAM) {
        counters.edgeEdgeAtEnd++;
        return;
      }
    }
    const pt = at(0), qt = at(1), rt = at(2), st = at(3);
    // The gap between the two closest points at t0.
    const side0 = [0, 1, 2].map((k) => q[k] + wa * (q[3 + k] - q[k]) - (q[6 + k] + wb * (q[9 + k] - q[6 + k])));
    const ua = [qt[0] - pt[0], qt[1] - pt[1], qt[2] - pt[2]], ub = [st[0] - rt[0], st[1] - rt[1], st[2] - rt[2]];
    let n = cross(ua[0], ua[1], ua[2], ub[0], ub[1], ub[2]);
    // At an end of the searched interior (a vertex's neighbourhood) the lines' common perpendicular
    // need not separate the edges (near a vertex-vertex touch it points anywhere); the gap between
    // the closest points does, where it is clear.
    const gapNow = [0, 1, 2].map((k) => pt[k] + wa * ua[k] - (rt[k] + wb * ub[k]));
    if (atInteriorEnd && dot(gapNow, gapNow) > (EDGE_SIDE_MIN_REL * sep) ** 2) {
      n = gapNow;
    } else if (!(dot(n, n) > 1e-12 * dot(ua, ua) * dot(ub, ub))) {
      // Parallel edges: along the gap between them, now or at t0.
      n = dot(gapNow, gapNow) > 0 ? gapNow : side0;
    }
    const len = Math.hypot(n[0], n[1], n[2]);
    if (!(len > 0)) return;
    n = n.map((c) => c / len);
    const gap0 = dot(n, side0);
    if (Math.abs(gap0) > EDGE_SIDE_MIN_REL * sep) {
      if (gap0 < 0) n = n.map((c) => -c);
    } else {
      // No clear side at t0 (a resting or already crossing pair): edge a lies outside b's surface,
      // so n points along b's outward normal and against a's.
      const out2 = this.edgeNormal(x1, eb).map((c, k) => c - this.edgeNormal(x1, ea)[k]);
      if (dot(n, out2) < 0) n = n.map((c) => -c);
    }
    // A thick layer: the reach passes both edges (the cones are then taken strictly, mutualEdgeCone).
    const thick = sep > Math.max(Math.hypot(ua[0], ua[1], ua[2]), Math.hypot(ub[0], ub[1], ub[2]));
    let apart = false;
    if (this.mutualCones) {
      // n in b's cone and -n in a's (mutualCone.ts): an internal edge of a flat surface has one
      // normal. Where the two cones do not meet, n stays (docs/collisions.md "Mutual cones"), and
      // where the surfaces do not face each other either, only this round solves the contact
      // (ACTIVE_DETECTING_ROUND_ONLY; surfacesFace).
      const nn = this.nEdge;
      nn[0] = n[0]; nn[1] = n[1]; nn[2] = n[2];
      apart = mutualEdgeCone(this.cone, ea, eb, nn, (i, k) => x0[3 * i + k] + toi * (x1[3 * i + k] - x0[3 * i + k]), thick) === 'apart';
      if (apart) counters.edgeEdgeApart++;
      n = [nn[0], nn[1], nn[2]];
    }
    // Across a thick layer, edges whose cones do not meet are not the surfaces' nearest pair there,
    // and the nearer pair, within the reach too, makes the contact (as besideFeature's pairs).
    if (apart && thick) {
      counters.offFeature++;
      return;
    }
    if (atInteriorEnd) counters.edgeEdgeAtEnd++;
    const detectingRoundOnly = apart && !(this.facingApartKept && this.surfacesFace(x1, ea, eb));
    // Its normal (the common perpendicular) is no separating direction of the surfaces: it keeps
    // the thin layer of self-contacts, enough to stop the crossing it is there for, and the facing
    // contacts open the thicker one between objects (docs/collisions.md "Contact offset by kind").
    const made = out.append(GROUP_EDGE_EDGE, detectingRoundOnly ? Math.min(offset, this.apartOffset) : offset, [a0, a1], [1 - wa, wa], [b0, b1], [1 - wb, wb], n[0], n[1], n[2]);
    if (detectingRoundOnly) out.active[made] = ACTIVE_DETECTING_ROUND_ONLY;
    counters.hitsEdgeEdge++;
  }

  /**
   * Whether the surfaces at boundary edges a and b face each other at positions x: their summed
   * outward normals (edgeNormal) more than acos(APART_FACING_MIN_COS) apart; a degenerate sum counts
   * as facing (twin of surfacesFace in shaders/ccdNarrow.wgsl).
   */
  private surfacesFace(x: Float64Array, a: number, b: number): boolean {
    const ma = this.edgeNormal(x, a), mb = this.edgeNormal(x, b);
    const l = Math.hypot(ma[0], ma[1], ma[2]) * Math.hypot(mb[0], mb[1], mb[2]);
    return !(l > 0) || -(ma[0] * mb[0] + ma[1] * mb[1] + ma[2] * mb[2]) > APART_FACING_MIN_COS * l;
  }

  /** Sum of the unit outward normals of boundary edge e's two triangles at positions x. */
  private edgeNormal(x: Float64Array, e: number): number[] {
    const m = this.mesh;
    const s = [0, 0, 0];
    for (let j = 0; j < 2; j++) {
      const f = m.boundaryEdgeTriangles[2 * e + j];
      const a = 3 * m.boundaryTriangles[3 * f], b = 3 * m.boundaryTriangles[3 * f + 1], c = 3 * m.boundaryTriangles[3 * f + 2];
      const nf = cross(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2], x[c] - x[a], x[c + 1] - x[a + 1], x[c + 2] - x[a + 2]);
      const l = Math.hypot(nf[0], nf[1], nf[2]);
      if (l > 0) for (let k = 0; k < 3; k++) s[k] += nf[k] / l;
    }
    return s;
  }
}

/** Whether the vertex (q[12..14]) lies strictly in front of the triangle's plane (q[15..23]) at t1 (load's layout). */
function inFrontAtEnd(q: Float64Array): boolean {
  const n = cross(q[18] - q[15], q[19] - q[16], q[20] - q[17], q[21] - q[15], q[22] - q[16], q[23] - q[17]);
  return (q[12] - q[15]) * n[0] + (q[13] - q[16]) * n[1] + (q[14] - q[17]) * n[2] > 0;
}

function cross(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number[] {
  return [ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx];
}

function dot(a: readonly number[], b: readonly number[]): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

function dist(a: readonly number[], b: readonly number[]): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}

/**
 * Whether the union of the boxes of vertices a and b meets the union of those of c, d and e (an id
 * repeated where a feature has fewer), inclusive as the broad phase's overlap (f32Round.ts): the
 * pair is one of ccdCandidates' on these boxes, topology aside.
 */
function boxesMeet(boxes: Float32Array, a: number, b: number, c: number, d: number, e: number): boolean {
  for (let k = 0; k < 3; k++) {
    const loA = Math.min(boxes[6 * a + k], boxes[6 * b + k]), hiA = Math.max(boxes[6 * a + 3 + k], boxes[6 * b + 3 + k]);
    const loB = Math.min(boxes[6 * c + k], boxes[6 * d + k], boxes[6 * e + k]), hiB = Math.max(boxes[6 * c + 3 + k], boxes[6 * d + 3 + k], boxes[6 * e + 3 + k]);
    if (!(loA <= hiB && loB <= hiA)) return false;
  }
  return true;
}

/** Each vertex's box into `b` (6 floats a vertex): the hull of its positions in x0 and x1 grown by `grow`, rounded outward to f32. */
function sweptBoxes(x0: Float64Array, x1: Float64Array, grow: number, b: Float32Array): Float32Array {
  const n = b.length / 6;
  for (let v = 0; v < n; v++) {
    for (let k = 0; k < 3; k++) {
      const a = x0[3 * v + k], c = x1[3 * v + k];
      b[6 * v + k] = roundDown(Math.min(a, c) - grow);
      b[6 * v + 3 + k] = roundUp(Math.max(a, c) + grow);
    }
  }
  return b;
}
