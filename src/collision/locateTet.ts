/**
 * Point location by walking through tet neighbours (visibility walk), float64: from a tet near
 * p, step across the face whose plane p lies beyond most (the most negative barycentric
 * sub-volume) until a tet contains p strictly or the walk leaves the mesh. Used for queries
 * answered later than they were detected (GPU overflows answered on the CPU at the frame's end
 * positions): the tet detection found may no longer contain the point.
 */
import { subVolumes, tetVolume6 } from './cpu/tetGeometry';

/** Longest walk (a query's point moves a few tets between its substep and the frame's end). */
const MAX_STEPS = 256;

/**
 * The tet strictly containing p, walking from `start` over `neighbors` (4 per tet, -1 on the
 * boundary), or -1 when the walk leaves the mesh, meets an inverted tet or exceeds MAX_STEPS.
 */
export function locateTet(x: Float64Array, tets: Uint32Array, neighbors: Int32Array, start: number, px: number, py: number, pz: number): number {
  const s = new Float64Array(4);
  let t = start;
  for (let step = 0; step < MAX_STEPS && t >= 0; step++) {
    if (!(tetVolume6(x, tets, t) > 0)) return -1;
    subVolumes(x, tets, t, px, py, pz, s, 0);
    let worst = 0, face = -1;
    for (let k = 0; k < 4; k++) {
      if (s[k] <= worst) {
        worst = s[k];
        face = k;
      }
    }
    if (face < 0) return t;
    t = neighbors[4 * t + face];
  }
  return -1;
}
