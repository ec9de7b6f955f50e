/**
 * Face adjacency of a tet mesh in O(n): every tet face is keyed by its sorted vertex triple
 * and matched through an open-addressing hash table stored in typed arrays (no per-face
 * objects or strings). Also derives the outward boundary triangles.
 */
import { IssueCollector, type MeshSourceInfo } from './validate';
import { TET_FACES } from './types';

export interface FaceTopology {
  tetNeighbors: Int32Array;
  boundaryTriangles: Uint32Array;
  boundaryTriangleTet: Uint32Array;
  boundaryTriangleFace: Uint8Array;
}

/** Hash of a sorted triple; multiplicative mixing keeps probe sequences short on mesh ids. */
function hash3(a: number, b: number, c: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

function tableSizeFor(count: number): number {
  let size = 16;
  while (size < 2 * count) size *= 2;
  return size;
}

/**
 * Matches faces. Requires positively oriented tets (validateOrientation): then the two tets of
 * an interior face wind it in opposite directions; the same direction means the tets lie on the
 * same side of the face, i.e. they overlap, which is reported as an error.
 */
export function computeFaceTopology(tets: Uint32Array, info: MeshSourceInfo): FaceTopology {
  const tetCount = tets.length / 4;
  const faceCount = 4 * tetCount;
  // Sorted key per face, and the parity of the face's winding relative to that sorted order.
  const keys = new Uint32Array(3 * faceCount);
  const parity = new Uint8Array(faceCount);
  for (let t = 0; t < tetCount; t++) {
    for (let i = 0; i < 4; i++) {
      const f = 4 * t + i;
      const lf = TET_FACES[i];
      const x = tets[4 * t + lf[0]], y = tets[4 * t + lf[1]], z = tets[4 * t + lf[2]];
      // Rotate the cycle so the smallest id comes first; the winding is even when the rest ascend.
      let p: number, q: number, r: number;
      if (x < y && x < z) { p = x; q = y; r = z; }
      else if (y < z) { p = y; q = z; r = x; }
      else { p = z; q = x; r = y; }
      if (q < r) { keys[3 * f] = p; keys[3 * f + 1] = q; keys[3 * f + 2] = r; parity[f] = 0; }
      else { keys[3 * f] = p; keys[3 * f + 1] = r; keys[3 * f + 2] = q; parity[f] = 1; }
    }
  }

  const size = tableSizeFor(faceCount);
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  const partner = new Int32Array(faceCount).fill(-1);
  const badTet = new Uint8Array(tetCount); // 1: face shared by > 2 tets, 2: overlapping pair
  for (let f = 0; f < faceCount; f++) {
    const a = keys[3 * f], b = keys[3 * f + 1], c = keys[3 * f + 2];
    let slot = hash3(a, b, c) & mask;
    for (;;) {
      const g = table[slot];
      if (g < 0) {
        table[slot] = f;
        break;
      }
      if (keys[3 * g] === a && keys[3 * g + 1] === b && keys[3 * g + 2] === c) {
        if (partner[g] < 0) {
          partner[g] = f;
          partner[f] = g;
          if (parity[g] === parity[f]) {
            badTet[g >> 2] |= 2;
            badTet[f >> 2] |= 2;
          }
        } else {
          badTet[g >> 2] |= 1;
          badTet[partner[g] >> 2] |= 1;
          badTet[f >> 2] |= 1;
        }
        break;
      }
      slot = (slot + 1) & mask;
    }
  }

  const nonManifold: number[] = [];
  const overlapping: number[] = [];
  for (let t = 0; t < tetCount; t++) {
    if (badTet[t] & 1) nonManifold.push(t);
    if (badTet[t] & 2) overlapping.push(t);
  }
  const out = new IssueCollector(info);
  out.addTets(nonManifold, 'having a face shared by more than two tets (non-manifold)');
  out.addTets(overlapping, 'on the same side of a shared face (overlapping or duplicated tets)');
  out.throwIfAny();

  const tetNeighbors = new Int32Array(faceCount);
  let boundaryCount = 0;
  for (let f = 0; f < faceCount; f++) {
    const g = partner[f];
    tetNeighbors[f] = g < 0 ? -1 : g >> 2;
    if (g < 0) boundaryCount++;
  }
  const boundaryTriangles = new Uint32Array(3 * boundaryCount);
  const boundaryTriangleTet = new Uint32Array(boundaryCount);
  const boundaryTriangleFace = new Uint8Array(boundaryCount);
  let k = 0;
  for (let f = 0; f < faceCount; f++) {
    if (partner[f] >= 0) continue;
    const t = f >> 2, i = f & 3;
    const lf = TET_FACES[i];
    // TET_FACES winds each face outward for a positive tet (types.ts), so no reordering.
    boundaryTriangles[3 * k] = tets[4 * t + lf[0]];
    boundaryTriangles[3 * k + 1] = tets[4 * t + lf[1]];
    boundaryTriangles[3 * k + 2] = tets[4 * t + lf[2]];
    boundaryTriangleTet[k] = t;
    boundaryTriangleFace[k] = i;
    k++;
  }
  return { tetNeighbors, boundaryTriangles, boundaryTriangleTet, boundaryTriangleFace };
}

export { hash3, tableSizeFor };
