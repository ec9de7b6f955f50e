/**
 * Moving colliders and pins with the mouse (three's TransformControls): the "Move" menu of the
 * View folder picks a collider or a pin of the scene (moveTargets.ts); a translate gizmo appears
 * on it, and dragging it moves the collider or the pin by the gizmo's translation on top of its
 * own scripted motion, from the next simulated frame (GpuSolver.setCollider / setHandleScript).
 * A moved collider moves in that frame: it carries what it moved into at once (not at the
 * depenetration speed of a body placed inside a static collider).
 * While the gizmo is dragged the camera does not orbit. GPU engine only (the CPU engine's scene
 * lives in its worker). Stable id for tests: #gui-move (the menu).
 */
import type GUI from 'lil-gui';
import type { Controller } from 'lil-gui';
import { Object3D } from 'three/webgpu';
import { TransformControls } from 'three/examples/jsm/controls/TransformControls.js';
import type { Collider, Vec3 } from '../../sim/colliders';
import type { HandleScript } from '../../sim/handles';
import { GpuEngine } from '../gpuEngine';
import type { Viewer } from '../renderer';
import type { PageScene } from '../scene/pageScene';
import type { SimulationEngine } from '../simulationEngine';
import { anchorOf, movedCollider, movedHandle, moveTargetsOf, type MoveTarget } from './moveTargets';

export interface MoveControlsParts {
  viewer: Viewer;
  current(): { engine: SimulationEngine | undefined; scene: PageScene | undefined };
  say(message: string): void;
}

export interface MoveControls {
  /** A new scene (or engine): rebuild the menu, drop the gizmo. */
  refresh(): void;
}

export function createMoveControls(folder: GUI, parts: MoveControlsParts): MoveControls {
  const { viewer } = parts;
  const gizmo = new TransformControls(viewer.camera, viewer.renderer.domElement);
  gizmo.setMode('translate');
  const anchor = new Object3D();
  viewer.scene.add(anchor);
  const helper = gizmo.getHelper();
  viewer.scene.add(helper);
  gizmo.addEventListener('dragging-changed', (event) => {
    viewer.controls.enabled = !(event as unknown as { value: boolean }).value;
  });
  gizmo.addEventListener('change', () => viewer.requestRender());

  let chosen: { target: MoveTarget; start: Vec3; collider?: Collider; script?: HandleScript; engine: GpuEngine; scene: PageScene } | undefined;
  gizmo.addEventListener('objectChange', () => {
    if (!chosen) return;
    const p = anchor.position;
    const delta: Vec3 = [p.x - chosen.start[0], p.y - chosen.start[1], p.z - chosen.start[2]];
    const solver = chosen.engine.gpuSolver;
    if (chosen.target.kind === 'collider') solver.setCollider(chosen.target.index, movedCollider(chosen.collider!, delta));
    else {
      const script = movedHandle(chosen.script!, delta);
      solver.setHandleScript(chosen.target.index, script);
      chosen.scene.setup.handles[chosen.target.index] = script; // the page's copy (anchors, the drawing)
    }
    viewer.requestRender();
  });

  const state = { move: 'none' };
  let menu: Controller = folder.add(state, 'move', ['none']).name('Move with the mouse');
  let targets: MoveTarget[] = [];

  const detach = (): void => {
    gizmo.detach();
    chosen = undefined;
  };

  const choose = (label: string): void => {
    detach();
    const target = targets.find((t) => t.label === label);
    if (!target) return;
    const { engine, scene } = parts.current();
    if (!engine || !scene) return;
    if (!(engine instanceof GpuEngine)) {
      parts.say('Moving colliders and pins needs the GPU engine (the CPU engine keeps its scene in its worker).');
      state.move = 'none';
      menu.updateDisplay();
      return;
    }
    const b = scene.bounds;
    const focus: Vec3 = [(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2, (b.min[2] + b.max[2]) / 2];
    const start = anchorOf(target, scene.setup, engine.time, focus);
    anchor.position.set(...start);
    chosen = {
      target,
      start,
      engine,
      scene,
      collider: target.kind === 'collider' ? scene.setup.colliders[target.index] : undefined,
      script: target.kind === 'pin' ? scene.setup.handles[target.index] : undefined,
    };
    gizmo.attach(anchor);
    viewer.requestRender();
  };

  const refresh = (): void => {
    detach();
    const { scene } = parts.current();
    targets = scene ? moveTargetsOf(scene.setup) : [];
    const next = folder.add(state, 'move', ['none', ...targets.map((t) => t.label)]).name('Move with the mouse');
    menu.domElement.before(next.domElement);
    menu.destroy();
    menu = next;
    menu.domElement.id = 'gui-move';
    state.move = 'none';
    menu.updateDisplay();
    menu.onChange((label: string) => choose(label));
  };

  refresh();
  return { refresh };
}
