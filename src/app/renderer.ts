/**
 * three.js renderer, scene, camera, orbit controls, lights, ground grid and (for scenes) a
 * shadow-receiving ground plane.
 *
 * The renderer is three's WebGPURenderer built on the SAME GPUDevice as the simulation
 * (DESIGN.md: one device, so drawing the simulated positions needs no copy between devices).
 * Without a device it falls back to three's WebGL 2 backend, for drawing only.
 *
 * Two ways to place the view:
 *   viewer.frame(bounds)                      single-mesh viewer: grid under the mesh, no ground plane
 *   viewer.frameScene(bounds, { groundY })    a scene: light ground plane + grid at groundY (default
 *                                             bounds.min.y), the key light's shadow camera fitted to
 *                                             the bounds, the camera framed on them. Call once when a
 *                                             scene is shown; nothing moves the camera afterwards
 *                                             except the user's orbit/zoom (and viewer.reframe()).
 * Framing (render/framing.ts) puts all eight corners of the bounds, ground included, inside the
 * part of the canvas the panel does not cover (viewer.setInsets: the panel's width on the right;
 * the projection's centre is moved to the middle of the uncovered part).
 * Shadows: `viewer.shadows = true | false` (the key light casts them; the ground, and objects that
 * set receiveShadow, receive them), `viewer.shadowMapSize = 512` by default (software adapters
 * are slow; 1024-2048 on a real GPU).
 */
import {
  Box3,
  Color,
  DirectionalLight,
  GridHelper,
  HemisphereLight,
  Mesh,
  MeshStandardNodeMaterial,
  PerspectiveCamera,
  PlaneGeometry,
  Scene,
  Sphere,
  Vector3,
  WebGPURenderer,
} from 'three/webgpu';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { BACKGROUND_COLOR, GRID_CENTER_COLOR, GRID_COLOR, GROUND_COLOR, HEMISPHERE_GROUND, HEMISPHERE_INTENSITY, HEMISPHERE_SKY } from './palette';
import { frameBox } from './render/framing';


/** With nothing asking for frames, the view is still redrawn this often (ms). */
const IDLE_REDRAW_MS = 1000;

export interface Viewer {
  renderer: WebGPURenderer;
  scene: Scene;
  camera: PerspectiveCamera;
  controls: OrbitControls;
  /** 'webgpu' when drawing on the simulation's device, 'webgl' for the drawing-only fallback. */
  backend: 'webgpu' | 'webgl';
  /** Places the ground grid under `bounds` and points the camera at them (no ground plane). */
  frame(bounds: Box3): void;
  /**
   * Shows a scene: ground plane and grid at `groundY` (default bounds.min.y), the shadow camera
   * fitted to `bounds`, and the camera framed on them once.
   */
  frameScene(bounds: Box3, options?: { groundY?: number }): void;
  /** The shadow-receiving ground plane (hidden until frameScene). */
  readonly ground: Mesh;
  /** Canvas pixels covered by the page's panel on the right: framing keeps the scene out of them. */
  setInsets(insets: { right: number }): void;
  /** Points the camera at the last framed bounds again (the F key). */
  reframe(): void;
  /** Whether the key light casts shadows (on by default). */
  shadows: boolean;
  /** Shadow map resolution in texels per side (512 by default). */
  shadowMapSize: number;
  /** Called once per animation frame just before drawing (e.g. GpuPositionLink.sync). */
  onBeforeRender: (() => void) | undefined;
  /** Called once per animation frame after drawing (frame counter for tests, timing later). */
  onAfterRender: ((frame: number) => void) | undefined;
  /** Asks for a frame to be drawn (the loop draws only on demand, or once a second). */
  requestRender(): void;
  /** JavaScript time of the last drawn frame (its GPU copies and render call), ms: the recorder's renderMs. */
  lastRenderMs: number;
  dispose(): void;
}

export interface ViewerOptions {
  /**
   * Multisampled edges (default true). The page turns them off on software adapters, where 4x
   * MSAA multiplies the fragment work the CPU emulates.
   */
  antialias?: boolean;
}

export async function createViewer(container: HTMLElement, device: GPUDevice | undefined, options: ViewerOptions = {}): Promise<Viewer> {
  const renderer = new WebGPURenderer({
    antialias: options.antialias ?? true,
    device,
    forceWebGL: device === undefined,
  });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  // The map stays enabled; `viewer.shadows` switches the light's castShadow (three rebuilds the
  // lighting of each material when that changes).
  renderer.shadowMap.enabled = true;
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
  // the shape of thin tentacles without shadow maps (costly on software adapters). The
  // hemisphere's lower half is the light bounced off the light ground plane (GROUND_COLOR in
  // shade), so faces turned down stay readable: with a near-black lower half (0x2a2420 at 0.9)
  // they got 0.7 % of their colour in linear light (8 % as displayed) and showed as black
  // patches against the light ground; now 10 % (35 % as displayed).
  scene.add(new HemisphereLight(HEMISPHERE_SKY, HEMISPHERE_GROUND, HEMISPHERE_INTENSITY));
  const key = new DirectionalLight(0xfff4e8, 3.0);
  key.position.set(4, 7, 3);
  // Off until a scene is shown (the single-mesh viewer draws no shadows); frameScene turns them
  // on unless the user chose through `viewer.shadows`.
  key.castShadow = false;
  let shadowsChosen = false;
  /** Radius of the sphere the shadow camera holds (set by frameScene). */
  let shadowRadius = 1;
  key.shadow.mapSize.set(512, 512);
  scene.add(key);
  scene.add(key.target);
  /** Direction from the scene towards the key light. */
  const keyDirection = new Vector3(4, 7, 3).normalize();
  const rim = new DirectionalLight(0x9fb8ff, 1.2);
  rim.position.set(-4, 2, -3);
  scene.add(rim);

  let grid: GridHelper | undefined;

  const ground = new Mesh(new PlaneGeometry(1, 1), new MeshStandardNodeMaterial({ color: GROUND_COLOR, roughness: 0.95, metalness: 0 }));
  ground.name = 'ground';
  ground.rotation.x = -Math.PI / 2;
  ground.receiveShadow = true;
  ground.visible = false;
  scene.add(ground);

  /** Grid of round cells near a fifth of the object, 20 cells wide, centred under `sphere` at height y. */
  const placeGrid = (sphere: Sphere, y: number): number => {
    if (grid) {
      scene.remove(grid);
      grid.geometry.dispose();
      (grid.material as { dispose(): void }).dispose();
    }
    const cell = 10 ** Math.round(Math.log10((Math.max(sphere.radius, 1e-6) * 2) / 5));
    grid = new GridHelper(cell * 20, 20, GRID_CENTER_COLOR, GRID_COLOR);
    grid.position.set(sphere.center.x, y, sphere.center.z);
    scene.add(grid);
    return cell * 20;
  };

  /** Canvas pixels the panel covers on the right. */
  let insetRight = 0;
  /** The bounds framed last (reframe). */
  let framed: Box3 | undefined;

  /** Projection centred on the uncovered part of the canvas (a view offset of insetRight pixels). */
  const applyProjection = (): void => {
    const w = Math.max(1, container.clientWidth);
    const h = Math.max(1, container.clientHeight);
    const right = Math.min(Math.max(0, insetRight), 0.5 * w);
    camera.aspect = (w + right) / h;
    if (right > 0) camera.setViewOffset(w + right, h, right, 0, w, h);
    else camera.clearViewOffset();
    camera.updateProjectionMatrix();
  };

  const aimCamera = (box: Box3): void => {
    framed = box.clone();
    const w = Math.max(1, container.clientWidth);
    const h = Math.max(1, container.clientHeight);
    const right = Math.min(Math.max(0, insetRight), 0.5 * w);
    const f = frameBox({
      min: [box.min.x, box.min.y, box.min.z],
      max: [box.max.x, box.max.y, box.max.z],
      direction: [0.55, 0.42, 0.72],
      fovYDeg: camera.fov,
      aspect: (w - right) / h,
    });
    camera.position.set(...f.position);
    camera.near = f.distance / 100;
    camera.far = f.distance * 100;
    applyProjection();
    controls.target.set(...f.target);
    controls.update();
  };

  /** A frame was asked for (requestRender, a camera or view change). */
  let dirty = true;
  const frame = (bounds: Box3): void => {
    dirty = true;
    const sphere = bounds.getBoundingSphere(new Sphere());
    ground.visible = false;
    placeGrid(sphere, bounds.min.y);
    aimCamera(bounds);
  };

  const frameScene = (bounds: Box3, options: { groundY?: number } = {}): void => {
    dirty = true;
    if (bounds.isEmpty()) throw new Error('frameScene: the scene bounds are empty');
    const groundY = options.groundY ?? bounds.min.y;
    if (!Number.isFinite(groundY)) throw new Error(`frameScene: ground height ${groundY} is not a finite number`);
    // The ground belongs in the framed region so the shadows on it are in view.
    const withGround = bounds.clone().expandByPoint(new Vector3(bounds.min.x, groundY, bounds.min.z));
    const sphere = withGround.getBoundingSphere(new Sphere());
    const radius = Math.max(sphere.radius, 1e-6);
    const gridSize = placeGrid(sphere, groundY + radius * 1e-3); // just above the plane: no z-fighting
    ground.visible = true;
    ground.scale.set(Math.max(gridSize, 8 * radius), Math.max(gridSize, 8 * radius), 1);
    ground.position.set(sphere.center.x, groundY, sphere.center.z);

    // Key light along its direction from the scene; an orthographic shadow camera that just
    // holds the bounding sphere (any light-space extent of the scene lies within +-radius).
    key.target.position.copy(sphere.center);
    key.position.copy(sphere.center).addScaledVector(keyDirection, 3 * radius);
    const cam = key.shadow.camera;
    cam.left = -radius;
    cam.right = radius;
    cam.top = radius;
    cam.bottom = -radius;
    cam.near = radius;
    cam.far = 5 * radius;
    cam.updateProjectionMatrix();
    key.shadow.bias = -0.0005;
    shadowRadius = radius;
    // One texel (a texel is 2 radius / mapSize). Only the ground receives shadows (SceneView's
    // objects cast but do not receive: self-shadowing put acne on the jagged rims of stuffed
    // meshes unless the bias was so large that shadows detached from the objects' feet).
    key.shadow.normalBias = (2 * shadowRadius) / key.shadow.mapSize.x;
    if (!shadowsChosen) key.castShadow = true;
    aimCamera(withGround);
  };

  const resize = (): void => {
    dirty = true;
    applyProjection();
    renderer.setSize(container.clientWidth, Math.max(1, container.clientHeight));
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
    frameScene,
    ground,
    setInsets(insets) {
      if (!(insets.right >= 0) || !Number.isFinite(insets.right)) throw new RangeError(`setInsets: right ${insets.right} must be a finite number >= 0`);
      if (insets.right === insetRight) return;
      insetRight = insets.right;
      dirty = true;
      applyProjection();
    },
    reframe() {
      dirty = true;
      if (framed) aimCamera(framed);
    },
    get shadows() {
      return key.castShadow;
    },
    set shadows(on: boolean) {
      shadowsChosen = true;
      if (key.castShadow !== on) dirty = true;
      key.castShadow = on;
    },
    get shadowMapSize() {
      return key.shadow.mapSize.x;
    },
    set shadowMapSize(size: number) {
      if (!(Number.isInteger(size) && size >= 16 && size <= 8192)) throw new RangeError(`shadowMapSize ${size} must be an integer in [16, 8192]`);
      key.shadow.mapSize.set(size, size); // three resizes its shadow target at the next shadow pass
      key.shadow.normalBias = (2 * shadowRadius) / size;
    },
    onBeforeRender: undefined,
    onAfterRender: undefined,
    lastRenderMs: 0,
    requestRender() {
      dirty = true;
    },
    dispose() {
      window.removeEventListener('resize', resize);
      renderer.setAnimationLoop(null);
      controls.dispose();
      ground.geometry.dispose();
      ground.material.dispose();
      renderer.dispose();
    },
  };
  // Drawing on demand: a frame is drawn when something asked for it (a simulation frame, a view
  // change, the camera moving or damping out), else once a second. A continuous loop costs the
  // simulation its GPU on software adapters: measured 4.5 s against 1.1 s of page time per
  // simulated frame of a 16k-tet squishy ball on SwiftShader.
  let lastDrawn = 0;
  controls.addEventListener('change', () => (dirty = true));
  renderer.setAnimationLoop(() => {
    const start = performance.now();
    const moved = controls.update();
    if (!dirty && !moved && start - lastDrawn < IDLE_REDRAW_MS) return;
    dirty = false;
    lastDrawn = start;
    viewer.onBeforeRender?.();
    renderer.render(scene, camera);
    // Recording time on the page's thread (the GPU draws asynchronously): the recorder's renderMs.
    viewer.lastRenderMs = performance.now() - start;
    frameCount += 1;
    viewer.onAfterRender?.(frameCount);
  });
  return viewer;
}
