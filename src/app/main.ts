/**
 * The page's entry point: acquires the GPU (or explains why not), starts the renderer on the
 * same device, the mesh worker pool, the GUI and file import, and shows the first object.
 */
import { acquireGpu, GpuUnavailableError, type GpuContext } from '../gpu/device';
import { browserPoolWorker, WorkerPool } from '../workers/workerPool';
import type { MeshWorkerApi } from '../workers/meshWorkerApi';
import { showDeviceLost } from './deviceLostNotice';
import { installFileImport } from './fileImport';
import { createGuiPanel } from './guiPanel';
import { MeshLoader } from './meshLoader';
import { ErrorBanner, ProgressIndicator, showNoWebGpu } from './notices';
import { createPageHandle } from './pageHandle';
import { createViewer, type Viewer } from './renderer';
import { SimStatusView } from './simStatusView';
import { SimulationController } from './simulationController';
import { createSimulationPanel } from './simulationPanel';
import { readSimUrlOptions, type SimUrlOptions } from './simUrlOptions';
import { StatsPanel } from './statsPanel';
import { readUrlOptions, type UrlOptions } from './urlOptions';
import './simulation.css';

async function acquireOrExplain(banner: ErrorBanner, onLost: (reason: string) => void): Promise<GpuContext | undefined> {
  try {
    return await acquireGpu({
      onLost: (reason) => {
        banner.show(`The GPU device was lost: ${reason}. Reload the page.`, { sticky: true });
        onLost(reason);
      },
    });
  } catch (error) {
    if (error instanceof GpuUnavailableError) {
      showNoWebGpu(error.message);
      return undefined;
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const banner = new ErrorBanner();
  const progress = new ProgressIndicator();
  const stats = new StatsPanel();

  let options: UrlOptions = {};
  let simOptions: SimUrlOptions = { run: false, engine: 'auto', params: {}, material: {} };
  try {
    options = readUrlOptions(window.location.search);
    simOptions = readSimUrlOptions(window.location.search);
  } catch (error) {
    banner.show((error as Error).message, { sticky: true });
  }

  let simulation: SimulationController | undefined;
  const gpu = await acquireOrExplain(banner, (reason) => {
    simulation?.halt();
    showDeviceLost(reason);
  });
  if (gpu) document.body.dataset.webgpu = 'available';

  const container = document.getElementById('viewport');
  if (!container) throw new Error('index.html is missing the element #viewport');
  let viewer: Viewer;
  try {
    // Without WebGPU, three's WebGL 2 backend still draws the meshes (no simulation).
    viewer = await createViewer(container, gpu?.device);
  } catch (error) {
    if (!gpu) return; // no WebGPU and no WebGL either: the notice already says why
    throw error;
  }
  container.dataset.backend = viewer.backend;

  const pool = new WorkerPool<MeshWorkerApi>(() =>
    browserPoolWorker(new Worker(new URL('../workers/meshWorker.ts', import.meta.url), { type: 'module', name: 'mesh-worker' })),
  );
  window.addEventListener('pagehide', () => pool.terminate());
  const loader = new MeshLoader({ pool, viewer, stats, banner, progress });
  const sim = new SimulationController({ gpu, viewer, banner, status: new SimStatusView(), engine: simOptions.engine }, simOptions);
  simulation = sim;

  // Tests and the screenshot script wait for data-drawn-serial to equal data-shown-serial:
  // it is set only after a frame containing that mesh has been rendered.
  loader.onMeshShown = (mesh, view) => {
    viewer.onBeforeRender = undefined; // a GPU position link belongs to the previous mesh
    sim.meshShown(mesh, view); // the new object replaces the simulated one (and may link its buffer)
    container.dataset.shownSerial = String(loader.shownSerial);
  };
  window.softBodyPage = createPageHandle(gpu, viewer, loader, sim);
  viewer.onAfterRender = () => {
    const serial = String(loader.shownSerial);
    if (container.dataset.drawnSerial !== serial) container.dataset.drawnSerial = serial;
  };

  const catalog = await pool.run((api) => api.catalog());
  let initial = options;
  if (options.shape !== undefined && !catalog.some((s) => s.name === options.shape)) {
    banner.show(`Unknown shape "${options.shape}" in the URL; known shapes: ${catalog.map((s) => s.name).join(', ')}`, { sticky: true });
    initial = { ...options, shape: undefined };
  }
  const fileImport = installFileImport((files) => void loader.importFiles(files));
  const panel = createGuiPanel(catalog, initial, {
    generate: (request) => void loader.generate(request),
    importFile: () => fileImport.open(),
    setWireframe: (on) => loader.setWireframe(on),
  });
  createSimulationPanel(panel.gui, sim);
  await loader.generate(panel.current());
  if (simOptions.run) void sim.run();
}

main().catch((error: unknown) => {
  console.error(error);
  const banner = document.getElementById('error-banner');
  const text = banner?.querySelector('.message');
  if (banner && text) {
    text.textContent = `The page failed to start: ${error instanceof Error ? error.message : String(error)}`;
    banner.hidden = false;
  }
});
