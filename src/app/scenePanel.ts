/**
 * The "Scene" folder at the top of the lil-gui panel: which scene (the paper's experiments from
 * the registry, or the shape / imported mesh), its size slider (toward the paper's scale; the
 * label says what the paper had), copies of the mesh scene's object, and the engine. Stable ids
 * for tests: #gui-scene (a select whose option values are the scene names), #gui-size,
 * #gui-copies, #gui-engine; #scene-note says what is on screen and why a size was picked.
 */
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import { scenes, findScene } from '../scenes/registry';
import { sizeProblem } from '../scenes/size';
import { ENGINE_CHOICES, MESH_SCENE, type EngineChoice } from './config/pageConfig';
import type { SimulationController } from './simulationController';

export interface ScenePanel {
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

export function createScenePanel(gui: GUI, sim: SimulationController, options: { softwareAdapter: boolean }): ScenePanel {
  const folder = gui.addFolder('Scene');
  // First in the panel: it is what a user picks first.
  gui.$children.prepend(folder.domElement);
  const list = pageScenes();
  const state = { scene: sim.config.scene, size: 1, copies: sim.config.mesh.copies, engine: sim.config.engine as EngineChoice, paperSize: () => paperSize() };
  const sceneCtrl = folder.add(state, 'scene', Object.fromEntries(list.map((s) => [s.label, s.name]))).name('Scene');
  selectOf(sceneCtrl, 'gui-scene', list.map((s) => s.name));
  const sizeCtrl = folder.add(state, 'size', 1, 2, 1).name('Size');
  sizeCtrl.domElement.id = 'gui-size';
  const paperCtrl = folder.add(state, 'paperSize').name("Paper's size");
  const copiesCtrl = folder.add(state, 'copies', 1, 16, 1).name('Copies (mesh scene)');
  copiesCtrl.domElement.id = 'gui-copies';
  const engineCtrl = folder.add(state, 'engine', { 'Auto (GPU when WebGPU draws)': 'auto', 'GPU (WebGPU)': 'gpu', 'CPU reference (float64 worker)': 'cpu' }).name('Engine');
  selectOf(engineCtrl, 'gui-engine', [...ENGINE_CHOICES]);
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
  copiesCtrl.onFinishChange((n: number) => sim.setCopies(n));
  engineCtrl.onChange((choice: EngineChoice) => sim.setEngineChoice(choice));

  function paperSize(): void {
    const name = sim.config.scene;
    const size = name === MESH_SCENE ? undefined : findScene(name).size;
    if (size) void sim.showScene(name, size.paper);
  }

  function refresh(): void {
    const config = sim.config;
    state.scene = config.scene;
    state.copies = config.mesh.copies;
    state.engine = config.engine;
    const mesh = config.scene === MESH_SCENE;
    const def = mesh ? undefined : findScene(config.scene);
    const size = def?.size;
    sizeCtrl.show(size !== undefined);
    paperCtrl.show(size !== undefined);
    copiesCtrl.show(mesh);
    const lines: string[] = [];
    if (size) {
      sizeCtrl.min(size.min).max(size.max).step(size.step).name(`Size: ${size.label}`);
      state.size = sim.sceneSize ?? size.default;
      lines.push(`${size.label} ${state.size} (default ${size.default}, ${size.note})`);
      if (config.size === undefined && state.size === size.small && size.small !== size.default) {
        lines.push(`Smaller default (${size.small}) because ${options.softwareAdapter ? 'this is a software GPU adapter' : 'the CPU engine runs'}.`);
      }
    }
    if (def) lines.unshift(def.description);
    else lines.unshift('The generated shape or imported mesh, dropped on the ground; with copies, piled into a box.');
    note.textContent = lines.join('\n');
    for (const c of folder.controllersRecursive()) c.updateDisplay();
  }

  refresh();
  return { refresh };
}
