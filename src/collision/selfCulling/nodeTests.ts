/**
 * Whether a BVH node's surface can touch itself over the motion: the culling conditions of paper
 * 002, on the node's normal cone (computed bottom-up, selfCulling.ts) and its contour
 * (cullingTree.ts).
 *
 * 'enhanced' (section 5.1, Algorithm 1) culls node N when
 *   1. its surface normal cone (A_n, theta_n) has theta_n < pi/2;
 *   2. each chain of its contour has directions in a cone (A_c, theta_c) with
 *      |A_n . A_c| < cos(theta_c) (a chain that does not is cut into runs that do);
 *   3. no two chains (runs) meet when projected along A_n (contourTest.ts),
 * and its contour is one closed loop (cullingTree.ts).
 *
 * Why that suffices (the normal cone test of Volino and Thalmann, made exact here): by (1) every
 * triangle projects along V = A_n with positive orientation, so the number of points of the surface
 * over a point q of the projection plane is the winding number of the projected contour around q.
 * If the contour is one closed loop whose projection is a simple curve, that number is 0 or 1, so
 * no two points of the surface coincide: no vertex meets a triangle it is not a corner of, and no
 * two edges without a common vertex meet. (2) makes each chain's projection simple: a cone
 * (A_c, theta_c) with theta_c < pi/2 that contains neither V nor -V projects into an open
 * half-plane, so the chain moves steadily along one direction of the plane (the Turning Tangent
 * argument of section 5.1.1). (3) keeps different chains apart. The cones bound every time of the
 * motion (motionCones.ts), so the argument holds at every time: no pair within N is ever in contact.
 *
 * Differences from the paper, each needed for that argument (docs/architecture.md): condition 2
 * bounds the contour's edge directions, not its binormals (on a flat patch the binormals are the
 * edge directions turned by 90 degrees about the normal and the test is the same; on a curved one
 * the binormal's test leaves a gap of the order of theta_n^2); it uses the node's own axis V, the
 * one the contour is projected along, not each sub-surface's; a grandchild's part of the contour
 * that comes in several chains is tested as several pieces, and a chain that turns back is cut
 * into monotone runs (any cut of the loop into monotone pieces that stay apart proves it simple);
 * and a node whose contour is not one loop is not culled (two stacked patches facing the same way
 * have non-crossing contours and can still meet).
 *
 * 'plain' (Heo et al.'s BVH dual-cone method without internal boundary edges, section 4.2): N is
 * culled when theta_n < pi/2 and the binormal cone (A_b, theta_b) of the surface's own boundary
 * edges in N (open edges, surfaceTopology.ts) has |A_n . A_b| < cos(theta_b); the binormal of an
 * edge e of triangle t is n_t x e, taken at the motion's two ends. The surface of a tet mesh is
 * closed: it has no such edges, so plain culls every node with theta_n < pi/2. It misses
 * contacts (section 4.3); it is kept to show that.
 */
import { ANGLE_SLACK, angleBetween, CONE_FLOATS, isFull, mergeBall, mergeCone } from './cones';
import { ContourTest } from './contourTest';
import type { CullingTree } from './cullingTree';
import type { CullingSurface } from './surfaceTopology';
import { mergeEdgeDirection, type CullingMotion } from './motionCones';


const HALF_PI = Math.PI / 2;

/** Why a node was not culled, counted per call (statistics only). */
export interface NodeTestCounts {
  tested: number;
  /** Failed condition 1 (normal cone at least pi/2 wide). */
  normalCone: number;
  /** The contour is not one loop, or the node holds an irregular triangle. */
  topology: number;
  /** Failed condition 2 (a chain's direction cone). */
  chainCone: number;
  /** Failed condition 3 (chains meet in projection). */
  contour: number;
  passed: number;
}

export function emptyNodeTestCounts(): NodeTestCounts {
  return { tested: 0, normalCone: 0, topology: 0, chainCone: 0, contour: 0, passed: 0 };
}

export class NodeTests {
  readonly contour = new ContourTest();
  private readonly chainCone = new Float64Array(CONE_FLOATS);
  private readonly tmp = new Float64Array(CONE_FLOATS);
  private pieceStart = new Uint32Array(64);
  private pieceEnd = new Uint32Array(64);
  counts = emptyNodeTestCounts();

  private addPiece(i: number, start: number, end: number): void {
    if (i >= this.pieceStart.length) {
      const s = new Uint32Array(2 * i), e = new Uint32Array(2 * i);
      s.set(this.pieceStart);
      e.set(this.pieceEnd);
      this.pieceStart = s;
      this.pieceEnd = e;
    }
    this.pieceStart[i] = start;
    this.pieceEnd[i] = end;
  }

  /** Per surface edge: its direction cone over the motion (first vertex to second), computed once per motion (`stamp`). */
  private readonly edgeCones: Float64Array;
  private readonly edgeStamp: Uint32Array;
  private stamp = 0;

  constructor(private readonly surface: CullingSurface) {
    this.edgeCones = new Float64Array(CONE_FLOATS * surface.edgeCount);
    this.edgeStamp = new Uint32Array(surface.edgeCount);
  }

  /** A new motion: the edge cones computed for the last one no longer hold. */
  newMotion(): void {
    this.stamp++;
    if (this.stamp === 0xffffffff) {
      this.edgeStamp.fill(0);
      this.stamp = 1;
    }
  }

  /** out[0..3] := the direction cone over motion m of surface edge e, run from vertex `from` (each edge's computed once per motion). */
  private edgeCone(out: Float64Array, m: CullingMotion, e: number, from: number): void {
    const s = this.surface, c = this.edgeCones, o = CONE_FLOATS * e;
    if (this.edgeStamp[e] !== this.stamp) {
      mergeEdgeDirection(c, o, m, s.edges[2 * e], s.edges[2 * e + 1], true, e);
      this.edgeStamp[e] = this.stamp;
    }
    const sign = from === s.edges[2 * e] ? 1 : -1;
    out[0] = sign * c[o];
    out[1] = sign * c[o + 1];
    out[2] = sign * c[o + 2];
    out[3] = c[o + 3];
  }

  /** Plain dual-cone test (Heo et al.) of `node` of `tree`, its normal cone in slot `o` of `cones`. */
  plain(tree: CullingTree, node: number, cones: Float64Array, o: number, m: CullingMotion): boolean {
    const c = this.counts;
    c.tested++;
    if (!(cones[o + 3] < HALF_PI - ANGLE_SLACK)) {
      c.normalCone++;
      return false;
    }
    // The binormal cone of the surface's own boundary edges in the node.
    const s = this.surface, b = this.chainCone;
    let any = false;
    for (let k = tree.contourOffset[node]; k < tree.contourOffset[node + 1]; k++) {
      const e = tree.contourEdge[k];
      if (!s.open[e]) continue;
      const t = s.edgeTriangles[2 * e];
      for (let end = 0; end < 2; end++) {
        binormal(m, end, s.triangles[3 * t], s.triangles[3 * t + 1], s.triangles[3 * t + 2], tree.contourFrom[k], tree.contourTo[k], this.tmp);
        mergeBall(b, 0, this.tmp[0], this.tmp[1], this.tmp[2], 0, this.tmp, !any);
        any = true;
      }
    }
    if (any && (isFull(b, 0) || !(Math.abs(cones[o] * b[0] + cones[o + 1] * b[1] + cones[o + 2] * b[2]) < Math.cos(b[3]) - ANGLE_SLACK))) {
      c.chainCone++;
      return false;
    }
    c.passed++;
    return true;
  }

  /** Enhanced dual-cone test (Algorithm 1) of `node` of `tree`, its normal cone in slot `o` of `cones`. */
  enhanced(tree: CullingTree, node: number, cones: Float64Array, o: number, m: CullingMotion): boolean {
    const c = this.counts;
    c.tested++;
    if (!(cones[o + 3] < HALF_PI - ANGLE_SLACK)) {
      c.normalCone++;
      return false;
    }
    if (!tree.loop[node] || tree.irregular[node]) {
      c.topology++;
      return false;
    }
    const vx = cones[o], vy = cones[o + 1], vz = cones[o + 2];
    // Condition 2, chain by chain: each chain is cut greedily into runs of edges whose directions
    // fit in a cone that passes, so a chain that turns back (a part at the tip of a strip) is not
    // a failure but two monotone pieces, which condition 3 then keeps apart.
    const piece = this.chainCone, edge = this.tmp;
    let pieces = 0;
    for (let k = tree.chainOffset[node]; k < tree.chainOffset[node + 1]; k++) {
      let start = tree.chainStart[k];
      for (let e = tree.chainStart[k]; e < tree.chainEnd[k]; e++) {
        this.edgeCone(edge, m, tree.contourEdge[e], tree.contourFrom[e]);
        if (!monotone(edge, vx, vy, vz)) {
          c.chainCone++;
          return false;
        }
        if (e > start) {
          mergeCone(edge, 0, piece, 0);
          if (monotone(edge, vx, vy, vz)) {
            for (let q = 0; q < CONE_FLOATS; q++) piece[q] = edge[q];
            continue;
          }
          this.addPiece(pieces++, start, e);
          start = e;
          this.edgeCone(edge, m, tree.contourEdge[e], tree.contourFrom[e]);
        }
        for (let q = 0; q < CONE_FLOATS; q++) piece[q] = edge[q];
      }
      this.addPiece(pieces++, start, tree.chainEnd[k]);
    }
    const apart = this.contour.chainsApart(
      m, vx, vy, vz, tree.contourFrom, tree.contourTo, tree.contourOffset[node], tree.contourOffset[node + 1],
      this.pieceStart, this.pieceEnd, 0, pieces, tree.contourEdge,
    );
    if (!apart) {
      c.contour++;
      return false;
    }
    c.passed++;
    return true;
  }
}

/** Node cones bottom-up from the triangle cones: slot `node` of `nodeCones` (children are stored after parents). */
export function refitNodeCones(tree: CullingTree, triangleCones: Float64Array, nodeCones: Float64Array): void {
  for (let node = tree.nodeCount - 1; node >= 0; node--) {
    const o = CONE_FLOATS * node;
    const l = tree.left[node];
    if (l >= 0) {
      for (let k = 0; k < CONE_FLOATS; k++) nodeCones[o + k] = nodeCones[CONE_FLOATS * l + k];
      mergeCone(nodeCones, o, nodeCones, CONE_FLOATS * (l + 1));
      continue;
    }
    const first = CONE_FLOATS * tree.triangleAt[tree.rangeStart[node]];
    for (let k = 0; k < CONE_FLOATS; k++) nodeCones[o + k] = triangleCones[first + k];
    for (let p = tree.rangeStart[node] + 1; p < tree.rangeEnd[node]; p++) mergeCone(nodeCones, o, triangleCones, CONE_FLOATS * tree.triangleAt[p]);
  }
}

/** out[0..2] := n_t x (x_v - x_u) at the end `end` (0 or 1) of the motion, t = (a, b, c). */
function binormal(m: CullingMotion, end: number, a: number, b: number, c: number, u: number, v: number, out: Float64Array): void {
  const x = m.start, w = m.move;
  const at = (i: number, k: number): number => x[3 * i + k] + end * w[3 * i + k];
  const e1x = at(b, 0) - at(a, 0), e1y = at(b, 1) - at(a, 1), e1z = at(b, 2) - at(a, 2);
  const e2x = at(c, 0) - at(a, 0), e2y = at(c, 1) - at(a, 1), e2z = at(c, 2) - at(a, 2);
  const nx = e1y * e2z - e1z * e2y, ny = e1z * e2x - e1x * e2z, nz = e1x * e2y - e1y * e2x;
  const ex = at(v, 0) - at(u, 0), ey = at(v, 1) - at(u, 1), ez = at(v, 2) - at(u, 2);
  out[0] = ny * ez - nz * ey;
  out[1] = nz * ex - nx * ez;
  out[2] = nx * ey - ny * ex;
}

/**
 * Cone slot `o` of `nodeCones` := the cone around the mean of the node's triangle-cone axes that
 * holds all its triangles' cones, when that is narrower than what is there. Merging cones pairwise
 * up the tree (refitNodeCones) is cheap but loose: two halves of a cap whose normals span 80
 * degrees each get a cone almost that wide around a tilted axis, and the merge of the two is wider
 * than pi/2 although the cap's normals are all within 80 degrees of its middle. This visits the
 * node's triangles once.
 */
export function tightenNodeCone(tree: CullingTree, node: number, triangleCones: Float64Array, nodeCones: Float64Array, o: number): void {
  let sx = 0, sy = 0, sz = 0;
  for (let p = tree.rangeStart[node]; p < tree.rangeEnd[node]; p++) {
    const t = CONE_FLOATS * tree.triangleAt[p];
    if (triangleCones[t + 3] >= HALF_PI) return;
    sx += triangleCones[t];
    sy += triangleCones[t + 1];
    sz += triangleCones[t + 2];
  }
  const len = Math.hypot(sx, sy, sz);
  if (!(len > 0)) return;
  sx /= len;
  sy /= len;
  sz /= len;
  let theta = 0;
  for (let p = tree.rangeStart[node]; p < tree.rangeEnd[node]; p++) {
    const t = CONE_FLOATS * tree.triangleAt[p];
    theta = Math.max(theta, angleBetween(sx, sy, sz, triangleCones[t], triangleCones[t + 1], triangleCones[t + 2]) + triangleCones[t + 3]);
    if (theta >= nodeCones[o + 3]) return;
  }
  theta += ANGLE_SLACK;
  if (theta >= nodeCones[o + 3] || theta >= HALF_PI) return;
  nodeCones[o] = sx;
  nodeCones[o + 1] = sy;
  nodeCones[o + 2] = sz;
  nodeCones[o + 3] = theta;
}

/** Condition 2 for a cone of edge directions: not full, and neither V nor -V in it. */
function monotone(c: Float64Array, vx: number, vy: number, vz: number): boolean {
  return !isFull(c, 0) && Math.abs(vx * c[0] + vy * c[1] + vz * c[2]) < Math.cos(c[3]) - ANGLE_SLACK;
}
