/**
 * The "Mesh scene" folder of the lil-gui panel, shown only while the mesh scene is on screen:
 * shape, resolution, the shape's own parameters (a folder rebuilt when the shape changes), the
 * object on screen (a generated shape or an imported file), copies dropped into a box, and
 * Generate, with the mesh's statistics (#mesh-stats) under the object's name. Changes regenerate
 * the object when the user lets go of a control (onFinishChange),
 * not on every slider tick. Stable ids for tests: #gui-shape (a select whose option values are
 * the shape names), #gui-resolution, #gui-object-source, #gui-copies.
 */
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { ShapeInfo } from '../workers/meshWorkerApi';

export interface ShapeRequest {
  shape: string;
  resolution: number;
  params: Record<string, number>;
}

export interface MeshSceneCallbacks {
  generate(request: ShapeRequest): void;
  setCopies(copies: number): void;
  /** New controls were added (a shape's parameters): the page hooks its clamp notices onto them. */
  controlsAdded?(folder: GUI): void;
}

export interface MeshScenePanel {
  readonly folder: GUI;
  /** The request the controls currently describe. */
  current(): ShapeRequest;
  /** Names the object on screen (a generated shape, or an imported file), so the panel never shows an old shape as current. */
  showObject(source: string): void;
  /** Shows the folder only in the mesh scene, with the copies in use. */
  refresh(state: { meshScene: boolean; copies: number }): void;
  /** Puts the mesh's statistics (#mesh-stats) under "On screen": they belong to this scene, and nothing covers them there. */
  attachStats(element: HTMLElement): void;
}

function defaults(info: ShapeInfo): Record<string, number> {
  return Object.fromEntries(info.parameters.map((p) => [p.name, p.default]));
}

export function createMeshScenePanel(
  gui: GUI,
  catalog: ShapeInfo[],
  initial: { shape?: string; resolution?: number; copies: number },
  callbacks: MeshSceneCallbacks,
): MeshScenePanel {
  if (catalog.length === 0) throw new Error('createMeshScenePanel: the shape catalog is empty');
  const byName = new Map(catalog.map((s) => [s.name, s]));
  if (initial.shape !== undefined && !byName.has(initial.shape)) {
    throw new Error(`Unknown shape "${initial.shape}"; known shapes: ${catalog.map((s) => s.name).join(', ')}`);
  }
  const first = byName.get(initial.shape ?? catalog[0]!.name)!;
  const state = {
    shape: first.name,
    resolution: initial.resolution ?? first.defaultResolution,
    copies: initial.copies,
    generate: () => callbacks.generate(current()),
  };
  let params = defaults(first);

  const folder = gui.addFolder('Mesh scene');
  const labels = Object.fromEntries(catalog.map((s) => [s.label, s.name]));
  const shapeCtrl = folder.add(state, 'shape', labels).name('Shape');
  const select = (shapeCtrl as unknown as { $select: HTMLSelectElement }).$select;
  select.id = 'gui-shape';
  // lil-gui reads selectedIndex; option values are set to the shape names as stable test hooks.
  Array.from(select.options).forEach((option, i) => (option.value = catalog[i]!.name));
  let resolutionCtrl: Controller = folder.add(state, 'resolution', first.minResolution, first.maxResolution, 1).name('Resolution');
  resolutionCtrl.domElement.id = 'gui-resolution';
  resolutionCtrl.domElement.title = 'Lattice cubes across the longest side of the shape (more: finer mesh, more tets)';
  let paramFolder = folder.addFolder('Shape parameters');
  const objectState = { object: '' };
  const objectCtrl = folder.add(objectState, 'object').name('On screen').disable();
  objectCtrl.domElement.id = 'gui-object-source';
  const copiesCtrl = folder.add(state, 'copies', 1, 16, 1).name('Copies (piled into a box)');
  copiesCtrl.domElement.id = 'gui-copies';
  copiesCtrl.onFinishChange((n: number) => callbacks.setCopies(n));
  folder.add(state, 'generate').name('Generate');

  function current(): ShapeRequest {
    return { shape: state.shape, resolution: state.resolution, params: { ...params } };
  }

  function buildParamFolder(info: ShapeInfo): void {
    paramFolder.destroy();
    paramFolder = folder.addFolder(`${info.label} parameters`);
    paramFolder.close();
    // Keep the folder right under the resolution slider.
    resolutionCtrl.domElement.after(paramFolder.domElement);
    for (const p of info.parameters) {
      const step = p.step ?? (p.max - p.min) / 100;
      const c = paramFolder.add(params, p.name, p.min, p.max, step).name(p.name);
      if (p.description) c.domElement.title = p.description;
      c.onFinishChange(() => callbacks.generate(current()));
    }
    callbacks.controlsAdded?.(paramFolder);
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
  const refresh = (s: { meshScene: boolean; copies: number }): void => {
    folder.show(s.meshScene);
    state.copies = s.copies;
    copiesCtrl.updateDisplay();
  };
  const attachStats = (element: HTMLElement): void => {
    objectCtrl.domElement.after(element);
  };
  return { folder, current, showObject, refresh, attachStats };
}
