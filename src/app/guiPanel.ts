/**
 * The lil-gui panel: shape, resolution, the shape's own parameters (folder rebuilt when the
 * shape changes), mesh import and view options. Changes regenerate the object when the
 * user lets go of a control (onFinishChange), not on every slider tick.
 */
import GUI, { type Controller } from 'lil-gui';
import type { ShapeInfo } from '../workers/meshWorkerApi';

export interface ShapeRequest {
  shape: string;
  resolution: number;
  params: Record<string, number>;
}

export interface GuiCallbacks {
  generate(request: ShapeRequest): void;
  importFile(): void;
  setWireframe(on: boolean): void;
}

export interface GuiPanel {
  readonly gui: GUI;
  /** The request the controls currently describe. */
  current(): ShapeRequest;
  /** Names the object on screen (a generated shape, or an imported file), so the panel never shows an old shape as current. */
  showObject(source: string): void;
}

function defaults(info: ShapeInfo): Record<string, number> {
  return Object.fromEntries(info.parameters.map((p) => [p.name, p.default]));
}

export function createGuiPanel(catalog: ShapeInfo[], initial: { shape?: string; resolution?: number }, callbacks: GuiCallbacks): GuiPanel {
  if (catalog.length === 0) throw new Error('createGuiPanel: the shape catalog is empty');
  const byName = new Map(catalog.map((s) => [s.name, s]));
  if (initial.shape !== undefined && !byName.has(initial.shape)) {
    throw new Error(`Unknown shape "${initial.shape}"; known shapes: ${catalog.map((s) => s.name).join(', ')}`);
  }
  const first = byName.get(initial.shape ?? catalog[0]!.name)!;
  const state = {
    shape: first.name,
    resolution: initial.resolution ?? first.defaultResolution,
    wireframe: false,
    generate: () => callbacks.generate(current()),
    importFile: () => callbacks.importFile(),
  };
  let params = defaults(first);

  const gui = new GUI({ title: 'Soft body' });
  const labels = Object.fromEntries(catalog.map((s) => [s.label, s.name]));
  const shapeCtrl = gui.add(state, 'shape', labels).name('Shape');
  const select = (shapeCtrl as unknown as { $select: HTMLSelectElement }).$select;
  select.id = 'gui-shape';
  // lil-gui reads selectedIndex; option values are set to the shape names as stable test hooks.
  Array.from(select.options).forEach((option, i) => (option.value = catalog[i]!.name));
  let resolutionCtrl: Controller = gui.add(state, 'resolution', first.minResolution, first.maxResolution, 1).name('Resolution');
  resolutionCtrl.domElement.id = 'gui-resolution';
  let paramFolder = gui.addFolder('Shape parameters');
  const objectState = { object: '' };
  const objectCtrl = gui.add(objectState, 'object').name('On screen').disable();
  objectCtrl.domElement.id = 'gui-object-source';
  gui.add(state, 'generate').name('Generate');
  gui.add(state, 'importFile').name('Import mesh file…');
  const view = gui.addFolder('View');
  view.add(state, 'wireframe').name('Wireframe').onChange((on: boolean) => callbacks.setWireframe(on));

  function current(): ShapeRequest {
    return { shape: state.shape, resolution: state.resolution, params: { ...params } };
  }

  function buildParamFolder(info: ShapeInfo): void {
    paramFolder.destroy();
    paramFolder = gui.addFolder(`${info.label} parameters`);
    // Keep the folder right under the resolution slider.
    resolutionCtrl.domElement.after(paramFolder.domElement);
    for (const p of info.parameters) {
      const step = p.step ?? (p.max - p.min) / 100;
      const c = paramFolder.add(params, p.name, p.min, p.max, step).name(p.name);
      if (p.description) c.domElement.title = p.description;
      c.onFinishChange(() => callbacks.generate(current()));
    }
  }

  function setResolutionRange(info: ShapeInfo): void {
    resolutionCtrl.min(info.minResolution).max(info.maxResolution);
    resolutionCtrl.updateDisplay();
  }

  shapeCtrl.onFinishChange((name: string) => {
    const info = byName.get(name)!;
    params = defaults(info);
    state.resolution = info.defaultResolution;
    setResolutionRange(info);
    buildParamFolder(info);
    callbacks.generate(current());
  });
  resolutionCtrl = resolutionCtrl.onFinishChange(() => callbacks.generate(current()));
  buildParamFolder(first);
  const showObject = (source: string): void => {
    objectState.object = source;
    objectCtrl.updateDisplay();
  };
  return { gui, current, showObject };
}
