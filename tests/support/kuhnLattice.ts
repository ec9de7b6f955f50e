/**
 * Tet arrays on a lattice: nu x nv x nw cubes, each split into 6 tets around its main diagonal
 * (Kuhn/Freudenthal, so neighbouring cubes share faces exactly), then mapped by `map` from
 * lattice coordinates (u, v, w) to space. Each tet records the lattice cell it came from.
 */

// The 6 Kuhn tets of a cube: corners by bit (x = 1, y = 2, z = 4), along each axis order.
const KUHN: number[][] = [
  [0, 1, 3, 7],
  [0, 1, 5, 7],
  [0, 2, 3, 7],
  [0, 2, 6, 7],
  [0, 4, 5, 7],
  [0, 4, 6, 7],
];

export interface KuhnLattice {
  positions: Float32Array;
  tets: Uint32Array;
  /** Lattice cell (i, j, k) per tet. */
  cellOfTet: Int32Array;
  /** Vertex id of lattice point (i, j, k). */
  vertexId(i: number, j: number, k: number): number;
}

export function kuhnLattice(nu: number, nv: number, nw: number, map: (u: number, v: number, w: number) => [number, number, number]): KuhnLattice {
  const id = (i: number, j: number, k: number): number => (k * (nv + 1) + j) * (nu + 1) + i;
  const positions: number[] = [];
  for (let k = 0; k <= nw; k++) for (let j = 0; j <= nv; j++) for (let i = 0; i <= nu; i++) positions.push(...map(i, j, k));
  const tets: number[] = [];
  const cells: number[] = [];
  for (let k = 0; k < nw; k++) for (let j = 0; j < nv; j++) for (let i = 0; i < nu; i++) {
    const corner = (b: number): number => id(i + (b & 1), j + ((b >> 1) & 1), k + ((b >> 2) & 1));
    for (const t of KUHN) {
      const v = t.map(corner);
      // Orient positively in lattice space (the maps used are orientation preserving).
      const p = (b: number): number[] => [b & 1, (b >> 1) & 1, (b >> 2) & 1];
      const [a, b, c, d] = t.map(p);
      const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], e2 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]], e3 = [d[0] - a[0], d[1] - a[1], d[2] - a[2]];
      const det = e1[0] * (e2[1] * e3[2] - e2[2] * e3[1]) - e1[1] * (e2[0] * e3[2] - e2[2] * e3[0]) + e1[2] * (e2[0] * e3[1] - e2[1] * e3[0]);
      tets.push(...(det > 0 ? v : [v[0], v[1], v[3], v[2]]));
      cells.push(i, j, k);
    }
  }
  return { positions: Float32Array.from(positions), tets: Uint32Array.from(tets), cellOfTet: Int32Array.from(cells), vertexId: id };
}
