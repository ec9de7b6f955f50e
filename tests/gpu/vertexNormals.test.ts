import { describe, expect, it } from 'vitest';
import { buildSceneSurface } from '../../src/app/render/sceneSurface';
import { VertexNormalsKernel } from '../../src/app/render/vertexNormalsKernel';
import { packVec4 } from '../../src/gpu/buffers';
import { generateShape } from '../../src/mesh/procedural/catalog';
import { readBuffer, testGpu } from '../support/gpu';
import { rng } from '../support/random';

/**
 * GPU vertex normals (shaders/vertexNormals.wgsl) against two truths: the analytic radial
 * direction of a meshed sphere, and an area-weighted oracle written here (boundary faces found
 * by counting sorted face keys, each face's cross product scattered to its 3 corners, float64)
 * on a randomly deformed mesh of two objects.
 */

/** Outward faces of a positive tet (a, b, c, d): the face opposite each corner, wound outward. */
const OUTWARD = [
  [1, 2, 3],
  [0, 3, 2],
  [0, 1, 3],
  [0, 2, 1],
];

function oracleNormals(positions: Float64Array, tets: Uint32Array, vertexCount: number): Float64Array {
  const count = new Map<string, number>();
  const key = (f: number[]) => [...f].sort((x, y) => x - y).join(',');
  const faces: number[][] = [];
  for (let t = 0; t < tets.length / 4; t++) {
    for (const f of OUTWARD) {
      const face = f.map((i) => tets[4 * t + i]);
      faces.push(face);
      count.set(key(face), (count.get(key(face)) ?? 0) + 1);
    }
  }
  const sum = new Float64Array(3 * vertexCount);
  for (const face of faces) {
    if (count.get(key(face)) !== 1) continue;
    const [a, b, c] = face;
    const u = [0, 1, 2].map((k) => positions[3 * b + k] - positions[3 * a + k]);
    const w = [0, 1, 2].map((k) => positions[3 * c + k] - positions[3 * a + k]);
    const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
    for (const v of face) for (let k = 0; k < 3; k++) sum[3 * v + k] += n[k];
  }
  for (let v = 0; v < vertexCount; v++) {
    const len = Math.hypot(sum[3 * v], sum[3 * v + 1], sum[3 * v + 2]);
    if (len > 0) for (let k = 0; k < 3; k++) sum[3 * v + k] /= len;
  }
  return sum;
}

async function gpuNormals(positions: ArrayLike<number>, tets: Uint32Array, objectVertexOffsets: Uint32Array): Promise<{ normals: Float32Array; boundary: Uint32Array }> {
  const ctx = await testGpu();
  const n = positions.length / 3;
  const vertexObject = new Uint32Array(n);
  for (let o = 0; o + 1 < objectVertexOffsets.length; o++) vertexObject.fill(o, objectVertexOffsets[o], objectVertexOffsets[o + 1]);
  const surface = buildSceneSurface({ vertexCount: n, tets, objectVertexOffsets, vertexObject, restPositions: positions });
  const kernel = new VertexNormalsKernel(ctx.device, surface);
  const buffer = ctx.device.createBuffer({ size: 16 * n, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  ctx.device.queue.writeBuffer(buffer, 0, packVec4(positions, n, () => 1));
  const encoder = ctx.device.createCommandEncoder();
  kernel.encode(encoder, buffer);
  ctx.device.queue.submit([encoder.finish()]);
  const normals = new Float32Array(await readBuffer(ctx, kernel.normals, 12 * n));
  kernel.destroy();
  buffer.destroy();
  return { normals, boundary: surface.boundaryVertices };
}

describe('GPU vertex normals', () => {
  it('point radially out of a meshed sphere', async () => {
    const sphere = generateShape('sphere', { radius: 0.5 }, 10);
    const p = sphere.positions;
    const { normals, boundary } = await gpuNormals(p, sphere.tets, new Uint32Array([0, p.length / 3]));
    expect(boundary.length).toBeGreaterThan(100);
    let worst = 0;
    let mean = 0;
    for (const v of boundary) {
      const r = Math.hypot(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
      const cos = (normals[3 * v] * p[3 * v] + normals[3 * v + 1] * p[3 * v + 1] + normals[3 * v + 2] * p[3 * v + 2]) / r;
      const deg = (Math.acos(Math.min(1, cos)) * 180) / Math.PI;
      worst = Math.max(worst, deg);
      mean += deg / boundary.length;
    }
    // Stuffing puts boundary vertices on the sphere; faceted triangles tilt the estimate a little.
    expect(mean).toBeLessThan(1.5);
    expect(worst).toBeLessThan(4);
  });

  it('equal a float64 area-weighted oracle on a randomly deformed two-object mesh', async () => {
    const a = generateShape('sphere', { radius: 0.5 }, 6);
    const na = a.positions.length / 3;
    // Two copies, the second shifted away and with its own ids, deformed at random by up to
    // 30% of the lattice spacing per coordinate.
    const n = 2 * na;
    const positions = new Float64Array(3 * n);
    const tets = new Uint32Array(2 * a.tets.length);
    const r = rng(7);
    const jitter = 0.3 * a.stats.spacing;
    for (let v = 0; v < n; v++) {
      const src = v % na;
      for (let k = 0; k < 3; k++) positions[3 * v + k] = a.positions[3 * src + k] + (v >= na && k === 0 ? 3 : 0) + jitter * (2 * r() - 1);
    }
    tets.set(a.tets);
    for (let i = 0; i < a.tets.length; i++) tets[a.tets.length + i] = a.tets[i] + na;
    // The GPU reads f32 positions: give the oracle exactly those.
    const f32 = new Float32Array(positions);
    const { normals, boundary } = await gpuNormals(f32, tets, new Uint32Array([0, na, n]));
    const oracle = oracleNormals(new Float64Array(f32), tets, n);
    let worst = 0;
    let boundaryCount = 0;
    for (let v = 0; v < n; v++) {
      const onBoundary = oracle[3 * v] !== 0 || oracle[3 * v + 1] !== 0 || oracle[3 * v + 2] !== 0;
      if (onBoundary) boundaryCount++;
      for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(normals[3 * v + k] - oracle[3 * v + k]));
    }
    expect(boundary.length).toBe(boundaryCount);
    expect(worst).toBeLessThan(1e-5);
  });
});
