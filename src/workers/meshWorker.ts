/**
 * The mesh worker: generates procedural shapes and parses + validates imported files off the
 * page's thread, then hands the finished TetMesh back with its typed arrays TRANSFERRED (moved,
 * not copied). Exposed through comlink; the page reaches it through WorkerPool.
 */
import * as Comlink from 'comlink';
import { generateShape, shapeCatalog } from '../mesh/procedural/catalog';
import { tetQuality } from '../mesh/procedural/quality';
import { loadTetMesh } from '../mesh/io/loadMeshFile';
import { buildTetMesh } from '../mesh/tetMesh';
import type { MeshIssue, TetMesh } from '../mesh/types';
import type { MeshFileText, MeshJobResult, MeshWorkerApi, ShapeInfo } from './meshWorkerApi';

/** Resolution slider range: coarse enough to be instant, fine enough for ~1M tets. */
const MIN_RESOLUTION = 4;
const MAX_RESOLUTION_FACTOR = 4;

function title(name: string): string {
  return name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_]/g, ' ')
    .replace(/^./, (c) => c.toUpperCase());
}

function catalog(): ShapeInfo[] {
  return shapeCatalog.map((shape) => ({
    name: shape.name,
    label: title(shape.name),
    defaultResolution: shape.defaultResolution,
    minResolution: MIN_RESOLUTION,
    maxResolution: shape.defaultResolution * MAX_RESOLUTION_FACTOR,
    parameters: shape.params.map((p) => ({
      name: p.name,
      min: p.min,
      max: p.max,
      default: p.default,
      description: p.description,
      ...(p.integer ? { step: 1 } : {}),
    })),
  }));
}

/** Every distinct ArrayBuffer behind the mesh's typed arrays (a buffer listed twice cannot be transferred). */
function meshBuffers(mesh: TetMesh): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  for (const value of Object.values(mesh)) {
    if (ArrayBuffer.isView(value) && value.buffer instanceof ArrayBuffer) buffers.add(value.buffer);
  }
  return [...buffers];
}

function describe(issues: MeshIssue[]): string[] {
  return issues.map((i) => [i.line ? `line ${i.line}` : '', i.element !== undefined ? `element ${i.element}` : '', i.message].filter(Boolean).join(': '));
}

function transferResult(result: MeshJobResult): MeshJobResult {
  return Comlink.transfer(result, meshBuffers(result.mesh));
}

/** The statistics the page shows, for a mesh that took `startMs` (performance.now()) until now. */
function jobResult(
  mesh: TetMesh,
  warnings: MeshIssue[],
  dihedral: { minDihedralDeg: number; maxDihedralDeg: number },
  startMs: number,
  source: string,
): MeshJobResult {
  return transferResult({
    mesh,
    warnings: describe(warnings),
    stats: {
      vertices: mesh.vertexCount,
      tets: mesh.tetCount,
      boundaryTriangles: mesh.boundaryTriangles.length / 3,
      minDihedralDeg: dihedral.minDihedralDeg,
      maxDihedralDeg: dihedral.maxDihedralDeg,
      milliseconds: performance.now() - startMs,
      source,
    },
  });
}

const api: MeshWorkerApi = {
  catalog,

  async generate(name, params, resolution, onProgress) {
    const t0 = performance.now();
    // Progress crosses threads as a comlink proxy call: throttle to ~100 messages per mesh.
    let last = -1;
    const progress = (f: number): void => {
      if (f - last >= 0.01 || f >= 1) {
        last = f;
        void onProgress?.(f);
      }
    };
    const shape = generateShape(name, params, resolution, progress);
    const { mesh, warnings } = buildTetMesh(shape, { source: `procedural ${name}` });
    return jobResult(mesh, warnings, shape.stats, t0, `${name} (resolution ${resolution})`);
  },

  async parse(files: MeshFileText[]) {
    const t0 = performance.now();
    const { mesh, warnings } = loadTetMesh(files);
    const quality = tetQuality(mesh.positions, mesh.tets);
    return jobResult(mesh, warnings, quality, t0, files.map((f) => f.name).join(' + '));
  },
};

Comlink.expose(api);
