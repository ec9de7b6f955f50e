/**
 * Grab a vertex to drag an object: Shift + left-drag on an object (plain drags orbit the camera,
 * three's OrbitControls). At the press the positions are read back once and the boundary vertex
 * under the mouse is picked (pickVertex.ts); while the button is held the vertex follows the
 * mouse in the plane facing the camera (GpuSolver.grab: a kinematic handle for that vertex);
 * letting go releases it with the velocity it had. GPU engine only (the CPU engine's positions
 * live in its worker); the status line says so when tried there.
 */
import { Raycaster, Vector2, Vector3 } from 'three/webgpu';
import { GpuEngine } from '../gpuEngine';
import type { Viewer } from '../renderer';
import type { PageDrawing } from '../sceneDrawingFactory';
import type { SimulationEngine } from '../simulationEngine';
import { dragTarget, pickVertex, type Ray } from './pickVertex';

export interface MouseGrabParts {
  viewer: Viewer;
  current(): { engine: SimulationEngine | undefined; drawing: PageDrawing | undefined };
  say(message: string): void;
}

export function installMouseGrab(parts: MouseGrabParts): () => void {
  const { viewer } = parts;
  const canvas = viewer.renderer.domElement;
  const raycaster = new Raycaster();
  let grabbing: { engine: GpuEngine; point: [number, number, number]; pointer: number } | undefined;

  const rayAt = (event: PointerEvent): Ray => {
    const rect = canvas.getBoundingClientRect();
    const ndc = new Vector2(((event.clientX - rect.left) / rect.width) * 2 - 1, -((event.clientY - rect.top) / rect.height) * 2 + 1);
    raycaster.setFromCamera(ndc, viewer.camera);
    const o = raycaster.ray.origin, d = raycaster.ray.direction;
    return { origin: [o.x, o.y, o.z], direction: [d.x, d.y, d.z] };
  };

  const viewDirection = (): [number, number, number] => {
    const d = viewer.camera.getWorldDirection(new Vector3());
    return [d.x, d.y, d.z];
  };

  const down = async (event: PointerEvent): Promise<void> => {
    if (event.button !== 0 || !event.shiftKey) return;
    const { engine, drawing } = parts.current();
    if (!engine || !drawing) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    if (!(engine instanceof GpuEngine)) {
      parts.say('Grabbing a vertex needs the GPU engine (the CPU engine keeps its positions in its worker).');
      return;
    }
    viewer.controls.enabled = false;
    const ray = rayAt(event);
    const positions = await engine.gpuSolver.readPositions();
    const surface = drawing.view.surface;
    const picked = pickVertex(positions, surface.boundaryVertices, ray, 1.5 * surface.meanEdgeLength);
    if (!picked) {
      viewer.controls.enabled = true;
      return;
    }
    try {
      engine.gpuSolver.grab.grab(picked.vertex, picked.position);
    } catch (error) {
      viewer.controls.enabled = true;
      parts.say((error as Error).message);
      return;
    }
    grabbing = { engine, point: picked.position, pointer: event.pointerId };
    canvas.setPointerCapture(event.pointerId);
    canvas.dataset.grabbedVertex = String(picked.vertex);
  };

  const move = (event: PointerEvent): void => {
    if (!grabbing || event.pointerId !== grabbing.pointer) return;
    const target = dragTarget(rayAt(event), grabbing.point, viewDirection());
    if (target) grabbing.engine.gpuSolver.grab.moveTo(target);
  };

  const up = (event: PointerEvent): void => {
    if (!grabbing || event.pointerId !== grabbing.pointer) return;
    grabbing.engine.gpuSolver.grab.release();
    grabbing = undefined;
    delete canvas.dataset.grabbedVertex;
    viewer.controls.enabled = true;
  };

  const onDown = (event: PointerEvent): void => void down(event);
  // Capture phase: ahead of OrbitControls, which would start orbiting.
  canvas.addEventListener('pointerdown', onDown, { capture: true });
  canvas.addEventListener('pointermove', move);
  canvas.addEventListener('pointerup', up);
  canvas.addEventListener('pointercancel', up);
  return () => {
    canvas.removeEventListener('pointerdown', onDown, { capture: true });
    canvas.removeEventListener('pointermove', move);
    canvas.removeEventListener('pointerup', up);
    canvas.removeEventListener('pointercancel', up);
  };
}
