/**
 * Paper section 3.5's set: the corners of every boundary triangle whose tet is inverted (6 V <= 0).
 * Detection skips their self queries (detectCpu.ts, at the positions it detects at); CCD with
 * SolverParams.ccdSkipInverted skips their same-object pairs (ccdCpu.ts, at the substep's start).
 * GPU twin: shaders/lib/invertedBoundaryFan.wgsl, one vertex at a time (dcdDetect.wgsl and ccdNarrow.wgsl include it).
 */
import type { TetMesh } from '../../mesh/types';

/** Sets out[v] = 1 for those corners and 0 for every other vertex; `volume6(t)`: 6 x tet t's signed volume. */
export function markInvertedBoundaryVertices(mesh: TetMesh, volume6: (t: number) => number, out: Uint8Array): void {
  out.fill(0);
  const tris = mesh.boundaryTriangles, tet = mesh.boundaryTriangleTet;
  for (let f = 0; f < tet.length; f++) {
    if (volume6(tet[f]) > 0) continue;
    out[tris[3 * f]] = out[tris[3 * f + 1]] = out[tris[3 * f + 2]] = 1;
  }
}
