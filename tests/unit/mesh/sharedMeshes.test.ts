import { describe, expect, it } from 'vitest';
import { readSharedMesh } from '../../support/sharedMeshes';
import { parseGaiaT } from '../../../src/mesh/io/gaiaT';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import { enclosedVolume, readmeTable, surfaceFacts, totalVolume } from './meshChecks';

const table = readmeTable();

describe('every shared .t mesh', () => {
  it('the README table lists all 12 meshes', () => {
    expect(table.length).toBe(12);
  });

  for (const entry of table) {
    it(`${entry.file}: counts, closed boundary, Euler characteristic, volume`, () => {
      const loaded = parseGaiaT(readSharedMesh(entry.file), entry.file);
      const { mesh, warnings } = buildTetMesh(loaded, loaded);
      expect(warnings).toEqual([]);
      expect(mesh.vertexCount).toBe(entry.vertices);
      expect(mesh.tetCount).toBe(entry.tets);

      const s = surfaceFacts(mesh.boundaryTriangles);
      expect(s.badEdges.slice(0, 5)).toEqual([]);
      expect(s.V - s.E + s.F).toBe(2 - 2 * entry.genus);
      expect(mesh.boundaryEdges.length / 2).toBe(s.E);
      expect(mesh.boundaryVertices.length).toBe(s.V);

      const enclosed = enclosedVolume(mesh.positions, mesh.boundaryTriangles);
      const sum = totalVolume(mesh);
      expect(sum).toBeGreaterThan(0);
      expect(Math.abs(sum - enclosed) / enclosed).toBeLessThan(1e-6);
    });
  }
});
