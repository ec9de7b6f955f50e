import { describe, expect, it } from 'vitest';
import { buildSurfaceBvh, refitSurfaceBvh } from '../../src/bvh';
import { SurfaceBvhGpu } from '../../src/bvh/surfaceBvhGpu';
import { storageBuffer } from '../../src/gpu/buffers';
import { loadSharedTetMesh } from '../support/sharedMeshes';
import { spbTestDevice } from './spbCases';

/** A smooth large deformation (bend + twist), f32. */
function deform(x: Float32Array, amount: number): Float32Array {
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i += 3) {
    const a = amount * Math.sin(2 * x[i + 2] + 0.3);
    out[i] = x[i] * Math.cos(a) - x[i + 1] * Math.sin(a) + 0.1 * amount * Math.sin(3 * x[i + 1]);
    out[i + 1] = x[i] * Math.sin(a) + x[i + 1] * Math.cos(a);
    out[i + 2] = x[i + 2] + 0.05 * amount * Math.cos(4 * x[i]);
  }
  return out;
}

/** xyz -> vec4 per vertex (w = 1, ignored by the refit). */
function vec4(x: Float32Array): Float32Array {
  const out = new Float32Array((x.length / 3) * 4).fill(1);
  for (let i = 0; i < x.length / 3; i++) out.set(x.subarray(3 * i, 3 * i + 3), 4 * i);
  return out;
}

async function readNodes(device: GPUDevice, buffer: GPUBuffer): Promise<Uint32Array> {
  const staging = device.createBuffer({ size: buffer.size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = device.createCommandEncoder();
  enc.copyBufferToBuffer(buffer, 0, staging, 0, buffer.size);
  device.queue.submit([enc.finish()]);
  await staging.mapAsync(GPUMapMode.READ);
  const out = new Uint32Array(staging.getMappedRange().slice(0));
  staging.unmap();
  staging.destroy();
  return out;
}

describe('GPU BVH refit (two dispatches: subtrees, then the top) equals the CPU refit bit for bit', () => {
  for (const name of ['octopus_2KFaces.t', 'OverhandKnot.t', 'Spaghetti_1m_lowRes_tri.t']) {
    it(name, async () => {
      const device = await spbTestDevice();
      const mesh = loadSharedTetMesh(name);
      const bvh = buildSurfaceBvh(mesh.positions, mesh.boundaryTriangles);
      const gpuBvh = new SurfaceBvhGpu(device, bvh);
      expect(gpuBvh.levelCount).toBe(bvh.depth + 1);
      expect(gpuBvh.refitDispatches).toBe(2); // these trees have more nodes than one subtree holds
      for (const amount of [0.7, 0]) {
        const moved = deform(mesh.positions, amount);
        refitSurfaceBvh(bvh, moved);
        const positions = storageBuffer(device, 'test.positions', vec4(moved)); // the one GPU layout
        const enc = device.createCommandEncoder();
        gpuBvh.encodeRefit(enc, positions);
        device.queue.submit([enc.finish()]);
        const gpuWords = await readNodes(device, gpuBvh.nodes);
        positions.destroy();
        const cpuWords = bvh.nodeWords;
        let differ = 0;
        for (let i = 0; i < cpuWords.length; i++) if (gpuWords[i] !== cpuWords[i]) differ++;
        expect(differ).toBe(0);
      }
      gpuBvh.destroy();
    });
  }
});
