/**
 * Self-collision culling of one scene's surfaces over a motion (paper 002): which triangles lie in
 * a BVH node whose surface cannot touch itself (nodeTests.ts), and the same-object candidate pairs
 * that this leaves out.
 *
 *   const culling = new SelfCulling(topology);            // once per scene topology
 *   const stats = culling.cull(motion, 'enhanced');       // per motion interval
 *   const kept = culling.filter(selfCandidates);          // drops pairs within a culled node
 *
 * Trees: one SAH surface BVH per object (cullingTree.ts, the builder the shortest path's tree
 * uses), built at the first motion's start and rebuilt every `rebuildEvery` calls at the current
 * start when the object has changed shape since (treeShape.ts: a falling or barely deforming body
 * keeps its tree); between rebuilds only the cones are recomputed (a refit).
 *
 * Traversal (Algorithm 3, SelfCollide): each object's tree top-down from its root; a node that
 * passes the test is culled as a whole and nothing below it is visited; a node that fails is
 * descended into (its children are tested in turn, and pairs between them stay candidates).
 * The paper re-tests only the grandchild pairs whose own test failed; that is not safe (a
 * sub-surface whose contour meets no other can still cross one whose contour does not cross it,
 * docs/architecture.md), so a failed node is descended into whole.
 *
 * Filter: a vertex-triangle pair (v, t) lies within culled node C when t and some triangle at v are
 * in C; an edge-edge pair when each edge has a triangle in C. Culled nodes are disjoint (the
 * traversal stops at the first), so each triangle has at most one, and the filter is a few
 * lookups per pair (the rule is ccd/culledPairs.ts, which the broad phase's join applies as it
 * finds the pairs: culledNodes).
 */
import type { CcdCandidates, CcdTopology } from '../ccd/broadPhase';
import { culledEdgeEdge, culledVertexFace, dropCulled, type CulledNodes } from '../ccd/culledPairs';
import { CONE_FLOATS } from './cones';
import { buildCullingTree, type CullingTree } from './cullingTree';
import { triangleNormalCone, type CullingMotion } from './motionCones';
import type { SelfCullingMode } from '../../contract/params';
import { emptyNodeTestCounts, NodeTests, refitNodeCones, tightenNodeCone, type NodeTestCounts } from './nodeTests';
import { cullingSurfaceOf, type CullingSurface } from './surfaceTopology';
import { builtShape, shapeChanged, surfaceVertices, type BuiltShape } from './treeShape';

export interface SelfCullingStats {
  mode: SelfCullingMode;
  /** Time computing the triangles' and nodes' normal cones (and rebuilding trees when due), ms. */
  conesMs: number;
  /** Time in the top-down traversal: the nodes' tests, contour tests included, ms. */
  traversalMs: number;
  /** Trees rebuilt in this call. */
  rebuilt: number;
  /** Trees traversed from their root in this call (the others from the last call's culled nodes: SelfCullingOptions.fullTraversalEvery). */
  fullTraversals: number;
  /** Nodes culled, and the triangles they hold. */
  culledNodes: number;
  culledTriangles: number;
  nodes: NodeTestCounts;
}

export interface SelfCullingOptions {
  /**
   * Calls between rebuilds of the trees at the motion's start (default 30; 0: built once); a tree
   * whose object has not changed shape since its build is kept (treeShape.ts).
   */
  rebuildEvery?: number;
  /**
   * A tree's traversals from its root: one in this many (default 8; 1: every one), counted per
   * tree (a call may cover other objects than the last), and the first after a build. The others
   * start from the nodes its last traversal culled (its frontier): every node is still tested
   * against this motion before it is culled, so the culled set is sound, only possibly smaller (a
   * node above the frontier that would pass now waits for the next full traversal). A falling pile
   * culls the same nodes job after job, and the tests of the failing nodes above them (60% of the
   * tests on 8 octopi, about a tenth of the traversal's time) are skipped.
   */
  fullTraversalEvery?: number;
}

export class SelfCulling {
  readonly surface: CullingSurface;
  readonly rebuildEvery: number;
  readonly fullTraversalEvery: number;
  /** Per triangle: the culled node it lies in (a scene-wide id), or -1. */
  readonly culledBy: Int32Array;
  private trees: CullingTree[] = [];
  private readonly objectTriangles: Uint32Array[];
  private readonly triangleCones: Float64Array;
  private nodeCones: Float64Array[] = [];
  private nodeBase: number[] = [];
  /** Per tree: its object's surface as the tree was built (treeShape.ts: rebuilt only when that changed). */
  private shapes: BuiltShape[] = [];
  private calls = 0;
  private readonly tests: NodeTests;
  private stack = new Int32Array(128);
  /** Per tree: the nodes the last traversal culled (its frontier), how many, and traversals since its last full one (Infinity: none yet). */
  private frontier: Int32Array[] = [];
  private frontierCount: number[] = [];
  private sinceFull: number[] = [];

  constructor(topology: CcdTopology, options: SelfCullingOptions = {}) {
    const every = options.rebuildEvery ?? 30;
    if (!(Number.isInteger(every) && every >= 0)) throw new RangeError(`SelfCulling: rebuildEvery must be an integer >= 0, got ${every}`);
    this.rebuildEvery = every;
    const full = options.fullTraversalEvery ?? 8;
    if (!(Number.isInteger(full) && full >= 1)) throw new RangeError(`SelfCulling: fullTraversalEvery must be an integer >= 1, got ${full}`);
    this.fullTraversalEvery = full;
    this.surface = cullingSurfaceOf(topology);
    const s = this.surface;
    this.tests = new NodeTests(s);
    this.culledBy = new Int32Array(s.triangleCount).fill(-1);
    this.triangleCones = new Float64Array(CONE_FLOATS * s.triangleCount);
    const counts = new Uint32Array(s.objectCount);
    for (let t = 0; t < s.triangleCount; t++) counts[s.triangleObject[t]]++;
    this.objectTriangles = Array.from(counts, (c) => new Uint32Array(c));
    counts.fill(0);
    for (let t = 0; t < s.triangleCount; t++) {
      const o = s.triangleObject[t];
      this.objectTriangles[o][counts[o]++] = t;
    }
  }

  /** The trees (built on the first call of cull). */
  get objectTrees(): readonly CullingTree[] {
    return this.trees;
  }

  /**
   * Marks the triangles of culled nodes (culledBy) for `motion` (start xyz, move xyz and deviation
   * per vertex of the whole scene, motionCones.ts). 'off' culls nothing. `objects` [lo, hi): only
   * those objects' trees (a broad phase split across workers by object); default all.
   */
  cull(motion: CullingMotion, mode: SelfCullingMode, objects?: [number, number]): SelfCullingStats {
    const s = this.surface;
    checkMotion(motion, s.vertexCount, s.edgeCount);
    const stats: SelfCullingStats = { mode, conesMs: 0, traversalMs: 0, rebuilt: 0, fullTraversals: 0, culledNodes: 0, culledTriangles: 0, nodes: emptyNodeTestCounts() };
    this.culledBy.fill(-1);
    if (mode === 'off') return stats;
    const t0 = performance.now();
    const [lo, hi] = objects ?? [0, this.objectTriangles.length];
    if (this.trees.length === 0 || (this.rebuildEvery > 0 && this.calls % this.rebuildEvery === 0)) {
      // Every object's tree that is due (a worker may get another range of objects next time);
      // counted for the range.
      const rebuilt = this.build(motion.start);
      stats.rebuilt = rebuilt.filter((o) => o >= lo && o < hi).length;
    }
    this.calls++;
    const tri = s.triangles, te = s.triangleEdges;
    for (let o = lo; o < hi; o++) {
      const list = this.objectTriangles[o];
      if (!list) continue;
      for (let q = 0; q < list.length; q++) {
        const t = list[q];
        triangleNormalCone(this.triangleCones, CONE_FLOATS * t, motion, tri[3 * t], tri[3 * t + 1], tri[3 * t + 2], te[3 * t], te[3 * t + 2]);
      }
    }
    const inRange = (k: number): boolean => this.trees[k].object >= lo && this.trees[k].object < hi;
    for (let k = 0; k < this.trees.length; k++) if (inRange(k)) refitNodeCones(this.trees[k], this.triangleCones, this.nodeCones[k]);
    const t1 = performance.now();
    this.tests.counts = stats.nodes;
    this.tests.newMotion();
    for (let k = 0; k < this.trees.length; k++) {
      if (!inRange(k)) continue;
      // Per tree: a call may cover other objects than the last (a worker given another part).
      const full = this.sinceFull[k] + 1 >= this.fullTraversalEvery;
      this.sinceFull[k] = full ? 0 : this.sinceFull[k] + 1;
      if (full) stats.fullTraversals++;
      this.traverse(k, motion, mode, stats, full);
    }
    stats.traversalMs = performance.now() - t1;
    stats.conesMs = t1 - t0;
    return stats;
  }

  /**
   * Builds every object's tree at `start` the first time; later, rebuilds only the trees of
   * objects whose surface changed shape since their build (treeShape.ts), keeping the others with
   * their frontiers. Returns the objects whose trees were built.
   */
  private build(start: Float64Array): number[] {
    const first = this.trees.length === 0;
    const built: number[] = [];
    let base = 0;
    for (let k = 0, o = 0; o < this.objectTriangles.length; o++) {
      if (this.objectTriangles[o].length === 0) continue;
      if (first || shapeChanged(this.shapes[k], start)) {
        this.trees[k] = buildCullingTree(this.surface, o, this.objectTriangles[o], start);
        this.shapes[k] = builtShape(this.surface, this.shapes[k]?.vertices ?? surfaceVertices(this.surface, this.objectTriangles[o]), this.objectTriangles[o], start);
        this.nodeCones[k] = new Float64Array(CONE_FLOATS * this.trees[k].nodeCount);
        built.push(o);
      }
      // A kept tree restarts its traversals from the root as a rebuilt one does (same schedule).
      this.frontier[k] = new Int32Array(16);
      this.frontierCount[k] = 0;
      this.sinceFull[k] = Infinity;
      this.nodeBase[k] = base;
      base += this.trees[k].nodeCount;
      k++;
    }
    return built;
  }

  /**
   * Algorithm 3 top-down over tree k: from its root (`full`), or from the nodes the last traversal
   * culled; each node culled is recorded as the tree's new frontier.
   */
  private traverse(k: number, motion: CullingMotion, mode: SelfCullingMode, stats: SelfCullingStats, full: boolean): void {
    const tree = this.trees[k], cones = this.nodeCones[k], base = this.nodeBase[k];
    let top = 0;
    let last = this.frontier[k];
    const lastCount = this.frontierCount[k];
    if (full) {
      this.stack[top++] = 0;
    } else {
      if (this.stack.length < lastCount + 2) this.stack = new Int32Array(2 * (lastCount + 2));
      // Pushed in reverse, so nodes are visited in the order they were culled.
      for (let j = lastCount - 1; j >= 0; j--) this.stack[top++] = last[j];
      last = this.frontier[k] = new Int32Array(Math.max(16, lastCount));
    }
    let culledCount = 0;
    while (top > 0) {
      const node = this.stack[--top];
      const o = CONE_FLOATS * node;
      // A merged cone too wide to pass may be loose; the node's own triangles decide (only where
      // the rest of the test could pass: the enhanced test needs a one-loop contour).
      if (cones[o + 3] >= Math.PI / 2 && (mode === 'plain' || (tree.loop[node] && !tree.irregular[node]))) {
        tightenNodeCone(tree, node, this.triangleCones, cones, o);
      }
      const culled = mode === 'plain' ? this.tests.plain(tree, node, cones, o, motion) : this.tests.enhanced(tree, node, cones, o, motion);
      if (culled) {
        if (culledCount === last.length) {
          const grown = new Int32Array(2 * last.length);
          grown.set(last);
          last = grown;
        }
        last[culledCount++] = node;
        stats.culledNodes++;
        stats.culledTriangles += tree.rangeEnd[node] - tree.rangeStart[node];
        for (let p = tree.rangeStart[node]; p < tree.rangeEnd[node]; p++) this.culledBy[tree.triangleAt[p]] = base + node;
        continue;
      }
      const l = tree.left[node];
      if (l < 0) continue;
      if (top + 2 > this.stack.length) {
        const grown = new Int32Array(2 * this.stack.length);
        grown.set(this.stack);
        this.stack = grown;
      }
      this.stack[top++] = l + 1;
      this.stack[top++] = l;
    }
    this.frontier[k] = last;
    this.frontierCount[k] = culledCount;
  }

  /** The normal cone of `node` of the `k`-th tree (axis xyz, half-angle) as of the last cull (tests, debugging). */
  nodeCone(k: number, node: number): [number, number, number, number] {
    const c = this.nodeCones[k], o = CONE_FLOATS * node;
    return [c[o], c[o + 1], c[o + 2], c[o + 3]];
  }

  /** The culled nodes of the last cull, as the broad phase's join drops pairs by them (ccd/culledPairs.ts). */
  get culledNodes(): CulledNodes {
    if (!this.nodes) {
      const s = this.surface;
      this.nodes = { culledBy: this.culledBy, vertexTriangleOffsets: s.vertexTriangleOffsets, vertexTriangles: s.vertexTriangles, edgeTriangles: s.edgeTriangles };
    }
    return this.nodes;
  }

  private nodes: CulledNodes | null = null;

  /** Whether vertex v and triangle t lie in one culled node. */
  culledVertexFace(v: number, t: number): boolean {
    return culledVertexFace(this.culledNodes, v, t);
  }

  /** Whether edges a and b (indices into the topology's edges) lie in one culled node. */
  culledEdgeEdge(a: number, b: number): boolean {
    return culledEdgeEdge(this.culledNodes, a, b);
  }

  /** The pairs of `c` that do not lie within one culled node (after cull), as new arrays. */
  filter(c: CcdCandidates): CcdCandidates {
    return dropCulled(this.culledNodes, c);
  }
}

function checkMotion(m: CullingMotion, n: number, edges: number): void {
  if (!(m.start instanceof Float64Array) || m.start.length !== 3 * n) throw new RangeError(`SelfCulling: motion.start must be a Float64Array of ${3 * n} numbers (xyz for ${n} vertices), got length ${m.start?.length}`);
  if (!(m.move instanceof Float64Array) || m.move.length !== 3 * n) throw new RangeError(`SelfCulling: motion.move must be a Float64Array of ${3 * n} numbers (xyz for ${n} vertices), got length ${m.move?.length}`);
  if (m.deviation !== null && (!(m.deviation instanceof Float64Array) || m.deviation.length !== n)) {
    throw new RangeError(`SelfCulling: motion.deviation must be null or a Float64Array of ${n} numbers (one per vertex), got length ${m.deviation?.length}`);
  }
  const e = m.edgeDeviation ?? null;
  if (e !== null && (!(e instanceof Float64Array) || e.length !== edges)) {
    throw new RangeError(`SelfCulling: motion.edgeDeviation must be null or a Float64Array of ${edges} numbers (one per edge), got length ${e?.length}`);
  }
  if (e) {
    for (let k = 0; k < edges; k++) if (!(e[k] >= 0)) throw new RangeError(`SelfCulling: motion.edgeDeviation[${k}] (edge ${k}) is ${e[k]}, must be >= 0 (Infinity allowed)`);
  }
  // Non-finite positions make their triangles' cones full (never culled); a negative or NaN
  // deviation is a caller's mistake.
  if (m.deviation) {
    for (let v = 0; v < n; v++) {
      if (!(m.deviation[v] >= 0)) throw new RangeError(`SelfCulling: motion.deviation[${v}] (vertex ${v}) is ${m.deviation[v]}, must be >= 0 (Infinity allowed)`);
    }
  }
}
