/**
 * Recorded frames of a scene around its first self-contacts (scripts/recordSelfContactFrames.ts,
 * tests/fixtures/selfContact/), read back as the CCD topology of the scene's boundary (its own
 * vertex numbering: boundary vertex i of the scene is vertex i here, one object) and the float64
 * positions of each frame.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { CcdTopology } from '../../src/collision/ccd/broadPhase';
import { vertexIncidence } from '../../src/mesh/vertexIncidence';
import { surfaceOf } from './openSurfaces';

export interface SelfContactFrames {
  scene: string;
  size: number;
  frame0: number;
  dt: number;
  meanEdge: number;
  topology: CcdTopology;
  frames: Float64Array[];
  /** Whether four vertex ids are the corners of one tet of the scene. */
  isOneTet: (ids: number[]) => boolean;
}

export function readSelfContactFrames(scene: string): SelfContactFrames {
  const path = fileURLToPath(new URL(`../fixtures/selfContact/${scene}.bin.gz`, import.meta.url));
  const bytes = gunzipSync(readFileSync(path));
  const data = new Uint8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const headerLength = new Uint32Array(data.buffer, 0, 1)[0];
  const h = JSON.parse(new TextDecoder().decode(data.subarray(4, 4 + headerLength)));
  let o = 4 + headerLength;
  const take = (n: number): ArrayBuffer => {
    const b = data.buffer.slice(o, o + n);
    o += n;
    return b;
  };
  const triangles = new Uint32Array(take(12 * h.triangles));
  const tets = new Uint32Array(take(16 * h.tets));
  const frames: Float64Array[] = [];
  for (let f = 0; f < h.frames; f++) frames.push(Float64Array.from(new Float32Array(take(12 * h.vertices))));
  if (o !== data.length) throw new Error(`${path}: ${data.length - o} bytes left after the frames (header ${JSON.stringify(h)})`);
  const surface = surfaceOf(Array.from(frames[0]), Array.from(triangles));
  const keys = new Set<string>();
  for (let t = 0; t < tets.length; t += 4) keys.add([...tets.subarray(t, t + 4)].sort((a, b) => a - b).join(','));
  // The element topology CCD's candidates read (pairs within one tet are none).
  const { offsets: vertexTetOffsets, ids: vertexTets } = vertexIncidence(tets, 4, h.vertices);
  return {
    scene: h.scene, size: h.size, frame0: h.frame0, dt: h.dt, meanEdge: h.meanEdge,
    topology: { ...surface.topology, tets, vertexTetOffsets, vertexTets },
    frames,
    isOneTet: (ids) => keys.has([...ids].sort((a, b) => a - b).join(',')),
  };
}
