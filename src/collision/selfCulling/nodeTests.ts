/**
 * Whether a BVH node's surface can touch itself over the motion: the culling conditions of paper
 * 002, on the node's normal cone (computed bottom-up, selfCulling.ts) and its contour
 * (cullingTree.ts).
 *
 * 'enhanced' (section 5.1, Algorithm 1) culls node N when
 *   1. its surface normal cone (A_n, theta_n) has theta_n < pi/2;
 *   2. each chain of its contour has directions in a cone (A_c, theta_c) with
 *      |A_n . A_c| < cos(theta_c);
 *   3. no two chains meet when projected along A_n (contourTest.ts),
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
 * that comes in several chains is tested as several pieces; and a node whose contour is not one
 * loop is not culled (two stacked patches facing the same way have non-crossing contours and
 * can still meet).
 *
 * 'plain' (Heo et al.'s BVH dual-cone method without internal boundary edges, section 4.2): N is
 * culled when theta_n < pi/2 and the binormal cone of the mesh's original boundary edges in N
 * passes the dual-cone test. The surface of a tet mesh is closed: it has no original boundary
 * edges, so plain culls every node with theta_n < pi/2. It misses contacts (section 4.3); it is
 * kept to show that.
 */
import { ANGLE_SLACK, CONE_FLOATS, isFull, mergeCone } from './cones';
import { ContourTest } from './contourTest';
import type { CullingTree } from './cullingTree';
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
  counts = emptyNodeTestCounts();

  /** Plain dual-cone test of node `node` whose normal cone is slot `o` of `cones`. */
  plain(cones: Float64Array, o: number): boolean {
    this.counts.tested++;
    if (cones[o + 3] < HALF_PI - ANGLE_SLACK) {
      this.counts.passed++;
      return true;
    }
    this.counts.normalCone++;
    return false;
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
    const chain = this.chainCone;
    for (let k = tree.chainOffset[node]; k < tree.chainOffset[node + 1]; k++) {
      for (let e = tree.chainStart[k]; e < tree.chainEnd[k]; e++) {
        mergeEdgeDirection(chain, 0, m, tree.contourFrom[e], tree.contourTo[e], e === tree.chainStart[k]);
        if (isFull(chain, 0)) break;
      }
      if (isFull(chain, 0) || !(Math.abs(vx * chain[0] + vy * chain[1] + vz * chain[2]) < Math.cos(chain[3]) - ANGLE_SLACK)) {
        c.chainCone++;
        return false;
      }
    }
    const apart = this.contour.chainsApart(
      m, vx, vy, vz, tree.contourFrom, tree.contourTo, tree.contourOffset[node], tree.contourOffset[node + 1],
      tree.chainStart, tree.chainEnd, tree.chainOffset[node], tree.chainOffset[node + 1],
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
