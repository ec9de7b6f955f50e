/**
 * Memory traffic of a frame (issue 11, "Memory traffic"): bytes each kernel reads and writes per
 * invocation, from its bindings, and bytes per frame = sum over the frame's dispatches of
 * invocations x bytes per invocation.
 *
 * Per kernel, KERNEL_TRAFFIC lists how many elements of each binding (by the binding's name, as
 * declared in the WGSL file and its BindingTable in gpuKernels.ts) one invocation reads and
 * writes; the element's size comes from the WGSL declaration (wgslLayout.ts), so a layout
 * change there changes the bytes here. Adding a kernel is one entry.
 *
 * What is counted: distinct elements an invocation touches in its own data (a re-read of an
 * element it already loaded counts once, it hits the cache). Not counted: uniforms and the
 * tables every invocation reads at the same index (the frame constants, the per-substep slot,
 * the collider and handle tables: `broadcast` below), which stay in cache, and early exits
 * (pinned tets, frozen objects). So the XPBD figures are the bytes the kernels request; the DRAM
 * traffic of a real GPU is lower where neighbouring tets share vertices in cache and higher
 * where a 16-byte load pulls a 32-byte sector.
 *
 * The predict / material / colliders / finalize stages are exact from the counts (vertices,
 * tets, edges, colours, substeps, iterations, solve order); the collision stages are an
 * ESTIMATE from the frame's counters (collisionTrafficEstimate).
 */
import { withIncludes } from '../gpu/wgsl';
import common from '../../shaders/xpbdCommon.wgsl?raw';
import gatherCode from '../../shaders/xpbdGather.wgsl?raw';
import integrateCode from '../../shaders/xpbdIntegrate.wgsl?raw';
import neoHookeanCode from '../../shaders/xpbdNeoHookean.wgsl?raw';
import rigidDampingCode from '../../shaders/xpbdRigidDamping.wgsl?raw';
import springCode from '../../shaders/xpbdSpring.wgsl?raw';
import dcdHashCode from '../../shaders/dcdHash.wgsl?raw';
import dcdDetectCode from '../../shaders/dcdDetect.wgsl?raw';
import spbQueryCode from '../../shaders/spbQuery.wgsl?raw';
import ccdNarrowCode from '../../shaders/ccdNarrow.wgsl?raw';
import contactsBuildCode from '../../shaders/contactsBuild.wgsl?raw';
import contactsCode from '../../shaders/contacts.wgsl?raw';
import type { CollisionFrameCounters } from '../collision/counters';
import { wgslBindings, type WgslBinding } from './wgslLayout';

/** Counts a kernel's per-invocation traffic may depend on (mean corners per vertex in the gather). */
export interface MeshCounts {
  vertices: number;
  tets: number;
  edges: number;
}

/** Elements of one binding an invocation reads and writes: a number, or one from the mesh's counts. */
export type ElementCount = number | ((m: MeshCounts) => number);

export interface KernelTraffic {
  /** WGSL module (the file's name under shaders/), whose declarations give the element sizes. */
  module: keyof typeof MODULES;
  /** What one invocation stands for (documentation: "tet", "vertex", ...). */
  per: string;
  access: Record<string, { read?: ElementCount; write?: ElementCount }>;
  /** Bindings every invocation reads at the same index (cached, not counted). */
  broadcast?: readonly string[];
}

/** The WGSL sources as the pipelines compile them (xpbd* files get xpbdCommon.wgsl prepended, as gpuKernels.ts does). */
const MODULES = {
  xpbdIntegrate: common + '\n' + integrateCode,
  xpbdNeoHookean: common + '\n' + neoHookeanCode,
  xpbdSpring: common + '\n' + springCode,
  xpbdGather: common + '\n' + gatherCode,
  xpbdRigidDamping: common + '\n' + rigidDampingCode,
  dcdHash: dcdHashCode,
  dcdDetect: dcdDetectCode,
  spbQuery: spbQueryCode,
  ccdNarrow: ccdNarrowCode,
  contactsBuild: contactsBuildCode,
  contacts: contactsCode,
} as const;

export type ModuleName = keyof typeof MODULES;

const cornersPerVertex = (m: MeshCounts): number => (m.vertices > 0 ? (4 * m.tets) / m.vertices : 0);
const edgeEndsPerVertex = (m: MeshCounts): number => (m.vertices > 0 ? (2 * m.edges) / m.vertices : 0);
const XPBD_BROADCAST = ['frame', 'colliders', 'handles'] as const;

/**
 * Per kernel (pipeline entry point), elements of each binding per invocation. XPBD kernels:
 * exact, read off the WGSL (see each file). Collision kernels: per element of the counters
 * collisionTrafficEstimate uses, an estimate (marked there).
 */
export const KERNEL_TRAFFIC = {
  // xpbdIntegrate.wgsl, per vertex (lib/predictVertex.wgsl). predict: x, prev, rest, the object's
  // status word read and the vertex's collider-touch word cleared, v (free vertices).
  predict: { module: 'xpbdIntegrate', per: 'vertex', broadcast: XPBD_BROADCAST, access: { positions: { read: 1, write: 1 }, prev: { read: 1, write: 1 }, rest: { read: 1 }, objectStatus: { read: 1, write: 1 }, velocities: { read: 1, write: 1 } } },
  // Inside predict where it clears the vertex's three push-direction words (XpbdFrameInput.pushDirections).
  predictPushDirections: { module: 'xpbdIntegrate', per: 'vertex', broadcast: XPBD_BROADCAST, access: { objectStatus: { write: 3 } } },
  // collide: x, the substep start, v (its w is the friction budget).
  collide: { module: 'xpbdIntegrate', per: 'vertex', broadcast: XPBD_BROADCAST, access: { positions: { read: 1, write: 1 }, prev: { read: 1 }, velocities: { read: 1, write: 1 } } },
  // finalize: v = (x - prev) / h, with the predicted v for free vertices.
  finalize: { module: 'xpbdIntegrate', per: 'vertex', broadcast: XPBD_BROADCAST, access: { positions: { read: 1 }, prev: { read: 1 }, rest: { read: 1 }, velocities: { read: 1, write: 1 } } },
  // xpbdNeoHookean.wgsl, per tet: its slot in the colour order, the tet, its 4 vertices (read and
  // written in place), tetData (Dm^-1, 3 columns, and its constants), the multiplier S (3 columns, read and written).
  neoHookeanColour: { module: 'xpbdNeoHookean', per: 'tet', broadcast: ['frame'], access: { colourOrder: { read: 1 }, tets: { read: 1 }, positions: { read: 4, write: 4 }, positionCarry: { read: 4, write: 4 }, tetData: { read: 4 }, stress: { read: 3, write: 3 } } },
  // Warm start (Gauss-Seidel orders with warmStart, once per substep): the tet, its 4 vertices
  // (read), Dm^-1 and the constants (tetData), S read and written, the 4 corner corrections
  // written (then gathered inside predict's kernel, predictWarm: gatherTets' bytes).
  neoHookeanWarmStart: { module: 'xpbdNeoHookean', per: 'tet', broadcast: ['frame'], access: { tets: { read: 1 }, positions: { read: 4 }, tetData: { read: 4 }, stress: { read: 3, write: 3 }, corrections: { write: 4 } } },
  // Jacobi: the same reads, the 4 corner corrections written instead of the positions.
  neoHookeanJacobi: { module: 'xpbdNeoHookean', per: 'tet', broadcast: ['frame'], access: { tets: { read: 1 }, positions: { read: 4 }, tetData: { read: 4 }, stress: { read: 3, write: 3 }, corrections: { write: 4 } } },
  // Partitioned Gauss-Seidel (lib/cellSweep.wgsl sweepCells, included by both constraint
  // modules): per element the colour kernel's traffic (its slot in the partitioned order, then
  // the same projection); per cell the words of cellRanges its workgroup reads (counted apart).
  neoHookeanCells: { module: 'xpbdNeoHookean', per: 'tet', broadcast: ['frame'], access: { colourOrder: { read: 1 }, tets: { read: 1 }, positions: { read: 4, write: 4 }, positionCarry: { read: 4, write: 4 }, tetData: { read: 4 }, stress: { read: 3, write: 3 } } },
  neoHookeanCellRange: { module: 'xpbdNeoHookean', per: 'word of cellRanges', access: { cellRanges: { read: 1 } } },
  springCells: { module: 'xpbdSpring', per: 'edge', broadcast: ['frame'], access: { colourOrder: { read: 1 }, edges: { read: 1 }, positions: { read: 2, write: 2 }, restLength: { read: 1 }, lambda: { read: 1, write: 1 } } },
  springCellRange: { module: 'xpbdSpring', per: 'word of cellRanges', access: { cellRanges: { read: 1 } } },
  // xpbdSpring.wgsl, per edge: its slot in the colour order, the edge, 2 vertices, rest length, lambda.
  springColour: { module: 'xpbdSpring', per: 'edge', broadcast: ['frame'], access: { colourOrder: { read: 1 }, edges: { read: 1 }, positions: { read: 2, write: 2 }, restLength: { read: 1 }, lambda: { read: 1, write: 1 } } },
  springJacobi: { module: 'xpbdSpring', per: 'edge', broadcast: ['frame'], access: { edges: { read: 1 }, positions: { read: 2 }, restLength: { read: 1 }, lambda: { read: 1, write: 1 }, corrections: { write: 2 } } },
  // xpbdGather.wgsl, per vertex: its CSR range (2 offsets), its corners and their corrections
  // (on average 4 tets / vertices per vertex for tets, 2 edges / vertices for springs).
  gatherTets: { module: 'xpbdGather', per: 'vertex', broadcast: ['frame'], access: { positions: { read: 1, write: 1 }, offsets: { read: 2 }, corners: { read: cornersPerVertex }, corrections: { read: cornersPerVertex } } },
  gatherEdges: { module: 'xpbdGather', per: 'vertex', broadcast: ['frame'], access: { positions: { read: 1, write: 1 }, offsets: { read: 2 }, corners: { read: edgeEndsPerVertex }, corrections: { read: edgeEndsPerVertex } } },
  // xpbdRigidDamping.wgsl: reduce and apply per vertex (the per-object solve is negligible).
  dampReduce: { module: 'xpbdRigidDamping', per: 'vertex', broadcast: ['frame', 'chunks', 'objects', 'objectStatus'], access: { positions: { read: 1 }, velocities: { read: 1 } } },
  dampApply: { module: 'xpbdRigidDamping', per: 'vertex', broadcast: ['frame', 'chunks', 'objects', 'objectStatus', 'rigid'], access: { positions: { read: 1 }, velocities: { read: 1, write: 1 } } },

  // Collision kernels: ESTIMATES per element of the frame's counters.
  // dcdHash.wgsl, per tet per substep: its 4 vertex ids and 4 positions; per hash entry (one per cell the tet's box overlaps) a cell head swapped and the entry written.
  dcdHashTet: { module: 'dcdHash', per: 'tet (per substep)', broadcast: ['params'], access: { topo: { read: 4 }, positions: { read: 4 } } },
  dcdHashEntry: { module: 'dcdHash', per: 'hash entry (per substep)', broadcast: ['params'], access: { heads: { read: 1, write: 1 }, pool: { write: 1 } } },
  // dcdDetect.wgsl, per query point per substep: its position, one cell head, and the pool entries of that cell (estimate: 8).
  dcdDetectPoint: { module: 'dcdDetect', per: 'boundary point (per substep)', broadcast: ['params'], access: { positions: { read: 1 }, topo: { read: 2 }, heads: { read: 1 }, pool: { read: 8 } } },
  // ... and per DCD hit: the candidate tet's 4 positions (inside test) and the query written.
  dcdDetectHit: { module: 'dcdDetect', per: 'DCD hit', broadcast: ['params'], access: { topo: { read: 4 }, positions: { read: 4 }, list: { write: 1 } } },
  // spbQuery.wgsl, per BVH candidate (Q) one node, per tet visited (Tet) the tet (2 vec4: ids, neighbours) and its 4 positions.
  spbNode: { module: 'spbQuery', per: 'BVH candidate (Q)', broadcast: ['params'], access: { nodes: { read: 1 } } },
  spbTet: { module: 'spbQuery', per: 'tet visited (Tet)', broadcast: ['params'], access: { tets: { read: 2 }, positions: { read: 4 }, measures: { read: 1 } } },
  spbQuery: { module: 'spbQuery', per: 'shortest-path query', broadcast: ['params'], access: { list: { read: 1 }, results: { write: 1 } } },
  // ccdNarrow.wgsl, per narrow-phase test: 4 vertices at both ends of the substep, the candidate pair.
  ccdTest: { module: 'ccdNarrow', per: 'CCD narrow test', broadcast: ['params'], access: { candidates: { read: 2 }, topo: { read: 4 }, positions: { read: 4 }, prev: { read: 4 } } },
  ccdHit: { module: 'ccdNarrow', per: 'CCD contact', broadcast: ['params'], access: { contacts: { write: 1 } } },
  // contactsBuild.wgsl per query with a result; contacts.wgsl per contact per pass: the contact, its up to 4 + 3 vertices.
  contactBuild: { module: 'contactsBuild', per: 'DCD contact', broadcast: ['params'], access: { list: { read: 1 }, results: { read: 1 }, positions: { read: 4 }, contacts: { write: 1 } } },
  contactSolve: { module: 'contacts', per: 'contact (per pass)', broadcast: ['params'], access: { contacts: { read: 1, write: 1 }, positions: { read: 7 }, prev: { read: 7 }, acc: { read: 7, write: 7 } } },
} satisfies Record<string, KernelTraffic>;

export type KernelName = keyof typeof KERNEL_TRAFFIC;

const bindingCache = new Map<ModuleName, Map<string, WgslBinding>>();

/** The bindings of a module as the WGSL declares them, by name. */
export function moduleBindings(module: ModuleName): Map<string, WgslBinding> {
  let b = bindingCache.get(module);
  if (!b) {
    const list = wgslBindings(withIncludes(MODULES[module], `${module}.wgsl`), `${module}.wgsl`);
    b = new Map(list.map((x) => [x.name, x]));
    bindingCache.set(module, b);
  }
  return b;
}

export interface KernelBytes {
  read: number;
  write: number;
  /** Per binding: bytes read and written by one invocation. */
  byBinding: Record<string, { read: number; write: number }>;
}

const countOf = (c: ElementCount | undefined, m: MeshCounts): number => (c === undefined ? 0 : typeof c === 'number' ? c : c(m));

/**
 * Bytes one invocation of `kernel` reads and writes. Throws when the table names a binding the
 * WGSL does not declare, writes a read-only one, or leaves a storage binding unaccounted for.
 */
export function kernelBytes(kernel: KernelName, mesh: MeshCounts, table: Record<string, KernelTraffic> = KERNEL_TRAFFIC): KernelBytes {
  const k = table[kernel];
  if (!k) throw new Error(`traffic: no kernel "${kernel}" in the table`);
  const bindings = moduleBindings(k.module);
  const out: KernelBytes = { read: 0, write: 0, byBinding: {} };
  for (const [name, a] of Object.entries(k.access)) {
    const b = bindings.get(name);
    if (!b) throw new Error(`traffic: kernel ${kernel}: ${k.module}.wgsl declares no binding "${name}" (has ${[...bindings.keys()].join(', ')})`);
    const w = countOf(a.write, mesh);
    if (w > 0 && b.access !== 'read_write') throw new Error(`traffic: kernel ${kernel} writes "${name}", declared ${b.access} in ${k.module}.wgsl`);
    const r = countOf(a.read, mesh) * b.elementBytes;
    const wb = w * b.elementBytes;
    out.byBinding[name] = { read: r, write: wb };
    out.read += r;
    out.write += wb;
  }
  for (const name of k.broadcast ?? []) {
    if (!bindings.has(name)) throw new Error(`traffic: kernel ${kernel}: broadcast binding "${name}" is not declared in ${k.module}.wgsl`);
  }
  return out;
}

/** One line of a frame's plan: `dispatches` dispatches of `kernel` with `invocations` working invocations in all. */
export interface PlannedKernel {
  phase: 'predict' | 'material' | 'finalize';
  kernel: KernelName;
  dispatches: number;
  invocations: number;
  /**
   * Serial rounds inside the dispatches beyond each one's first: a workgroup sweeping a cell's
   * local colours waits at a storage barrier between them (lib/cellSweep.wgsl), and a dispatch
   * lasts as long as its cell with the most colours. Absent: none.
   */
  extraRounds?: number;
}

/**
 * The partitioned order's shape (partitionedColouring.ts) for the constraint type solved: the
 * passes that have cells (one dispatch each), their cells and cells' local colours, the
 * constraints in cells and the leftovers coloured globally when they are dispatched one colour
 * at a time (past LEFTOVER_CELL_LIMIT; below it they are one more pass's single cell).
 */
export interface PartitionShape {
  passDispatches: number;
  /** Sum over the passes with cells of their largest local colour count: an iteration's serial rounds. */
  passRounds: number;
  cells: number;
  cellColours: number;
  cellElements: number;
  leftoverColours: number;
  leftoverElements: number;
}

/** PartitionShape of a PartitionedColouring-like value (passes, cells, leftovers). */
export function partitionShape(p: {
  passes: readonly { cellCount: number; maxColours: number }[];
  cells: ArrayLike<number>;
  order: ArrayLike<number>;
  leftoverColourCount: number;
  leftoverCount: number;
}): PartitionShape {
  let cellColours = 0;
  for (let c = 1; c < p.cells.length; c += 2) cellColours += p.cells[c]!;
  return {
    passDispatches: p.passes.filter((x) => x.cellCount > 0).length,
    passRounds: p.passes.reduce((sum, x) => sum + (x.cellCount > 0 ? x.maxColours : 0), 0),
    cells: p.cells.length / 2,
    cellColours,
    // Leftovers swept as a cell of their own (leftoverPass) are cell elements; otherwise one dispatch per colour.
    cellElements: p.order.length - (p.leftoverColourCount > 0 ? p.leftoverCount : 0),
    leftoverColours: p.leftoverColourCount,
    leftoverElements: p.leftoverColourCount > 0 ? p.leftoverCount : 0,
  };
}

export interface XpbdFrameInput {
  mesh: MeshCounts;
  /** Colours of the material's constraints (tet colours for Neo-Hookean, edge colours for springs). */
  colours: number;
  /** Needed by the 'partitioned' order. */
  partition?: PartitionShape;
  substeps: number;
  iterations: number;
  solveOrder: string;
  constraint: 'neohookean' | 'springs';
  colliders: number;
  damping: number;
  /** SolverParams.warmStart (absent: off): Neo-Hookean in a Gauss-Seidel order then warm-starts every substep. */
  warmStart?: boolean;
  /**
   * The colliders run inside the partitioned Neo-Hookean cells (MaterialStage: every vertex has
   * a cell of its last visit, src/mesh/cellFinalVertices.ts, and no leftover colour is
   * dispatched on its own); absent: the collide pass after each iteration.
   */
  collidersInCells?: boolean;
  /** With damping: finalize and the whole damping in one workgroup per object (FinalizeStage.dampPerObject); absent: per chunk, 2 dispatches. */
  dampingPerObject?: boolean;
  /**
   * With dampingPerObject and the warm start: each object's finalize workgroup predicts the next
   * substep (FinalizeStage.predictNextSubstep, xpbdFinalizeDampPredict.wgsl), so predict's own
   * dispatch runs on the frame's first substep only; absent: every substep.
   */
  predictInFinalize?: boolean;
  /**
   * With dampingPerObject and the warm start, where predict does not join (an object too large):
   * the next substep's warm start in finalize's dispatch (FinalizeStage.warmStartNextSubstep,
   * xpbdFinalizeDampWarm.wgsl), so the warm start's own dispatch runs on the frame's first substep
   * only; absent: every substep.
   */
  warmStartInFinalize?: boolean;
  /** Predict also clears three push-direction words a vertex (xpbdFrame.ts predictClearsPushDirections); absent: it does not. */
  pushDirections?: boolean;
}

/**
 * The XPBD stages' dispatches of one frame, as predictStage / materialStage / collidersStage /
 * finalizeStage record them: per substep predict (per vertex), with warmStart (Neo-Hookean,
 * Gauss-Seidel orders) the warm start before it and its gather inside it (predictWarm); per iteration the constraints
 * (Gauss-Seidel: one dispatch per colour, every element once; partitioned: one dispatch per
 * pass, a workgroup sweeping each cell, then one per leftover colour; Jacobi: all elements,
 * then the per-vertex gather) and, with colliders, the collide pass (inside the partitioned
 * cells when collidersInCells); finalize, and with damping the
 * reduce / solve / apply passes.
 */
export function xpbdFramePlan(f: XpbdFrameInput): PlannedKernel[] {
  const { vertices } = f.mesh;
  const nh = f.constraint === 'neohookean';
  const elements = nh ? f.mesh.tets : f.mesh.edges;
  const per = f.substeps;
  const it = f.substeps * f.iterations;
  const warm = nh && f.warmStart === true && f.solveOrder !== 'jacobi';
  // Predict inside the previous substep's finalize (no dispatch of its own there, its bytes counted).
  const joined = warm && f.predictInFinalize === true && f.dampingPerObject === true && f.damping > 0;
  // Or the warm start inside it (its workgroups beside the objects'), predict apart.
  const warmJoined = warm && !joined && f.warmStartInFinalize === true && f.dampingPerObject === true && f.damping > 0;
  const plan: PlannedKernel[] = [{ phase: 'predict', kernel: 'predict', dispatches: joined ? Math.min(1, per) : per, invocations: per * vertices }];
  if (f.pushDirections) plan.push({ phase: 'predict', kernel: 'predictPushDirections', dispatches: 0, invocations: per * vertices });
  // Warm start: per substep, in predict's pass, the tets' warm start before predict and the
  // gather inside predict's kernel (xpbdPredictWarm.wgsl: no dispatch of its own, its bytes counted).
  if (warm) {
    plan.push({ phase: 'predict', kernel: 'neoHookeanWarmStart', dispatches: warmJoined ? Math.min(1, per) : per, invocations: per * elements });
    plan.push({ phase: 'predict', kernel: 'gatherTets', dispatches: 0, invocations: per * vertices });
  }
  if (f.solveOrder === 'partitioned') {
    const q = f.partition;
    if (!q) throw new Error('traffic: the partitioned order needs the partition shape (XpbdFrameInput.partition)');
    plan.push({ phase: 'material', kernel: nh ? 'neoHookeanCells' : 'springCells', dispatches: it * q.passDispatches, invocations: it * q.cellElements, extraRounds: it * Math.max(0, q.passRounds - q.passDispatches) });
    // Per cell: its [start index, colour count] pair and its colour count + 1 starts.
    plan.push({ phase: 'material', kernel: nh ? 'neoHookeanCellRange' : 'springCellRange', dispatches: 0, invocations: it * (3 * q.cells + q.cellColours) });
    if (q.leftoverColours > 0) plan.push({ phase: 'material', kernel: nh ? 'neoHookeanColour' : 'springColour', dispatches: it * q.leftoverColours, invocations: it * q.leftoverElements });
  } else if (f.solveOrder === 'gauss-seidel') {
    plan.push({ phase: 'material', kernel: nh ? 'neoHookeanColour' : 'springColour', dispatches: it * f.colours, invocations: it * elements });
  } else if (f.solveOrder === 'jacobi') {
    plan.push({ phase: 'material', kernel: nh ? 'neoHookeanJacobi' : 'springJacobi', dispatches: it, invocations: it * elements });
    plan.push({ phase: 'material', kernel: nh ? 'gatherTets' : 'gatherEdges', dispatches: it, invocations: it * vertices });
  } else {
    throw new Error(`traffic: solve order "${f.solveOrder}" has no plan (add it to xpbdFramePlan)`);
  }
  if (f.colliders > 0) {
    // Inside the cells (xpbdNeoHookeanColliders.wgsl): no dispatch of its own, its bytes counted.
    // collidersInCells already implies no leftover colour dispatched alone (cellFinalVertices).
    const inCells = nh && f.solveOrder === 'partitioned' && f.collidersInCells === true;
    plan.push({ phase: 'material', kernel: 'collide', dispatches: inCells ? 0 : it, invocations: it * vertices });
  }
  plan.push({ phase: 'finalize', kernel: 'finalize', dispatches: per, invocations: per * vertices });
  if (f.damping > 0) {
    // Fused into finalize's dispatch (xpbdFinalizeDamping.wgsl): no dispatch of its own; its
    // bytes still counted (the same thread re-reads the vertex it just wrote, likely cached).
    plan.push({ phase: 'finalize', kernel: 'dampReduce', dispatches: 0, invocations: per * vertices });
    // Solve and apply: one dispatch (solveApply; each chunk sums its object's few partials), or
    // none of its own when each object is damped by one workgroup (finalizeDampObject).
    plan.push({ phase: 'finalize', kernel: 'dampApply', dispatches: f.dampingPerObject ? 0 : per, invocations: per * vertices });
  }
  return plan;
}

export interface TrafficTotals {
  read: number;
  write: number;
  dispatches: number;
  /** PlannedKernel.extraRounds summed: serial rounds inside dispatches, past each dispatch's first. */
  extraRounds: number;
  byPhase: Record<string, { read: number; write: number; dispatches: number }>;
  byKernel: Record<string, { read: number; write: number; dispatches: number; invocations: number }>;
}

/** Bytes moved by a plan: invocations x bytes per invocation, summed by phase and kernel. */
export function planTraffic(plan: readonly { phase: string; kernel: KernelName; dispatches: number; invocations: number; extraRounds?: number }[], mesh: MeshCounts): TrafficTotals {
  const t: TrafficTotals = { read: 0, write: 0, dispatches: 0, extraRounds: 0, byPhase: {}, byKernel: {} };
  for (const p of plan) {
    t.extraRounds += p.extraRounds ?? 0;
    const b = kernelBytes(p.kernel, mesh);
    const r = p.invocations * b.read;
    const w = p.invocations * b.write;
    t.read += r;
    t.write += w;
    t.dispatches += p.dispatches;
    const ph = (t.byPhase[p.phase] ??= { read: 0, write: 0, dispatches: 0 });
    ph.read += r;
    ph.write += w;
    ph.dispatches += p.dispatches;
    const k = (t.byKernel[p.kernel] ??= { read: 0, write: 0, dispatches: 0, invocations: 0 });
    k.read += r;
    k.write += w;
    k.dispatches += p.dispatches;
    k.invocations += p.invocations;
  }
  return t;
}

/** Buffer clears the XPBD stages record (bytes written): the multipliers every substep (48 B a tet, 4 B an edge), none when warm-started. */
export function xpbdClearBytes(f: XpbdFrameInput): number {
  // A warm start writes the multipliers instead of clearing them (counted in its kernel).
  if (f.constraint === 'neohookean' && f.warmStart && f.solveOrder !== 'jacobi') return 0;
  return f.substeps * (f.constraint === 'neohookean' ? 48 * f.mesh.tets : 4 * f.mesh.edges);
}

/**
 * ESTIMATE of the collision stages' bytes in a frame from its counters: the hash built over
 * every tet each substep (`hashEntriesPerTet`: cells a tet's box overlaps, at rest:
 * collision/gpu/spatialHash.ts hashEntriesNeeded / tets), one detect per boundary point per substep (`boundaryPoints`: boundary
 * vertices, plus edge points and centroids where the mode queries them), the counters' DCD
 * hits, Q and Tet of the queries, CCD tests and contacts, and `contactPasses` solve passes over
 * the contacts. The per-element counts of KERNEL_TRAFFIC's collision entries are typical, not
 * exact (a hash cell's entries, a contact's vertices), and CCD's broad phase runs on the CPU.
 */
export function collisionTrafficEstimate(c: CollisionFrameCounters, mesh: MeshCounts, substeps: number, boundaryPoints: number, contactPasses: number, hashEntriesPerTet = 1): TrafficTotals {
  const hits = c.dcdHits.vertexSelf + c.dcdHits.vertexInter + c.dcdHits.edgeSelf + c.dcdHits.edgeInter + c.dcdHits.centroidSelf + c.dcdHits.centroidInter;
  const ccdContacts = c.ccd.hitsVertexFace + c.ccd.hitsEdgeEdge;
  const plan: { phase: string; kernel: KernelName; dispatches: number; invocations: number }[] = [
    { phase: 'detect', kernel: 'dcdHashTet', dispatches: 0, invocations: substeps * mesh.tets },
    { phase: 'detect', kernel: 'dcdHashEntry', dispatches: 0, invocations: substeps * mesh.tets * hashEntriesPerTet },
    { phase: 'detect', kernel: 'dcdDetectPoint', dispatches: 0, invocations: substeps * boundaryPoints },
    { phase: 'detect', kernel: 'dcdDetectHit', dispatches: 0, invocations: hits },
    { phase: 'spb', kernel: 'spbQuery', dispatches: 0, invocations: c.spbQueries },
    { phase: 'spb', kernel: 'spbNode', dispatches: 0, invocations: c.bvhCandidates },
    { phase: 'spb', kernel: 'spbTet', dispatches: 0, invocations: c.tetsVisited },
    { phase: 'ccd', kernel: 'ccdTest', dispatches: 0, invocations: c.ccd.tests },
    { phase: 'ccd', kernel: 'ccdHit', dispatches: 0, invocations: ccdContacts },
    { phase: 'contacts', kernel: 'contactBuild', dispatches: 0, invocations: c.contacts },
    { phase: 'contacts', kernel: 'contactSolve', dispatches: 0, invocations: contactPasses * (c.contacts + ccdContacts) },
  ];
  return planTraffic(plan, mesh);
}
