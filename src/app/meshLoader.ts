/**
 * Puts meshes on screen: asks the worker pool to generate or import one, then swaps the
 * displayed object. The newest request wins (a slow generation that finishes after a newer
 * one is dropped), and a failed request leaves the previous object and its statistics in
 * place: a bad file never takes down the scene.
 */
import * as Comlink from 'comlink';
import type { TetMesh } from '../mesh/types';
import type { WorkerPool } from '../workers/workerPool';
import type { MeshFileText, MeshJobResult, MeshWorkerApi } from '../workers/meshWorkerApi';
import type { ShapeRequest } from './meshScenePanel';
import { MeshView } from './meshView';
import type { ErrorBanner, ProgressIndicator } from './notices';
import type { StatsPanel } from './statsPanel';
import type { Viewer } from './renderer';

export interface MeshLoaderParts {
  pool: WorkerPool<MeshWorkerApi>;
  viewer: Viewer;
  stats: StatsPanel;
  banner: ErrorBanner;
  progress: ProgressIndicator;
  /** Places a newly shown mesh and the camera (the page: at its drop pose, ground in view); default: viewer.frame(view.bounds). */
  frameMesh?(mesh: TetMesh, view: MeshView): void;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export class MeshLoader {
  private latest = 0;
  private shown = 0;
  private view: MeshView | undefined;
  private mesh: TetMesh | undefined;
  private wireframe = false;
  /** Called after a new mesh is on screen (the simulation hooks in here); `imported`: it came from a file. */
  onMeshShown: ((mesh: TetMesh, view: MeshView, source: string, imported: boolean) => void) | undefined;

  constructor(private readonly parts: MeshLoaderParts) {}

  get currentMesh(): TetMesh | undefined {
    return this.mesh;
  }

  get currentView(): MeshView | undefined {
    return this.view;
  }

  /** Serial number of the mesh on screen (0 before the first), for the render hook. */
  get shownSerial(): number {
    return this.shown;
  }

  setWireframe(on: boolean): void {
    this.wireframe = on;
    if (this.view) this.view.wireframe = on;
    this.parts.viewer.requestRender();
  }

  generate(request: ShapeRequest): Promise<void> {
    const { progress } = this.parts;
    return this.runJob(`Generating ${request.shape}`, false, (api) =>
      api.generate(
        request.shape,
        request.params,
        request.resolution,
        Comlink.proxy((fraction: number) => progress.update(fraction)),
      ),
    );
  }

  importFiles(files: MeshFileText[]): Promise<void> {
    const names = files.map((f) => f.name).join(' + ');
    return this.runJob(`Reading ${names}`, true, (api) => api.parse(files));
  }

  private async runJob(label: string, imported: boolean, job: (api: Comlink.Remote<MeshWorkerApi>) => Promise<MeshJobResult>): Promise<void> {
    const { pool, banner, progress } = this.parts;
    const ticket = ++this.latest;
    progress.start(label);
    try {
      const result = await pool.run(job);
      if (ticket !== this.latest) return; // a newer request superseded this one
      banner.clear();
      this.show(result, ticket, imported);
      if (result.warnings.length > 0) console.warn(`${result.stats.source}:\n${result.warnings.join('\n')}`);
    } catch (error) {
      if (ticket !== this.latest) return;
      banner.show(messageOf(error));
      console.error(error);
    } finally {
      if (ticket === this.latest) progress.done();
    }
  }

  private show(result: MeshJobResult, serial: number, imported: boolean): void {
    const { viewer, stats } = this.parts;
    const view = new MeshView(result.mesh);
    view.wireframe = this.wireframe;
    this.view?.dispose();
    view.addTo(viewer.scene);
    if (this.parts.frameMesh) this.parts.frameMesh(result.mesh, view);
    else viewer.frame(view.bounds);
    this.view = view;
    this.mesh = result.mesh;
    this.shown = serial;
    stats.show(result.stats);
    this.onMeshShown?.(result.mesh, view, result.stats.source, imported);
    viewer.requestRender();
  }
}
