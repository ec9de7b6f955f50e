/**
 * The "Simulation" folder of the lil-gui panel: run/pause, single step, reset, and the solver
 * parameters and material of the simulated object. Parameters apply from the next frame;
 * sliders apply when let go (onFinishChange), not on every tick. Buttons carry stable ids
 * (#sim-run, #sim-step, #sim-reset) for tests.
 */
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import type { CollisionMode, ConstraintType, InterObjectMode, SolveOrder } from '../sim/params';
import type { SimulationController } from './simulationController';

export interface SimulationPanel {
  /** Re-reads the controller's values into the controls (after a new mesh or a rejected value). */
  refresh(): void;
}

function buttonOf(c: Controller, id: string): HTMLButtonElement {
  const button = (c as unknown as { $button: HTMLButtonElement }).$button;
  button.id = id;
  return button;
}

export function createSimulationPanel(gui: GUI, sim: SimulationController): SimulationPanel {
  const folder = gui.addFolder('Simulation');
  const p0 = sim.params;
  const m0 = sim.material;
  const state = {
    run: () => sim.toggle(),
    step: () => void sim.step(),
    reset: () => void sim.reset(),
    dt: p0.dt,
    substeps: p0.substeps,
    iterations: p0.iterations,
    solveOrder: p0.solveOrder as SolveOrder,
    jacobiRelaxation: p0.jacobiRelaxation,
    constraint: p0.constraint as ConstraintType,
    youngsModulus: m0.youngsModulus,
    poissonRatio: m0.poissonRatio,
    springCompliance: p0.springCompliance,
    density: m0.density,
    damping: p0.damping,
    gravityY: p0.gravity[1],
    friction: p0.friction,
    collisions: p0.collisions,
    selfCollision: p0.selfCollision,
    recovery: p0.recovery,
    interObject: p0.interObject as InterObjectMode,
    contactIterations: p0.contactIterations,
    collisionMode: p0.collisionMode as CollisionMode,
    bvhRebuildFrames: p0.bvhRebuildFrames,
  };

  const runCtrl = folder.add(state, 'run').name('Run');
  const runButton = buttonOf(runCtrl, 'sim-run');
  buttonOf(folder.add(state, 'step').name('Step one frame'), 'sim-step');
  buttonOf(folder.add(state, 'reset').name('Reset'), 'sim-reset');

  const solver = folder.addFolder('Solver');
  const param = <K extends 'dt' | 'substeps' | 'iterations' | 'damping' | 'friction' | 'springCompliance' | 'jacobiRelaxation'>(c: Controller, key: K): void => {
    c.onFinishChange((v: number) => sim.setParams({ [key]: v }));
  };
  param(solver.add(state, 'dt', 1 / 480, 1 / 20).decimals(5).name('dt (s per frame)'), 'dt');
  param(solver.add(state, 'substeps', 1, 60, 1).name('Substeps'), 'substeps');
  param(solver.add(state, 'iterations', 1, 30, 1).name('Iterations'), 'iterations');
  solver
    .add(state, 'solveOrder', { 'Gauss-Seidel (coloured)': 'gauss-seidel', 'Jacobi (averaged)': 'jacobi' })
    .name('Solve order')
    .onChange((v: SolveOrder) => sim.setParams({ solveOrder: v }));
  param(solver.add(state, 'jacobiRelaxation', 0.1, 2, 0.05).name('Jacobi relaxation'), 'jacobiRelaxation');
  solver
    .add(state, 'constraint', { 'Neo-Hookean (tets)': 'neohookean', 'Mass-spring (edges)': 'springs' })
    .name('Constraint')
    .onChange((v: ConstraintType) => sim.setParams({ constraint: v }));
  param(solver.add(state, 'damping', 0, 20, 0.01).name('Damping (1/s)'), 'damping');
  solver
    .add(state, 'gravityY', -30, 30, 0.01)
    .name('Gravity y (m/s²)')
    .onFinishChange((v: number) => sim.setParams({ gravity: [0, v, 0] }));
  param(solver.add(state, 'friction', 0, 1, 0.01).name('Friction (ground and contacts)'), 'friction');

  // Collisions (paper 000 section 4): runtime switches of the GPU collision stages and the CPU engine.
  const collisions = folder.addFolder('Collisions');
  collisions.add(state, 'collisions').name('Collisions').onChange((v: boolean) => sim.setParams({ collisions: v }));
  collisions.add(state, 'selfCollision').name('Self-collision').onChange((v: boolean) => sim.setParams({ selfCollision: v }));
  collisions.add(state, 'recovery').name('Recovery mode').onChange((v: boolean) => sim.setParams({ recovery: v }));
  collisions
    .add(state, 'interObject', { 'Shortest path (exact)': 'exact', 'Euclidean closest point': 'euclidean' })
    .name('Between objects')
    .onChange((v: InterObjectMode) => sim.setParams({ interObject: v }));
  collisions
    .add(state, 'collisionMode', { 'Hybrid CCD + DCD (Alg. 5)': 'hybrid', 'DCD + shortest path only': 'dcd', 'CCD only': 'ccd' })
    .name('Detection (Fig. 9)')
    .onChange((v: CollisionMode) => sim.setParams({ collisionMode: v }));
  collisions
    .add(state, 'contactIterations', 1, 10, 1)
    .name('Contact passes')
    .onFinishChange((v: number) => sim.setParams({ contactIterations: v }));
  collisions
    .add(state, 'bvhRebuildFrames', 0, 240, 1)
    .name('BVH rebuild every (frames, 0 = never)')
    .onFinishChange((v: number) => sim.setParams({ bvhRebuildFrames: v }));

  const material = folder.addFolder('Material');
  material
    .add(state, 'youngsModulus')
    .name("Young's modulus (Pa)")
    .onFinishChange((v: number) => sim.setMaterial({ youngsModulus: v }));
  material
    .add(state, 'poissonRatio', 0, 0.49, 0.01)
    .name('Poisson ratio')
    .onFinishChange((v: number) => sim.setMaterial({ poissonRatio: v }));
  material
    .add(state, 'density')
    .name('Density (kg/m³)')
    .onFinishChange((v: number) => sim.setMaterial({ density: v }));
  param(material.add(state, 'springCompliance').name('Spring compliance (m/N)'), 'springCompliance');

  function refresh(): void {
    const p = sim.params;
    const m = sim.material;
    Object.assign(state, {
      dt: p.dt,
      substeps: p.substeps,
      iterations: p.iterations,
      solveOrder: p.solveOrder,
      jacobiRelaxation: p.jacobiRelaxation,
      constraint: p.constraint,
      damping: p.damping,
      gravityY: p.gravity[1],
      friction: p.friction,
      collisions: p.collisions,
      selfCollision: p.selfCollision,
      recovery: p.recovery,
      interObject: p.interObject,
      contactIterations: p.contactIterations,
      collisionMode: p.collisionMode,
      bvhRebuildFrames: p.bvhRebuildFrames,
      springCompliance: p.springCompliance,
      youngsModulus: m.youngsModulus,
      poissonRatio: m.poissonRatio,
      density: m.density,
    });
    runCtrl.name(sim.isRunning ? 'Pause' : 'Run');
    runButton.dataset.running = String(sim.isRunning);
    for (const c of folder.controllersRecursive()) c.updateDisplay();
  }

  sim.onChange = refresh;
  refresh();
  return { refresh };
}
