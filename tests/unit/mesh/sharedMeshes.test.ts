import { describe, expect, it } from 'vitest';
import { listSharedMeshes, readSharedMesh } from '../../support/sharedMeshes';
import { loadTetMesh, type MeshFileInput } from '../../../src/mesh/io/loadMeshFile';
import { enclosedVolume, readmeTable, surfaceFacts, totalVolume } from './meshChecks';

const table = readmeTable();

/** Every mesh file in the shared folder, TetGen pairs grouped, keyed by the README's file stem. */
function sharedInputs(): { stem: string; files: MeshFileInput[] }[] {
  const out: { stem: string; files: MeshFileInput[] }[] = [];
  const read = (name: string): MeshFileInput => ({ name, text: readSharedMesh(name) });
  for (const name of listSharedMeshes('')) {
    if (name.endsWith('.t')) out.push({ stem: name.slice(0, -2), files: [read(name)] });
    else if (name.endsWith('.vtk')) out.push({ stem: name.replace(/(\.\d+)?\.vtk$/, ''), files: [read(name)] });
    else if (name.endsWith('.node')) out.push({ stem: name.replace(/(\.\d+)?\.node$/, ''), files: [read(name), read(name.replace(/\.node$/, '.ele'))] });
  }
  return out;
}

describe('every shared mesh in every format it comes in', () => {
  const inputs = sharedInputs();

  it('the README table lists all 12 meshes, and every file in the folder is one of them', () => {
    expect(table.length).toBe(12);
    expect(inputs.length).toBe(14); // 12 .t, plus the octopus as TetGen and VTK
    const stems = new Set(table.map((e) => e.file.replace(/\.t$/, '')));
    for (const input of inputs) expect(stems.has(input.stem), input.stem).toBe(true);
  });

  for (const { stem, files } of inputs) {
    const name = files.map((f) => f.name).join(' + ');
    it(`${name}: counts, closed boundary, Euler characteristic, volume`, () => {
      const entry = table.find((e) => e.file === `${stem}.t`)!;
      const { mesh, warnings } = loadTetMesh(files);
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
