/**
 * The "Simulation" folder of the lil-gui panel: run/pause, single step, reset, presets, the
 * solver parameters and every collision setting (built from the tables of paramControls.ts),
 * and the material of each object. Parameters apply from the next frame; sliders apply when let
 * go (onFinishChange), not on every tick. A value the solver cannot use is refused by the
 * controller with a message on the banner, and the control shows the value in use again.
 * Buttons and the object menu carry stable ids (#sim-run, #sim-step, #sim-reset, #gui-object)
 * for tests; the Run button reads "Pausing…" while the frames in flight finish.
 */
import { keepingEdits } from './keepingEdits';
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { CollisionMode, ConstraintType, InterObjectMode, SolveOrder, SolverParams } from '../contract/params';
import { COLLISION_CONTROLS, SOLVER_CONTROLS, controlText, numberOrAutoTextKey, parseNumberOrAuto, parseNumberOrOff, type ParamControl } from './paramControls';
import type { SimulationController } from './simulationController';
import { idleSettings } from '../contract/idleSettings';

export interface SimulationPanel {
  /** Re-reads the controller's values into the controls (after a new scene or a rejected value). */
  refresh(): void;
}

/** Named parameter sets: cheap enough for a laptop, or closer to the paper's accuracy. */
export const PRESETS: Record<string, Partial<SolverParams>> = {
  // real-time: paper 000 Table 1's budget for the 8-octopus box (Fig. 9), 5 substeps x 5 iterations at 60 fps,
  // with the contact schedule the octopus-box scene was measured at (src/scenes/octopusBox.ts): the
  // contacts after every iteration (at this long substep once a substep let tentacle tips into another
  // octopus) and 5 passes (3 left vertices inside another octopus in a tangled pile; 2 fewer still),
  // the far-side contacts dropped and CCD in every round (fewer frames ending with a vertex inside another octopus).
  'real-time': { substeps: 5, iterations: 5, contactIterations: 5, collideEvery: 'contacts', ccdEveryRound: true, farSideContacts: 'drop', collisionMode: 'hybrid', bvhRebuildFrames: 60, culling: true },
  accurate: { substeps: 40, iterations: 4, contactIterations: 4, collisionMode: 'hybrid', bvhRebuildFrames: 10, culling: true },
};

export function buttonOf(c: Controller, id: string): HTMLButtonElement {
  const button = (c as unknown as { $button: HTMLButtonElement }).$button;
  button.id = id;
  return button;
}

type PanelState = Record<string, unknown>;

/** A parameter control's element and its own tooltip (the idle reason is added to it). */
interface ControlElement {
  element: HTMLElement;
  help: string;
}

/** Adds one control per row of `table` to `folder`, bound to `state` (the panel's copy of the parameters). */
function addParamControls(folder: GUI, table: readonly ParamControl[], state: PanelState, sim: SimulationController, elements?: Map<keyof SolverParams, ControlElement>): void {
  for (const row of table) {
    let c: Controller;
    if (row.kind === 'number') {
      c = row.min === undefined ? folder.add(state, row.key) : folder.add(state, row.key, row.min, row.max, row.step);
      if (row.decimals !== undefined) c.decimals(row.decimals);
      c.onFinishChange((v: number) => sim.setParams({ [row.key]: v } as Partial<SolverParams>));
    } else if (row.kind === 'toggle') {
      c = folder.add(state, row.key).onChange((v: boolean) => sim.setParams({ [row.key]: v } as Partial<SolverParams>));
    } else if (row.kind === 'choice') {
      c = folder.add(state, row.key, row.options).onChange((v: string) => sim.setParams({ [row.key]: v } as Partial<SolverParams>));
    } else if (row.kind === 'numberOrAuto' || row.kind === 'numberOrOff') {
      const textKey = numberOrAutoTextKey(row.key);
      const parse = row.kind === 'numberOrAuto' ? parseNumberOrAuto : parseNumberOrOff;
      state[textKey] = controlText(state[row.key]);
      c = folder.add(state, textKey).onFinishChange((t: string) => sim.setParams({ [row.key]: parse(t) } as Partial<SolverParams>));
    } else {
      c = folder.add(state, 'gravityY', row.min, row.max, row.step).onFinishChange((v: number) => sim.setParams({ gravity: [0, v, 0] }));
    }
    c.name(row.label);
    c.domElement.id = `gui-${row.key}`;
    if (row.help) c.domElement.title = row.help;
    elements?.set(row.key, { element: c.domElement, help: row.help ?? '' });
  }
}

/**
 * Greys the controls whose setting changes nothing under the current parameters, engine and
 * number of objects (contract/idleSettings.ts), the reason in their tooltip; they stay usable, their value kept
 * for when their stage runs again.
 */
function markIdleControls(elements: Map<keyof SolverParams, ControlElement>, p: SolverParams, engine: 'gpu' | 'cpu', objects: number): void {
  const idle = idleSettings([...elements.keys()], p, engine, objects);
  for (const [key, { element, help }] of elements) {
    const reason = idle.get(key);
    element.classList.toggle('idle-setting', reason !== undefined);
    element.dataset.idle = reason ?? '';
    element.title = reason === undefined ? help : `${help ? `${help}\n` : ''}Changes nothing now: ${reason}`;
  }
}

export function createSimulationPanel(gui: GUI, sim: SimulationController): SimulationPanel {
  const folder = gui.addFolder('Simulation');
  const p0 = sim.params;
  const state: PanelState & { object: number; youngsModulus: number; poissonRatio: number; density: number; preset: string } = {
    run: () => sim.toggle(),
    step: () => void sim.step(),
    reset: () => void sim.reset(),
    preset: 'custom',
    ...p0,
    gravityY: p0.gravity[1],
    object: 0,
    youngsModulus: 0,
    poissonRatio: 0,
    density: 0,
  };

  const runCtrl = folder.add(state, 'run').name('Run');
  const runButton = buttonOf(runCtrl, 'sim-run');
  runButton.title = 'Run or pause (Space)';
  buttonOf(folder.add(state, 'step').name('Step one frame'), 'sim-step').title = 'One frame, then paused (.)';
  buttonOf(folder.add(state, 'reset').name('Reset'), 'sim-reset').title = 'Back to the start, paused (R)';
  const presetCtrl = folder
    .add(state, 'preset', ['custom', ...Object.keys(PRESETS)])
    .name('Preset')
    .onChange((name: string) => {
      const preset = PRESETS[name];
      if (preset) sim.setParams(preset);
    });
  presetCtrl.domElement.id = 'gui-preset';

  const paramElements = new Map<keyof SolverParams, ControlElement>();
  const solver = folder.addFolder('Solver');
  addParamControls(solver, SOLVER_CONTROLS, state, sim, paramElements);
  const collisions = folder.addFolder('Collisions');
  addParamControls(collisions, COLLISION_CONTROLS, state, sim, paramElements);

  const material = folder.addFolder('Material');
  let objectCtrl = material.add(state, 'object', { object: 0 }).name('Object');
  const young = material.add(state, 'youngsModulus').name("Young's modulus (Pa)");
  young.domElement.id = 'gui-young';
  const poisson = material.add(state, 'poissonRatio', 0, 0.49, 0.01).name('Poisson ratio');
  const density = material.add(state, 'density').name('Density (kg/m³)');
  young.onFinishChange((v: number) => sim.setMaterial(state.object, { youngsModulus: v }));
  poisson.onFinishChange((v: number) => sim.setMaterial(state.object, { poissonRatio: v }));
  density.onFinishChange((v: number) => sim.setMaterial(state.object, { density: v }));
  addParamControls(material, [{ kind: 'number', key: 'springCompliance', label: 'Spring compliance (m/N)', help: 'mass-spring constraint only' }], state, sim);
  let objectNames = '';

  /** The object menu lists the scene's objects (rebuilt when the scene changes). */
  function refreshObjects(): void {
    const objects = sim.objects;
    const names = objects.map((o) => o.name).join('\n');
    if (names !== objectNames) {
      objectNames = names;
      const options = Object.fromEntries(objects.map((o, i) => [`${i}: ${o.name}`, i]));
      const next = material.add(state, 'object', objects.length > 0 ? options : { none: 0 }).name('Object');
      objectCtrl.domElement.before(next.domElement);
      objectCtrl.destroy();
      objectCtrl = next;
      objectCtrl.domElement.id = 'gui-object';
      objectCtrl.onChange(() => refresh());
      if (state.object >= objects.length) state.object = 0;
    }
    const m = objects[state.object]?.material;
    if (m) Object.assign(state, { youngsModulus: m.youngsModulus, poissonRatio: m.poissonRatio, density: m.density });
  }

  function refresh(): void {
    const p = sim.params;
    keepingEdits(folder, () => {
      Object.assign(state, { ...p, gravityY: p.gravity[1] });
      for (const row of COLLISION_CONTROLS) if (row.kind === 'numberOrAuto' || row.kind === 'numberOrOff') state[numberOrAutoTextKey(row.key)] = controlText(p[row.key]);
      const preset = Object.entries(PRESETS).find(([, values]) => Object.entries(values).every(([k, x]) => p[k as keyof SolverParams] === x));
      state.preset = preset ? preset[0] : 'custom';
      refreshObjects();
    });
    const activity = sim.activity;
    runCtrl.name(activity === 'pausing' ? 'Pausing… (Run)' : sim.isRunning ? 'Pause' : 'Run');
    runButton.dataset.running = String(sim.isRunning);
    runButton.dataset.activity = activity;
    for (const c of folder.controllersRecursive()) c.updateDisplay();
    markIdleControls(paramElements, p, sim.engineKind ?? 'gpu', sim.objects.length);
  }

  refresh();
  return { refresh };
}

export type { CollisionMode, ConstraintType, InterObjectMode, SolveOrder };
