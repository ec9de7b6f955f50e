/**
 * The air constraint of paper 004 eq. 2, C = det[x1 - x0, x2 - x0, x3 - x0] >= 0 per air tet,
 * projected with XPBD at zero compliance (float64 reference of shaders/airConstraint.wgsl, same
 * order: the air tets' colours one after another, `iterations` times per substep, after the
 * material iterations). Only inverted tets act (an inequality): the multiplier step
 * dlambda = -C / sum_i w_i |grad_i C|^2 moves x_i by w_i dlambda grad_i C, with
 * grad_1 = e2 x e3, grad_2 = e3 x e1, grad_3 = e1 x e2, grad_0 = -(grad_1 + grad_2 + grad_3).
 * The gradients sum to zero (C is translation invariant), so sum_i m_i dx_i = 0: momentum is
 * conserved among moving vertices (section 3.2); the container's fixed points (w = 0) are walls.
 * Air particles (AirMesh.pointInvMass > 0) move like the objects' vertices; their positions are
 * the caller's `points` array.
 *
 * Friction (the paper's section 4.3 runs a second, contact pass for it; here it acts in the same
 * projection): an inverted tet is a contact, its normal n the direction of its largest gradient
 * (a flat tet's gradients are all parallel to it). The tangential part t_k of each vertex's
 * displacement over the substep relative to the tet's mass-weighted mean (the wall's, 0, when a
 * fixed point is in it) is cut by the common factor min(1, friction sum m_k |dx_k| / sum m_k |t_k|),
 * dx_k the normal correction just made: Coulomb's bound on the push, and sum m_k t_k = 0 so
 * momentum stays conserved.
 */
import { greedyColouring, type Colouring } from '../../mesh/colouring';
import { LEFTOVER_CELL_LIMIT, partitionedColouring, type PartitionedColouring } from '../../mesh/partitionedColouring';
import type { AirSolve } from '../../contract/params';
import { airPositions, airVertexCount, type AirMesh } from './airMesh';

/**
 * An air tet counts as inverted when its quality (eq. 4) is below minus this: a flat tet pressed
 * between the constraint and a collider sits at det = 0 up to float64 rounding.
 */
export const INVERTED_QUALITY = 1e-6;

/** Inverted air tets of a substep (per frame: summed over substeps). */
export interface AirProjectionCounts {
  /** Air tets found inverted in the first pass (the collisions the air mesh detected). */
  inverted: number;
  /** Air tets still inverted after the last pass (the method's invariant: 0 when converged). */
  invertedAfter: number;
}

/**
 * The two Gauss-Seidel orders of the air tets, both valid for any deformation (membership is
 * topological): `colouring`, a greedy colouring whose colours share no moving vertex (airSolve
 * 'coloured': one dispatch per colour, 40-60 colours on air meshes); `partition`, the material
 * solve's partitioned order (mesh/partitionedColouring.ts; airSolve 'partitioned': one dispatch
 * per cell pass, each workgroup sweeping its cell's local colours between storage barriers),
 * its cells cut at `positions` (xyz per air vertex: the build's rest state or the optimiser's
 * snapshot; they only decide how many tets are left over).
 */
export interface AirOrder {
  colouring: Colouring;
  partition: PartitionedColouring;
}

/**
 * A tet's relative tangential motion for friction, in place: d holds the 4 vertices'
 * displacements (12 numbers); each becomes its motion relative to the tet's mass-weighted mean
 * (or to a wall, when a vertex has inverse mass 0), with its part along the unit normal n
 * removed. Returns the slip, the sum of |d_k| m_k over the movable vertices (0 when none).
 */
function tangentialSlip(d: Float64Array, wk: ArrayLike<number>, n0: number, n1: number, n2: number): number {
  let mass = 0, mx = 0, my = 0, mz = 0, wall = false;
  for (let k = 0; k < 4; k++) {
    if (wk[k] === 0) { wall = true; continue; }
    const mk = 1 / wk[k];
    mass += mk; mx += mk * d[3 * k]; my += mk * d[3 * k + 1]; mz += mk * d[3 * k + 2];
  }
  if (mass === 0) return 0;
  if (wall) { mx = 0; my = 0; mz = 0; } else { mx /= mass; my /= mass; mz /= mass; }
  let slip = 0;
  for (let k = 0; k < 4; k++) {
    if (wk[k] === 0) continue;
    let rx = d[3 * k] - mx, ry = d[3 * k + 1] - my, rz = d[3 * k + 2] - mz;
    const rn = rx * n0 + ry * n1 + rz * n2;
    rx -= rn * n0; ry -= rn * n1; rz -= rn * n2;
    d[3 * k] = rx; d[3 * k + 1] = ry; d[3 * k + 2] = rz;
    slip += Math.hypot(rx, ry, rz) / wk[k];
  }
  return slip;
}

/**
 * Both orders of `tets` over `vertexCount` air vertices (fixed ones, inverse mass 0, do not
 * conflict). Up to LEFTOVER_CELL_LIMIT tets the partitioned order is the greedy colouring swept
 * as one cell (one workgroup, one dispatch a pass, the material solve's rule for its leftovers):
 * the coloured order itself, tet for tet, so it converges exactly as 'coloured' does; spatial
 * cells interleave the tets differently and left a few more inverted after 4 passes on the
 * thrown air-boxes stack (docs/benchmarks.md). Larger air meshes get the spatial cells.
 */
export function orderAirTets(tets: Uint32Array, vertexCount: number, positions: ArrayLike<number>, fixed: Uint8Array): AirOrder {
  const colouring = greedyColouring(tets, 4, vertexCount, fixed);
  const count = tets.length / 4;
  const partition = count <= LEFTOVER_CELL_LIMIT ? sweptAsOneCell(colouring) : partitionedColouring(tets, 4, positions, vertexCount, fixed);
  return { colouring, partition };
}

/** The colouring as a partitioned order of one pass of one cell whose local colours are its colours. */
function sweptAsOneCell(c: Colouring): PartitionedColouring {
  const count = c.order.length;
  return {
    order: Uint32Array.from(c.order),
    cells: Uint32Array.of(0, c.colourCount),
    colourStarts: Uint32Array.from(c.offsets),
    passes: [{ cellBase: 0, cellCount: count > 0 ? 1 : 0, maxColours: c.colourCount }],
    leftoverPass: false,
    leftoverOffsets: Uint32Array.of(count),
    leftoverColourCount: 0,
    cellSize: Infinity,
    passSizes: [count],
    leftoverCount: 0,
  };
}

/** The orders of the mesh's air tets with the model's vertices at `x` (xyz per model vertex). */
export function colourAirTets(mesh: AirMesh, invMass: ArrayLike<number>, x: ArrayLike<number>): AirOrder {
  return orderAirTets(mesh.tets, airVertexCount(mesh), airPositions(mesh, x), fixedAirVertices(mesh, invMass));
}

/** GPU dispatches of one pass in `solve`'s order (cell passes with tets, leftover colours; or colours). */
export function airPassDispatches(order: AirOrder, solve: AirSolve): number {
  if (solve !== 'partitioned') return order.colouring.colourCount;
  const p = order.partition;
  return p.passes.filter((g) => g.cellCount > 0).length + p.leftoverColourCount;
}

/** The tet order the CPU reference runs for `solve` (Jacobi has none: 'coloured''s is returned). */
export function airSolveOrder(order: AirOrder, solve: AirSolve): Uint32Array {
  return solve === 'partitioned' ? order.partition.order : order.colouring.order;
}

/** Per air vertex, 1 when it never moves: model vertices of inverse mass 0, the container's points. */
export function fixedAirVertices(mesh: AirMesh, invMass: ArrayLike<number>): Uint8Array {
  const nv = mesh.modelVertexCount;
  const fixed = new Uint8Array(airVertexCount(mesh));
  for (let v = 0; v < nv; v++) fixed[v] = invMass[v] > 0 ? 0 : 1;
  for (let k = 0; k < mesh.pointInvMass.length; k++) fixed[nv + k] = mesh.pointInvMass[k] > 0 ? 0 : 1;
  return fixed;
}

export class AirConstraintCpu {
  constructor(
    private mesh: AirMesh,
    private orders: AirOrder,
  ) {}

  get airMesh(): AirMesh {
    return this.mesh;
  }

  /** Installs a new air topology (after mesh optimisation) with its orders. */
  setMesh(mesh: AirMesh, orders: AirOrder): void {
    if (mesh.modelVertexCount !== this.mesh.modelVertexCount) throw new RangeError(`AirConstraintCpu.setMesh: mesh for ${mesh.modelVertexCount} model vertices, the solver has ${this.mesh.modelVertexCount}`);
    this.mesh = mesh;
    this.orders = orders;
  }

  /**
   * `iterations` passes over every air tet in the order `solve` names (the GPU stage's, tet by
   * tet: cells and colours of one dispatch are independent, so this is its exact twin) on the model positions x (xyz per
   * vertex, edited in place) with inverse masses w, and the air's points (xyz per point, the
   * particles' edited in place; default the mesh's start positions); fixed points never move.
   */
  project(x: Float64Array, w: ArrayLike<number>, iterations: number, points: Float64Array = this.mesh.points, friction = 0, x0?: ArrayLike<number>, solve: 'coloured' | 'partitioned' = 'partitioned'): AirProjectionCounts {
    const order = airSolveOrder(this.orders, solve);
    const counts: AirProjectionCounts = { inverted: 0, invertedAfter: 0 };
    for (let it = 0; it < iterations; it++) {
      let active = 0;
      for (let n = 0; n < order.length; n++) if (this.projectTet(order[n], x, w, points, friction, x0)) active++;
      if (it === 0) counts.inverted = active;
    }
    counts.invertedAfter = this.countInverted(x, points);
    return counts;
  }

  /**
   * The Jacobi order of the same projection (float64 only: as a GPU kernel it would take three
   * dispatches a pass, but it converges far slower on a pressed stack, docs/benchmarks.md
   * "General air mesher and the air constraint's order", so the GPU stage has none). Per pass:
   * every tet inverted at the pass's start counts itself at its moving vertices (n_v); each such
   * tet computes its step from the pass's start positions with mass splitting in the
   * denominator (Tonge et al. 2012, as the contacts: dlambda = -C / sum_k n_k w_k |grad_k C|^2,
   * so corrections keep the true inverse masses and sum_k m_k dx_k = 0 still), and friction
   * as the Gauss-Seidel order's with its cut divided by the tet's largest n_k (one factor for all
   * four vertices: momentum-free); all corrections are summed per vertex and applied at the end
   * of the pass.
   */
  projectJacobi(x: Float64Array, w: ArrayLike<number>, iterations: number, points: Float64Array = this.mesh.points, friction = 0, x0?: ArrayLike<number>): AirProjectionCounts {
    const counts: AirProjectionCounts = { inverted: 0, invertedAfter: 0 };
    const m = this.mesh;
    const nv = m.modelVertexCount;
    const n = nv + m.points.length / 3;
    if (this.uses.length !== n) { this.uses = new Float64Array(n); this.acc = new Float64Array(3 * n); }
    const uses = this.uses, acc = this.acc;
    const tetCount = m.tets.length / 4;
    for (let it = 0; it < iterations; it++) {
      uses.fill(0);
      acc.fill(0);
      let active = 0;
      for (let t = 0; t < tetCount; t++) {
        if (!(this.det(t, x, points) < 0)) continue;
        active++;
        for (let k = 0; k < 4; k++) {
          const v = m.tets[4 * t + k];
          if ((v < nv ? w[v] : m.pointInvMass[v - nv]) > 0) uses[v]++;
        }
      }
      if (it === 0) counts.inverted = active;
      if (active === 0) continue;
      for (let t = 0; t < tetCount; t++) this.solveTetJacobi(t, x, w, points, friction, x0);
      for (let v = 0; v < n; v++) {
        if (uses[v] === 0) continue;
        const dst = v < nv ? x : points;
        const o = v < nv ? 3 * v : 3 * (v - nv);
        dst[o] += acc[3 * v]; dst[o + 1] += acc[3 * v + 1]; dst[o + 2] += acc[3 * v + 2];
      }
    }
    counts.invertedAfter = this.countInverted(x, points);
    return counts;
  }

  private uses = new Float64Array(0);
  private acc = new Float64Array(0);

  /** One tet's Jacobi step (projectJacobi), added to the accumulators. */
  private solveTetJacobi(t: number, x: Float64Array, w: ArrayLike<number>, points: Float64Array, friction: number, x0?: ArrayLike<number>): void {
    const C = this.det(t, x, points);
    if (!(C < 0)) return;
    const m = this.mesh;
    const nv = m.modelVertexCount;
    const p = this.p;
    const g = this.gradients();
    let denom = 0, most = 0;
    for (let k = 0; k < 4; k++) {
      const v = m.tets[4 * t + k];
      this.wk[k] = v < nv ? w[v] : m.pointInvMass[v - nv];
      if (this.wk[k] === 0) continue;
      denom += this.uses[v] * this.wk[k] * (g[3 * k] ** 2 + g[3 * k + 1] ** 2 + g[3 * k + 2] ** 2);
      most = Math.max(most, this.uses[v]);
    }
    if (!(denom > 0)) return;
    const s = -C / denom;
    let pushMass = 0, strongest = 0, kn = 0;
    const dn = this.dn;
    for (let k = 0; k < 4; k++) {
      const gg = g[3 * k] ** 2 + g[3 * k + 1] ** 2 + g[3 * k + 2] ** 2;
      if (gg > strongest) { strongest = gg; kn = k; }
      dn[3 * k] = 0; dn[3 * k + 1] = 0; dn[3 * k + 2] = 0;
      if (this.wk[k] === 0) continue;
      const f = s * this.wk[k];
      dn[3 * k] = f * g[3 * k]; dn[3 * k + 1] = f * g[3 * k + 1]; dn[3 * k + 2] = f * g[3 * k + 2];
      const v = m.tets[4 * t + k];
      this.acc[3 * v] += dn[3 * k]; this.acc[3 * v + 1] += dn[3 * k + 1]; this.acc[3 * v + 2] += dn[3 * k + 2];
      pushMass += s * Math.sqrt(gg);
    }
    if (!(friction > 0 && x0 && strongest > 0)) return;
    // Friction from the displacements after this tet's own push, as the Gauss-Seidel order.
    const len = Math.sqrt(strongest);
    const n0 = g[3 * kn] / len, n1 = g[3 * kn + 1] / len, n2 = g[3 * kn + 2] / len;
    const d = this.d;
    for (let k = 0; k < 4; k++) {
      const v = m.tets[4 * t + k];
      if (v < nv) for (let a = 0; a < 3; a++) d[3 * k + a] = p[3 * k + a] + dn[3 * k + a] - x0[3 * v + a];
      else { d[3 * k] = 0; d[3 * k + 1] = 0; d[3 * k + 2] = 0; }
    }
    const slip = tangentialSlip(d, this.wk, n0, n1, n2);
    if (!(slip > 0)) return;
    const cut = Math.min(1, (friction * pushMass) / slip) / most;
    for (let k = 0; k < 4; k++) {
      if (this.wk[k] === 0) continue;
      const v = m.tets[4 * t + k];
      this.acc[3 * v] -= cut * d[3 * k]; this.acc[3 * v + 1] -= cut * d[3 * k + 1]; this.acc[3 * v + 2] -= cut * d[3 * k + 2];
    }
  }

  private readonly dn = new Float64Array(12);

  /** grad_0..grad_3 of eq. 2 for the tet gathered last (this.p). */
  private gradients(): number[] {
    const p = this.p;
    const e1x = p[3] - p[0], e1y = p[4] - p[1], e1z = p[5] - p[2];
    const e2x = p[6] - p[0], e2y = p[7] - p[1], e2z = p[8] - p[2];
    const e3x = p[9] - p[0], e3y = p[10] - p[1], e3z = p[11] - p[2];
    const g = [
      0, 0, 0,
      e2y * e3z - e2z * e3y, e2z * e3x - e2x * e3z, e2x * e3y - e2y * e3x,
      e3y * e1z - e3z * e1y, e3z * e1x - e3x * e1z, e3x * e1y - e3y * e1x,
      e1y * e2z - e1z * e2y, e1z * e2x - e1x * e2z, e1x * e2y - e1y * e2x,
    ];
    for (let a = 0; a < 3; a++) g[a] = -(g[3 + a] + g[6 + a] + g[9 + a]);
    return g;
  }

  /**
   * Air tets inverted at positions x (and the points'): det < -INVERTED_QUALITY l_rms^3 / sqrt 2,
   * i.e. a quality (eq. 4) below -INVERTED_QUALITY; flat tets held at det = 0 by the
   * constraint and a collider at once differ from 0 by rounding only.
   */
  countInverted(x: ArrayLike<number>, points: ArrayLike<number> = this.mesh.points): number {
    let n = 0;
    for (let t = 0; t < this.mesh.tets.length / 4; t++) {
      const d = this.det(t, x, points);
      if (d < 0 && d < -INVERTED_QUALITY * Math.SQRT1_2 * this.rmsCubed()) n++;
    }
    return n;
  }

  /** l_rms^3 of the tet gathered last (eq. 4). */
  private rmsCubed(): number {
    const p = this.p;
    let sum = 0;
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) sum += (p[3 * i] - p[3 * j]) ** 2 + (p[3 * i + 1] - p[3 * j + 1]) ** 2 + (p[3 * i + 2] - p[3 * j + 2]) ** 2;
    return (sum / 6) ** 1.5;
  }

  private readonly p = new Float64Array(12);
  private readonly wk = new Float64Array(4);

  /** det[x1 - x0, x2 - x0, x3 - x0] of air tet t at model positions x (and the points'). */
  det(t: number, x: ArrayLike<number>, points: ArrayLike<number> = this.mesh.points): number {
    this.gather(t, x, points);
    const p = this.p;
    const e1x = p[3] - p[0], e1y = p[4] - p[1], e1z = p[5] - p[2];
    const e2x = p[6] - p[0], e2y = p[7] - p[1], e2z = p[8] - p[2];
    const e3x = p[9] - p[0], e3y = p[10] - p[1], e3z = p[11] - p[2];
    return e1x * (e2y * e3z - e2z * e3y) - e1y * (e2x * e3z - e2z * e3x) + e1z * (e2x * e3y - e2y * e3x);
  }

  private gather(t: number, x: ArrayLike<number>, points: ArrayLike<number>): void {
    const m = this.mesh;
    const nv = m.modelVertexCount;
    for (let k = 0; k < 4; k++) {
      const v = m.tets[4 * t + k];
      const src = v < nv ? x : points;
      const o = v < nv ? 3 * v : 3 * (v - nv);
      this.p[3 * k] = src[o]; this.p[3 * k + 1] = src[o + 1]; this.p[3 * k + 2] = src[o + 2];
    }
  }

  /** Projects air tet t when inverted; returns whether it was. */
  private projectTet(t: number, x: Float64Array, w: ArrayLike<number>, points: Float64Array, friction: number, x0?: ArrayLike<number>): boolean {
    const C = this.det(t, x, points);
    if (!(C < 0)) return false;
    const m = this.mesh;
    const nv = m.modelVertexCount;
    // grad_1 = e2 x e3, grad_2 = e3 x e1, grad_3 = e1 x e2, grad_0 = -(sum), of the tet det() gathered.
    const g = this.gradients();
    let denom = 0;
    for (let k = 0; k < 4; k++) {
      const v = m.tets[4 * t + k];
      this.wk[k] = v < nv ? w[v] : m.pointInvMass[v - nv];
      denom += this.wk[k] * (g[3 * k] ** 2 + g[3 * k + 1] ** 2 + g[3 * k + 2] ** 2);
    }
    if (!(denom > 0)) return true;
    const s = -C / denom;
    let pushMass = 0, strongest = 0, kn = 0;
    for (let k = 0; k < 4; k++) {
      const gg = g[3 * k] ** 2 + g[3 * k + 1] ** 2 + g[3 * k + 2] ** 2;
      if (gg > strongest) { strongest = gg; kn = k; }
      if (this.wk[k] === 0) continue;
      const v = m.tets[4 * t + k];
      const f = s * this.wk[k];
      const dst = v < nv ? x : points;
      const o = v < nv ? 3 * v : 3 * (v - nv);
      dst[o] += f * g[3 * k]; dst[o + 1] += f * g[3 * k + 1]; dst[o + 2] += f * g[3 * k + 2];
      // m_k |dx_k| = s |g_k|.
      pushMass += s * Math.sqrt(gg);
    }
    if (friction > 0 && x0 && strongest > 0) this.applyFriction(t, x, points, x0, g, kn, friction * pushMass);
    return true;
  }

  private readonly d = new Float64Array(12);

  /** Cuts the tet's relative tangential motion over the substep by at most `budget` (mass x length), momentum-free. */
  private applyFriction(t: number, x: Float64Array, points: Float64Array, x0: ArrayLike<number>, g: number[], kn: number, budget: number): void {
    const m = this.mesh;
    const nv = m.modelVertexCount;
    const len = Math.hypot(g[3 * kn], g[3 * kn + 1], g[3 * kn + 2]);
    const n0 = g[3 * kn] / len, n1 = g[3 * kn + 1] / len, n2 = g[3 * kn + 2] / len;
    const d = this.d;
    // Displacements over the substep (the air's points: 0).
    for (let k = 0; k < 4; k++) {
      const v = m.tets[4 * t + k];
      const o = 3 * v;
      if (v < nv) { d[3 * k] = x[o] - x0[o]; d[3 * k + 1] = x[o + 1] - x0[o + 1]; d[3 * k + 2] = x[o + 2] - x0[o + 2]; }
      else { d[3 * k] = 0; d[3 * k + 1] = 0; d[3 * k + 2] = 0; }
    }
    const slip = tangentialSlip(d, this.wk, n0, n1, n2);
    if (!(slip > 0)) return;
    const cut = Math.min(1, budget / slip);
    for (let k = 0; k < 4; k++) {
      if (this.wk[k] === 0) continue;
      const v = m.tets[4 * t + k];
      const dst = v < nv ? x : points;
      const o = v < nv ? 3 * v : 3 * (v - nv);
      dst[o] -= cut * d[3 * k]; dst[o + 1] -= cut * d[3 * k + 1]; dst[o + 2] -= cut * d[3 * k + 2];
    }
  }
}
