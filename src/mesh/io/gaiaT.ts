/**
 * Gaia's `.t` format: one record a line, 0-based consecutive ids.
 *   Vertex <id> <x> <y> <z>
 *   Tet <id> <a> <b> <c> <d>
 * Lines with other keywords (e.g. "Edge") are skipped with a warning; '#' starts a comment.
 */
import type { MeshIssue, TetMeshArrays } from '../types';
import { formatFloat32 } from './formatNumber';
import { GrowableF32, GrowableU32, LineReader } from './lineReader';
import type { LoadedMesh } from './loadedMesh';

export function parseGaiaT(text: string, file: string): LoadedMesh {
  const r = new LineReader(text, file);
  const positions = new GrowableF32();
  const tets = new GrowableU32();
  const vertexLines = new GrowableU32();
  const tetLines = new GrowableU32();
  const skipped = new Map<string, { count: number; line: number }>();
  // Records with values past the ones they need, by kind: read, the extra values ignored, and said.
  const extra = new Map<string, { count: number; line: number; values: number }>();
  for (let tokens = r.next(); tokens !== null; tokens = r.next()) {
    const kind = tokens[0];
    if (kind === 'Vertex' || kind === 'Tet') {
      const isVertex = kind === 'Vertex';
      if (tokens.length < 5 || (!isVertex && tokens.length < 6)) {
        r.fail(`${kind} record needs ${isVertex ? 'an id and 3 coordinates' : 'an id and 4 vertex ids'}, found ${tokens.length - 1} values`);
      }
      const needed = isVertex ? 5 : 6;
      if (tokens.length > needed) {
        const e = extra.get(kind);
        if (e) e.count++;
        else extra.set(kind, { count: 1, line: r.line, values: tokens.length - 1 });
      }
      const id = r.uint(tokens[1], `${kind} id`);
      const expected = isVertex ? vertexLines.length : tetLines.length;
      if (id !== expected) r.fail(`${kind} id ${id} out of sequence: expected ${expected} (ids must be consecutive from 0)`);
      if (isVertex) {
        positions.push3(r.real(tokens[2], 'x'), r.real(tokens[3], 'y'), r.real(tokens[4], 'z'));
        vertexLines.push(r.line);
      } else {
        for (let i = 0; i < 4; i++) tets.push(r.uint(tokens[2 + i], `vertex ${i} of tet ${id}`));
        tetLines.push(r.line);
      }
    } else if (/^[A-Za-z_]+$/.test(kind)) {
      const s = skipped.get(kind);
      if (s) s.count++;
      else skipped.set(kind, { count: 1, line: r.line });
    } else {
      r.fail(`expected a "Vertex" or "Tet" record, found "${kind.length > 32 ? kind.slice(0, 32) + '...' : kind}"`);
    }
  }
  if (tetLines.length === 0) r.fail('no "Tet" records found', 0);
  const warnings: MeshIssue[] = [];
  for (const [kind, s] of skipped) {
    warnings.push({ message: `skipped ${s.count} "${kind}" records (first at line ${s.line})`, line: s.line });
  }
  for (const [kind, e] of extra) {
    const uses = kind === 'Vertex' ? 'an id and 3 coordinates' : 'an id and 4 vertex ids';
    warnings.push({ message: `${e.count} "${kind}" record(s) have more values than ${uses}; the rest were ignored (first at line ${e.line}: ${e.values} values)`, line: e.line });
  }
  return {
    format: 't',
    source: file,
    positions: positions.toArray(),
    tets: tets.toArray(),
    vertexLines: vertexLines.toArray(),
    tetLines: tetLines.toArray(),
    warnings,
  };
}

/** Writes the `.t` format parseGaiaT reads (coordinates round-trip exactly as float32). */
export function writeGaiaT(mesh: TetMeshArrays): string {
  const parts: string[] = [];
  const p = mesh.positions, t = mesh.tets;
  for (let v = 0; v < p.length / 3; v++) {
    parts.push(`Vertex ${v} ${formatFloat32(p[3 * v])} ${formatFloat32(p[3 * v + 1])} ${formatFloat32(p[3 * v + 2])}\n`);
  }
  for (let i = 0; i < t.length / 4; i++) parts.push(`Tet ${i} ${t[4 * i]} ${t[4 * i + 1]} ${t[4 * i + 2]} ${t[4 * i + 3]}\n`);
  return parts.join('');
}
