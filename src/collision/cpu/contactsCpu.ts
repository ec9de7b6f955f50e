/**
 * Contact constraints of the collision stage, float64 CPU reference (paper 000 eq. 6; the
 * response rules of docs/collisions.md, identical on the GPU):
 *   C = (x - s) . n >= 0,   x = sum_i wp_i x_i (the point), s = sum_k b_k x_k (its boundary point)
 * with n the outward normal at s (face: its normal; edge: the sum of the two faces' area vectors;
 * vertex: the sum of its faces' area vectors), fixed when the contact is built. Projected with
 * XPBD in `contactIterations` Jacobi passes: every contact reads the positions of the pass's
 * start, each contact's step is scaled by denom / sum(g_v w_v S_v), S_v the sum of v's weights over the contacts
 * violated at the pass's start (mass splitting by use in the denominator: with unit weights, the count of
 * violated contacts at v), and
 * the corrections are summed per vertex. Each contact's corrections have zero mass-weighted sum
 * (dx_i = w_i wp_i n dlambda on the point, -w_k b_k n dlambda on the triangle), so momentum is
 * conserved exactly. Coulomb friction as the colliders': the relative tangential motion over
 * the substep is cancelled up to friction x the accumulated normal push.
 */
import { closestPointOnTriangle, FEATURE_EDGE01, FEATURE_FACE } from '../../geometry/closestPointOnTriangle';
import { addTriangleAreaVector } from '../../geometry/triangleAreaVector';
import type { SpbMeshData } from '../../spb';
import { QUERY_FOUND } from '../../spb';
import { KIND_CENTROID, KIND_EDGE, sourceIndex, sourceKind, type CpuQueryList } from './queryList';
import type { CpuSpbResults } from './spbCpu';

export class CpuContacts {
  count = 0;
  /** 4 per contact: point vertices (-1 unused) and their weights wp. */
  pointVertex = new Int32Array(256);
  pointWeight = new Float64Array(256);
  /** 3 per contact: the boundary triangle's vertices and the barycentrics b of s. */
  triVertex = new Int32Array(192);
  triBary = new Float64Array(192);
  normal = new Float64Array(192);
  /** Accumulated normal push (a distance) and tangential correction spent, per contact. */
  lambdaN = new Float64Array(64);
  frictionUsed = new Float64Array(64);
  /** Per contact: the part of its depth at the substep's start removed so far (removed without velocity). */
  recovered = new Float64Array(64);
  active = new Uint8Array(64);
  /** Per vertex, this pass: the sum of its weights over the contacts violated at the pass's start (its use, S_v). */
  readonly vertexContacts: Float64Array;
  private readonly acc: Float64Array;
  /** Per vertex: the pass's shift of the start positions (split impulse), applied with acc. */
  private readonly accPrev: Float64Array;
  private readonly cpt = new Float64Array(6);
  private readonly mesh: { tets: Uint32Array; boundaryEdges: Uint32Array };
  private readonly data: SpbMeshData;

  constructor(mesh: { tets: Uint32Array; boundaryEdges: Uint32Array; vertexCount: number }, data: SpbMeshData) {
    this.mesh = mesh;
    this.data = data;
    this.vertexContacts = new Float64Array(mesh.vertexCount);
    this.acc = new Float64Array(3 * mesh.vertexCount);
    this.accPrev = new Float64Array(3 * mesh.vertexCount);
  }

  private reserve(n: number): void {
    if (this.lambdaN.length >= n) return;
    const c = Math.max(n, 2 * this.lambdaN.length);
    this.pointVertex = new Int32Array(4 * c);
    this.pointWeight = new Float64Array(4 * c);
    this.triVertex = new Int32Array(3 * c);
    this.triBary = new Float64Array(3 * c);
    this.normal = new Float64Array(3 * c);
    this.lambdaN = new Float64Array(c);
    this.frictionUsed = new Float64Array(c);
    this.recovered = new Float64Array(c);
    this.active = new Uint8Array(c);
  }

  /** Adds triangle f's area vector (v1 - v0) x (v2 - v0) at positions x to n[o..o+2]. */
  private addAreaVector(x: Float64Array, f: number, n: Float64Array, o: number): void {
    const t = this.data.triangles;
    addTriangleAreaVector(x, t[3 * f], t[3 * f + 1], t[3 * f + 2], n, o);
  }

  /**
   * One contact per query index (inactive where the query found no path, or the normal
   * vanishes), built at positions x after the shortest-path pass.
   */
  build(x: Float64Array, list: CpuQueryList, res: CpuSpbResults): number {
    const n = list.count;
    this.reserve(n);
    this.count = n;
    this.vertexContacts.fill(0);
    const { tets, boundaryEdges } = this.mesh;
    const d = this.data;
    let active = 0;
    for (let i = 0; i < n; i++) {
      this.active[i] = 0;
      this.lambdaN[i] = 0;
      this.recovered[i] = 0;
      this.frictionUsed[i] = 0;
      for (let k = 0; k < 4; k++) { this.pointVertex[4 * i + k] = -1; this.pointWeight[4 * i + k] = 0; }
      if (res.status[i] !== QUERY_FOUND) continue;
      const src = list.source[i], kind = sourceKind(src), id = sourceIndex(src);
      if (kind === KIND_EDGE) {
        this.pointVertex[4 * i] = boundaryEdges[2 * id];
        this.pointVertex[4 * i + 1] = boundaryEdges[2 * id + 1];
        this.pointWeight[4 * i] = 1 - list.param[i];
        this.pointWeight[4 * i + 1] = list.param[i];
      } else if (kind === KIND_CENTROID) {
        for (let k = 0; k < 4; k++) { this.pointVertex[4 * i + k] = tets[4 * id + k]; this.pointWeight[4 * i + k] = 0.25; }
      } else {
        this.pointVertex[4 * i] = id;
        this.pointWeight[4 * i] = 1;
      }
      const f = res.triangle[i], feature = res.feature[i];
      const t0 = d.triangles[3 * f], t1 = d.triangles[3 * f + 1], t2 = d.triangles[3 * f + 2];
      this.triVertex[3 * i] = t0;
      this.triVertex[3 * i + 1] = t1;
      this.triVertex[3 * i + 2] = t2;
      // Barycentrics of s on its triangle: s is its own closest point there.
      closestPointOnTriangle(res.s[3 * i], res.s[3 * i + 1], res.s[3 * i + 2], x[3 * t0], x[3 * t0 + 1], x[3 * t0 + 2], x[3 * t1], x[3 * t1 + 1], x[3 * t1 + 2], x[3 * t2], x[3 * t2 + 1], x[3 * t2 + 2], this.cpt);
      for (let k = 0; k < 3; k++) this.triBary[3 * i + k] = this.cpt[3 + k];
      // Outward normal at s by its feature (face, edge k from vertex k to k + 1, vertex k).
      const nv = this.normal;
      nv[3 * i] = nv[3 * i + 1] = nv[3 * i + 2] = 0;
      this.addAreaVector(x, f, nv, 3 * i);
      if (feature !== FEATURE_FACE && feature >= FEATURE_EDGE01) {
        const across = d.triangleEdgeNeighbor[3 * f + feature - FEATURE_EDGE01];
        if (across >= 0) this.addAreaVector(x, across, nv, 3 * i);
      } else if (feature !== FEATURE_FACE) {
        const v = d.triangles[3 * f + feature];
        nv[3 * i] = nv[3 * i + 1] = nv[3 * i + 2] = 0;
        for (let j = d.vertexTriangleOffsets[v]; j < d.vertexTriangleOffsets[v + 1]; j++) this.addAreaVector(x, d.vertexTriangles[j], nv, 3 * i);
      }
      const len = Math.hypot(nv[3 * i], nv[3 * i + 1], nv[3 * i + 2]);
      if (!(len > 0)) continue;
      for (let k = 0; k < 3; k++) nv[3 * i + k] /= len;
      this.active[i] = 1;
      active++;
    }
    return active;
  }

  /**
   * Each pass's use S_v (shaders/contacts.wgsl countContacts): the sum of v's weights over the
   * contacts violated (C < 0) at the pass's start positions x.
   */
  private countViolated(x: Float64Array): void {
    const use = this.vertexContacts;
    use.fill(0);
    const { pointVertex: pv, pointWeight: pw, triVertex: tv, triBary: tb, normal: nv } = this;
    for (let i = 0; i < this.count; i++) {
      if (!this.active[i]) continue;
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
      if (!(cx * nv[3 * i] + cy * nv[3 * i + 1] + cz * nv[3 * i + 2] < 0)) continue;
      for (let k = 0; k < 4; k++) if (pw[4 * i + k] !== 0) use[pv[4 * i + k]] += pw[4 * i + k];
      for (let k = 0; k < 3; k++) if (tb[3 * i + k] !== 0) use[tv[3 * i + k]] += tb[3 * i + k];
    }
  }

  /**
   * `passes` Jacobi passes over the active contacts at positions x; x0: the substep's start
   * positions (friction's motion), w: inverse masses.
   */
  solve(x: Float64Array, x0: Float64Array, w: Float64Array, friction: number, passes: number, splitImpulse = true): void {
    const acc = this.acc;
    const accPrev = this.accPrev;
    const { pointVertex: pv, pointWeight: pw, triVertex: tv, triBary: tb, normal: nv } = this;
    for (let pass = 0; pass < passes; pass++) {
      this.countViolated(x);
      for (let i = 0; i < this.count; i++) {
        if (!this.active[i]) continue;
        // Point and boundary point now and at the substep's start; denominator; scale.
        let px = 0, py = 0, pz = 0, qx = 0, qy = 0, qz = 0, denom = 0, denomSplit = 0;
        for (let k = 0; k < 4; k++) {
          const wp = pw[4 * i + k];
          if (wp === 0) continue;
          const v = pv[4 * i + k];
          px += wp * x[3 * v]; py += wp * x[3 * v + 1]; pz += wp * x[3 * v + 2];
          qx += wp * x0[3 * v]; qy += wp * x0[3 * v + 1]; qz += wp * x0[3 * v + 2];
          denom += wp * wp * w[v];
          denomSplit += Math.max(wp, this.vertexContacts[v]) * wp * w[v];
        }
        let sx = 0, sy = 0, sz = 0, rx = 0, ry = 0, rz = 0;
        for (let k = 0; k < 3; k++) {
          const b = tb[3 * i + k];
          if (b === 0) continue;
          const v = tv[3 * i + k];
          sx += b * x[3 * v]; sy += b * x[3 * v + 1]; sz += b * x[3 * v + 2];
          rx += b * x0[3 * v]; ry += b * x0[3 * v + 1]; rz += b * x0[3 * v + 2];
          denom += b * b * w[v];
          denomSplit += Math.max(b, this.vertexContacts[v]) * b * w[v];
        }
        if (!(denom > 0)) continue;
        // Mass splitting in the denominator only (shaders/contacts.wgsl): momentum stays exact.
        const scale = denom / denomSplit;
        const nx = nv[3 * i], ny = nv[3 * i + 1], nz = nv[3 * i + 2];
        const C = (px - sx) * nx + (py - sy) * ny + (pz - sz) * nz;
        // Correction along n (dlambda > 0 pushes the point out) and along the tangent t.
        let dl = 0;
        // Split impulse: the part of the push that removes depth the contact already had at the
        // substep's start moves the start positions too, so it adds no velocity (v = (x - x0) / h).
        // A pre-existing penetration (unresolved earlier, or a tangled start) is then separated,
        // not launched: without it a collapsing cube's folds gained 12 J from 0.01 J. Recovery mode
        // (section 5.2) pushes with velocity, as the paper does: a tangle then comes apart in 9
        // substeps instead of 19 (tests/unit/collision/selfRecovery.test.ts).
        let recover = 0;
        if (C < 0) {
          dl = (-C / denom) * scale;
          const push = dl * denom;
          this.lambdaN[i] += push;
          const depth0 = -((qx - rx) * nx + (qy - ry) * ny + (qz - rz) * nz);
          const q = splitImpulse ? Math.min(push, depth0 - this.recovered[i]) : 0;
          if (q > 0) {
            this.recovered[i] += q;
            recover = (q / push) * dl;
          }
        }
        let dt = 0, tx = 0, ty = 0, tz = 0;
        const budget = friction * this.lambdaN[i] - this.frictionUsed[i];
        if (budget > 0) {
          const dx = px - qx - (sx - rx), dy = py - qy - (sy - ry), dz = pz - qz - (sz - rz);
          const dn = dx * nx + dy * ny + dz * nz;
          tx = dx - dn * nx; ty = dy - dn * ny; tz = dz - dn * nz;
          const tl = Math.hypot(tx, ty, tz);
          // This contact's share of the slide, limited by its Coulomb budget (lambdaN holds its scaled pushes).
          const cut = Math.min(tl * scale, budget);
          if (cut > 0) {
            dt = cut / denom;
            tx /= tl; ty /= tl; tz /= tl;
            this.frictionUsed[i] += cut;
          }
        }
        if (dl === 0 && dt === 0) continue;
        // Point vertices move along +n dl - t dt, triangle vertices the opposite way.
        const gx = nx * dl - tx * dt, gy = ny * dl - ty * dt, gz = nz * dl - tz * dt;
        for (let k = 0; k < 4; k++) {
          const wp = pw[4 * i + k];
          if (wp === 0) continue;
          const v = pv[4 * i + k];
          const f = w[v] * wp;
          acc[3 * v] += f * gx; acc[3 * v + 1] += f * gy; acc[3 * v + 2] += f * gz;
          if (recover > 0) { accPrev[3 * v] += f * nx * recover; accPrev[3 * v + 1] += f * ny * recover; accPrev[3 * v + 2] += f * nz * recover; }
        }
        for (let k = 0; k < 3; k++) {
          const v = tv[3 * i + k];
          const f = w[v] * tb[3 * i + k];
          if (f === 0) continue;
          acc[3 * v] -= f * gx; acc[3 * v + 1] -= f * gy; acc[3 * v + 2] -= f * gz;
          if (recover > 0) { accPrev[3 * v] -= f * nx * recover; accPrev[3 * v + 1] -= f * ny * recover; accPrev[3 * v + 2] -= f * nz * recover; }
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
}
