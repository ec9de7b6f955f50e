/**
 * Open triangle surfaces built here for the self-collision culling tests (a disk, a spherical
 * cap, a spiral strip, a sheet, a pipe), as the CCD topology the culling reads (one object), with
 * the positions as float64 xyz. Triangles are wound so that their normals point to +z (disk,
 * strip, sheet) or outward (cap, pipe).
 */
import type { CcdTopology } from '../../src/collision/ccd/broadPhase';

export interface OpenSurface {
  topology: CcdTopology;
  positions: Float64Array;
}

export function surfaceOf(positions: number[], triangles: number[]): OpenSurface {
  const n = positions.length / 3;
  const seen = new Map<string, [number, number]>();
  for (let t = 0; t < triangles.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const a = triangles[t + k], b = triangles[t + ((k + 1) % 3)];
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      if (!seen.has(key)) seen.set(key, a < b ? [a, b] : [b, a]);
    }
  }
  const edges = Uint32Array.from([...seen.values()].flat());
  return {
    topology: {
      vertexCount: n,
      boundaryVertices: Uint32Array.from({ length: n }, (_, i) => i),
      triangles: Uint32Array.from(triangles),
      edges,
      vertexObject: new Uint32Array(n),
    },
    positions: Float64Array.from(positions),
  };
}

/**
 * A grid of (rows + 1) x (cols + 1) vertices at place(i / rows, j / cols), two triangles per cell,
 * wound (u, v) counter-clockwise: normals along du x dv.
 */
export function gridSurface(rows: number, cols: number, place: (u: number, v: number) => [number, number, number]): OpenSurface {
  const p: number[] = [], t: number[] = [];
  for (let i = 0; i <= rows; i++) for (let j = 0; j <= cols; j++) p.push(...place(i / rows, j / cols));
  const id = (i: number, j: number): number => i * (cols + 1) + j;
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      t.push(id(i, j), id(i + 1, j), id(i + 1, j + 1));
      t.push(id(i, j), id(i + 1, j + 1), id(i, j + 1));
    }
  }
  return surfaceOf(p, t);
}

/** A flat disk of radius 1 in the plane z = 0 (centre vertex, `rings` rings of `sectors` vertices), normals +z. */
export function disk(rings: number, sectors: number): OpenSurface {
  const p: number[] = [0, 0, 0], t: number[] = [];
  for (let r = 1; r <= rings; r++) {
    for (let s = 0; s < sectors; s++) {
      const a = (2 * Math.PI * s) / sectors;
      p.push((r / rings) * Math.cos(a), (r / rings) * Math.sin(a), 0);
    }
  }
  const id = (r: number, s: number): number => (r === 0 ? 0 : 1 + (r - 1) * sectors + (s % sectors));
  for (let s = 0; s < sectors; s++) t.push(0, id(1, s), id(1, s + 1));
  for (let r = 1; r < rings; r++) {
    for (let s = 0; s < sectors; s++) {
      t.push(id(r, s), id(r + 1, s), id(r + 1, s + 1));
      t.push(id(r, s), id(r + 1, s + 1), id(r, s + 1));
    }
  }
  return surfaceOf(p, t);
}

/** The cap of the unit sphere around +z up to polar angle `maxPolar` (radians), normals outward. */
export function sphericalCap(maxPolar: number, rings: number, sectors: number): OpenSurface {
  const p: number[] = [0, 0, 1], t: number[] = [];
  for (let r = 1; r <= rings; r++) {
    const polar = (r / rings) * maxPolar;
    for (let s = 0; s < sectors; s++) {
      const a = (2 * Math.PI * s) / sectors;
      p.push(Math.sin(polar) * Math.cos(a), Math.sin(polar) * Math.sin(a), Math.cos(polar));
    }
  }
  const id = (r: number, s: number): number => (r === 0 ? 0 : 1 + (r - 1) * sectors + (s % sectors));
  for (let s = 0; s < sectors; s++) t.push(0, id(1, s), id(1, s + 1));
  for (let r = 1; r < rings; r++) {
    for (let s = 0; s < sectors; s++) {
      t.push(id(r, s), id(r + 1, s), id(r + 1, s + 1));
      t.push(id(r, s), id(r + 1, s + 1), id(r, s + 1));
    }
  }
  return surfaceOf(p, t);
}

/**
 * A flat strip (width `width`) along the planar spiral of radius 1 for angles 0..`turn` (radians),
 * rising by `rise` per radian, normals +z: past 2 pi it lies over its own start, and it passes
 * through it when `rise` makes it come back down there (a negative total rise).
 */
export function spiralStrip(turn: number, width: number, rise: number, segments: number): OpenSurface {
  return gridSurface(segments, 2, (u, v) => {
    const a = u * turn, r = 1 + width * (0.5 - v);
    return [r * Math.cos(a), r * Math.sin(a), rise * a];
  });
}
