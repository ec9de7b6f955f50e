/**
 * three.js renderer, scene, camera, orbit controls, lights and ground grid.
 *
 * The renderer is three's WebGPURenderer built on the SAME GPUDevice as the simulation
 * (DESIGN.md: one device, so drawing the simulated positions needs no copy between devices).
 * Without a device it falls back to three's WebGL 2 backend, for drawing only.
 */
import {
  Box3,
  Color,
  DirectionalLight,
  GridHelper,
  HemisphereLight,
  PerspectiveCamera,
  Scene,
  Sphere,
  Vector3,
  WebGPURenderer,
} from 'three/webgpu';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { BACKGROUND_COLOR, GRID_CENTER_COLOR, GRID_COLOR } from './palette';


export interface Viewer {
  renderer: WebGPURenderer;
  scene: Scene;
  camera: PerspectiveCamera;
  controls: OrbitControls;
  /** 'webgpu' when drawing on the simulation's device, 'webgl' for the drawing-only fallback. */
  backend: 'webgpu' | 'webgl';
  /** Places the ground grid under `bounds` and points the camera at them. */
  frame(bounds: Box3): void;
  /** Called once per animation frame just before drawing (e.g. GpuPositionLink.sync). */
  onBeforeRender: (() => void) | undefined;
  /** Called once per animation frame after drawing (frame counter for tests, timing later). */
  onAfterRender: ((frame: number) => void) | undefined;
  dispose(): void;
}

export async function createViewer(container: HTMLElement, device: GPUDevice | undefined): Promise<Viewer> {
  const renderer = new WebGPURenderer({
    antialias: true,
    device,
    forceWebGL: device === undefined,
  });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.setSize(container.clientWidth, container.clientHeight);
  await renderer.init();
  container.appendChild(renderer.domElement);
  const backend = (renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend ? 'webgpu' : 'webgl';

  const scene = new Scene();
  scene.background = new Color(BACKGROUND_COLOR);

  const camera = new PerspectiveCamera(40, container.clientWidth / Math.max(1, container.clientHeight), 0.01, 1000);
  camera.position.set(2.5, 1.8, 3.2);

  const controls = new OrbitControls(camera, renderer.domElement);
  controls.enableDamping = true;

  // A sky/ground hemisphere for soft fill plus a key light from above-front: enough to read
  // the shape of thin tentacles without shadow maps (costly on software adapters).
  scene.add(new HemisphereLight(0xdfe8ff, 0x2a2420, 0.9));
  const key = new DirectionalLight(0xfff4e8, 3.0);
  key.position.set(4, 7, 3);
  scene.add(key);
  const rim = new DirectionalLight(0x9fb8ff, 1.2);
  rim.position.set(-4, 2, -3);
  scene.add(rim);

  let grid: GridHelper | undefined;

  const frame = (bounds: Box3): void => {
    const sphere = bounds.getBoundingSphere(new Sphere());
    const radius = Math.max(sphere.radius, 1e-6);
    if (grid) {
      scene.remove(grid);
      grid.geometry.dispose();
      (grid.material as { dispose(): void }).dispose();
    }
    // Grid cells of a round size near a fifth of the object, 20 cells wide.
    const cell = 10 ** Math.round(Math.log10((radius * 2) / 5));
    grid = new GridHelper(cell * 20, 20, GRID_CENTER_COLOR, GRID_COLOR);
    grid.position.set(sphere.center.x, bounds.min.y, sphere.center.z);
    scene.add(grid);

    const distance = radius / Math.sin(((camera.fov / 2) * Math.PI) / 180);
    const direction = new Vector3(0.55, 0.42, 0.72).normalize();
    camera.position.copy(sphere.center).addScaledVector(direction, distance * 0.95);
    camera.near = distance / 100;
    camera.far = distance * 100;
    camera.updateProjectionMatrix();
    controls.target.copy(sphere.center);
    controls.update();
  };

  const resize = (): void => {
    const w = container.clientWidth;
    const h = Math.max(1, container.clientHeight);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    renderer.setSize(w, h);
  };
  window.addEventListener('resize', resize);

  let frameCount = 0;
  const viewer: Viewer = {
    renderer,
    scene,
    camera,
    controls,
    backend,
    frame,
    onBeforeRender: undefined,
    onAfterRender: undefined,
    dispose() {
      window.removeEventListener('resize', resize);
      renderer.setAnimationLoop(null);
      controls.dispose();
      renderer.dispose();
    },
  };
  renderer.setAnimationLoop(() => {
    controls.update();
    viewer.onBeforeRender?.();
    renderer.render(scene, camera);
    frameCount += 1;
    viewer.onAfterRender?.(frameCount);
  });
  return viewer;
}
