/**
 * Legacy VTK ASCII, DATASET UNSTRUCTURED_GRID. Tetrahedra are cell type 10 (type 24, the
 * quadratic tet, contributes its 4 corners); other cell types are skipped with a warning.
 * Reads both the classic CELLS layout ("<k> <i1> ... <ik>" per cell) and the VTK 5.1 layout
 * (CELLS <#offsets> <#connectivity> followed by OFFSETS and CONNECTIVITY arrays).
 * After CELL_TYPES, one-component CELL_DATA arrays (SCALARS, or FIELD arrays) are returned per
 * tet in `cellData` (the runner's dumps carry each tet's object id in `object`); POINT_DATA and
 * the other attribute kinds are read past; reading stops quietly at anything else (METADATA,
 * unknown keywords), which is ignored as before.
 */
import type { MeshIssue, TetMeshArrays } from '../types';
import { formatFloat32 } from './formatNumber';
import { LineReader, TokenStream } from './lineReader';
import type { LoadedMesh } from './loadedMesh';

const VTK_TETRA = 10;
const VTK_QUADRATIC_TETRA = 24;

interface Cells {
  /** Start of each cell's ids in `ids`, length cells + 1. */
  offsets: Uint32Array;
  ids: Uint32Array;
  lines: Uint32Array;
}

function classicCells(s: TokenStream, r: LineReader, n: number, sizeToken: string, vertexCount: number): Cells {
  const size = r.count(sizeToken, 'CELLS size', 2);
  if (size < n) s.fail(`CELLS size ${size} is smaller than the number of cells ${n}`);
  const offsets = new Uint32Array(n + 1);
  const ids = new Uint32Array(size - n);
  const lines = new Uint32Array(n);
  let k = 0;
  for (let c = 0; c < n; c++) {
    const count = r.uint(s.next(`cell ${c}`), `vertex count of cell ${c}`);
    lines[c] = s.line;
    if (k + count > ids.length) s.fail(`cells hold more indices than CELLS size ${size} allows`);
    for (let i = 0; i < count; i++) {
      const v = r.uint(s.next(`vertex ${i} of cell ${c}`), `vertex ${i} of cell ${c}`);
      if (v >= vertexCount) s.fail(`cell ${c} uses point ${v}, but there are ${vertexCount} points`);
      ids[k++] = v;
    }
    offsets[c + 1] = k;
  }
  if (k !== ids.length) s.fail(`cells hold ${k + n} values, CELLS size says ${size}`);
  return { offsets, ids, lines };
}

/** VTK 5.1: "CELLS <#offsets> <#connectivity>", "OFFSETS <type>" values, "CONNECTIVITY <type>" values. */
function offsetCells(s: TokenStream, r: LineReader, offsetCountToken: string, sizeToken: string, vertexCount: number): Cells {
  const m = r.count(offsetCountToken, 'number of offsets', 2);
  const size = r.count(sizeToken, 'connectivity size', 2);
  if (m < 1) s.fail('CELLS needs at least one offset');
  s.next('OFFSETS');
  s.next('OFFSETS data type');
  const offsets = new Uint32Array(m);
  const lines = new Uint32Array(m - 1);
  for (let i = 0; i < m; i++) {
    offsets[i] = r.uint(s.next(`offset ${i}`), `offset ${i}`);
    if (i > 0) lines[i - 1] = s.line;
    if ((i === 0 && offsets[0] !== 0) || (i > 0 && offsets[i] < offsets[i - 1]) || offsets[i] > size) {
      s.fail(`offset ${i} (${offsets[i]}) must start at 0, not decrease, and not exceed ${size}`);
    }
  }
  if (offsets[m - 1] !== size) s.fail(`last offset ${offsets[m - 1]} differs from the connectivity size ${size}`);
  const word = s.next('CONNECTIVITY');
  if (word !== 'CONNECTIVITY') s.fail(`expected CONNECTIVITY, found "${word.slice(0, 32)}"`);
  s.next('CONNECTIVITY data type');
  const ids = new Uint32Array(size);
  for (let i = 0; i < size; i++) {
    const v = r.uint(s.next(`connectivity value ${i}`), `connectivity value ${i}`);
    if (v >= vertexCount) s.fail(`connectivity value ${i} is point ${v}, but there are ${vertexCount} points`);
    ids[i] = v;
  }
  return { offsets, ids, lines };
}

/** A legacy VTK mesh with the one-component cell arrays found after CELL_TYPES, one value per tet. */
export interface VtkMesh extends LoadedMesh {
  cellData: Record<string, Float64Array>;
}

/** Values per tuple of the attribute kinds that carry no component count in their header. */
const FIXED_COMPONENTS: Record<string, number> = { VECTORS: 3, NORMALS: 3, TENSORS: 9 };

/**
 * Reads POINT_DATA / CELL_DATA attribute sections (legacy VTK file format, "Dataset
 * Attribute Format") and keeps the one-component cell arrays. Returns at the end of the
 * text or at the first keyword it does not know (then the rest is ignored).
 */
function attributes(s: TokenStream, r: LineReader, pointCount: number, cellCount: number): Map<string, Float64Array> {
  const kept = new Map<string, Float64Array>();
  let tuples = -1;
  let isCell = false;
  const values = (count: number, keep: boolean, what: string): Float64Array | null => {
    const out = keep ? new Float64Array(count) : null;
    for (let i = 0; i < count; i++) {
      const x = r.real(s.next(`value ${i} of ${what}`), `value ${i} of ${what}`);
      if (out) out[i] = x;
    }
    return out;
  };
  for (let word = s.peek(); word !== null; word = s.peek()) {
    const key = word.toUpperCase();
    if (key === 'POINT_DATA' || key === 'CELL_DATA') {
      s.next(key);
      isCell = key === 'CELL_DATA';
      const n = r.uint(s.next(`the number of ${isCell ? 'cells' : 'points'} in ${key}`), `${key} count`);
      const expected = isCell ? cellCount : pointCount;
      if (n !== expected) s.fail(`${key} ${n} differs from the ${expected} ${isCell ? 'cells' : 'points'} of the grid`);
      tuples = n;
    } else if (tuples < 0) {
      return kept;
    } else if (key === 'SCALARS') {
      s.next(key);
      const name = s.next('the SCALARS name');
      s.next(`the data type of ${name}`);
      let components = 1;
      if (/^\d+$/.test(s.peek() ?? '')) components = r.uint(s.next('number of components'), `number of components of ${name}`);
      if (components < 1 || components > 4) s.fail(`SCALARS ${name} has ${components} components (1 to 4 allowed)`);
      if (s.peek()?.toUpperCase() === 'LOOKUP_TABLE') {
        s.next('LOOKUP_TABLE');
        s.next('the lookup table name');
      }
      const data = values(tuples * components, isCell && components === 1, `SCALARS ${name}`);
      if (data) kept.set(name, data);
    } else if (key === 'FIELD') {
      s.next(key);
      const field = s.next('the FIELD name');
      const arrays = r.uint(s.next(`the number of arrays of FIELD ${field}`), `number of arrays of FIELD ${field}`);
      for (let a = 0; a < arrays; a++) {
        const name = s.next(`array ${a} of FIELD ${field}`);
        const components = r.uint(s.next(`the components of ${name}`), `number of components of ${name}`);
        const n = r.uint(s.next(`the tuples of ${name}`), `number of tuples of ${name}`);
        s.next(`the data type of ${name}`);
        if (n !== tuples) s.fail(`FIELD array ${name} has ${n} tuples, the section has ${tuples}`);
        const data = values(n * components, isCell && components === 1, `FIELD array ${name}`);
        if (data) kept.set(name, data);
      }
    } else if (key in FIXED_COMPONENTS) {
      s.next(key);
      const name = s.next(`the ${key} name`);
      s.next(`the data type of ${name}`);
      values(tuples * FIXED_COMPONENTS[key], false, `${key} ${name}`);
    } else {
      return kept;
    }
  }
  return kept;
}

export function parseVtk(text: string, file: string): VtkMesh {
  const r: LineReader = new LineReader(text, file, null);
  const magic = r.rawNext();
  if (magic === null || !/^#\s*vtk DataFile Version/i.test(magic)) r.fail('not a legacy VTK file: the first line must be "# vtk DataFile Version x.x"', 1);
  if (r.rawNext() === null) r.fail('unexpected end of file: expected the title line', 2);
  const encoding = r.require('ASCII or BINARY');
  if (encoding[0].toUpperCase() === 'BINARY') r.fail('binary VTK files are not supported: save as ASCII');
  if (encoding[0].toUpperCase() !== 'ASCII') r.fail(`expected ASCII, found "${encoding[0].slice(0, 32)}"`);
  const s: TokenStream = new TokenStream(r);

  let positions: Float32Array | null = null;
  let vertexLines: Uint32Array | null = null;
  let cells: Cells | null = null;
  let types: Uint32Array | null = null;
  for (let word = s.peek(); word !== null && types === null; word = s.peek()) {
    s.next('a keyword');
    const key = word.toUpperCase();
    if (key === 'DATASET') {
      const kind = s.next('the dataset type');
      if (kind.toUpperCase() !== 'UNSTRUCTURED_GRID') s.fail(`DATASET ${kind.slice(0, 32)} is not supported: only UNSTRUCTURED_GRID holds tetrahedra`);
    } else if (key === 'POINTS') {
      if (positions) s.fail('a second POINTS section');
      const n = r.count(s.next('the number of points'), 'number of points', 6);
      s.next('the points data type');
      positions = new Float32Array(3 * n);
      vertexLines = new Uint32Array(n);
      for (let i = 0; i < 3 * n; i++) {
        positions[i] = r.real(s.next(`coordinate ${i % 3} of point ${(i / 3) | 0}`), `coordinate ${i % 3} of point ${(i / 3) | 0}`);
        if (i % 3 === 0) vertexLines[i / 3] = s.line;
      }
    } else if (key === 'CELLS') {
      if (!positions) s.fail('CELLS before POINTS');
      if (cells) s.fail('a second CELLS section');
      const first = s.next('the number of cells');
      const second = s.next('the CELLS size');
      const vertexCount = positions.length / 3;
      cells = s.peek()?.toUpperCase() === 'OFFSETS'
        ? offsetCells(s, r, first, second, vertexCount)
        : classicCells(s, r, r.count(first, 'number of cells', 4), second, vertexCount);
    } else if (key === 'CELL_TYPES') {
      if (!cells) s.fail('CELL_TYPES before CELLS');
      const n = r.uint(s.next('the number of cell types'), 'number of cell types');
      if (n !== cells.lines.length) s.fail(`CELL_TYPES has ${n} entries but CELLS has ${cells.lines.length} cells`);
      types = new Uint32Array(n);
      for (let i = 0; i < n; i++) types[i] = r.uint(s.next(`type of cell ${i}`), `type of cell ${i}`);
    } else if (key === 'FIELD' || key === 'METADATA' || key === 'POINT_DATA' || key === 'CELL_DATA') {
      s.fail(`${word} before CELL_TYPES is not supported`);
    } else {
      s.fail(`unexpected "${word.slice(0, 32)}": expected DATASET, POINTS, CELLS or CELL_TYPES`);
    }
  }
  if (!positions || !vertexLines) r.fail('no POINTS section', 0);
  if (!cells || !types) r.fail('no CELLS and CELL_TYPES sections', 0);

  let tetCount = 0;
  for (let c = 0; c < types.length; c++) if (types[c] === VTK_TETRA || types[c] === VTK_QUADRATIC_TETRA) tetCount++;
  if (tetCount === 0) r.fail('no tetrahedra (cell type 10) found', 0);
  const tets = new Uint32Array(4 * tetCount);
  const tetLines = new Uint32Array(tetCount);
  const skipped = new Map<number, number>();
  let t = 0;
  for (let c = 0; c < types.length; c++) {
    const type = types[c];
    if (type !== VTK_TETRA && type !== VTK_QUADRATIC_TETRA) {
      skipped.set(type, (skipped.get(type) ?? 0) + 1);
      continue;
    }
    const start = cells.offsets[c], count = cells.offsets[c + 1] - start;
    const expected = type === VTK_TETRA ? 4 : 10;
    if (count !== expected) r.fail(`cell ${c} has type ${type} but ${count} points (expected ${expected})`, cells.lines[c]);
    for (let k = 0; k < 4; k++) tets[4 * t + k] = cells.ids[start + k];
    tetLines[t++] = cells.lines[c];
  }
  const warnings: MeshIssue[] = [];
  for (const [type, count] of skipped) warnings.push({ message: `skipped ${count} cells of VTK type ${type} (not tetrahedra)` });
  const cellData: Record<string, Float64Array> = {};
  for (const [name, perCell] of attributes(s, r, positions.length / 3, types.length)) {
    const perTet = new Float64Array(tetCount);
    let k = 0;
    for (let c = 0; c < types.length; c++) if (types[c] === VTK_TETRA || types[c] === VTK_QUADRATIC_TETRA) perTet[k++] = perCell[c];
    cellData[name] = perTet;
  }
  return { format: 'vtk', source: file, positions, tets, vertexLines, tetLines, warnings, cellData };
}

/**
 * Writes legacy VTK ASCII (classic CELLS layout), all cells type 10, and each entry of
 * `cellData` (one value per tet) as a CELL_DATA SCALARS array: `int` when every value is a
 * 32-bit integer, `double` otherwise.
 */
export function writeVtk(mesh: TetMeshArrays, title = 'tetrahedral mesh', cellData: Record<string, ArrayLike<number>> = {}): string {
  const p = mesh.positions, t = mesh.tets;
  const n = p.length / 3, m = t.length / 4;
  // The legacy format caps the title line at 256 characters.
  const parts: string[] = [`# vtk DataFile Version 3.0\n${title.replace(/[\r\n]/g, ' ').slice(0, 255)}\nASCII\nDATASET UNSTRUCTURED_GRID\nPOINTS ${n} float\n`];
  for (let v = 0; v < n; v++) parts.push(`${formatFloat32(p[3 * v])} ${formatFloat32(p[3 * v + 1])} ${formatFloat32(p[3 * v + 2])}\n`);
  parts.push(`\nCELLS ${m} ${5 * m}\n`);
  for (let i = 0; i < m; i++) parts.push(`4 ${t[4 * i]} ${t[4 * i + 1]} ${t[4 * i + 2]} ${t[4 * i + 3]}\n`);
  parts.push(`\nCELL_TYPES ${m}\n`);
  for (let i = 0; i < m; i++) parts.push(`${VTK_TETRA}\n`);
  const names = Object.keys(cellData);
  if (names.length > 0) parts.push(`\nCELL_DATA ${m}\n`);
  for (const name of names) {
    const values = cellData[name];
    if (!/^\S+$/.test(name)) throw new Error(`VTK cell array name "${name}" must be one word`);
    if (values.length !== m) throw new Error(`VTK cell array ${name} has ${values.length} values for ${m} tets`);
    let isInt = true;
    for (let i = 0; i < m && isInt; i++) isInt = Number.isInteger(values[i]) && Math.abs(values[i]) < 2 ** 31;
    parts.push(`SCALARS ${name} ${isInt ? 'int' : 'double'} 1\nLOOKUP_TABLE default\n`);
    for (let i = 0; i < m; i++) parts.push(`${values[i]}\n`);
  }
  return parts.join('');
}
