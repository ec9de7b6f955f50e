/**
 * Reads a mesh file from disk for the runner through the project's loaders (all four
 * formats; a TetGen .node or .ele brings its partner from beside it) and validates it. Every
 * failure is a UsageError naming the file, and the line when the loader knows it.
 */
import { readFileSync } from 'node:fs';
import { MeshParseError, MeshValidationError } from '../mesh/errors';
import { loadTetMesh, type MeshFileInput } from '../mesh/io/loadMeshFile';
import type { SceneMesh } from '../scenes/types';
import { UsageError } from './args';

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (e as Error).message;
    throw new UsageError(`cannot read mesh file ${path}: ${why}`);
  }
}

/** The files the loader needs for `path`: the file itself, or a TetGen pair. */
function inputs(path: string): MeshFileInput[] {
  const m = /^(.*)\.(node|ele)$/i.exec(path);
  if (!m) return [{ name: path, text: read(path) }];
  const partner = `${m[1]}.${m[2].toLowerCase() === 'node' ? 'ele' : 'node'}`;
  return [
    { name: path, text: read(path) },
    { name: partner, text: read(partner) },
  ];
}

export interface LoadedSceneMesh extends SceneMesh {
  /** Loader and validation warnings (skipped records, repaired orientation...). */
  warnings: string[];
}

export function readMeshFile(path: string): LoadedSceneMesh {
  try {
    const { mesh, warnings } = loadTetMesh(inputs(path));
    return {
      name: path.replace(/^.*[\\/]/, ''),
      positions: mesh.positions,
      tets: mesh.tets,
      warnings: warnings.map((w) => (w.line ? `${path}:${w.line}: ${w.message}` : `${path}: ${w.message}`)),
    };
  } catch (e) {
    if (e instanceof MeshParseError) throw new UsageError(`bad mesh file ${e.message}`);
    if (e instanceof MeshValidationError) throw new UsageError(`invalid mesh ${e.source ? '' : `${path}: `}${e.message}`);
    throw e;
  }
}
