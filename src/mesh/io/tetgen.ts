/**
 * TetGen's `.node` + `.ele` pair.
 *   .node: "<#points> <dimension=3> <#attributes> <boundary markers 0|1>", then per point
 *          "<id> <x> <y> <z> [attributes] [marker]".
 *   .ele:  "<#tets> <nodes per tet: 4|10> <#attributes>", then "<id> <n1> ... <nk> [attributes]".
 * Ids start at 0 or 1: the first point's id decides, and .ele indices use the same base.
 * '#' starts a comment anywhere on a line. For 10-node tets the first 4 nodes are the corners.
 */
import type { TetMeshArrays } from '../types';
import { formatFloat32 } from './formatNumber';
import { LineReader } from './lineReader';
import type { LoadedMesh } from './loadedMesh';

interface NodeData {
  positions: Float32Array;
  lines: Uint32Array;
  base: number;
}

function parseNode(text: string, file: string): NodeData {
  const r = new LineReader(text, file);
  const header = r.require('the header "<#points> <dimension> <#attributes> <#markers>"');
  if (header.length < 2) r.fail('the header needs at least "<#points> <dimension>"');
  const dim = r.uint(header[1], 'dimension');
  if (dim !== 3) r.fail(`dimension is ${dim}, only 3 is supported`);
  const attributes = header.length > 2 ? r.uint(header[2], 'number of attributes') : 0;
  const markers = header.length > 3 ? r.uint(header[3], 'number of boundary markers') : 0;
  if (markers > 1) r.fail(`number of boundary markers is ${markers}, must be 0 or 1`);
  const columns = 1 + dim + attributes + markers;
  const n = r.count(header[0], 'number of points', 2 * columns);
  const positions = new Float32Array(3 * n);
  const lines = new Uint32Array(n);
  let base = 0;
  for (let i = 0; i < n; i++) {
    const t = r.require(`point ${i + 1} of ${n}`);
    if (t.length < columns) r.fail(`point line has ${t.length} values, the header says ${columns}`);
    const id = r.uint(t[0], 'point id');
    if (i === 0) {
      if (id > 1) r.fail(`first point id is ${id}: TetGen ids start at 0 or 1`);
      base = id;
    } else if (id !== base + i) {
      r.fail(`point id ${id} out of sequence: expected ${base + i}`);
    }
    positions[3 * i] = r.real(t[1], 'x');
    positions[3 * i + 1] = r.real(t[2], 'y');
    positions[3 * i + 2] = r.real(t[3], 'z');
    lines[i] = r.line;
  }
  return { positions, lines, base };
}

export function parseTetGen(nodeText: string, nodeFile: string, eleText: string, eleFile: string): LoadedMesh {
  const nodes = parseNode(nodeText, nodeFile);
  const r = new LineReader(eleText, eleFile);
  const header = r.require('the header "<#tets> <nodes per tet> <#attributes>"');
  if (header.length < 2) r.fail('the header needs at least "<#tets> <nodes per tet>"');
  const perTet = r.uint(header[1], 'nodes per tet');
  if (perTet !== 4 && perTet !== 10) r.fail(`nodes per tet is ${perTet}, must be 4 or 10`);
  const attributes = header.length > 2 ? r.uint(header[2], 'number of attributes') : 0;
  const columns = 1 + perTet + attributes;
  const n = r.count(header[0], 'number of tets', 2 * columns);
  if (n === 0) r.fail('the file has no tets', 1);
  const vertexCount = nodes.positions.length / 3;
  const tets = new Uint32Array(4 * n);
  const tetLines = new Uint32Array(n);
  let firstId = 0;
  for (let i = 0; i < n; i++) {
    const t = r.require(`tet ${i + 1} of ${n}`);
    if (t.length < columns) r.fail(`tet line has ${t.length} values, the header says ${columns}`);
    const id = r.uint(t[0], 'tet id');
    if (i === 0) firstId = id;
    else if (id !== firstId + i) r.fail(`tet id ${id} out of sequence: expected ${firstId + i}`);
    for (let k = 0; k < 4; k++) {
      const v = r.uint(t[1 + k], `node ${k + 1} of tet ${id}`);
      if (v < nodes.base || v - nodes.base >= vertexCount) {
        r.fail(`node ${v} of tet ${id} is not a point of ${nodeFile} (ids ${nodes.base}..${nodes.base + vertexCount - 1})`);
      }
      tets[4 * i + k] = v - nodes.base;
    }
    tetLines[i] = r.line;
  }
  return {
    format: 'tetgen',
    source: `${nodeFile} + ${eleFile}`,
    positions: nodes.positions,
    tets,
    vertexLines: nodes.lines,
    tetLines,
    warnings: [],
  };
}

/** Writes a 0-based TetGen pair without attributes or markers. */
export function writeTetGen(mesh: TetMeshArrays): { node: string; ele: string } {
  const p = mesh.positions, t = mesh.tets;
  const n = p.length / 3, m = t.length / 4;
  const node: string[] = [`${n} 3 0 0\n`];
  for (let v = 0; v < n; v++) node.push(`${v} ${formatFloat32(p[3 * v])} ${formatFloat32(p[3 * v + 1])} ${formatFloat32(p[3 * v + 2])}\n`);
  const ele: string[] = [`${m} 4 0\n`];
  for (let i = 0; i < m; i++) ele.push(`${i} ${t[4 * i]} ${t[4 * i + 1]} ${t[4 * i + 2]} ${t[4 * i + 3]}\n`);
  return { node: node.join(''), ele: ele.join('') };
}
