/**
 * The "Scene" folder at the top of the lil-gui panel: which scene (the paper's experiments from
 * the registry, or the shape / imported mesh), its size slider (toward the paper's scale; the
 * label says what the paper had), the engine, mesh import (which opens the mesh scene) and a note
 * in paragraphs (sceneNotes.ts): what is on screen, its size, and why the page picked a smaller
 * one here. Stable ids for tests: #gui-scene (a select whose option values are the scene names),
 * #gui-size, #gui-engine, #gui-import; #scene-note.
 */
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import { scenes, findScene } from '../scenes/registry';
import { sizeProblem } from '../scenes/size';
import { ENGINE_CHOICES, MESH_SCENE, type EngineChoice } from './config/pageConfig';
import { pageDescription, sizeLine, smallDefaultReason } from './sceneNotes';
import type { SimulationController } from './simulationController';
import { buttonOf } from './simulationPanel';

export interface ScenePanel {
  readonly folder: GUI;
  refresh(): void;
}

/** Scenes the page offers: those with a size (the ones that take a mesh file are the mesh scene's job). */
export function pageScenes(): { name: string; label: string }[] {
  const offered = scenes.filter((s) => s.size !== undefined && !s.accepts.includes('mesh'));
  return [...offered.map((s) => ({ name: s.name, label: s.name })), { name: MESH_SCENE, label: 'Shape or imported mesh (drop, copies)' }];
}

function selectOf(c: Controller, id: string, values: string[]): void {
  const select = (c as unknown as { $select: HTMLSelectElement }).$select;
  select.id = id;
  // lil-gui reads selectedIndex; option values are set to the names as stable test hooks.
  Array.from(select.options).forEach((option, i) => (option.value = values[i]!));
}

export interface ScenePanelOptions {
  softwareAdapter: boolean;
  /** Opens the file picker (an imported mesh becomes the mesh scene). */
  importFile(): void;
  /** What the mesh scene started from on this adapter (adapterDefaults.ts), while the user has not changed it. */
  meshSceneNote(): string | undefined;
}

export function createScenePanel(gui: GUI, sim: SimulationController, options: ScenePanelOptions): ScenePanel {
  const folder = gui.addFolder('Scene');
  const list = pageScenes();
  const state = {
    scene: sim.config.scene,
    size: 1,
    engine: sim.config.engine as EngineChoice,
    paperSize: () => paperSize(),
    importFile: () => options.importFile(),
  };
  const sceneCtrl = folder.add(state, 'scene', Object.fromEntries(list.map((s) => [s.label, s.name]))).name('Scene');
  selectOf(sceneCtrl, 'gui-scene', list.map((s) => s.name));
  const sizeCtrl = folder.add(state, 'size', 1, 2, 1).name('Size');
  sizeCtrl.domElement.id = 'gui-size';
  const paperCtrl = folder.add(state, 'paperSize').name("Paper's size");
  const engineCtrl = folder.add(state, 'engine', { 'Auto (GPU when WebGPU draws)': 'auto', 'GPU (WebGPU)': 'gpu', 'CPU reference (float64 worker)': 'cpu' }).name('Engine');
  selectOf(engineCtrl, 'gui-engine', [...ENGINE_CHOICES]);
  buttonOf(folder.add(state, 'importFile').name('Import mesh file…'), 'gui-import').title = 'Gaia .t, TetGen .node + .ele, Gmsh .msh, VTK .vtk (or drop files on the page)';
  const note = document.createElement('div');
  note.id = 'scene-note';
  note.className = 'scene-note';
  folder.$children.appendChild(note);

  sceneCtrl.onChange((name: string) => {
    if (name === MESH_SCENE) {
      sim.showMeshScene();
      return;
    }
    void sim.showScene(name);
  });
  sizeCtrl.onFinishChange((value: number) => {
    const name = sim.config.scene;
    if (name === MESH_SCENE) return;
    const problem = sizeProblem(name, findScene(name).size, value);
    if (problem) {
      sim.refuse(problem);
      return;
    }
    void sim.showScene(name, value);
  });
  engineCtrl.onChange((choice: EngineChoice) => sim.setEngineChoice(choice));

  function paperSize(): void {
    const name = sim.config.scene;
    const size = name === MESH_SCENE ? undefined : findScene(name).size;
    if (size) void sim.showScene(name, size.paper);
  }

  function paragraphs(texts: string[]): void {
    note.replaceChildren(
      ...texts.map((text) => {
        const p = document.createElement('p');
        p.textContent = text;
        return p;
      }),
    );
  }

  function refresh(): void {
    const config = sim.config;
    state.scene = config.scene;
    state.engine = config.engine;
    const mesh = config.scene === MESH_SCENE;
    const def = mesh ? undefined : findScene(config.scene);
    const size = def?.size;
    sizeCtrl.show(size !== undefined);
    paperCtrl.show(size !== undefined);
    const texts: string[] = [];
    if (def) texts.push(pageDescription(def.description));
    else texts.push('The generated shape or imported mesh, dropped on the ground (with copies, piled into a box). Run or Step builds its simulation.');
    const why = smallDefaultReason(options.softwareAdapter, sim.cpuEngine);
    if (size) {
      sizeCtrl.min(size.min).max(size.max).step(size.step).name(`Size: ${size.label}`);
      state.size = sim.sceneSize ?? size.default;
      texts.push(sizeLine(size, state.size));
      if (config.size === undefined && state.size === size.small && size.small !== size.default && why) {
        texts.push(`Smaller default (${size.small}) because ${why}.`);
      }
    } else {
      const defaults = options.meshSceneNote();
      if (defaults && why) texts.push(`${defaults} Chosen because ${why}.`);
      else if (defaults) texts.push(defaults);
    }
    paragraphs(texts);
    for (const c of folder.controllersRecursive()) c.updateDisplay();
  }

  refresh();
  return { folder, refresh };
}
