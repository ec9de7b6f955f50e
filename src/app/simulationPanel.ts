/**
 * The "Simulation" folders of the lil-gui panel: run/pause, single step, reset, presets, the
 * solver parameters, every collision setting, the material of each object and the view
 * toggles. Parameters apply from the next frame; sliders apply when let go (onFinishChange),
 * not on every tick. A value the solver cannot use is refused by the controller with a message
 * on the banner, and the control shows the value in use again. Buttons and the object menu
 * carry stable ids (#sim-run, #sim-step, #sim-reset, #gui-object) for tests.
 */
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { CollisionMode, ConstraintType, InterObjectMode, SolveOrder, SolverParams } from '../sim/params';
import type { ViewSettings } from './config/pageConfig';
import type { SimulationController } from './simulationController';

export interface SimulationPanel {
  /** Re-reads the controller's values into the controls (after a new scene or a rejected value). */
  refresh(): void;
  /** The View folder (the page adds the move menu there). */
  readonly viewFolder: GUI;
}

/** Named parameter sets: cheap enough for a laptop, or closer to the paper's accuracy. */
export const PRESETS: Record<string, Partial<SolverParams>> = {
  'real-time': { substeps: 10, iterations: 2, contactIterations: 2, collisionMode: 'hybrid', bvhRebuildFrames: 60, culling: true },
  accurate: { substeps: 40, iterations: 4, contactIterations: 4, collisionMode: 'hybrid', bvhRebuildFrames: 10, culling: true },
};

export function buttonOf(c: Controller, id: string): HTMLButtonElement {
  const button = (c as unknown as { $button: HTMLButtonElement }).$button;
  button.id = id;
  return button;
}

type NumberKey = 'dt' | 'substeps' | 'iterations' | 'damping' | 'friction' | 'springCompliance' | 'jacobiRelaxation' | 'contactIterations' | 'bvhRebuildFrames' | 'epsI' | 'epsR';

export function createSimulationPanel(gui: GUI, sim: SimulationController): SimulationPanel {
  const folder = gui.addFolder('Simulation');
  const p0 = sim.params;
  const state = {
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
    ...sim.config.view,
    bvhOverlay: sim.config.view.bvhLevel >= 0,
    bvhLevel: Math.max(0, sim.config.view.bvhLevel),
  };

  const runCtrl = folder.add(state, 'run').name('Run');
  const runButton = buttonOf(runCtrl, 'sim-run');
  buttonOf(folder.add(state, 'step').name('Step one frame'), 'sim-step');
  buttonOf(folder.add(state, 'reset').name('Reset'), 'sim-reset');
  const presetCtrl = folder
    .add(state, 'preset', ['custom', ...Object.keys(PRESETS)])
    .name('Preset')
    .onChange((name: string) => {
      const preset = PRESETS[name];
      if (preset) sim.setParams(preset);
    });
  presetCtrl.domElement.id = 'gui-preset';

  const controls = new Map<string, Controller>();
  const param = <K extends NumberKey>(parent: GUI, key: K, label: string, min?: number, max?: number, step?: number): Controller => {
    const c = (min === undefined ? parent.add(state, key) : parent.add(state, key, min, max, step)).name(label);
    c.onFinishChange((v: number) => sim.setParams({ [key]: v }));
    c.domElement.id = `gui-${key}`;
    controls.set(key, c);
    return c;
  };
  const choice = <K extends keyof SolverParams>(parent: GUI, key: K, options: Record<string, string>, label: string): Controller => {
    const c = parent
      .add(state, key, options)
      .name(label)
      .onChange((v: SolverParams[K]) => sim.setParams({ [key]: v } as Partial<SolverParams>));
    c.domElement.id = `gui-${key}`;
    return c;
  };
  const toggle = (parent: GUI, key: 'collisions' | 'selfCollision' | 'recovery' | 'culling' | 'warmStart' | 'lineSearch', label: string): Controller => {
    const c = parent
      .add(state, key)
      .name(label)
      .onChange((v: boolean) => sim.setParams({ [key]: v }));
    c.domElement.id = `gui-${key}`;
    return c;
  };

  const solver = folder.addFolder('Solver');
  param(solver, 'dt', 'dt (s per frame)', 1 / 480, 1 / 20).decimals(5);
  param(solver, 'substeps', 'Substeps', 1, 100, 1);
  param(solver, 'iterations', 'Iterations', 1, 30, 1);
  choice(solver, 'solveOrder', { 'Gauss-Seidel (partitioned)': 'partitioned', 'Gauss-Seidel (coloured)': 'gauss-seidel', 'Jacobi (averaged)': 'jacobi' }, 'Solve order');
  param(solver, 'jacobiRelaxation', 'Jacobi relaxation', 0.1, 2, 0.05);
  toggle(solver, 'warmStart', 'Warm start (Gauss-Seidel)');
  toggle(solver, 'lineSearch', 'Line search (Gauss-Seidel)');
  choice(solver, 'constraint', { 'Neo-Hookean (tets)': 'neohookean', 'Mass-spring (edges)': 'springs' }, 'Constraint');
  param(solver, 'damping', 'Damping (1/s)', 0, 20, 0.01);
  const gravity = solver
    .add(state, 'gravityY', -30, 30, 0.01)
    .name('Gravity y (m/s²)')
    .onFinishChange((v: number) => sim.setParams({ gravity: [0, v, 0] }));
  gravity.domElement.id = 'gui-gravity';
  param(solver, 'friction', 'Friction (colliders and contacts)', 0, 1, 0.01);

  // Collisions (paper 000 section 4): runtime switches of the GPU collision stages and the CPU engine.
  const collisions = folder.addFolder('Collisions');
  toggle(collisions, 'collisions', 'Collisions');
  toggle(collisions, 'selfCollision', 'Self-collision');
  toggle(collisions, 'recovery', 'Recovery mode (section 5.2)');
  choice(collisions, 'interObject', { 'Shortest path (exact)': 'exact', 'Euclidean closest point': 'euclidean' }, 'Between objects (Fig. 15)');
  choice(collisions, 'collisionMode', { 'Hybrid CCD + DCD (Alg. 5)': 'hybrid', 'DCD + shortest path only': 'dcd', 'CCD only': 'ccd' }, 'Detection (Fig. 9)');
  toggle(collisions, 'culling', 'Infeasible-region culling (3.6)');
  param(collisions, 'epsI', 'eps_i (Alg. 2, × h²)');
  param(collisions, 'epsR', 'eps_r (Alg. 4, cosine)');
  param(collisions, 'contactIterations', 'Contact passes', 1, 10, 1);
  param(collisions, 'bvhRebuildFrames', 'BVH rebuild every (frames, 0 = never)', 0, 240, 1);

  const material = folder.addFolder('Material');
  let objectCtrl = material.add(state, 'object', { object: 0 }).name('Object');
  const young = material.add(state, 'youngsModulus').name("Young's modulus (Pa)");
  young.domElement.id = 'gui-young';
  const poisson = material.add(state, 'poissonRatio', 0, 0.49, 0.01).name('Poisson ratio');
  const density = material.add(state, 'density').name('Density (kg/m³)');
  young.onFinishChange((v: number) => sim.setMaterial(state.object, { youngsModulus: v }));
  poisson.onFinishChange((v: number) => sim.setMaterial(state.object, { poissonRatio: v }));
  density.onFinishChange((v: number) => sim.setMaterial(state.object, { density: v }));
  param(material, 'springCompliance', 'Spring compliance (m/N)');
  let objectNames = '';

  const view = folder.addFolder('View');
  const viewToggle = (key: 'tint' | 'shadows' | 'wireframe' | 'points' | 'paths' | 'ccd', label: string): void => {
    const c = view
      .add(state, key)
      .name(label)
      .onChange((v: boolean) => sim.setView({ [key]: v } as Partial<ViewSettings>));
    c.domElement.id = `gui-view-${key}`;
  };
  viewToggle('tint', 'Blue intersections (deeper = bluer)');
  viewToggle('shadows', 'Shadows');
  viewToggle('wireframe', 'Wireframe');
  viewToggle('points', 'Overlay: penetrating points');
  viewToggle('paths', 'Overlay: shortest paths');
  viewToggle('ccd', 'Overlay: CCD contacts');
  view.add(state, 'bvhOverlay').name('Overlay: BVH boxes').onChange((on: boolean) => sim.setView({ bvhLevel: on ? state.bvhLevel : -1 }));
  view
    .add(state, 'bvhLevel', 0, 20, 1)
    .name('BVH level')
    .onFinishChange((level: number) => {
      if (state.bvhOverlay) sim.setView({ bvhLevel: level });
    });

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
    Object.assign(state, { ...p, gravityY: p.gravity[1] });
    const v = sim.config.view;
    Object.assign(state, v, { bvhOverlay: v.bvhLevel >= 0, bvhLevel: v.bvhLevel >= 0 ? v.bvhLevel : state.bvhLevel });
    const preset = Object.entries(PRESETS).find(([, values]) => Object.entries(values).every(([k, x]) => p[k as keyof SolverParams] === x));
    state.preset = preset ? preset[0] : 'custom';
    refreshObjects();
    runCtrl.name(sim.isRunning ? 'Pause' : 'Run');
    runButton.dataset.running = String(sim.isRunning);
    for (const c of folder.controllersRecursive()) c.updateDisplay();
  }

  refresh();
  return { refresh, viewFolder: view };
}

export type { CollisionMode, ConstraintType, InterObjectMode, SolveOrder };
