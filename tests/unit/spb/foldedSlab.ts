/**
 * The folded slab of the self-intersection tests (paper Fig. 3): a lattice (4 cells per unit
 * along the slab) whose lower arm runs from x = armCells / 4 down to 0, bends through a
 * half-circle of centreline radius 1 around (0, 0, 1) and comes back as an upper arm at z = 2,
 * sheared down by 1.6 for x >= 3 (a shear keeps every volume) so that it sinks into the lower
 * arm. Lattice point (i, j, k) -> space; j spans the slab's thickness (z), k its width (y).
 */
export interface FoldedSlabCells {
  /** Cells of each straight arm along the slab. */
  armCells: number;
  /** Cells along the half-circle bend. */
  bendCells: number;
  /** Cells across the unit thickness. */
  thicknessCells: number;
  /** Cells per unit of width. */
  widthCells: number;
}

const smoothstep = (t: number): number => (t <= 0 ? 0 : t >= 1 ? 1 : t * t * (3 - 2 * t));

export function foldedSlabMap(c: FoldedSlabCells): (i: number, j: number, k: number) => [number, number, number] {
  return (i, j, k) => {
    const q = -0.5 + j / c.thicknessCells;
    const y = k / c.widthCells;
    if (i <= c.armCells) return [(c.armCells - i) / 4, y, q];
    if (i <= c.armCells + c.bendCells) {
      const phi = (Math.PI * (i - c.armCells)) / c.bendCells;
      return [-Math.sin(phi) * (1 - q), y, 1 - Math.cos(phi) * (1 - q)];
    }
    const x = (i - c.armCells - c.bendCells) / 4;
    return [x, y, 2 - q - 1.6 * smoothstep((x - 1) / 2)];
  };
}
