import { describe, expect, it } from 'vitest';
import { readSharedMesh } from '../../support/sharedMeshes';
import { parseGaiaT } from '../../../src/mesh/io/gaiaT';
import { buildTetMesh, computeVertexMasses, mergeTetMeshes } from '../../../src/mesh/tetMesh';
import { surfaceFacts, totalVolume } from './meshChecks';

const load = (name: string) => parseGaiaT(readSharedMesh(name), name);

describe('mergeTetMeshes', () => {
  const parts = [load('Beam_lowRes.t'), load('teapotContainer.t'), load('GlassBox.t')];
  const merged = mergeTetMeshes(parts);
  const { mesh } = buildTetMesh(merged.arrays, { objectIds: merged.tetObject });
  const separate = parts.map((p) => buildTetMesh(p).mesh);

  it('one mesh whose parts keep their counts, volumes and boundary', () => {
    expect(mesh.vertexCount).toBe(29 + 1165 + 16);
    expect(mesh.tetCount).toBe(42 + 3519 + 30);
    expect(Array.from(merged.vertexOffsets)).toEqual([0, 29, 29 + 1165, 29 + 1165 + 16]);
    expect(mesh.vertexObject).toEqual(merged.vertexObject);
    expect(totalVolume(mesh)).toBeCloseTo(separate.reduce((s, m) => s + totalVolume(m), 0), 9);
    expect(mesh.boundaryTriangles.length).toBe(separate.reduce((s, m) => s + m.boundaryTriangles.length, 0));
    // Euler characteristic adds over components: 2 (beam) + 0 (genus-1 teapot) + 2 (box).
    const s = surfaceFacts(mesh.boundaryTriangles);
    expect(s.V - s.E + s.F).toBe(4);
    for (let o = 0; o < 3; o++) {
      for (let t = merged.tetOffsets[o]; t < merged.tetOffsets[o + 1]; t++) {
        expect(mesh.tetObject[t]).toBe(o);
        for (let k = 0; k < 4; k++) expect(mesh.vertexObject[mesh.tets[4 * t + k]]).toBe(o);
      }
    }
    // Neighbours never cross objects.
    for (let f = 0; f < 4 * mesh.tetCount; f++) {
      const n = mesh.tetNeighbors[f];
      if (n >= 0) expect(mesh.tetObject[n]).toBe(mesh.tetObject[f >> 2]);
    }
  });

  it('vertex masses: total is density x volume per object; one tet gives rho V / 4 to each corner', () => {
    const densities = new Float32Array([1000, 50, 7]);
    const masses = computeVertexMasses(mesh, densities);
    for (let o = 0; o < 3; o++) {
      let m = 0;
      for (let v = merged.vertexOffsets[o]; v < merged.vertexOffsets[o + 1]; v++) m += masses[v];
      expect(m / (densities[o] * totalVolume(separate[o]))).toBeCloseTo(1, 5);
    }
    const single = buildTetMesh({ positions: new Float32Array([0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 1]), tets: new Uint32Array([0, 1, 2, 3]) }).mesh;
    expect(Array.from(computeVertexMasses(single, 12))).toEqual([3, 3, 3, 3]); // V = 2*3*1/6 = 1, so 12 * 1 / 4 each
  });

  it('bad densities are refused', () => {
    expect(() => computeVertexMasses(mesh, -1)).toThrow(/positive finite/);
    expect(() => computeVertexMasses(mesh, new Float32Array([1, 1]))).toThrow(/object id 2 but only 2 densities/);
  });
});
