/**
 * Independent checks used by the mesh tests: written plainly (Maps, strings, O(n^2) where
 * small) so they share no code with the fast typed-array implementation they verify.
 */
import { readSharedMesh } from '../../support/sharedMeshes';
import { TET_FACES, type TetMesh } from '../../../src/mesh/types';

export interface ReadmeEntry {
  file: string;
  vertices: number;
  tets: number;
  genus: number;
}

/** The table in shared/meshes/README.md (written by others): counts and genus per file. */
export function readmeTable(): ReadmeEntry[] {
  const out: ReadmeEntry[] = [];
  for (const line of readSharedMesh('README.md').split('\n')) {
    const m = /^\|\s*([^|]+?)\s*\|\s*([\d,]+)\s*\|\s*([\d,]+)\s*\|\s*(.*)\|\s*$/.exec(line);
    if (!m) continue;
    const file = m[1].split(' ')[0];
    const genusMatch = /genus\s*(\d+)/.exec(m[4]);
    out.push({
      file,
      vertices: Number(m[2].replace(/,/g, '')),
      tets: Number(m[3].replace(/,/g, '')),
      genus: genusMatch ? Number(genusMatch[1]) : 0,
    });
  }
  return out;
}

export interface SurfaceFacts {
  /** Every undirected boundary edge is used exactly twice, once in each direction. */
  closedOriented: boolean;
  badEdges: string[];
  V: number;
  E: number;
  F: number;
}

export function surfaceFacts(triangles: Uint32Array): SurfaceFacts {
  const directed = new Map<string, number>();
  const verts = new Set<number>();
  const F = triangles.length / 3;
  for (let t = 0; t < F; t++) {
    for (let k = 0; k < 3; k++) {
      const a = triangles[3 * t + k], b = triangles[3 * t + ((k + 1) % 3)];
      verts.add(a);
      const key = `${a},${b}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  }
  const badEdges: string[] = [];
  const undirected = new Set<string>();
  for (const [key, n] of directed) {
    const [a, b] = key.split(',').map(Number);
    undirected.add(a < b ? `${a},${b}` : `${b},${a}`);
    if (n !== 1 || directed.get(`${b},${a}`) !== 1) badEdges.push(key);
  }
  return { closedOriented: badEdges.length === 0, badEdges, V: verts.size, E: undirected.size, F };
}

/** Volume enclosed by outward triangles (divergence theorem), float64. */
export function enclosedVolume(positions: Float32Array, triangles: Uint32Array): number {
  let sum = 0;
  for (let t = 0; t < triangles.length; t += 3) {
    const a = 3 * triangles[t], b = 3 * triangles[t + 1], c = 3 * triangles[t + 2];
    const ax = positions[a], ay = positions[a + 1], az = positions[a + 2];
    const bx = positions[b], by = positions[b + 1], bz = positions[b + 2];
    const cx = positions[c], cy = positions[c + 1], cz = positions[c + 2];
    sum += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx);
  }
  return sum / 6;
}

export function totalVolume(mesh: TetMesh): number {
  let s = 0;
  for (let t = 0; t < mesh.tetCount; t++) s += mesh.restVolumes[t];
  return s;
}

/** O(n^2) face matching: neighbours and boundary faces (as sorted "tet:face" list). */
export function bruteForceFaces(tets: Uint32Array): { neighbors: Int32Array; boundary: string[] } {
  const n = tets.length / 4;
  const sortedFace = (t: number, i: number): number[] =>
    TET_FACES[i].map((k) => tets[4 * t + k]).sort((x, y) => x - y);
  const neighbors = new Int32Array(4 * n).fill(-1);
  for (let t = 0; t < n; t++) {
    for (let i = 0; i < 4; i++) {
      const f = sortedFace(t, i);
      for (let u = 0; u < n; u++) {
        if (u === t) continue;
        for (let j = 0; j < 4; j++) {
          const g = sortedFace(u, j);
          if (f[0] === g[0] && f[1] === g[1] && f[2] === g[2]) neighbors[4 * t + i] = u;
        }
      }
    }
  }
  const boundary: string[] = [];
  for (let f = 0; f < 4 * n; f++) if (neighbors[f] < 0) boundary.push(`${f >> 2}:${f & 3}`);
  return { neighbors, boundary: boundary.sort() };
}
