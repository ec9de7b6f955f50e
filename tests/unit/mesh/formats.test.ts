import { describe, expect, it } from 'vitest';
import { readSharedMesh } from '../../support/sharedMeshes';
import { MeshParseError } from '../../../src/mesh/errors';
import { parseGaiaT, writeGaiaT } from '../../../src/mesh/io/gaiaT';
import { parseGmsh, writeGmsh22, writeGmsh41 } from '../../../src/mesh/io/gmsh';
import { loadMeshFile, loadTetMesh } from '../../../src/mesh/io/loadMeshFile';
import { parseTetGen, writeTetGen } from '../../../src/mesh/io/tetgen';
import { parseVtk, writeVtk } from '../../../src/mesh/io/vtk';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import type { TetMeshArrays } from '../../../src/mesh/types';
import { surfaceFacts, totalVolume } from './meshChecks';

function expectSameArrays(a: TetMeshArrays, b: TetMeshArrays): void {
  expect(b.tets).toEqual(a.tets);
  expect(b.positions).toEqual(a.positions);
}

describe('octopus_2KFaces in its three shared formats', () => {
  const t = parseGaiaT(readSharedMesh('octopus_2KFaces.t'), 'octopus_2KFaces.t');
  const tg = loadMeshFile([
    { name: 'octopus_2KFaces.1.node', text: readSharedMesh('octopus_2KFaces.1.node') },
    { name: 'octopus_2KFaces.1.ele', text: readSharedMesh('octopus_2KFaces.1.ele') },
  ]);
  const vtk = loadMeshFile([{ name: 'octopus_2KFaces.1.vtk', text: readSharedMesh('octopus_2KFaces.1.vtk') }]);

  it('the same tets and (to the .t file\'s 6 decimals) the same points', () => {
    expect(tg.format).toBe('tetgen');
    expect(vtk.format).toBe('vtk');
    expect(tg.tets).toEqual(t.tets);
    expect(vtk.tets).toEqual(t.tets);
    expect(vtk.positions).toEqual(tg.positions);
    for (let i = 0; i < t.positions.length; i++) expect(Math.abs(tg.positions[i] - t.positions[i])).toBeLessThan(1e-6);
  });

  it('tet lines point at the source lines (the .ele has a header, the .t lists vertices first)', () => {
    expect(tg.tetLines[0]).toBe(2);
    expect(t.tetLines[0]).toBe(1184 + 1);
    expect(vtk.vertexLines[0]).toBe(6);
  });
});

describe('writers round-trip exactly', () => {
  const src = parseGaiaT(readSharedMesh('teapotContainer.t'), 'teapotContainer.t');
  it('.t', () => expectSameArrays(src, parseGaiaT(writeGaiaT(src), 'rt.t')));
  it('.vtk', () => expectSameArrays(src, parseVtk(writeVtk(src), 'rt.vtk')));
  it('.vtk cell arrays: integers as int, others as double, values exact', () => {
    const m = src.tets.length / 4;
    const object = Array.from({ length: m }, (_, i) => i % 3);
    const ratio = Array.from({ length: m }, (_, i) => i / 7);
    const text = writeVtk(src, 'with cells', { object, ratio });
    expect(text).toContain(`CELL_DATA ${m}\nSCALARS object int 1\nLOOKUP_TABLE default\n0\n1\n2\n0\n`);
    expect(text).toContain('SCALARS ratio double 1');
    const back = parseVtk(text, 'rt.vtk');
    expectSameArrays(src, back);
    expect(Array.from(back.cellData.object)).toEqual(object);
    expect(Array.from(back.cellData.ratio)).toEqual(ratio);
    expect(() => writeVtk(src, 't', { object: [1, 2] })).toThrow(/object has 2 values for \d+ tets/);
  });
  it('.node/.ele', () => {
    const { node, ele } = writeTetGen(src);
    expectSameArrays(src, parseTetGen(node, 'rt.node', ele, 'rt.ele'));
  });
  it('.msh 2.2 and 4.1', () => {
    expectSameArrays(src, parseGmsh(writeGmsh22(src), 'rt22.msh'));
    expectSameArrays(src, parseGmsh(writeGmsh41(src), 'rt41.msh'));
  });
  it('odd float32 values survive', () => {
    const positions = new Float32Array([1e-7, -3.4e38, 0.1, 1 / 3, -0, 123456.789, 2 ** -20, 7, 1e30, 5, 6, 7]);
    const arrays = { positions, tets: new Uint32Array([0, 1, 2, 3]) };
    expect(parseGaiaT(writeGaiaT(arrays), 'x.t').positions).toEqual(new Float32Array(positions.map((x) => (x === 0 ? 0 : x))));
  });
});

// Unit cube split into 5 tets (4 corners + 1 centre), vertex id = x + 2y + 4z, all positive.
const CUBE_TETS = [
  [0, 1, 2, 4],
  [3, 2, 1, 7],
  [5, 4, 7, 1],
  [6, 7, 4, 2],
  [1, 2, 4, 7],
];
const corner = (i: number): string => `${i & 1} ${(i >> 1) & 1} ${(i >> 2) & 1}`;
// Non-contiguous, shuffled node tags, as Gmsh allows.
const TAG = [101, 7, 33, 12, 250, 4, 9, 60];

function expectUnitCube(loaded: TetMeshArrays & { warnings: { message: string }[] }): void {
  const { mesh } = buildTetMesh(loaded);
  expect(mesh.tetCount).toBe(5);
  expect(mesh.vertexCount).toBe(8);
  expect(totalVolume(mesh)).toBeCloseTo(1, 6);
  expect(mesh.boundaryTriangles.length / 3).toBe(12);
  const s = surfaceFacts(mesh.boundaryTriangles);
  expect(s.closedOriented).toBe(true);
  expect(s.V - s.E + s.F).toBe(2);
  // Positions come back in the file's node order: check tet corners by coordinates.
  for (let t = 0; t < 5; t++) {
    for (let k = 0; k < 4; k++) {
      const v = loaded.tets[4 * t + k];
      const id = CUBE_TETS[t][k];
      expect([loaded.positions[3 * v], loaded.positions[3 * v + 1], loaded.positions[3 * v + 2]]).toEqual(corner(id).split(' ').map(Number));
    }
  }
}

describe('Gmsh files written by hand from the format specification', () => {
  it('2.2: non-contiguous tags, a point element and surface triangles are skipped', () => {
    const nodes = [3, 0, 7, 1, 6, 2, 5, 4].map((i) => `${TAG[i]} ${corner(i)}`).join('\n');
    const els = [
      `1 15 2 0 1 ${TAG[0]}`,
      `2 2 2 1 1 ${TAG[0]} ${TAG[2]} ${TAG[1]}`,
      ...CUBE_TETS.map((tet, i) => `${i + 3} 4 2 1 1 ${tet.map((v) => TAG[v]).join(' ')}`),
    ];
    const text = `$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n1\n3 1 "solid"\n$EndPhysicalNames\n$Nodes\n8\n${nodes}\n$EndNodes\n$Elements\n${els.length}\n${els.join('\n')}\n$EndElements\n`;
    const loaded = parseGmsh(text, 'cube22.msh');
    expect(loaded.warnings.map((w) => w.message).sort()).toEqual([
      'skipped 1 elements of type 15 (not tetrahedra)',
      'skipped 1 elements of type 2 (not tetrahedra)',
    ]);
    expect(loaded.tetLines[0]).toBe(23); // 7 header lines, 11 for $Nodes, $Elements, its count, 2 skipped elements
    expectUnitCube(loaded);
  });

  it('4.1: $Entities skipped, nodes in two entity blocks, a triangle block skipped', () => {
    const surfaceNodes = [0, 1, 2, 3];
    const volumeNodes = [7, 4, 6, 5];
    const block = (dim: number, ids: number[]): string =>
      `${dim} 1 0 ${ids.length}\n${ids.map((i) => TAG[i]).join('\n')}\n${ids.map(corner).join('\n')}`;
    const text = [
      '$MeshFormat', '4.1 0 8', '$EndMeshFormat',
      '$Entities', '0 0 1 1', '1 0 0 0 1 1 0 0 0', '1 0 0 0 1 1 1 0 0', '$EndEntities',
      '$Nodes', `2 8 4 250`, block(2, surfaceNodes), block(3, volumeNodes), '$EndNodes',
      '$Elements', '2 7 1 7',
      '2 1 2 2', `1 ${TAG[0]} ${TAG[1]} ${TAG[2]}`, `2 ${TAG[1]} ${TAG[3]} ${TAG[2]}`,
      '3 1 4 5', ...CUBE_TETS.map((tet, i) => `${i + 3} ${tet.map((v) => TAG[v]).join(' ')}`),
      '$EndElements', '',
    ].join('\n');
    const loaded = parseGmsh(text, 'cube41.msh');
    expect(loaded.warnings.map((w) => w.message)).toEqual(['skipped 2 elements of type 2 (not tetrahedra)']);
    expectUnitCube(loaded);
  });

  it('4.1 with an unknown node tag names the line', () => {
    const text = ['$MeshFormat', '4.1 0 8', '$EndMeshFormat', '$Nodes', '1 4 1 4', '3 1 0 4', '1', '2', '3', '4',
      '0 0 0', '1 0 0', '0 1 0', '0 0 1', '$EndNodes', '$Elements', '1 1 1 1', '3 1 4 1', '1 1 2 3 9', '$EndElements'].join('\n');
    expect(() => parseGmsh(text, 'bad.msh')).toThrow(/bad\.msh:19: element 1 uses node tag 9, which is not in \$Nodes/);
  });

  it('binary and unsupported versions are refused clearly', () => {
    expect(() => parseGmsh('$MeshFormat\n4.1 1 8\n$EndMeshFormat\n', 'b.msh')).toThrow(/b\.msh:2: binary/);
    expect(() => parseGmsh('$MeshFormat\n3.0 0 8\n$EndMeshFormat\n', 'v.msh')).toThrow(/version 3\.0 is not supported/);
  });
});

describe('legacy VTK written by hand', () => {
  const points = Array.from({ length: 8 }, (_, i) => corner(i)).join(' ');
  it('classic CELLS with a triangle cell skipped; numbers may wrap across lines', () => {
    const cells = ['3 0 1 2', ...CUBE_TETS.map((t) => `4 ${t.join(' ')}`)];
    const text = `# vtk DataFile Version 2.0\n\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 8 float\n${points}\nCELLS 6 29\n${cells.join('\n')}\nCELL_TYPES 6\n5 10 10\n10 10 10\nCELL_DATA 6\n`;
    const loaded = parseVtk(text, 'cube.vtk');
    expect(loaded.warnings.map((w) => w.message)).toEqual(['skipped 1 cells of VTK type 5 (not tetrahedra)']);
    expectUnitCube(loaded);
  });

  it('VTK 5.1 OFFSETS/CONNECTIVITY layout', () => {
    const offsets = [0, 4, 8, 12, 16, 20].join(' ');
    const conn = CUBE_TETS.flat().join(' ');
    const text = `# vtk DataFile Version 5.1\ncube\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 8 float\n${points}\nCELLS 6 20\nOFFSETS vtktypeint64\n${offsets}\nCONNECTIVITY vtktypeint64\n${conn}\nCELL_TYPES 5\n10\n10\n10\n10\n10\n`;
    expectUnitCube(parseVtk(text, 'cube51.vtk'));
  });

  it('cell arrays after CELL_TYPES come back per tet (non-tet cells dropped); POINT_DATA and vector arrays are read past', () => {
    const cells = ['3 0 1 2', ...CUBE_TETS.map((t) => `4 ${t.join(' ')}`)];
    const text = [
      '# vtk DataFile Version 3.0', 'c', 'ASCII', 'DATASET UNSTRUCTURED_GRID', 'POINTS 8 float', points,
      'CELLS 6 29', ...cells, 'CELL_TYPES 6', '5 10 10 10 10 10',
      'POINT_DATA 8', 'VECTORS v float', Array.from({ length: 24 }, (_, i) => i).join(' '), 'SCALARS t float', 'LOOKUP_TABLE default', '0 1 2 3 4 5 6 7',
      'CELL_DATA 6', 'SCALARS object int 1', 'LOOKUP_TABLE default', '9 0 1 2 3 4',
      'FIELD FieldData 2', 'mass 1 6 double', '0.5 1.5 2.5 3.5 4.5 5.5', 'vec 2 6 float', '0 0 0 0 0 0 0 0 0 0 0 0',
      'METADATA', 'INFORMATION 0', '',
    ].join('\n');
    const loaded = parseVtk(text, 'attrs.vtk');
    expectUnitCube(loaded);
    expect(Object.keys(loaded.cellData).sort()).toEqual(['mass', 'object']);
    expect(Array.from(loaded.cellData.object)).toEqual([0, 1, 2, 3, 4]);
    expect(Array.from(loaded.cellData.mass)).toEqual([1.5, 2.5, 3.5, 4.5, 5.5]);
  });

  it('a cell array of the wrong length or with a bad value names the line', () => {
    const head = `# vtk DataFile Version 3.0\nc\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 8 float\n${points}\nCELLS 5 25\n${CUBE_TETS.map((t) => `4 ${t.join(' ')}`).join('\n')}\nCELL_TYPES 5\n10 10 10 10 10\n`;
    expect(() => parseVtk(`${head}CELL_DATA 4\n`, 'n.vtk')).toThrow(/n\.vtk:15: CELL_DATA 4 differs from the 5 cells/);
    expect(() => parseVtk(`${head}CELL_DATA 5\nSCALARS object int 1\nLOOKUP_TABLE default\n0 1 x 3 4\n`, 'v.vtk')).toThrow(/v\.vtk:18: value 2 of SCALARS object is not a finite number: "x"/);
    expect(() => parseVtk(`${head}CELL_DATA 5\nSCALARS object int 1\nLOOKUP_TABLE default\n0 1 2\n`, 't.vtk')).toThrow(/t\.vtk:19: unexpected end of file: expected value 3 of SCALARS object/);
  });

  it('no tetrahedra is an error', () => {
    const text = `# vtk DataFile Version 2.0\nt\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS 3 float\n0 0 0 1 0 0 0 1 0\nCELLS 1 4\n3 0 1 2\nCELL_TYPES 1\n5\n`;
    expect(() => parseVtk(text, 'tri.vtk')).toThrow(/tri\.vtk: no tetrahedra/);
  });
});

describe('format detection', () => {
  const tet = 'Vertex 0 0 0 0\nVertex 1 1 0 0\nVertex 2 0 1 0\nVertex 3 0 0 1\nTet 0 0 1 2 3\n';
  it('by extension, case-insensitive', () => {
    expect(loadMeshFile([{ name: 'A.T', text: tet }]).format).toBe('t');
    const { mesh, warnings } = loadTetMesh([{ name: 'a.t', text: tet }]);
    expect(mesh.tetCount).toBe(1);
    expect(warnings).toEqual([]);
  });
  it('unknown extensions, a lone .node, or extra files are clear errors', () => {
    expect(() => loadMeshFile([{ name: 'a.obj', text: '' }])).toThrow(/a\.obj: unknown mesh format "\.obj"/);
    expect(() => loadMeshFile([{ name: 'a.node', text: '' }])).toThrow(/needs both the \.node and the \.ele/);
    expect(() => loadMeshFile([{ name: 'a.t', text: tet }, { name: 'b.t', text: tet }])).toThrow(MeshParseError);
    expect(() => loadMeshFile([])).toThrow(/no mesh file/);
  });
  it('TetGen companions are ignored with a warning; a second mesh is refused', () => {
    const node = '4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n', ele = '1 4 0\n0 0 1 2 3\n';
    const loaded = loadMeshFile([{ name: 'a.face', text: 'x' }, { name: 'a.node', text: node }, { name: 'a.ele', text: ele }]);
    expect(loaded.warnings).toEqual([{ message: 'ignored TetGen companion file a.face' }]);
    expect(() => loadMeshFile([{ name: 'a.node', text: node }, { name: 'a.ele', text: ele }, { name: 'b.t', text: tet }])).toThrow(MeshParseError);
  });
  it('Windows line endings are read like Unix ones', () => {
    const crlf = (s: string): string => s.replace(/\n/g, '\r\n');
    const src = parseGaiaT(readSharedMesh('GlassBox.t'), 'GlassBox.t');
    expectSameArrays(src, parseGaiaT(crlf(writeGaiaT(src)), 'w.t'));
    expectSameArrays(src, parseGmsh(crlf(writeGmsh22(src)), 'w.msh'));
    expectSameArrays(src, parseGmsh(crlf(writeGmsh41(src)), 'w41.msh'));
    expectSameArrays(src, parseVtk(crlf(writeVtk(src)), 'w.vtk'));
    const { node, ele } = writeTetGen(src);
    expectSameArrays(src, parseTetGen(crlf(node), 'w.node', crlf(ele), 'w.ele'));
  });
  it('.t tolerates comments and unknown keyword records, with a warning', () => {
    const loaded = parseGaiaT(`# made by hand\n${tet}Edge 0 0 1\nEdge 1 1 2\n`, 'e.t');
    expect(loaded.warnings).toEqual([{ message: 'skipped 2 "Edge" records (first at line 7)', line: 7 }]);
  });
  it('.t records with more values than they need are read, and the extra values are named in a warning', () => {
    const loaded = parseGaiaT('Vertex 0 0 0 0\nVertex 1 1 0 0\nVertex 2 0 1 0 7\nVertex 3 0 0 1\nTet 0 0 1 2 3 4\n', 'x.t');
    expect(Array.from(loaded.tets)).toEqual([0, 1, 2, 3]);
    expect(Array.from(loaded.positions.slice(6, 9))).toEqual([0, 1, 0]);
    expect(loaded.warnings).toEqual([
      { message: '1 "Vertex" record(s) have more values than an id and 3 coordinates; the rest were ignored (first at line 3: 5 values)', line: 3 },
      { message: '1 "Tet" record(s) have more values than an id and 4 vertex ids; the rest were ignored (first at line 5: 6 values)', line: 5 },
    ]);
  });
  it('TetGen 1-based ids with attributes, markers and comments', () => {
    const node = '# points\n4 3 1 1\n1 0 0 0 0.5 1\n2 1 0 0 0.5 1 # x axis\n3 0 1 0 0.5 0\n4 0 0 1 0.5 1\n';
    const ele = '1 4 1\n1 1 2 3 4 7\n';
    const loaded = parseTetGen(node, 'o.node', ele, 'o.ele');
    expect(Array.from(loaded.tets)).toEqual([0, 1, 2, 3]);
    expect(Array.from(loaded.positions.subarray(3, 6))).toEqual([1, 0, 0]);
    expect(() => parseTetGen(node, 'o.node', '1 4 0\n1 0 2 3 4\n', 'z.ele')).toThrow(/z\.ele:2: node 0 of tet 1 is not a point of o\.node \(ids 1\.\.4\)/);
  });
});
