/**
 * Feeds the view toggles to the engine and the overlays: the intersection display runs (and
 * fills the depth buffer of the blue tint) while the tint or the point/path overlays are on,
 * and after each frame the overlays' data is read back (GpuEngine.readOverlays), one readback
 * in flight at a time: a frame that lands meanwhile is read when the current one returns.
 * The CPU engine has no intersection display: its overlays stay empty and the tint stays off.
 */
import type { ViewSettings } from './config/pageConfig';
import { GpuEngine } from './gpuEngine';
import type { PageDrawing } from './sceneDrawingFactory';
import type { SimulationEngine } from './simulationEngine';

export class OverlayFeed {
  private reading = false;
  private again = false;

  constructor(
    private readonly current: () => { engine: SimulationEngine | undefined; drawing: PageDrawing | undefined; view: ViewSettings },
    private readonly onError: (message: string) => void,
  ) {}

  /** After a view change or a new engine: switch the intersection display and refresh the overlays. */
  apply(): void {
    const { engine, view } = this.current();
    if (engine instanceof GpuEngine) engine.showIntersections = view.tint || view.points || view.paths;
    this.refresh();
  }

  /** After each frame (and on apply): read the overlays that are on. */
  refresh(): void {
    const { engine, view } = this.current();
    if (!(engine instanceof GpuEngine)) return;
    if (!(view.points || view.paths || view.ccd || view.bvhLevel >= 0)) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    engine
      .readOverlays({ points: view.points || view.paths, paths: view.paths, ccd: view.ccd, bvhLevel: view.bvhLevel })
      .then((data) => {
        const now = this.current();
        if (now.engine === engine) now.drawing?.showOverlays(data);
      })
      .catch((error: unknown) => this.onError(`overlays: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.reading = false;
        if (this.again) {
          this.again = false;
          this.refresh();
        }
      });
  }
}
