/**
 * Isosurface stuffing (Labelle & Shewchuk, "Isosurface Stuffing: Fast Tetrahedral Meshes with
 * Good Dihedral Angles", SIGGRAPH 2007), uniform-lattice version:
 *  1. sample the signed distance function (negative inside) at every BCC lattice vertex;
 *  2. cut points: where the sign changes strictly along a lattice edge, the root of the SDF
 *     on that edge (found by the Illinois variant of regula falsi on the true SDF;
 *     cutPoints.ts);
 *  3. warp: a cut point closer to an endpoint than alpha times the edge length "violates" that
 *     endpoint; each violated vertex moves to its closest violating cut point and becomes a
 *     surface (0) vertex, which discards the cut points on its edges (paper Sec. 3.2). With
 *     alpha_long = 0.24999 (black edges) and alpha_short = 0.41189 (red edges) the paper proves
 *     every output dihedral angle lies in [10.7, 164.8] degrees (Table 1) for smooth surfaces
 *     sampled finely enough;
 *  4. stencils: every BCC tet with no outside vertex (and at least one inside) is kept
 *     whole, every cut tet is filled by its stencil (stencils.ts), every tet with no inside
 *     vertex is dropped; output ids, orientation and quad diagonals in meshBuilder.ts.
 * Memory: per lattice vertex one float and a few ints in typed arrays; cut points live in an
 * int hash keyed by lattice edge; no per-tet objects.
 */
import { BccLattice } from './bccLattice';
import { CutTable } from './cutPoints';
import { MeshBuilder } from './meshBuilder';
import type { Bounds, Sdf } from './sdf';
import { fillCutTet } from './stencils';

export { ALPHA_LONG, ALPHA_SHORT } from './cutPoints';

export interface StuffingInput {
  sdf: Sdf;
  /** Box containing every point where sdf <= 0. */
  bounds: Bounds;
  /** Lattice spacing h (cube edge, the length of black edges). */
  spacing: number;
  /** Called with a fraction in [0, 1] as the phases advance. */
  onProgress?: (fraction: number) => void;
  /**
   * Skip SDF evaluation in lattice blocks far from the surface (default true). The output is
   * identical either way for an SDF whose gradient norm is at most LIPSCHITZ; false is for
   * tests and for SDFs that are not distance bounds.
   */
  skipFarBlocks?: boolean;
}

export interface StuffingOutput {
  positions: Float32Array;
  tets: Uint32Array;
  /** Lattice size, for reports. */
  latticeVertices: number;
  cutPoints: number;
  warpedVertices: number;
}

/**
 * A lattice block of BLOCK^3 cubes whose centre value exceeds LIPSCHITZ * (block radius + h)
 * in magnitude cannot contain a cut edge if |grad sdf| <= LIPSCHITZ, so its vertices get a
 * value of the right sign without evaluating the SDF (thin shapes in large boxes: noodles).
 */
const BLOCK = 4;
const LIPSCHITZ = 1.5;

export function stuffIsosurface(input: StuffingInput): StuffingOutput {
  const { sdf, bounds, spacing: h } = input;
  const progress = input.onProgress ?? (() => {});
  for (let a = 0; a < 3; a++) {
    if (!(bounds.max[a] > bounds.min[a])) throw new Error(`isosurface stuffing: empty bounds on axis ${'xyz'[a]} (${bounds.min[a]}..${bounds.max[a]})`);
  }
  if (!(h > 0)) throw new Error(`isosurface stuffing: lattice spacing ${h} must be positive`);

  // A margin of 2h keeps every cut edge and every kept tet away from the lattice border.
  const n: number[] = [];
  const lo: [number, number, number] = [0, 0, 0];
  for (let a = 0; a < 3; a++) {
    const ext = bounds.max[a] - bounds.min[a];
    n[a] = Math.ceil(ext / h) + 4;
    lo[a] = (bounds.min[a] + bounds.max[a]) / 2 - (n[a] * h) / 2;
  }
  const L = new BccLattice(lo, h, n[0], n[1], n[2]);
  const N = L.vertexCount;

  // 1. Sample the SDF.
  const f = sampleLattice(L, sdf, input.skipFarBlocks ?? true, (x) => progress(0.5 * x));

  // 2. Cut points and violations.
  const cuts = new CutTable(L, sdf, f);
  cuts.findAll((x) => progress(0.5 + 0.15 * x));

  // 3. Warp violated vertices to their closest violating cut point.
  const warpCut = cuts.warpCut;
  let warped = 0;
  for (let v = 0; v < N; v++) {
    if (warpCut[v] >= 0) {
      f[v] = 0;
      warped++;
    }
  }

  // 4. Stencils over every BCC tet.
  const out = new MeshBuilder(L, cuts);
  emitTets(L, f, out, (x) => progress(0.65 + 0.35 * x));
  progress(1);
  return { ...out.finish(), latticeVertices: N, cutPoints: cuts.count, warpedVertices: warped };
}

/** The SDF at a point; NaN (a broken SDF) is an error naming the point. */
function sample(sdf: Sdf, x: number, y: number, z: number): number {
  const v = sdf(x, y, z);
  if (v !== v) throw new Error(`isosurface stuffing: the SDF returned NaN at (${x}, ${y}, ${z})`);
  return v;
}

/** SDF values at every lattice vertex (Float32: only signs and rough magnitudes are kept). */
function sampleLattice(L: BccLattice, sdf: Sdf, skipFar: boolean, progress: (x: number) => void): Float32Array {
  const f = new Float32Array(L.vertexCount);
  const { nx, ny, nz, h, lo } = L;
  const bxCount = Math.ceil((nx + 1) / BLOCK), byCount = Math.ceil((ny + 1) / BLOCK), bzCount = Math.ceil((nz + 1) / BLOCK);
  const radius = (BLOCK * h * Math.sqrt(3)) / 2;
  for (let bk = 0; bk < bzCount; bk++) {
    progress(bk / bzCount);
    for (let bj = 0; bj < byCount; bj++) {
      for (let bi = 0; bi < bxCount; bi++) {
        const i0 = bi * BLOCK, j0 = bj * BLOCK, k0 = bk * BLOCK;
        const fc = sample(sdf, lo[0] + (i0 + BLOCK / 2) * h, lo[1] + (j0 + BLOCK / 2) * h, lo[2] + (k0 + BLOCK / 2) * h);
        const far = skipFar && Math.abs(fc) > LIPSCHITZ * (radius + h);
        // Far value: a lower bound of |f| with the right sign (>= h in magnitude).
        const farValue = Math.sign(fc) * (Math.abs(fc) / LIPSCHITZ - radius);
        const i1 = Math.min(i0 + BLOCK, nx + 1), j1 = Math.min(j0 + BLOCK, ny + 1), k1 = Math.min(k0 + BLOCK, nz + 1);
        for (let k = k0; k < k1; k++) {
          for (let j = j0; j < j1; j++) {
            for (let i = i0; i < i1; i++) {
              const a = L.idA(i, j, k);
              f[a] = far ? farValue : sample(sdf, lo[0] + i * h, lo[1] + j * h, lo[2] + k * h);
              if (i < nx && j < ny && k < nz) {
                const b = L.idB(i, j, k);
                f[b] = far ? farValue : sample(sdf, lo[0] + (i + 0.5) * h, lo[1] + (j + 0.5) * h, lo[2] + (k + 0.5) * h);
              }
            }
          }
        }
      }
    }
  }
  return f;
}


/** Visits every BCC tet (two adjacent B vertices + one edge of the A square between them). */
function emitTets(L: BccLattice, f: Float32Array, out: MeshBuilder, progress: (x: number) => void): void {
  const { nx, ny, nz } = L;
  const v = new Int32Array(4);
  const s = new Int8Array(4);
  const sq = new Int32Array(4);
  const sign = (x: number): number => (x < 0 ? -1 : x > 0 ? 1 : 0);
  for (let k = 0; k < nz; k++) {
    progress(k / nz);
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        const c1 = L.idB(i, j, k);
        for (let axis = 0; axis < 3; axis++) {
          const ni = i + (axis === 0 ? 1 : 0), nj = j + (axis === 1 ? 1 : 0), nk = k + (axis === 2 ? 1 : 0);
          if (ni >= nx || nj >= ny || nk >= nz) continue;
          const c2 = L.idB(ni, nj, nk);
          // The square of A vertices between the two cubes, in cyclic order.
          for (let q = 0; q < 4; q++) {
            const db = q === 1 || q === 2 ? 1 : 0, dc = q >= 2 ? 1 : 0;
            if (axis === 0) sq[q] = L.idA(i + 1, j + db, k + dc);
            else if (axis === 1) sq[q] = L.idA(i + dc, j + 1, k + db);
            else sq[q] = L.idA(i + db, j + dc, k + 1);
          }
          const f1 = f[c1], f2 = f[c2];
          if (f1 > 0 && f2 > 0 && f[sq[0]] > 0 && f[sq[1]] > 0 && f[sq[2]] > 0 && f[sq[3]] > 0) continue;
          for (let q = 0; q < 4; q++) {
            v[0] = c1;
            v[1] = c2;
            v[2] = sq[q];
            v[3] = sq[(q + 1) & 3];
            let nNeg = 0, nPos = 0;
            for (let m = 0; m < 4; m++) {
              s[m] = sign(f[v[m]]);
              if (s[m] < 0) nNeg++;
              else if (s[m] > 0) nPos++;
            }
            // No inside vertex: dropped, including the all-zero tet. Its four vertices lie on
            // the isosurface, so where the surface is locally flat (the regime of the paper's
            // angle guarantee) it is a sliver of vanishing volume.
            if (nNeg === 0) continue;
            if (nPos === 0) out.emit(v[0], v[1], v[2], v[3]);
            else fillCutTet(out, v, s);
          }
        }
      }
    }
  }
}
