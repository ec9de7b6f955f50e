/**
 * Gmsh `.msh` ASCII, versions 2.x (2.2) and 4.1, tetrahedra only. Element type 4 is the
 * 4-node tet; type 11 (10-node tet) contributes its 4 corner nodes (listed first). Other
 * element types (points, lines, triangles...) are skipped with a warning; sections other
 * than $MeshFormat, $Nodes and $Elements are skipped. Node tags may be any positive integers,
 * non-contiguous, in any order (they are mapped to 0-based ids in file order).
 */
import type { MeshIssue, TetMeshArrays } from '../types';
import { formatFloat32 } from './formatNumber';
import { GrowableU32, LineReader } from './lineReader';
import type { LoadedMesh } from './loadedMesh';

const TET4 = 4;
const TET10 = 11;

interface NodeTable {
  positions: Float32Array;
  lines: Uint32Array;
  tagToIndex: Map<number, number>;
}

function skipSection(r: LineReader, name: string): void {
  const startLine = r.line;
  const end = `$End${name}`;
  for (let t = r.next(); t !== null; t = r.next()) if (t[0] === end) return;
  r.fail(`section $${name} (line ${startLine}) has no ${end}`, startLine);
}

function expectEnd(r: LineReader, name: string): void {
  const t = r.require(`$End${name}`);
  if (t[0] !== `$End${name}`) r.fail(`expected $End${name}, found "${t[0].slice(0, 32)}"`);
}

function addNode(r: LineReader, table: NodeTable, index: number, tag: number): void {
  if (table.tagToIndex.has(tag)) r.fail(`node tag ${tag} appears twice`);
  table.tagToIndex.set(tag, index);
}

function nodes2(r: LineReader): NodeTable {
  const n = r.count(r.require('the number of nodes')[0], 'number of nodes', 8);
  const table: NodeTable = { positions: new Float32Array(3 * n), lines: new Uint32Array(n), tagToIndex: new Map() };
  for (let i = 0; i < n; i++) {
    const t = r.require(`node ${i + 1} of ${n}`);
    if (t.length < 4) r.fail(`node line needs "<tag> <x> <y> <z>", found ${t.length} values`);
    addNode(r, table, i, r.uint(t[0], 'node tag'));
    table.positions[3 * i] = r.real(t[1], 'x');
    table.positions[3 * i + 1] = r.real(t[2], 'y');
    table.positions[3 * i + 2] = r.real(t[3], 'z');
    table.lines[i] = r.line;
  }
  expectEnd(r, 'Nodes');
  return table;
}

function nodes41(r: LineReader): NodeTable {
  const h = r.require('"<numEntityBlocks> <numNodes> <minNodeTag> <maxNodeTag>"');
  if (h.length < 4) r.fail('the $Nodes header needs "<numEntityBlocks> <numNodes> <minNodeTag> <maxNodeTag>"');
  const blocks = r.count(h[0], 'number of node blocks', 8);
  const n = r.count(h[1], 'number of nodes', 8);
  const table: NodeTable = { positions: new Float32Array(3 * n), lines: new Uint32Array(n), tagToIndex: new Map() };
  let next = 0;
  for (let b = 0; b < blocks; b++) {
    const bh = r.require(`node block ${b + 1} of ${blocks}`);
    if (bh.length < 4) r.fail('a node block header needs "<entityDim> <entityTag> <parametric> <numNodesInBlock>"');
    const parametric = r.uint(bh[2], 'parametric flag');
    const entityDim = r.uint(bh[0], 'entity dimension');
    const inBlock = r.uint(bh[3], 'number of nodes in the block');
    if (next + inBlock > n) r.fail(`node blocks hold more than the ${n} nodes the header announced`);
    const first = next;
    for (let i = 0; i < inBlock; i++) {
      const t = r.require(`node tag ${i + 1} of ${inBlock}`);
      addNode(r, table, first + i, r.uint(t[0], 'node tag'));
    }
    // Parametric nodes carry entityDim extra coordinates after x y z (ignored).
    const columns = 3 + (parametric ? entityDim : 0);
    for (let i = 0; i < inBlock; i++) {
      const t = r.require(`coordinates of node ${i + 1} of ${inBlock}`);
      if (t.length < columns) r.fail(`node coordinates need ${columns} values, found ${t.length}`);
      const k = first + i;
      table.positions[3 * k] = r.real(t[0], 'x');
      table.positions[3 * k + 1] = r.real(t[1], 'y');
      table.positions[3 * k + 2] = r.real(t[2], 'z');
      table.lines[k] = r.line;
    }
    next += inBlock;
  }
  if (next !== n) r.fail(`node blocks hold ${next} nodes, the header announced ${n}`);
  expectEnd(r, 'Nodes');
  return table;
}

interface ElementSink {
  tets: GrowableU32;
  lines: GrowableU32;
  skipped: Map<number, number>;
}

function addTet(r: LineReader, nodes: NodeTable, sink: ElementSink, tags: string[], start: number, elementTag: string): void {
  for (let k = 0; k < 4; k++) {
    const tag = r.uint(tags[start + k], `node ${k + 1} of element ${elementTag}`);
    const index = nodes.tagToIndex.get(tag);
    if (index === undefined) r.fail(`element ${elementTag} uses node tag ${tag}, which is not in $Nodes`);
    sink.tets.push(index);
  }
  sink.lines.push(r.line);
}

function elements2(r: LineReader, nodes: NodeTable, sink: ElementSink): void {
  const n = r.count(r.require('the number of elements')[0], 'number of elements', 8);
  for (let i = 0; i < n; i++) {
    const t = r.require(`element ${i + 1} of ${n}`);
    if (t.length < 3) r.fail('element line needs "<tag> <type> <#tags> ..."');
    const type = r.uint(t[1], 'element type');
    const ntags = r.uint(t[2], 'number of element tags');
    if (type === TET4 || type === TET10) {
      const need = 3 + ntags + (type === TET4 ? 4 : 10);
      if (t.length < need) r.fail(`tetrahedron element ${t[0]} needs ${need} values, found ${t.length}`);
      addTet(r, nodes, sink, t, 3 + ntags, t[0]);
    } else {
      sink.skipped.set(type, (sink.skipped.get(type) ?? 0) + 1);
    }
  }
  expectEnd(r, 'Elements');
}

function elements41(r: LineReader, nodes: NodeTable, sink: ElementSink): void {
  const h = r.require('"<numEntityBlocks> <numElements> <minElementTag> <maxElementTag>"');
  if (h.length < 4) r.fail('the $Elements header needs "<numEntityBlocks> <numElements> <minElementTag> <maxElementTag>"');
  const blocks = r.count(h[0], 'number of element blocks', 8);
  const n = r.count(h[1], 'number of elements', 4);
  let total = 0;
  for (let b = 0; b < blocks; b++) {
    const bh = r.require(`element block ${b + 1} of ${blocks}`);
    if (bh.length < 4) r.fail('an element block header needs "<entityDim> <entityTag> <elementType> <numElementsInBlock>"');
    const type = r.uint(bh[2], 'element type');
    const inBlock = r.uint(bh[3], 'number of elements in the block');
    total += inBlock;
    if (total > n) r.fail(`element blocks hold more than the ${n} elements the header announced`);
    for (let i = 0; i < inBlock; i++) {
      const t = r.require(`element ${i + 1} of ${inBlock} in block ${b + 1}`);
      if (type === TET4 || type === TET10) {
        const need = 1 + (type === TET4 ? 4 : 10);
        if (t.length < need) r.fail(`tetrahedron element ${t[0]} needs ${need} values, found ${t.length}`);
        addTet(r, nodes, sink, t, 1, t[0]);
      }
    }
    if (type !== TET4 && type !== TET10) sink.skipped.set(type, (sink.skipped.get(type) ?? 0) + inBlock);
  }
  if (total !== n) r.fail(`element blocks hold ${total} elements, the header announced ${n}`);
  expectEnd(r, 'Elements');
}

export function parseGmsh(text: string, file: string): LoadedMesh {
  const r: LineReader = new LineReader(text, file, null);
  let version = 0;
  let nodes: NodeTable | null = null;
  const sink: ElementSink = { tets: new GrowableU32(), lines: new GrowableU32(), skipped: new Map() };
  let sawElements = false;
  for (let t = r.next(); t !== null; t = r.next()) {
    const tag = t[0];
    if (!tag.startsWith('$')) r.fail(`expected a section such as $Nodes, found "${tag.slice(0, 32)}"`);
    const name = tag.slice(1);
    if (name === 'MeshFormat') {
      const f = r.require('"<version> <file-type> <data-size>"');
      if (f.length < 2) r.fail('$MeshFormat needs "<version> <file-type> <data-size>"');
      if (f[1] !== '0') r.fail('binary .msh files are not supported: save as ASCII (file-type 0)');
      if (/^2(\.\d+)?$/.test(f[0])) version = 2;
      else if (f[0] === '4.1') version = 4;
      else r.fail(`.msh version ${f[0].slice(0, 16)} is not supported (2.2 or 4.1 ASCII)`);
      expectEnd(r, 'MeshFormat');
    } else if (name === 'Nodes' || name === 'ParametricNodes') {
      if (version === 0) r.fail('$Nodes before $MeshFormat');
      if (nodes) r.fail('a second $Nodes section');
      nodes = version === 2 ? nodes2(r) : nodes41(r);
    } else if (name === 'Elements') {
      if (!nodes) r.fail('$Elements before $Nodes');
      if (sawElements) r.fail('a second $Elements section');
      sawElements = true;
      if (version === 2) elements2(r, nodes, sink);
      else elements41(r, nodes, sink);
    } else if (name.startsWith('End')) {
      r.fail(`${tag.slice(0, 32)} without its opening section`);
    } else {
      skipSection(r, name);
    }
  }
  if (version === 0) r.fail('no $MeshFormat section: not a Gmsh .msh file', 0);
  if (!nodes) r.fail('no $Nodes section', 0);
  if (sink.lines.length === 0) r.fail('no tetrahedra (element type 4 or 11) found', 0);
  const warnings: MeshIssue[] = [];
  for (const [type, count] of sink.skipped) warnings.push({ message: `skipped ${count} elements of type ${type} (not tetrahedra)` });
  return {
    format: 'gmsh',
    source: file,
    positions: nodes.positions,
    tets: sink.tets.toArray(),
    vertexLines: nodes.lines,
    tetLines: sink.lines.toArray(),
    warnings,
  };
}

function coords(p: Float32Array, v: number): string {
  return `${formatFloat32(p[3 * v])} ${formatFloat32(p[3 * v + 1])} ${formatFloat32(p[3 * v + 2])}`;
}

/** Writes Gmsh 2.2 ASCII: node tags 1..n, element type 4 with 2 tags (physical, elementary) = 1. */
export function writeGmsh22(mesh: TetMeshArrays): string {
  const p = mesh.positions, t = mesh.tets;
  const n = p.length / 3, m = t.length / 4;
  const parts: string[] = [`$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n${n}\n`];
  for (let v = 0; v < n; v++) parts.push(`${v + 1} ${coords(p, v)}\n`);
  parts.push(`$EndNodes\n$Elements\n${m}\n`);
  for (let i = 0; i < m; i++) parts.push(`${i + 1} 4 2 1 1 ${t[4 * i] + 1} ${t[4 * i + 1] + 1} ${t[4 * i + 2] + 1} ${t[4 * i + 3] + 1}\n`);
  parts.push('$EndElements\n');
  return parts.join('');
}

/** Writes Gmsh 4.1 ASCII: one volume entity holding every node and tet, tags 1..n. */
export function writeGmsh41(mesh: TetMeshArrays): string {
  const p = mesh.positions, t = mesh.tets;
  const n = p.length / 3, m = t.length / 4;
  const parts: string[] = [`$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 ${n} 1 ${n}\n3 1 0 ${n}\n`];
  for (let v = 0; v < n; v++) parts.push(`${v + 1}\n`);
  for (let v = 0; v < n; v++) parts.push(`${coords(p, v)}\n`);
  parts.push(`$EndNodes\n$Elements\n1 ${m} 1 ${m}\n3 1 4 ${m}\n`);
  for (let i = 0; i < m; i++) parts.push(`${i + 1} ${t[4 * i] + 1} ${t[4 * i + 1] + 1} ${t[4 * i + 2] + 1} ${t[4 * i + 3] + 1}\n`);
  parts.push('$EndElements\n');
  return parts.join('');
}
