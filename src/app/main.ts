/**
 * The page's entry point: reads the configuration from the URL (hash, or the older query
 * keys), acquires the GPU (or explains what still works without it), starts the renderer on
 * the same device, the mesh worker pool, the panel (Help, Scene, Mesh scene, Simulation, View,
 * Record frame timings), file import, the keys and the first scene, chosen for the adapter
 * (scene/adapterDefaults.ts) when the link names none.
 */
import GUI from 'lil-gui';
import { Box3, Vector3 } from 'three/webgpu';
import { acquireGpu, GpuUnavailableError, isSoftwareAdapter, type GpuContext } from '../gpu/device';
import { dropPlacement } from '../scenes/meshDrop';
import type { SceneMesh } from '../scenes/types';
import { browserPoolWorker, WorkerPool } from '../workers/workerPool';
import type { MeshWorkerApi } from '../workers/meshWorkerApi';
import { reportClamps } from './clampNotices';
import { decodeHash, encodeHash } from './config/hashConfig';
import { defaultPageConfig, MESH_SCENE, type PageConfig } from './config/pageConfig';
import { showDeviceLost } from './deviceLostNotice';
import { gpuSolverAvailable } from './engineFactory';
import { installFileImport } from './fileImport';
import { createHelpOverlay } from './helpOverlay';
import { installKeys } from './keyboard';
import { MeshLoader } from './meshLoader';
import { createMeshScenePanel } from './meshScenePanel';
import { ErrorBanner, ProgressIndicator, showNoWebGpu } from './notices';
import { createPageHandle } from './pageHandle';
import { createMoveControls } from './interaction/moveControls';
import { installMouseGrab } from './interaction/mouseGrab';
import { OverlayFeed } from './overlayFeed';
import { PerfPanel } from './perfPanel';
import { createRecorderPanel } from './recorder/recorderPanel';
import type { RecordedFrame } from '../runner/reportDocument';
import type { FrameReport, SimulationEngine } from './simulationEngine';
import { createViewer, type Viewer } from './renderer';
import { meshSceneDefaults } from './scene/adapterDefaults';
import { createSceneDrawing, type PageDrawing } from './sceneDrawingFactory';
import { createScenePanel } from './scenePanel';
import { SimStatusView } from './simStatusView';
import { SimulationController } from './simulationController';
import { buttonOf, createSimulationPanel } from './simulationPanel';
import { readSimUrlOptions } from './simUrlOptions';
import { StatsPanel } from './statsPanel';
import { readUrlOptions } from './urlOptions';
import { createViewPanel } from './viewPanel';
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

/** The configuration: the hash when it names a scene, else the older query keys (mesh scene). */
function readConfig(banner: ErrorBanner): PageConfig {
  try {
    if (new URLSearchParams(window.location.hash.slice(1)).has('scene')) return decodeHash(window.location.hash, MESH_SCENE);
    const config = defaultPageConfig(MESH_SCENE);
    const shape = readUrlOptions(window.location.search);
    const sim = readSimUrlOptions(window.location.search);
    config.run = sim.run;
    config.engine = sim.engine;
    config.params = sim.params;
    if (Object.keys(sim.material).length > 0) config.materials[0] = sim.material;
    config.mesh.shape = shape.shape;
    config.mesh.resolution = shape.resolution;
    return config;
  } catch (error) {
    banner.show((error as Error).message, { sticky: true });
    return defaultPageConfig(MESH_SCENE);
  }
}


async function main(): Promise<void> {
  const banner = new ErrorBanner();
  const say = (message: string): void => banner.show(message);
  const progress = new ProgressIndicator();
  const stats = new StatsPanel();
  const config = readConfig(banner);

  let simulation: SimulationController | undefined;
  const gpu = await acquireOrExplain(banner, (reason) => {
    simulation?.halt();
    showDeviceLost(reason);
  });
  if (gpu) document.body.dataset.webgpu = 'available';
  // Small scenes, one frame in flight and no multisampling where the GPU is emulated on the CPU, or absent.
  const softwareAdapter = gpu === undefined || isSoftwareAdapter(gpu);

  const container = document.getElementById('viewport');
  if (!container) throw new Error('index.html is missing the element #viewport');
  let viewer: Viewer;
  try {
    // Without WebGPU, three's WebGL 2 backend still draws, and the CPU engine simulates.
    viewer = await createViewer(container, gpu?.device, { antialias: !softwareAdapter });
  } catch (error) {
    if (!gpu) return; // no WebGPU and no WebGL either: the notice already says why
    throw error;
  }
  container.dataset.backend = viewer.backend;

  const pool = new WorkerPool<MeshWorkerApi>(() =>
    browserPoolWorker(new Worker(new URL('../workers/meshWorker.ts', import.meta.url), { type: 'module', name: 'mesh-worker' })),
  );
  window.addEventListener('pagehide', () => pool.terminate());
  // Small first scene where frames are emulated on the CPU (software adapter, or the CPU engine).
  const small = softwareAdapter || config.engine === 'cpu' || !gpuSolverAvailable(gpu, viewer);
  const meshDefaults = meshSceneDefaults(small);
  document.body.dataset.defaults = small ? 'small' : 'gpu';

  const loader = new MeshLoader({
    pool,
    viewer,
    stats,
    banner,
    progress,
    // A mesh is shown at the pose it will be dropped from, over its ground, all of it in view.
    frameMesh: (mesh, view) => {
      const p = dropPlacement(mesh.positions);
      view.object.position.y = p.lift;
      view.object.castShadow = true;
      viewer.frameScene(new Box3(new Vector3(...p.bounds.min), new Vector3(...p.bounds.max)), { groundY: p.groundY });
    },
  });

  let drawing: PageDrawing | undefined;
  const fetchMesh = async (file: string): Promise<SceneMesh> => {
    const name = file.replace(/^.*[\\/]/, '');
    const response = await fetch(`/shared-meshes/${encodeURIComponent(name)}`);
    if (!response.ok) throw new Error(`the shared mesh ${name} is not served here (${response.status}: ${await response.text()})`);
    const text = await response.text();
    const result = await pool.run((api) => api.parse([{ name, text }]));
    return { name, positions: result.mesh.positions, tets: result.mesh.tets };
  };

  const info = document.getElementById('info') ?? document.body;
  let panelGenerate: (() => void) | undefined;
  const sim: SimulationController = new SimulationController(
    {
      gpu,
      viewer,
      banner,
      progress,
      status: new SimStatusView(info),
      softwareAdapter,
      fetchMesh,
      maxFramesInFlight: softwareAdapter ? 1 : 2,
      meshSceneParams: meshDefaults.params,
      createDrawing: (scene): PageDrawing => (drawing = createSceneDrawing(viewer, scene, sim.config.view)),
      frameScene: (scene) => {
        const c = sim.config;
        // The mesh scene's single object was framed at its drop pose when shown (frameMesh): keep the user's view.
        if (c.scene === MESH_SCENE && c.mesh.copies === 1) return;
        const b = scene.bounds;
        viewer.frameScene(new Box3(new Vector3(...b.min), new Vector3(...b.max)), { groundY: scene.groundY });
      },
      showMesh: () => {
        const mesh = loader.currentMesh;
        const view = loader.currentView;
        if (mesh && view) sim.meshShown(mesh, view);
        else panelGenerate?.();
      },
    },
    config,
  );
  simulation = sim;

  // Tests and the screenshot script wait for data-drawn-serial to equal data-shown-serial:
  // it is set only after a frame containing that mesh has been rendered.
  let showSource: ((source: string) => void) | undefined;
  loader.onMeshShown = (mesh, view, source, imported) => {
    viewer.onBeforeRender = undefined; // a scene's drawing belongs to the previous scene
    if (imported) sim.setMeshImported(source);
    sim.meshShown(mesh, view);
    showSource?.(source);
    container.dataset.shownSerial = String(loader.shownSerial);
  };
  window.softBodyPage = createPageHandle(gpu, viewer, loader, sim, () => drawing);
  viewer.onAfterRender = () => {
    const serial = String(loader.shownSerial);
    if (container.dataset.drawnSerial !== serial) container.dataset.drawnSerial = serial;
  };

  const catalog = await pool.run((api) => api.catalog());
  const initialShape = { shape: config.mesh.shape ?? meshDefaults.shape, resolution: config.mesh.resolution, copies: config.mesh.copies };
  if (!catalog.some((s) => s.name === initialShape.shape)) {
    banner.show(`Unknown shape "${initialShape.shape}" in the URL; known shapes: ${catalog.map((s) => s.name).join(', ')}`, { sticky: true });
    initialShape.shape = meshDefaults.shape;
    initialShape.resolution = undefined;
  }
  if (initialShape.shape === meshDefaults.shape && initialShape.resolution === undefined) initialShape.resolution = meshDefaults.resolution;
  if (config.mesh.imported !== undefined) {
    banner.show(`This link was made with the imported file ${config.mesh.imported}, which a link cannot carry: import it again (Import mesh file… or drop it on the page). The default shape is shown meanwhile.`, { kind: 'warning' });
  }
  const fileImport = installFileImport((files) => void loader.importFiles(files));

  // The panel, top to bottom: Help, Scene, Mesh scene (mesh scene only), Simulation, View, Record frame timings.
  const gui = new GUI({ title: 'Soft body' });
  const help = createHelpOverlay();
  buttonOf(gui.add({ help: () => help.toggle() }, 'help').name('Help: mouse, keys, counters (H)'), 'help-open');
  const meshDefaultsInUse = (): boolean => {
    const c = sim.config.mesh;
    return c.imported === undefined && (c.shape ?? meshDefaults.shape) === meshDefaults.shape && (c.resolution ?? meshDefaults.resolution) === meshDefaults.resolution;
  };
  const scenePanel = createScenePanel(gui, sim, {
    softwareAdapter,
    importFile: () => fileImport.open(),
    meshSceneNote: () => (meshDefaultsInUse() ? meshDefaults.note : undefined),
  });
  const meshPanel = createMeshScenePanel(gui, catalog, initialShape, {
    generate: (request) => {
      sim.setMeshShape(request.shape, request.resolution);
      void loader.generate(request);
    },
    setCopies: (n) => sim.setCopies(n),
    controlsAdded: (folder) => reportClamps(folder, say),
  });
  showSource = (source) => meshPanel.showObject(source);
  const meshStats = document.getElementById('mesh-stats');
  if (meshStats) meshPanel.attachStats(meshStats);
  panelGenerate = () => {
    const request = meshPanel.current();
    sim.setMeshShape(request.shape, request.resolution);
    void loader.generate(request);
  };
  const simPanel = createSimulationPanel(gui, sim);
  const viewPanel = createViewPanel(gui, sim, { frameView: () => viewer.reframe() });

  // Frame timings: the live chart and Table 1 (bottom left), and the recorder's folder.
  const perf = new PerfPanel();
  const recorder = createRecorderPanel(gui, {
    header: () => {
      const engine = sim.currentEngine;
      const scene = sim.currentScene;
      if (!engine || !scene) throw new Error('no scene is simulated yet: press Run or Step first');
      const m = engine.model;
      return {
        scene: sim.config.scene,
        mesh: null,
        adapter: engine.kind === 'gpu' && gpu ? gpu.description : 'CPU reference solver (float64, worker)',
        timing: engine.kind === 'gpu' && gpu?.features.has('timestamp-query') ? 'timestamp-query' : 'cpu-wall',
        params: engine.params,
        materials: m.objectNames.map((object, i) => ({ object, ...m.materials[i]! })),
        colliders: scene.setup.colliders.map((c) => c.kind),
        counts: { vertices: m.vertexCount, tets: m.tetCount, edges: m.edgeCount, tetColours: m.tetColouring.colourCount, edgeColours: m.edgeColouring.colourCount },
      };
    },
    onFinish: (report) => {
      if (report.table1) perf.showRecording(report.table1, `${report.scene}, ${report.frames.length} recorded frames`);
    },
  });
  const overlays = new OverlayFeed(() => ({ engine: sim.currentEngine, drawing, view: sim.config.view }), say);
  const move = createMoveControls(viewPanel.folder, {
    viewer,
    current: () => ({ engine: sim.currentEngine, scene: sim.currentScene }),
    say,
  });
  // Every number control says when it moved a typed value into its range or onto its step.
  reportClamps(gui, say);

  // Framing keeps the scene out of the part of the canvas the panel covers.
  const updateInsets = (): void => viewer.setInsets({ right: gui._closed ? 0 : gui.domElement.getBoundingClientRect().width + 8 });
  updateInsets();
  gui.onOpenClose((changed) => {
    if (changed === gui) updateInsets();
  });
  window.addEventListener('resize', updateInsets);

  sim.onEngine = (engine) => {
    move.refresh();
    overlays.apply();
    perf.reset(sim.config.scene, { vertices: engine.model.vertexCount, tets: engine.model.tetCount }, engine.params);
  };
  sim.onFrame = (report: FrameReport, engine: SimulationEngine) => {
    const entry: RecordedFrame = {
      frame: engine.frame,
      time: engine.time,
      wallMs: report.wallMs,
      phasesMs: report.phases,
      counters: report.counters,
      ...(report.collisions ? { collisions: report.collisions } : {}),
      renderMs: viewer.lastRenderMs,
    };
    perf.push(entry, engine.params, sim.timingSummary);
    recorder.recorder.add(entry, engine.params);
    overlays.refresh();
  };
  sim.onActivity = () => simPanel.refresh();

  // Every change: the panels show it, the drawing applies the view, and the hash records it.
  sim.onChange = () => {
    const c = sim.config;
    scenePanel.refresh();
    meshPanel.refresh({ meshScene: c.scene === MESH_SCENE, copies: c.mesh.copies });
    simPanel.refresh();
    viewPanel.refresh();
    // The mesh statistics describe the mesh scene's object only.
    if (meshStats) meshStats.hidden = c.scene !== MESH_SCENE;
    drawing?.applyView(c.view);
    loader.setWireframe(c.view.wireframe);
    overlays.apply();
    const hash = encodeHash(c);
    if (window.location.hash !== hash) history.replaceState(null, '', `${window.location.pathname}${window.location.search}${hash}`);
  };
  // Shift + drag on an object grabs a vertex (plain drags orbit).
  installMouseGrab({ viewer, current: () => ({ engine: sim.currentEngine, drawing }), say });
  installKeys({
    toggleRun: () => sim.toggle(),
    step: () => void sim.step(),
    reset: () => void sim.reset(),
    frameView: () => viewer.reframe(),
    toggleHelp: () => help.toggle(),
    closeHelp: () => help.hide(),
  });

  // A link pasted over this one: build what it says.
  window.addEventListener('hashchange', () => {
    if (window.location.hash !== encodeHash(sim.config)) window.location.reload();
  });

  sim.onChange();
  if (config.scene === MESH_SCENE) {
    await loader.generate(meshPanel.current());
    if (sim.takeAutoRun()) void sim.run();
  } else {
    await sim.showScene(config.scene, config.size);
  }
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
