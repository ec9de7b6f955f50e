import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGaiaT } from '../../src/mesh/io/gaiaT';
import { buildTetMesh } from '../../src/mesh/tetMesh';
import type { TetMesh } from '../../src/mesh/types';

/** The real meshes made by others, next to the project root: ../shared/meshes. */
export const SHARED_MESHES_DIR = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../shared/meshes');

function ensureDir(): void {
  if (!existsSync(SHARED_MESHES_DIR)) {
    throw new Error(
      `Shared test meshes not found at ${SHARED_MESHES_DIR}. Tests expect the folder shared/ beside the project root (../shared/meshes).`,
    );
  }
}

export function sharedMeshPath(name: string): string {
  ensureDir();
  return join(SHARED_MESHES_DIR, name);
}

export function readSharedMesh(name: string): string {
  return readFileSync(sharedMeshPath(name), 'utf8');
}

export function listSharedMeshes(extension: string): string[] {
  ensureDir();
  return readdirSync(SHARED_MESHES_DIR)
    .filter((f) => f.endsWith(extension))
    .sort();
}

/** A shared `.t` mesh read through the project's loader, as plain rest arrays. */
export function loadSharedTetArrays(name: string): { positions: Float32Array; tets: Uint32Array } {
  const loaded = parseGaiaT(readSharedMesh(name), name);
  return { positions: loaded.positions, tets: loaded.tets };
}

/** A shared `.t` mesh read through the project's loader and built into a TetMesh (topology, boundary). */
export function loadSharedTetMesh(name: string): TetMesh {
  const loaded = parseGaiaT(readSharedMesh(name), name);
  return buildTetMesh(loaded, loaded).mesh;
}
