/**
 * The one "View" folder of the lil-gui panel, for every scene: the blue tint of intersections,
 * shadows, wireframe (the mesh scene's shape before a run as well as any scene's objects), the
 * overlays (penetrating points, shortest paths, CCD contacts, BVH boxes), "Frame the scene" and
 * (added by moveControls.ts) the Move menu. Stable ids: #gui-view-<key>, #gui-frame-view.
 */
import { keepingEdits } from './keepingEdits';
import type GUI from 'lil-gui';
import type { ViewSettings } from './config/pageConfig';
import type { SimulationController } from './simulationController';
import { buttonOf } from './simulationPanel';

export interface ViewPanel {
  readonly folder: GUI;
  refresh(): void;
}

export function createViewPanel(gui: GUI, sim: SimulationController, options: { frameView(): void }): ViewPanel {
  const folder = gui.addFolder('View');
  const v0 = sim.config.view;
  const state = {
    ...v0,
    bvhOverlay: v0.bvhLevel >= 0,
    bvhLevel: Math.max(0, v0.bvhLevel),
    frameView: () => options.frameView(),
  };
  const toggle = (key: 'tint' | 'shadows' | 'wireframe' | 'points' | 'paths' | 'ccd', label: string, help: string): void => {
    const c = folder
      .add(state, key)
      .name(label)
      .onChange((v: boolean) => sim.setView({ [key]: v } as Partial<ViewSettings>));
    c.domElement.id = `gui-view-${key}`;
    c.domElement.title = help;
  };
  toggle('tint', 'Blue intersections (deeper = bluer)', 'surface inside another body (or inside itself) turns blue, the deeper the bluer');
  toggle('shadows', 'Shadows', 'the key light casts shadows on the ground');
  toggle('wireframe', 'Wireframe', 'draw the surface triangles as lines');
  toggle('points', 'Overlay: penetrating points', 'yellow dots: boundary vertices inside another body');
  toggle('paths', 'Overlay: shortest paths', 'magenta lines: each penetrating point to where its shortest path leaves the body');
  toggle('ccd', 'Overlay: CCD contacts', 'green lines: the last substep\'s continuous-collision contacts');
  folder.add(state, 'bvhOverlay').name('Overlay: BVH boxes').onChange((on: boolean) => sim.setView({ bvhLevel: on ? state.bvhLevel : -1 }));
  folder
    .add(state, 'bvhLevel', 0, 20, 1)
    .name('BVH level')
    .onFinishChange((level: number) => {
      if (state.bvhOverlay) sim.setView({ bvhLevel: level });
    });
  buttonOf(folder.add(state, 'frameView').name('Frame the scene (F)'), 'gui-frame-view');

  function refresh(): void {
    const v = sim.config.view;
    keepingEdits(folder, () => Object.assign(state, v, { bvhOverlay: v.bvhLevel >= 0, bvhLevel: v.bvhLevel >= 0 ? v.bvhLevel : state.bvhLevel }));
    for (const c of folder.controllersRecursive()) c.updateDisplay();
  }
  refresh();
  return { folder, refresh };
}
