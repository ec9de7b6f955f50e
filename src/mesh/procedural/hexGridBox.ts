/**
 * An axis-aligned box meshed as a structured grid: nx x ny x nz hexahedra, each split into six
 * tets around its main diagonal (Kuhn's subdivision, conforming across neighbouring cells because
 * every cell uses the same diagonal direction). Used where isosurface stuffing would need a fine
 * lattice only to resolve one thin extent (a thin wall: a few cells across its face, one through
 * its thickness). Tets are positively oriented (the six Kuhn tets of a cell share its volume).
 */
export interface HexGridBox {
  positions: Float64Array;
  tets: Uint32Array;
}

// The six paths from corner 0 to corner 7 of a cell through its edges: corner bits x=1, y=2, z=4.
const KUHN: readonly (readonly [number, number, number, number])[] = [
  [0, 1, 3, 7], [0, 1, 5, 7], [0, 2, 3, 7], [0, 2, 6, 7], [0, 4, 5, 7], [0, 4, 6, 7],
];

export function hexGridBox(size: readonly [number, number, number], cells: readonly [number, number, number], centre: readonly [number, number, number] = [0, 0, 0]): HexGridBox {
  for (let k = 0; k < 3; k++) {
    if (!(size[k] > 0) || !Number.isFinite(size[k])) throw new RangeError(`hexGridBox: size[${k}] = ${size[k]} must be a finite number > 0`);
    if (!Number.isInteger(cells[k]) || cells[k] < 1) throw new RangeError(`hexGridBox: cells[${k}] = ${cells[k]} must be an integer >= 1`);
  }
  const [nx, ny, nz] = cells;
  const id = (i: number, j: number, k: number) => i + (nx + 1) * (j + (ny + 1) * k);
  const positions = new Float64Array(3 * (nx + 1) * (ny + 1) * (nz + 1));
  for (let k = 0; k <= nz; k++) {
    for (let j = 0; j <= ny; j++) {
      for (let i = 0; i <= nx; i++) {
        const v = 3 * id(i, j, k);
        positions[v] = centre[0] + (i / nx - 0.5) * size[0];
        positions[v + 1] = centre[1] + (j / ny - 0.5) * size[1];
        positions[v + 2] = centre[2] + (k / nz - 0.5) * size[2];
      }
    }
  }
  const tets = new Uint32Array(24 * nx * ny * nz);
  let t = 0;
  const corner = [0, 0, 0, 0, 0, 0, 0, 0];
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        for (let c = 0; c < 8; c++) corner[c] = id(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
        for (const path of KUHN) {
          let [a, b, c, d] = path.map((p) => corner[p]);
          if (signedVolume(positions, a, b, c, d) < 0) [c, d] = [d, c];
          tets.set([a, b, c, d], t);
          t += 4;
        }
      }
    }
  }
  return { positions, tets };
}

function signedVolume(x: Float64Array, a: number, b: number, c: number, d: number): number {
  const ax = x[3 * a], ay = x[3 * a + 1], az = x[3 * a + 2];
  const ux = x[3 * b] - ax, uy = x[3 * b + 1] - ay, uz = x[3 * b + 2] - az;
  const vx = x[3 * c] - ax, vy = x[3 * c + 1] - ay, vz = x[3 * c + 2] - az;
  const wx = x[3 * d] - ax, wy = x[3 * d + 1] - ay, wz = x[3 * d + 2] - az;
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
}
