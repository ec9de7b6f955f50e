/**
 * The runner's mesh files: the same shared octopus read from .t, .vtk, TetGen (.node or .ele
 * naming the pair) and a .msh written from it gives the same mesh; a bad file is a UsageError
 * naming the file and line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSharedMesh, sharedMeshPath } from '../../support/sharedMeshes';
import { parseGaiaT } from '../../../src/mesh/io/gaiaT';
import { writeGmsh41 } from '../../../src/mesh/io/gmsh';
import { UsageError } from '../../../src/runner/args';
import { readMeshFile } from '../../../src/runner/meshFile';

const dir = mkdtempSync(join(tmpdir(), 'runner-mesh-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('runner mesh files', () => {
  it('all four formats give the octopus (4,069 tets, 1,184 vertices)', () => {
    const t = parseGaiaT(readSharedMesh('octopus_2KFaces.t'), 'o.t');
    const msh = join(dir, 'octopus.msh');
    writeFileSync(msh, writeGmsh41(t));
    const paths = ['octopus_2KFaces.t', 'octopus_2KFaces.1.vtk', 'octopus_2KFaces.1.node', 'octopus_2KFaces.1.ele'].map(sharedMeshPath);
    for (const path of [...paths, msh]) {
      const m = readMeshFile(path);
      expect(m.tets.length / 4, path).toBe(4069);
      expect(m.positions.length / 3, path).toBe(1184);
      expect(Array.from(m.tets), path).toEqual(Array.from(t.tets));
      let worst = 0;
      for (let i = 0; i < t.positions.length; i++) worst = Math.max(worst, Math.abs(m.positions[i] - t.positions[i]));
      expect(worst, path).toBeLessThan(1e-6);
      expect(m.warnings).toEqual([]);
    }
  });

  it('bad files name the file and the line', () => {
    const bad = join(dir, 'bad.t');
    writeFileSync(bad, 'Vertex 0 0 0 0\nVertex 1 1 0 0\nVertex 2 0 one 0\nVertex 3 0 0 1\nTet 0 0 1 2 3\n');
    expect(() => readMeshFile(bad)).toThrow(UsageError);
    expect(() => readMeshFile(bad)).toThrow(`bad mesh file ${bad}:3: y is not a finite number: "one"`);
    const flat = join(dir, 'flat.t');
    writeFileSync(flat, 'Vertex 0 0 0 0\nVertex 1 1 0 0\nVertex 2 0 1 0\nVertex 3 1 1 0\nTet 0 0 1 2 3\n');
    expect(() => readMeshFile(flat)).toThrow(/invalid mesh .*flat\.t.*degenerate/);
    expect(() => readMeshFile(join(dir, 'none.t'))).toThrow(/cannot read mesh file .*none\.t: no such file/);
    const lone = join(dir, 'lone.node');
    writeFileSync(lone, '4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n');
    expect(() => readMeshFile(lone)).toThrow(/cannot read mesh file .*lone\.ele: no such file/);
    const obj = join(dir, 'shape.obj');
    writeFileSync(obj, 'v 0 0 0\n');
    expect(() => readMeshFile(obj)).toThrow(/shape\.obj: unknown mesh format "\.obj"/);
  });
});
