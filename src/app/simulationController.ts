/**
 * Runs the simulation of the object on screen: run, pause, single step, reset, parameter
 * changes, the live readout and the error banner for objects stopped by NaN/Inf.
 *
 * The scene is built lazily, on the first run or step after a mesh is shown (the object is
 * then raised above the ground and the camera reframed), so merely looking at meshes never
 * pays for a solver. A new mesh replaces the simulation; if it was running, the new object
 * starts running at once.
 *
 * Stepping is driven by its own requestAnimationFrame loop, one frame at a time: a frame that
 * takes longer than the display interval slows the simulation down instead of queueing work.
 */
import { Box3, Vector3 } from 'three/webgpu';
import type { GpuContext } from '../gpu/device';
import type { TetMesh } from '../mesh/types';
import type { Material } from '../sim/material';
import { checkParams, defaultParams, type SolverParams } from '../sim/params';
import { materialResolution, shortestTetEdge } from '../sim/resolution';
import { createEngine, type EngineChoice } from './engineFactory';
import { FrameTimings } from './frameTimings';
import { dropPlacement, suggestedMaterial, type DropPlacement } from '../scenes/meshDrop';
import type { MeshView } from './meshView';
import type { ErrorBanner } from './notices';
import type { Viewer } from './renderer';
import type { SimStatusView } from './simStatusView';
import type { SimulationEngine } from './simulationEngine';

export interface SimulationParts {
  gpu: GpuContext | undefined;
  /** Which solver to use: 'auto' = the GPU solver when WebGPU draws the page, else the CPU reference. */
  engine?: EngineChoice;
  viewer: Viewer;
  banner: ErrorBanner;
  status: SimStatusView;
}

export interface SimulationSettings {
  params: Partial<SolverParams>;
  /** Material fields given here stay fixed; the others follow suggestedMaterial() per mesh. */
  material: Partial<Material>;
}

/**
 * The page's defaults on top of the solver's (the authors' octopus drop): some velocity
 * damping, because a soft ball solved with few iterations keeps most of its energy and
 * bounces for seconds (measured: 0.24 of a 0.5 drop comes back without damping, 0.06 with 2/s).
 */
export const PAGE_DEFAULTS: Partial<SolverParams> = { damping: 2 };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class SimulationController {
  private engine: SimulationEngine | undefined;
  private placement: DropPlacement | undefined;
  /** The engine being built for the mesh on screen, if any. */
  private building: Promise<boolean> | undefined;
  /** Counts meshes shown; an engine finished for an older mesh is thrown away. */
  private meshSerial = 0;
  private mesh: TetMesh | undefined;
  /** Shortest tet edge of the shown mesh (for the material resolution warning). */
  private shortestEdge = 0;
  private view: MeshView | undefined;
  private paramsValue: SolverParams;
  private pinnedMaterial: Partial<Material>;
  private materialValue: Material;
  private running = false;
  private busy = false;
  private stopped = false;
  private readonly timings = new FrameTimings(30);
  /** Called whenever run state, parameters or material change (the panel refreshes). */
  onChange: (() => void) | undefined;

  constructor(
    private readonly parts: SimulationParts,
    settings: SimulationSettings = { params: {}, material: {} },
  ) {
    this.paramsValue = defaultParams({ ...PAGE_DEFAULTS, ...settings.params });
    checkParams(this.paramsValue);
    this.pinnedMaterial = { ...settings.material };
    this.materialValue = { ...suggestedMaterial(1, this.paramsValue.gravity[1]), ...this.pinnedMaterial };
    const loop = (): void => {
      if (this.stopped) return;
      if (this.running && !this.busy && this.engine) void this.advance();
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  get isRunning(): boolean {
    return this.running;
  }

  get params(): SolverParams {
    return { ...this.paramsValue, gravity: [...this.paramsValue.gravity] };
  }

  get material(): Material {
    return { ...this.materialValue };
  }

  get frame(): number {
    return this.engine?.frame ?? 0;
  }

  /** The engine simulating the object on screen, if one was built (for the console and tests). */
  get currentEngine(): SimulationEngine | undefined {
    return this.engine;
  }

  /** Hook for MeshLoader.onMeshShown: the new mesh replaces the simulated object. */
  meshShown(mesh: TetMesh, view: MeshView): void {
    this.disposeEngine();
    this.meshSerial += 1;
    this.mesh = mesh;
    this.shortestEdge = shortestTetEdge(mesh.positions, mesh.tets);
    this.view = view;
    const height = this.heightOf(mesh);
    this.materialValue = { ...suggestedMaterial(height, this.paramsValue.gravity[1]), ...this.pinnedMaterial };
    this.parts.status.clear();
    if (this.running) void this.run();
    this.onChange?.();
  }

  /** Runs from the current state (building the scene first if needed). */
  async run(): Promise<void> {
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
    this.onChange?.();
    if (!(await this.ensureEngine())) return;
    if (this.busy) return;
    await this.advance();
  }

  /** Back to the raised starting pose, paused. */
  async reset(): Promise<void> {
    this.running = false;
    this.onChange?.();
    const engine = this.engine;
    if (!engine) return;
    while (this.busy) await new Promise((r) => requestAnimationFrame(r)); // let a frame in flight land first
    if (engine !== this.engine) return;
    try {
      await engine.reset();
    } catch (error) {
      this.fail(error);
      return;
    }
    this.timings.clear();
    this.publish();
  }

  setParams(changes: Partial<SolverParams>): void {
    const next: SolverParams = { ...this.paramsValue, ...changes, gravity: [...(changes.gravity ?? this.paramsValue.gravity)] };
    try {
      checkParams(next);
    } catch (error) {
      this.parts.banner.show(messageOf(error));
      this.onChange?.();
      return;
    }
    this.paramsValue = next;
    this.engine?.setParams(next);
    this.timings.clear();
    this.warnIfUnresolved();
    this.onChange?.();
  }

  /**
   * Every positive Young's modulus is stable, but one stiffer than the substeps and iterations
   * resolve acts softer than set: say so, with the settings that would resolve it.
   */
  private warnIfUnresolved(): void {
    if (!(this.shortestEdge > 0)) return;
    const { warning } = materialResolution(this.materialValue, this.shortestEdge, this.paramsValue);
    if (warning) this.parts.banner.show(warning);
  }

  /** Changes the object's material; the fields given stay fixed for later meshes too. */
  setMaterial(changes: Partial<Material>): void {
    const next = { ...this.materialValue, ...changes };
    try {
      this.engine?.setMaterial(next);
    } catch (error) {
      this.parts.banner.show(messageOf(error));
      this.onChange?.();
      return;
    }
    this.pinnedMaterial = { ...this.pinnedMaterial, ...changes };
    this.materialValue = next;
    this.warnIfUnresolved();
    this.onChange?.();
  }

  /** Resolves once no frame is in flight and no scene is being built (tests, the console). */
  async settled(): Promise<void> {
    while (this.busy || this.building) await new Promise((r) => requestAnimationFrame(r));
  }

  /** Stops stepping for good (device lost). */
  halt(): void {
    this.running = false;
    this.stopped = true;
    this.onChange?.();
  }

  private heightOf(mesh: TetMesh): number {
    let min = Infinity;
    let max = -Infinity;
    for (let i = 1; i < mesh.positions.length; i += 3) {
      const y = mesh.positions[i]!;
      if (y < min) min = y;
      if (y > max) max = y;
    }
    return max - min;
  }

  /** Builds the drop scene and its engine for the mesh on screen; false (banner shown) when it cannot. */
  private ensureEngine(): Promise<boolean> {
    if (this.engine) return Promise.resolve(true);
    if (this.building) return this.building;
    if (this.stopped) return Promise.resolve(false);
    const { mesh, view } = this;
    if (!mesh || !view) {
      this.parts.banner.show('Nothing to simulate yet: wait until a mesh is on screen.');
      return Promise.resolve(false);
    }
    const serial = this.meshSerial;
    const build = async (): Promise<boolean> => {
      let engine: SimulationEngine;
      let placement: DropPlacement;
      try {
        placement = dropPlacement(mesh.positions);
        engine = await createEngine({
          name: 'shown object',
          mesh,
          view,
          material: this.materialValue,
          params: this.paramsValue,
          placement,
          gpu: this.parts.gpu,
          viewer: this.parts.viewer,
          choice: this.parts.engine ?? 'auto',
        });
      } catch (error) {
        if (serial !== this.meshSerial) return false;
        this.parts.banner.show(`The object cannot be simulated: ${messageOf(error)}`);
        console.error(error);
        return false;
      }
      if (serial !== this.meshSerial || this.stopped) {
        engine.dispose(); // a newer mesh replaced this one while the scene was being built
        return false;
      }
      this.engine = engine;
      this.placement = placement;
      engine.onLowestPoint = () => {
        if (engine === this.engine) this.publish();
      };
      this.frameView(placement);
      this.timings.clear();
      this.publish();
      return true;
    };
    const building = build().finally(() => {
      if (this.building === building) this.building = undefined;
    });
    this.building = building;
    return building;
  }

  /** Frames the raised object and the ground around it (the page draws its grid at the box's bottom). */
  private frameView(placement: DropPlacement): void {
    // Half the object's width of ground on each side shows where it will land.
    const b = placement.bounds;
    const margin = 0.5 * Math.max(b.max[0] - b.min[0], b.max[2] - b.min[2]);
    this.parts.viewer.frame(
      new Box3(new Vector3(b.min[0] - margin, b.min[1], b.min[2] - margin), new Vector3(b.max[0] + margin, b.max[1], b.max[2] + margin)),
    );
  }

  private fail(error: unknown): void {
    this.running = false;
    this.parts.banner.show(`The simulation failed: ${messageOf(error)}`);
    console.error(error);
    this.onChange?.();
  }

  private async advance(): Promise<void> {
    const engine = this.engine;
    if (!engine) return;
    this.busy = true;
    try {
      const report = await engine.stepFrame();
      if (engine !== this.engine) return; // replaced by a new mesh meanwhile
      this.timings.add(report);
    } catch (error) {
      if (engine === this.engine) this.fail(error);
    } finally {
      this.busy = false;
    }
    if (engine === this.engine) this.publish();
  }

  private publish(): void {
    const { engine, placement } = this;
    if (!engine || !placement) return;
    // Objects stopped by NaN/Inf: the solver's message on the banner, and the run pauses.
    const messages = engine.takeMessages();
    if (messages.length > 0) {
      this.parts.banner.show(messages.join('\n'), { sticky: true });
      if (this.running) {
        this.running = false;
        this.onChange?.();
      }
    }
    this.parts.status.show({
      engine: engine.description,
      engineKind: engine.kind,
      frame: engine.frame,
      running: this.running,
      minY: engine.lowestPoint().y,
      minYFrame: engine.lowestPoint().frame,
      groundY: placement.groundY,
      startMinY: placement.startMinY,
      timings: this.timings.summary(),
    });
  }

  private disposeEngine(): void {
    this.engine?.dispose();
    this.engine = undefined;
    this.placement = undefined;
    this.building = undefined;
  }
}
