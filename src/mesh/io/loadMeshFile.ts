/**
 * Picks the loader by file extension: .t (Gaia), .node + .ele (TetGen, given together),
 * .msh (Gmsh 2.2/4.1 ASCII), .vtk (legacy VTK). loadTetMesh also validates and builds topology.
 */
import { MeshParseError } from '../errors';
import { buildTetMesh, type BuildTetMeshResult } from '../tetMesh';
import { parseGaiaT } from './gaiaT';
import { parseGmsh } from './gmsh';
import type { LoadedMesh } from './loadedMesh';
import { parseTetGen } from './tetgen';
import { parseVtk } from './vtk';

export interface MeshFileInput {
  name: string;
  text: string;
}

export const SUPPORTED_MESH_EXTENSIONS = ['.t', '.node + .ele', '.msh', '.vtk'] as const;

const TETGEN_COMPANIONS = new Set(['.face', '.edge', '.neigh', '.poly', '.smesh', '.mtr', '.vol']);

function extension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot).toLowerCase();
}

export function loadMeshFile(files: readonly MeshFileInput[]): LoadedMesh {
  const names = files.map((f) => f.name).join(', ');
  if (files.length === 0) throw new MeshParseError('(no file)', 0, 'no mesh file given');
  const node = files.find((f) => extension(f.name) === '.node');
  const ele = files.find((f) => extension(f.name) === '.ele');
  if (node || ele) {
    if (!node || !ele) {
      const given = (node ?? ele)!;
      throw new MeshParseError(given.name, 0, `a TetGen mesh needs both the .node and the .ele file; got only ${given.name}`);
    }
    // TetGen writes companions (.face, .edge, .neigh...) beside the pair; they add nothing here.
    const others = files.filter((f) => f !== node && f !== ele);
    const foreign = others.filter((f) => !TETGEN_COMPANIONS.has(extension(f.name)));
    if (foreign.length > 0 || files.filter((f) => ['.node', '.ele'].includes(extension(f.name))).length !== 2) {
      throw new MeshParseError(names, 0, 'give one TetGen .node/.ele pair (optionally with its .face/.edge/.neigh files), not other meshes');
    }
    const loaded = parseTetGen(node.text, node.name, ele.text, ele.name);
    for (const f of others) loaded.warnings.push({ message: `ignored TetGen companion file ${f.name}` });
    return loaded;
  }
  if (files.length !== 1) throw new MeshParseError(names, 0, 'expected one mesh file (or a TetGen .node + .ele pair)');
  const { name, text } = files[0];
  switch (extension(name)) {
    case '.t':
      return parseGaiaT(text, name);
    case '.msh':
      return parseGmsh(text, name);
    case '.vtk':
      return parseVtk(text, name);
    default:
      throw new MeshParseError(name, 0, `unknown mesh format "${extension(name) || '(no extension)'}": supported are ${SUPPORTED_MESH_EXTENSIONS.join(', ')}`);
  }
}

export interface LoadTetMeshResult extends BuildTetMeshResult {
  loaded: LoadedMesh;
}

/** Load, validate and build topology; warnings from reading and from building together. */
export function loadTetMesh(files: readonly MeshFileInput[]): LoadTetMeshResult {
  const loaded = loadMeshFile(files);
  const built = buildTetMesh(loaded, loaded);
  return { mesh: built.mesh, warnings: [...loaded.warnings, ...built.warnings], loaded };
}
