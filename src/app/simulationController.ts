/**
 * Runs the page's scene: which scene is on screen (a registry scene at a size, or the mesh
 * scene: the shape or imported mesh on screen, dropped), run, pause, single step, reset,
 * parameter and material changes, the scene's scheduled parameter changes, the live readout
 * and the error banner for objects stopped by NaN/Inf.
 *
 * A registry scene is built as soon as it is chosen (it is what the user came to see); the
 * mesh scene is built lazily, on the first run or step after a mesh is shown, so merely looking
 * at meshes never pays for a solver. A new scene replaces the simulation; if it was running,
 * the new one starts running at once.
 *
 * Stepping is driven by its own requestAnimationFrame loop, one submission per display frame: a
 * frame that takes longer than the display interval slows the simulation down instead of queueing
 * work. An engine that can keep frames in flight (the GPU engine's submitFrame) gets the next frame
 * submitted while fewer than MAX_PAGE_FRAMES_IN_FLIGHT are outstanding, so the GPU never idles
 * while the page reads a frame back or records the next; each frame's report is handled when it
 * lands (in order). Single steps, resets and scene changes wait for the frames in flight first.
 * On a software adapter one frame at most is in flight (maxFramesInFlight): the GPU is the CPU,
 * so a second queued frame gains nothing and would make Pause wait for it.
 *
 * What the page is doing (`activity`): building, running, pausing (Pause was pressed; the frames
 * in flight finish, none is submitted), stepping, resetting, paused, or idle (nothing built).
 * Each frame's wall time (FrameReport.wallMs, what the readouts and the recorder show) is the
 * time per simulated frame: while running, from the previous frame landing to this one landing
 * (so frames per second = 1000 / frame time, whatever the frames in flight); for a single step
 * or the first frame of a run, from its submission to its results.
 */
import type { GpuContext } from '../gpu/device';
import type { TetMesh } from '../mesh/types';
import { findScene, type SceneMesh } from '../scenes/registry';
import { sizeProblem } from '../scenes/size';
import type { Material } from '../sim/material';
import { checkParams, defaultParams, type SolverParams } from '../contract/params';
import { suggestedMaterial } from '../scenes/meshDrop';
import { materialResolution } from '../sim/resolution';
import { shortestTetEdge } from '../mesh/shortestTetEdge';
import { contactOffsetNote } from '../collision/contactOffset';
import { MESH_SCENE, type EngineChoice, type PageConfig, type ViewSettings } from './config/pageConfig';
import { createEngine, gpuSolverAvailable } from './engineFactory';
import { FrameTimings, type TimingSummary } from './frameTimings';
import type { MeshView } from './meshView';
import type { ErrorBanner, ProgressIndicator } from './notices';
import type { Viewer } from './renderer';
import { buildPageScene, heightOf, MESH_SCENE_DEFAULTS, type PageScene, type PageSceneSource, type SceneOverrides } from './scene/pageScene';
import type { SceneDrawing } from './scene/sceneDrawing';
import type { SimStatusView } from './simStatusView';
import type { FrameReport, SimulationEngine } from './simulationEngine';

/** A scene's drawing as the controller owns it. */
export interface OwnedDrawing extends SceneDrawing {
  dispose(): void;
}

/** Frames the page keeps submitted and not yet landed (GpuSolver's ring holds two). */
export const MAX_PAGE_FRAMES_IN_FLIGHT = 2;

/** What the controller is doing (the status line shows it; tests read data-activity). */
export type Activity = 'idle' | 'building' | 'running' | 'pausing' | 'stepping' | 'resetting' | 'paused';

export interface SimulationParts {
  gpu: GpuContext | undefined;
  viewer: Viewer;
  banner: ErrorBanner;
  status: SimStatusView;
  progress?: ProgressIndicator;
  /** Makes the drawing of a built scene (one three.js mesh per object, colliders, ground). */
  createDrawing(scene: PageScene): OwnedDrawing;
  /** Points the camera at a newly shown scene (never called while it runs). */
  frameScene(scene: PageScene): void;
  /** Fetches a shared mesh file by its base name (scenes with meshFiles). */
  fetchMesh?(file: string): Promise<SceneMesh>;
  /** True on a software adapter (the page picks each scene's small size there). */
  softwareAdapter?: boolean;
  /** Puts the mesh scene's mesh back on screen (the loader's current mesh, or a new one); it calls meshShown. */
  showMesh?: () => void;
  /** Frames kept in flight while running (default MAX_PAGE_FRAMES_IN_FLIGHT; 1 on software adapters). */
  maxFramesInFlight?: number;
  /** Solver parameters the mesh scene starts from on this adapter (on top of MESH_SCENE_DEFAULTS, under the user's). */
  meshSceneParams?: Partial<SolverParams>;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The scene's size the page uses when the link gives none: the small one on a software adapter or the CPU engine. */
export function defaultSizeOf(name: string, small: boolean): number | undefined {
  if (name === MESH_SCENE) return undefined;
  const size = findScene(name).size;
  if (!size) return undefined;
  return small ? size.small : size.default;
}

export class SimulationController {
  private engine: SimulationEngine | undefined;
  private drawing: OwnedDrawing | undefined;
  private scene: PageScene | undefined;
  private source: PageSceneSource | undefined;
  /** The engine being built for the scene, if any. */
  private building: Promise<boolean> | undefined;
  /** Counts scenes shown; an engine finished for an older scene is thrown away. */
  private sceneSerial = 0;
  /** The mesh scene's mesh and its view (the loader's), while the mesh scene is chosen. */
  private mesh: TetMesh | undefined;
  private meshView: MeshView | undefined;
  private shortestEdge = 0;
  /** Parameters at frame 0: the scene's with the user's on top (the schedule starts from these). */
  private baseParams: SolverParams | undefined;
  private running = false;
  /** A frame is being stepped one at a time (engines without submitFrame, single steps), or one is being submitted. */
  private busy = false;
  /** Frames submitted by the pipelined loop whose reports have not landed yet (the current engine's). */
  private inFlight = 0;
  private stopped = false;
  private stepping = false;
  private resetting = false;
  /** Resets asked for that have not finished (some may still wait for frames in flight). */
  private resetsPending = 0;
  /** Start running once the first scene is built (the link's run=1), taken once. */
  private autoRun: boolean;
  /** When the previous frame of the current run landed (performance.now), for the frame's wall time. */
  private lastLanded: number | undefined;
  /** Submission times of the frames in flight, oldest first. */
  private readonly submittedAt: number[] = [];
  private readonly maxInFlight: number;
  private readonly timings = new FrameTimings(30);
  /** The configuration a link reproduces (scene, size, the user's parameters and materials, view). */
  private configValue: PageConfig;
  /** Called whenever run state, scene, parameters or material change (the panel refreshes, the hash is written). */
  onChange: (() => void) | undefined;
  /** Called after each frame with its report (recorder, chart). */
  onFrame: ((report: FrameReport, engine: SimulationEngine) => void) | undefined;
  /** Called when a new engine is ready (overlays, the recorder's header). */
  onEngine: ((engine: SimulationEngine, scene: PageScene) => void) | undefined;
  /** Called when `activity` changed (the Run button reads "Pausing…" while frames finish). */
  onActivity: ((activity: Activity) => void) | undefined;
  private lastActivity: Activity | undefined;

  constructor(
    private readonly parts: SimulationParts,
    config: PageConfig,
  ) {
    this.configValue = structuredClone(config);
    this.autoRun = config.run;
    this.configValue.run = false;
    this.maxInFlight = parts.maxFramesInFlight ?? MAX_PAGE_FRAMES_IN_FLIGHT;
    if (!(Number.isInteger(this.maxInFlight) && this.maxInFlight >= 1 && this.maxInFlight <= MAX_PAGE_FRAMES_IN_FLIGHT)) {
      throw new RangeError(`maxFramesInFlight must be an integer in [1, ${MAX_PAGE_FRAMES_IN_FLIGHT}], got ${this.maxInFlight}`);
    }
    const loop = (): void => {
      if (this.stopped) return;
      // Fewer while the engine has each frame wait for a CCD job from the frame before it (ccdJobLatency auto).
      if (this.running && !this.busy && this.engine && this.inFlight < Math.min(this.maxInFlight, this.engine.framesInFlightWanted ?? this.maxInFlight)) void this.advance();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  /** What a link reproduces: `run` is true only while running (or about to, for a link's run=1). */
  get config(): PageConfig {
    const config = structuredClone(this.configValue);
    config.run = this.running || this.autoRun;
    return config;
  }

  get isRunning(): boolean {
    return this.running;
  }

  get activity(): Activity {
    if (this.building) return 'building';
    if (this.resetting) return 'resetting';
    if (this.running) return 'running';
    if (this.stepping) return 'stepping';
    if (this.busy || this.inFlight > 0) return 'pausing';
    return this.engine ? 'paused' : 'idle';
  }

  /** Since when (performance.now) the GPU or the worker has been on the current frame, or undefined when no frame is under way. */
  get frameUnderWaySince(): number | undefined {
    if (this.submittedAt.length === 0) return undefined;
    return Math.max(this.submittedAt[0]!, this.lastLanded ?? -Infinity);
  }

  /** The readouts' figures over the last frames (the status line and the timing panel show the same). */
  get timingSummary(): TimingSummary {
    return this.timings.summary();
  }

  /** Frames kept in flight while running. */
  get framesInFlightLimit(): number {
    return this.maxInFlight;
  }

  /** The engine that runs the scene ('gpu' or 'cpu'), undefined before the first is built. */
  get engineKind(): 'gpu' | 'cpu' | undefined {
    return this.engine?.kind;
  }

  /** The parameters the next frame uses (the scene's with the user's changes). */
  get params(): SolverParams {
    const p = this.engine?.params ?? this.baseParams ?? this.scene?.setup.params;
    if (!p) return this.unbuiltParams();
    return { ...p, gravity: [...p.gravity] };
  }

  /** Object names and materials of the scene on screen (empty before one is built). */
  get objects(): { name: string; material: Material }[] {
    const model = this.engine?.model ?? this.scene?.setup.model;
    if (!model) {
      if (!this.mesh) return [];
      // The mesh scene before its build: the material it will get (suggested for its height, the user's fields on top).
      const g = this.unbuiltParams().gravity[1];
      return [{ name: 'object', material: { ...suggestedMaterial(heightOf(this.mesh.positions), g), ...this.configValue.materials[0] } }];
    }
    return model.objectNames.map((name, i) => ({ name, material: { ...model.materials[i]! } }));
  }

  get frame(): number {
    return this.engine?.frame ?? 0;
  }

  get currentEngine(): SimulationEngine | undefined {
    return this.engine;
  }

  get currentScene(): PageScene | undefined {
    return this.scene;
  }

  /** Whether the page will (or does) simulate on the CPU reference engine. */
  get cpuEngine(): boolean {
    if (this.engine) return this.engine.kind === 'cpu';
    return this.configValue.engine === 'cpu' || !gpuSolverAvailable(this.parts.gpu, this.parts.viewer);
  }

  /** Shows a registry scene at `size` (undefined: the page's default for this adapter) and builds it. */
  async showScene(name: string, size?: number): Promise<boolean> {
    const def = findScene(name); // throws naming the known scenes
    const chosen = size ?? defaultSizeOf(name, this.parts.softwareAdapter === true || this.cpuEngine);
    const problem = chosen === undefined ? undefined : sizeProblem(name, def.size, chosen);
    if (problem) {
      this.refuse(problem);
      return false;
    }
    const wasRunning = this.running;
    this.disposeEngine();
    this.sceneSerial += 1;
    this.configValue.scene = name;
    this.configValue.size = size;
    if (this.meshView) this.meshView.object.visible = false;
    this.mesh = undefined;
    this.meshView = undefined;
    const serial = this.sceneSerial;
    let meshes: Record<string, SceneMesh> | undefined;
    try {
      if (def.meshFiles) {
        if (!this.parts.fetchMesh) throw new Error('this page cannot fetch mesh files');
        meshes = {};
        for (const [key, file] of Object.entries(def.meshFiles)) meshes[key] = await this.parts.fetchMesh(file);
      }
    } catch (error) {
      this.parts.banner.show(`The scene ${name} cannot be built: ${messageOf(error)}`);
      return false;
    }
    if (serial !== this.sceneSerial) return false;
    this.source = { kind: 'registry', name, size: chosen, meshes };
    this.onChange?.();
    const ok = await this.ensureEngine();
    if (ok && (wasRunning || this.takeAutoRun())) await this.run();
    return ok;
  }

  /** True once, when the link asked to start running (run=1). */
  takeAutoRun(): boolean {
    const run = this.autoRun;
    this.autoRun = false;
    return run;
  }

  /** The size the registry scene on screen was built at (undefined for the mesh scene). */
  get sceneSize(): number | undefined {
    return this.source?.kind === 'registry' ? this.source.size : undefined;
  }

  /** Back to the mesh scene (the shape or imported mesh). */
  showMeshScene(): void {
    this.parts.showMesh?.();
  }

  /** A value the page cannot use: say why, and let the panel show the value in use again. */
  refuse(message: string): void {
    this.parts.banner.show(message);
    this.onChange?.();
  }

  /** Hook for MeshLoader.onMeshShown: the new mesh becomes the mesh scene's object (built on run). */
  meshShown(mesh: TetMesh, view: MeshView): void {
    const wasRunning = this.running;
    this.disposeEngine();
    this.sceneSerial += 1;
    this.configValue.scene = MESH_SCENE;
    this.configValue.size = undefined;
    this.mesh = mesh;
    this.meshView = view;
    view.object.visible = true;
    this.shortestEdge = shortestTetEdge(mesh.positions, mesh.tets);
    this.source = {
      kind: 'mesh',
      name: 'object',
      positions: mesh.positions,
      tets: mesh.tets,
      copies: this.configValue.mesh.copies,
      defaults: { ...this.parts.meshSceneParams },
    };
    this.scene = undefined;
    this.timings.clear();
    this.publish();
    if (wasRunning) void this.run();
    this.onChange?.();
  }

  /** The generated shape the mesh scene shows (recorded for the link; an imported file cannot be). */
  setMeshShape(shape: string, resolution: number): void {
    this.configValue.mesh.shape = shape;
    this.configValue.mesh.resolution = resolution;
    this.configValue.mesh.imported = undefined;
  }

  /** The mesh scene shows a file's mesh: the link names the file (it cannot carry it) instead of a shape it no longer shows. */
  setMeshImported(name: string): void {
    this.configValue.mesh.imported = name;
    this.configValue.mesh.shape = undefined;
    this.configValue.mesh.resolution = undefined;
  }

  /** Copies of the mesh scene's object dropped into a box (1: dropped on the ground). */
  setCopies(copies: number): void {
    if (!(Number.isInteger(copies) && copies >= 1)) {
      this.parts.banner.show(`copies must be an integer >= 1, got ${copies}`);
      this.onChange?.();
      return;
    }
    this.configValue.mesh.copies = copies;
    if (this.mesh && this.meshView) this.meshShown(this.mesh, this.meshView);
  }

  /** Runs from the current state (building the scene first if needed). */
  async run(): Promise<void> {
    if (!this.running && this.inFlight === 0) this.lastLanded = undefined;
    this.autoRun = false;
    this.running = true;
    this.onChange?.();
    if (!(await this.ensureEngine())) this.running = false;
    this.publish();
    this.onChange?.();
  }

  pause(): void {
    this.running = false;
    this.publish();
    this.onChange?.();
  }

  toggle(): void {
    if (this.running) this.pause();
    else void this.run();
  }

  /** Pauses and advances exactly one frame. */
  async step(): Promise<void> {
    this.running = false;
    this.autoRun = false;
    this.onChange?.();
    if (!(await this.ensureEngine())) return;
    await this.idleAndFree();
    this.lastLanded = undefined;
    this.stepping = true;
    try {
      await this.stepOnce();
    } finally {
      this.stepping = false;
      this.publish();
    }
  }

  /** Back to the starting pose, paused, with the parameters of frame 0. */
  async reset(): Promise<void> {
    this.running = false;
    this.onChange?.();
    const engine = this.engine;
    if (!engine) return;
    // Counted from the click, not from when the frames in flight have landed: settled() must not
    // report a quiet page (and its pre-reset frame number) while this reset still waits its turn.
    this.resetsPending += 1;
    try {
      await this.idleAndFree(); // let the frames in flight land first
      if (engine !== this.engine) return;
      // Busy until the reset state is in place: a step or run asked for meanwhile (idle() waits on
      // busy) then starts from frame 0 instead of landing in the middle of the reset.
      this.busy = true;
      this.resetting = true;
      this.publish();
      try {
        await engine.reset();
        if (this.baseParams) engine.setParams(this.baseParams);
      } catch (error) {
        this.fail(error);
        return;
      } finally {
        this.busy = false;
        this.resetting = false;
      }
    } finally {
      this.resetsPending -= 1;
    }
    this.lastLanded = undefined;
    this.timings.clear();
    this.publish();
    this.onChange?.();
  }

  /** Changes parameters from the next frame on; a value the solver cannot use is refused with a message. */
  setParams(changes: Partial<SolverParams>): boolean {
    const current = this.params;
    const next: SolverParams = { ...current, ...changes, gravity: [...(changes.gravity ?? current.gravity)] };
    try {
      checkParams(next);
    } catch (error) {
      this.parts.banner.show(messageOf(error));
      this.onChange?.();
      return false;
    }
    Object.assign(this.configValue.params, changes);
    // The GPU solver uploads the partition's cells when it is built (SolverParams.partitionBalance):
    // a new pass rule builds the scene's engine again, from its start.
    if (next.partitionBalance !== current.partitionBalance && this.engine?.kind === 'gpu') {
      void this.rebuildEngine();
      this.onChange?.();
      return true;
    }
    if (this.baseParams) this.baseParams = { ...this.baseParams, ...changes, gravity: [...next.gravity] };
    this.engine?.setParams(next);
    this.timings.clear();
    this.warnIfUnresolved(0);
    if (changes.contactOffset !== undefined) {
      const offsetNote = contactOffsetNote(next.contactOffset, this.shortestEdge);
      if (offsetNote) this.parts.banner.show(offsetNote, { kind: 'warning' });
    }
    this.onChange?.();
    return true;
  }

  /** Builds the scene on screen and its engine again with the page's parameters (running again if it was). */
  private async rebuildEngine(): Promise<void> {
    const wasRunning = this.running;
    this.disposeEngine();
    this.sceneSerial += 1;
    this.onChange?.();
    const ok = await this.ensureEngine();
    if (ok && wasRunning) await this.run();
  }

  /** Changes object `object`'s material; the fields given stay set (for later meshes of the mesh scene too). */
  setMaterial(object: number, changes: Partial<Material>): boolean {
    const current = this.objects[object]?.material;
    if (!current) {
      // Nothing built yet (mesh scene before its first run): keep the fields for the build.
      this.configValue.materials[object] = { ...this.configValue.materials[object], ...changes };
      this.onChange?.();
      return true;
    }
    const next = { ...current, ...changes };
    try {
      if (this.engine) this.engine.setMaterial(object, next);
      else if (this.scene) {
        const model = this.scene.setup.model;
        model.materials[object] = next;
      }
    } catch (error) {
      this.parts.banner.show(messageOf(error));
      this.onChange?.();
      return false;
    }
    this.configValue.materials[object] = { ...this.configValue.materials[object], ...changes };
    this.warnIfUnresolved(object);
    this.onChange?.();
    return true;
  }

  setView(changes: Partial<ViewSettings>): void {
    this.configValue.view = { ...this.configValue.view, ...changes };
    this.onChange?.();
  }

  setEngineChoice(choice: EngineChoice): void {
    this.configValue.engine = choice;
    this.rebuild();
  }

  /** Builds the current scene again with the current configuration (after an engine change). */
  rebuild(): void {
    if (this.configValue.scene === MESH_SCENE) {
      if (this.mesh && this.meshView) this.meshShown(this.mesh, this.meshView);
    } else {
      void this.showScene(this.configValue.scene, this.configValue.size);
    }
  }

  /** Resolves once no frame is in flight and no scene is being built (tests, the console). */
  async settled(): Promise<void> {
    while (this.busy || this.inFlight > 0 || this.building || this.resetsPending > 0) {
      await new Promise((r) => requestAnimationFrame(r));
    }
  }

  /** Resolves once no frame is being stepped, submitted or in flight. */
  private async idle(): Promise<void> {
    while (this.busy || this.inFlight > 0) await new Promise((r) => requestAnimationFrame(r));
  }

  /**
   * Like idle(), but also free when the caller resumes: a reset and a step waiting on the same
   * animation frame both see idle, and the first to resume takes `busy`; the other waits again
   * instead of being dropped.
   */
  private async idleAndFree(): Promise<void> {
    do await this.idle();
    while (this.busy || this.inFlight > 0);
  }

  /** Stops stepping for good (device lost). */
  halt(): void {
    this.running = false;
    this.stopped = true;
    this.onChange?.();
  }

  /** Before the mesh scene is built: the mesh scene's parameters (this adapter's) with the user's on top. */
  private unbuiltParams(): SolverParams {
    return defaultParams({ ...MESH_SCENE_DEFAULTS, ...this.parts.meshSceneParams, ...this.configValue.params });
  }

  /**
   * Every positive Young's modulus is stable, but one stiffer than the substeps and iterations
   * resolve acts softer than set: say so, with the settings that would resolve it.
   */
  private warnIfUnresolved(object: number): void {
    const material = this.objects[object]?.material;
    if (!material || !(this.shortestEdge > 0)) return;
    const { warning } = materialResolution(material, this.shortestEdge, { ...this.params, objects: this.objects.length });
    if (warning) this.parts.banner.show(warning, { kind: 'warning' });
  }

  /** Builds the scene and its engine; false (banner shown) when it cannot. */
  private ensureEngine(): Promise<boolean> {
    if (this.engine) return Promise.resolve(true);
    if (this.building) return this.building;
    if (this.stopped) return Promise.resolve(false);
    const source = this.source;
    if (!source) {
      this.parts.banner.show('Nothing to simulate yet: wait until a scene or mesh is on screen.');
      return Promise.resolve(false);
    }
    const serial = this.sceneSerial;
    const build = async (): Promise<boolean> => {
      const overrides: SceneOverrides = structuredClone({ params: this.configValue.params, materials: this.configValue.materials });
      let scene: PageScene;
      let drawing: OwnedDrawing | undefined;
      let engine: SimulationEngine;
      this.parts.progress?.start(`building ${source.kind === 'registry' ? source.name : 'the mesh scene'} (first time on this page: compiling the GPU kernels)`);
      this.publish();
      await new Promise((r) => setTimeout(r, 0)); // let the progress label paint before the (synchronous) build
      try {
        scene = buildPageScene(source, overrides);
        if (serial !== this.sceneSerial) return false;
        drawing = this.parts.createDrawing(scene);
        engine = await createEngine({
          source,
          overrides,
          scene,
          drawing,
          gpu: this.parts.gpu,
          viewer: this.parts.viewer,
          choice: this.configValue.engine,
        });
      } catch (error) {
        drawing?.dispose();
        if (serial !== this.sceneSerial) return false;
        this.parts.banner.show(`The scene cannot be simulated: ${messageOf(error)}`);
        console.error(error);
        return false;
      } finally {
        this.parts.progress?.done();
      }
      if (serial !== this.sceneSerial || this.stopped) {
        engine.dispose(); // a newer scene replaced this one while it was being built
        drawing.dispose();
        return false;
      }
      if (this.meshView) this.meshView.object.visible = false;
      this.engine = engine;
      this.drawing = drawing;
      this.scene = scene;
      // Parameters the user changed while the scene was being built (the build took the earlier ones).
      const latest: SolverParams = { ...engine.params, ...this.configValue.params };
      latest.gravity = [...(this.configValue.params.gravity ?? engine.params.gravity)];
      if (JSON.stringify(latest) !== JSON.stringify(engine.params)) {
        try {
          engine.setParams(latest);
        } catch (error) {
          this.parts.banner.show(messageOf(error));
        }
      }
      this.baseParams = engine.params;
      if (source.kind === 'registry') this.shortestEdge = shortestTetEdge(scene.setup.model.restPositions, scene.setup.model.tets);
      engine.onLowestPoint = () => {
        if (engine === this.engine) this.publish();
      };
      this.parts.frameScene(scene);
      this.timings.clear();
      this.onEngine?.(engine, scene);
      this.publish();
      this.onChange?.();
      return true;
    };
    const building = build().finally(() => {
      if (this.building === building) this.building = undefined;
      this.publish();
    });
    this.building = building;
    return building;
  }

  private fail(error: unknown): void {
    this.running = false;
    this.parts.banner.show(`The simulation failed: ${messageOf(error)}`);
    console.error(error);
    this.onChange?.();
  }

  /** The scene's scheduled parameter changes for the frame about to run (frame k uses those with frame <= k). */
  private applySchedule(engine: SimulationEngine): void {
    const schedule = this.scene?.setup.schedule;
    if (!schedule) return;
    let changed = false;
    const params = engine.params;
    // The frame about to be submitted: with frames in flight, later than the last completed one.
    const next = engine.submittedFrames ?? engine.frame;
    for (const change of schedule) {
      if (change.frame === next) {
        Object.assign(params, change.params);
        changed = true;
      }
    }
    if (changed) {
      engine.setParams(params);
      this.onChange?.();
    }
  }

  /** The running loop's step: pipelined when the engine can keep frames in flight, else one frame at a time. */
  private async advance(): Promise<void> {
    const engine = this.engine;
    if (!engine) return;
    if (!engine.submitFrame) return this.stepOnce(true);
    this.busy = true;
    let done: Promise<FrameReport>;
    const submitted = performance.now();
    try {
      this.applySchedule(engine);
      done = (await engine.submitFrame()).done;
    } catch (error) {
      if (engine === this.engine) this.fail(error);
      return;
    } finally {
      this.busy = false;
    }
    if (engine !== this.engine) return; // replaced meanwhile: its frames are no longer ours to count
    this.inFlight += 1;
    this.submittedAt.push(submitted);
    this.publish();
    done.then(
      (report) => {
        if (engine !== this.engine) return;
        this.landed(report, true, engine);
      },
      (error: unknown) => {
        if (engine === this.engine) this.fail(error);
      },
    ).finally(() => {
      if (engine !== this.engine) return;
      this.inFlight -= 1;
      this.submittedAt.shift();
      this.publish();
    }).catch((error: unknown) => {
      // A report handler (recorder, overlays) that threw.
      if (engine === this.engine) this.fail(error);
    });
  }

  /** One frame, submitted and awaited (single steps; `fromRun`: the running loop of an engine without submitFrame). */
  private async stepOnce(fromRun = false): Promise<void> {
    const engine = this.engine;
    if (!engine) return;
    this.busy = true;
    this.submittedAt.push(performance.now());
    this.publish();
    try {
      this.applySchedule(engine);
      const report = await engine.stepFrame();
      if (engine !== this.engine) return; // replaced by a new scene meanwhile
      this.landed(report, fromRun, engine);
    } catch (error) {
      if (engine === this.engine) this.fail(error);
    } finally {
      this.busy = false;
      if (engine === this.engine) this.submittedAt.shift();
    }
    if (engine === this.engine) this.publish();
  }

  /**
   * A frame's report arrived: its wall time becomes the time per simulated frame (from the
   * previous frame of the same run landing, when there is one), then the readouts and the
   * recorder get it.
   */
  private landed(report: FrameReport, fromRun: boolean, engine: SimulationEngine): void {
    const now = performance.now();
    const wallMs = fromRun && this.lastLanded !== undefined ? now - this.lastLanded : report.wallMs;
    this.lastLanded = fromRun ? now : undefined;
    const timed: FrameReport = { ...report, wallMs };
    this.timings.add(timed);
    // What the frame went on without (a worker job failed, CCD pairs over the GPU's buffer): the
    // runner prints these per frame; the page shows the latest frame's.
    const warnings = report.collisions?.warnings ?? [];
    if (warnings.length > 0) this.parts.banner.show(warnings.join('\n'), { kind: 'warning' });
    // The status line shows the frame as it lands, before the recorder and the overlays take it:
    // a recording's last frame builds its files there, and a status shown after that work put
    // the frame's landing (what a reader of the page times) up to 170 ms late on a loaded machine.
    this.publish();
    this.onFrame?.(timed, engine);
  }

  private publish(): void {
    const activity = this.activity;
    if (activity !== this.lastActivity) {
      this.lastActivity = activity;
      this.onActivity?.(activity);
    }
    const { engine, scene } = this;
    if (!engine || !scene) {
      this.parts.status.showUnbuilt({ scene: this.configValue.scene, activity: this.activity });
      return;
    }
    // Objects stopped by NaN/Inf: the solver's message on the banner, and the run pauses.
    const messages = engine.takeMessages();
    if (messages.length > 0) {
      this.parts.banner.show(messages.join('\n'), { sticky: true });
      if (this.running) {
        this.running = false;
        this.onChange?.();
      }
    }
    const m = engine.model;
    this.parts.status.show({
      engine: engine.description,
      engineKind: engine.kind,
      scene: this.configValue.scene,
      vertices: m.vertexCount,
      tets: m.tetCount,
      objects: m.objectNames.length,
      frame: engine.frame,
      running: this.running,
      minY: engine.lowestPoint().y,
      minYFrame: engine.lowestPoint().frame,
      groundY: scene.groundY,
      startMinY: scene.startMinY,
      hasGround: scene.hasGround,
      timings: this.timings.summary(),
      activity: this.activity,
      underWaySince: this.frameUnderWaySince,
      framesInFlightLimit: this.maxInFlight,
    });
  }

  private disposeEngine(): void {
    this.engine?.dispose();
    this.drawing?.dispose();
    this.engine = undefined;
    this.drawing = undefined;
    this.scene = undefined;
    this.baseParams = undefined;
    this.building = undefined;
    this.running = false;
    this.inFlight = 0;
    this.submittedAt.length = 0;
    this.lastLanded = undefined;
  }
}
