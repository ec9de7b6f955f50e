/**
 * SceneView: draws every object of a multi-object scene (a sim/model.ts Model) as its own
 * three.js Mesh, in its own colour (palette.ts objectColor, never blue), with normals from the
 * current positions and the blue penetration tint (tintMaterial.ts).
 *
 *   const view = new SceneView(viewer.renderer, model, { staticObjects: [2] });
 *   view.addTo(viewer.scene);
 *   viewer.frameScene(view.bounds(), { groundY: 0 });
 *   // WebGPU, on the simulation's device: nothing crosses to the CPU.
 *   view.linkGpu({ device, positions: state.positions, depth: depthBuffer });
 *   viewer.onBeforeRender = () => view.sync();
 *   // CPU engine / WebGL fallback: once per frame with the new positions.
 *   view.updateFromCpu(positionsXyz, depthPerVertex);
 *   view.tint = false; view.depthFraction = 0.5; view.wireframe = true;
 *
 * Geometry: object o's mesh holds the vertex range [objectVertexOffsets[o], [o+1]) of the scene
 * (interior vertices included, never indexed) and the boundary triangles of its own tets in
 * local ids (sceneSurface.ts). Attributes: `position` (xyzw, so the solver's array<vec4f> is
 * copied as is), `normal` (xyz), `depth` (vec4, w read by the tint).
 *
 * linkGpu: each sync() records ONE command encoder: the normals pass (vertexNormalsKernel.ts)
 * over the positions buffer, then per object a copyBufferToBuffer of its range of positions,
 * normals and depth into the GPU buffers three.js draws from (found through the backend, as
 * GpuPositionLink does; three creates them at the first draw, so copies start on the frame
 * after). Bounds are then unknown on the CPU: meshes are never frustum-culled.
 */
import { Box3, BufferAttribute, BufferGeometry, Group, Mesh, type MeshStandardNodeMaterial, type Object3D, type WebGPURenderer } from 'three/webgpu';
import { objectColor, STATIC_OBJECT_COLOR } from '../palette';
import { buildSceneSurface, type SceneSurface, type SceneTopologySource } from './sceneSurface';
import { DEPTH_ATTRIBUTE, intersectionXrayMaterial, TintUniforms, tintedMaterial } from './tintMaterial';
import { VertexNormalsKernel } from './vertexNormalsKernel';
import type { GpuSceneSource } from '../scene/sceneDrawing';

/** What the view needs from a Model (sim/model.ts Model satisfies it). */
export interface SceneModelSource extends SceneTopologySource {
  readonly objectNames: readonly string[];
}

export interface SceneViewOptions {
  /** Objects that are static collider meshes: drawn in STATIC_OBJECT_COLOR, untinted. */
  staticObjects?: readonly number[];
  /** Tint depth scale as a fraction of the scene's mean boundary edge (default 0.5). */
  depthFraction?: number;
}

export type { GpuSceneSource } from '../scene/sceneDrawing';

interface ObjectMesh {
  mesh: Mesh<BufferGeometry, MeshStandardNodeMaterial>;
  first: number;
  count: number;
}

/** three's per-attribute backend data; the GPU buffer appears after the first draw. */
interface BackendData {
  get(object: object): { buffer?: GPUBuffer };
}

export class SceneView {
  readonly group = new Group();
  readonly surface: SceneSurface;
  readonly tintUniforms = new TintUniforms();
  private readonly objects: ObjectMesh[] = [];
  /** The see-through tint, shared by every tinted object (tintMaterial.ts intersectionXrayMaterial). */
  private readonly xrayMaterial = intersectionXrayMaterial(this.tintUniforms);
  private readonly restPositions: ArrayLike<number>;
  private fraction = 0.5;
  private gpu?: { source: GpuSceneSource; kernel: VertexNormalsKernel };
  /** Frames whose attributes were filled from the GPU buffers (0 until three made its buffers). */
  gpuCopies = 0;
  /**
   * true (default): sync() runs the normals pass and copies every frame. false: only after
   * invalidate() (three keeps the last copy, so a paused scene costs nothing).
   */
  syncEveryFrame = true;
  private dirty = true;
  /** updateFromCpu wrote arrays that three uploads at the next render, over that frame's copy. */
  private cpuWritten = false;

  constructor(
    private readonly renderer: WebGPURenderer,
    model: SceneModelSource,
    options: SceneViewOptions = {},
  ) {
    this.surface = buildSceneSurface(model);
    this.restPositions = model.restPositions;
    const statics = new Set(options.staticObjects ?? []);
    for (const o of statics) {
      if (!(Number.isInteger(o) && o >= 0 && o < this.surface.objectCount)) {
        throw new RangeError(`SceneView: static object ${o} is not an object of the scene (0..${this.surface.objectCount - 1})`);
      }
    }
    const s = this.surface;
    for (let o = 0; o < s.objectCount; o++) {
      const first = s.objectVertexOffsets[o];
      const count = s.objectVertexOffsets[o + 1] - first;
      const geometry = new BufferGeometry();
      // xyzw on both paths: the GPU link copies the solver's array<vec4f> range as is, and the
      // attribute (and three's buffer for it) never has to be replaced when linking.
      const xyzw = new Float32Array(4 * count);
      for (let v = 0; v < count; v++) {
        for (let k = 0; k < 3; k++) xyzw[4 * v + k] = model.restPositions[3 * (first + v) + k];
        xyzw[4 * v + 3] = 1;
      }
      geometry.setAttribute('position', new BufferAttribute(xyzw, 4));
      geometry.setAttribute(DEPTH_ATTRIBUTE, new BufferAttribute(new Float32Array(4 * count), 4));
      const tris = s.triangles.subarray(3 * s.objectTriangleOffsets[o], 3 * s.objectTriangleOffsets[o + 1]);
      const local = new Uint32Array(tris.length);
      for (let i = 0; i < tris.length; i++) local[i] = tris[i] - first;
      geometry.setIndex(new BufferAttribute(local, 1));
      geometry.computeVertexNormals();
      geometry.computeBoundingBox();
      geometry.computeBoundingSphere();
      const isStatic = statics.has(o);
      const material = tintedMaterial(this.tintUniforms, { color: isStatic ? STATIC_OBJECT_COLOR : objectColor(o), tinted: !isStatic });
      const mesh = new Mesh(geometry, material);
      mesh.name = model.objectNames[o] ?? `object ${o}`;
      // Cast onto the ground; not receive (self-shadow acne on jagged stuffed rims, see renderer.ts).
      mesh.castShadow = true;
      mesh.receiveShadow = false;
      this.group.add(mesh);
      if (!isStatic) {
        // Same geometry (and GPU buffers), drawn again on top: the buried penetrating surface shows through.
        const xray = new Mesh(geometry, this.xrayMaterial);
        xray.name = `${mesh.name} (intersections)`;
        xray.renderOrder = 10;
        xray.frustumCulled = false;
        this.group.add(xray);
      }
      this.objects.push({ mesh, first, count });
    }
    this.group.name = 'scene-objects';
    this.depthFraction = options.depthFraction ?? 0.5;
  }

  get objectCount(): number {
    return this.objects.length;
  }

  /** The Mesh drawing object `o`. */
  mesh(o: number): Mesh {
    const entry = this.objects[o];
    if (!entry) throw new RangeError(`SceneView.mesh: no object ${o} (the scene has ${this.objects.length})`);
    return entry.mesh;
  }

  /** Blue tint on/off (all objects). */
  set tint(on: boolean) {
    this.tintUniforms.enabled = on;
  }

  get tint(): boolean {
    return this.tintUniforms.enabled;
  }

  /** Depth at which the surface is fully blue, as a fraction of the mean boundary edge (> 0). */
  set depthFraction(fraction: number) {
    if (!(fraction > 0) || !Number.isFinite(fraction)) throw new RangeError(`SceneView.depthFraction ${fraction} must be a finite number > 0`);
    const edge = this.surface.meanEdgeLength > 0 ? this.surface.meanEdgeLength : 1;
    this.tintUniforms.setDepthScale(fraction * edge);
    this.fraction = fraction;
  }

  get depthFraction(): number {
    return this.fraction;
  }

  /** The tint's depth scale in world units. */
  get depthScale(): number {
    return this.tintUniforms.depthScale.value as number;
  }

  set wireframe(on: boolean) {
    for (const { mesh } of this.objects) mesh.material.wireframe = on;
  }

  get wireframe(): boolean {
    return this.objects[0]?.mesh.material.wireframe ?? false;
  }

  set visible(on: boolean) {
    this.group.visible = on;
  }

  get visible(): boolean {
    return this.group.visible;
  }

  /** Axis-aligned bounds of `positions` (xyz per scene vertex; default: the rest positions). */
  bounds(positions: ArrayLike<number> = this.restPositions): Box3 {
    const box = new Box3();
    const n = this.surface.vertexCount;
    if (positions.length < 3 * n) throw new Error(`SceneView.bounds: ${positions.length / 3} positions for ${n} vertices`);
    for (let v = 0; v < n; v++) {
      const x = positions[3 * v], y = positions[3 * v + 1], z = positions[3 * v + 2];
      if (x < box.min.x) box.min.x = x;
      if (y < box.min.y) box.min.y = y;
      if (z < box.min.z) box.min.z = z;
      if (x > box.max.x) box.max.x = x;
      if (y > box.max.y) box.max.y = y;
      if (z > box.max.z) box.max.z = z;
    }
    return box;
  }

  /**
   * Draws from the simulation's GPU buffers from now on (WebGPU backend on `source.device`,
   * the renderer's device). Call again when the solver replaces a buffer.
   */
  linkGpu(source: GpuSceneSource): void {
    if (!(this.renderer.backend as { isWebGPUBackend?: boolean }).isWebGPUBackend) {
      throw new Error('SceneView.linkGpu needs the WebGPU backend (the WebGL fallback cannot read a GPUBuffer; use updateFromCpu)');
    }
    const n = this.surface.vertexCount;
    const need = (buffer: GPUBuffer, what: string, usage: number, usageName: string) => {
      if (buffer.size < 16 * n) throw new Error(`SceneView.linkGpu: ${what} buffer "${buffer.label}" has ${buffer.size} bytes, ${n} vertices need ${16 * n} (vec4 each)`);
      if ((buffer.usage & usage) !== usage) throw new Error(`SceneView.linkGpu: ${what} buffer "${buffer.label}" lacks GPUBufferUsage.${usageName}`);
    };
    need(source.positions, 'positions', GPUBufferUsage.COPY_SRC | GPUBufferUsage.STORAGE, 'COPY_SRC | STORAGE');
    if (source.depth) need(source.depth, 'depth', GPUBufferUsage.COPY_SRC, 'COPY_SRC');
    if (!this.gpu || this.gpu.source.device !== source.device) {
      this.gpu?.kernel.destroy();
      this.gpu = { source, kernel: new VertexNormalsKernel(source.device, this.surface) };
    } else {
      this.gpu.source = source;
    }
    this.dirty = true;
    for (const { mesh } of this.objects) {
      if (!source.depth) {
        // No depth buffer: the tint shows nothing rather than a previous link's depths.
        const depth = mesh.geometry.getAttribute(DEPTH_ATTRIBUTE) as BufferAttribute;
        (depth.array as Float32Array).fill(0);
        depth.needsUpdate = true;
      }
      mesh.frustumCulled = false;
    }
  }

  /** Stops drawing from the GPU buffers (back to updateFromCpu). */
  unlinkGpu(): void {
    this.gpu?.kernel.destroy();
    this.gpu = undefined;
  }

  get linked(): boolean {
    return this.gpu !== undefined;
  }

  /** The GPU positions changed (the solver advanced): the next sync() copies them. */
  invalidate(): void {
    this.dirty = true;
  }

  /** GPU link: records and submits the frame's normals pass and copies; call just before rendering. */
  sync(): void {
    if (!this.gpu || (!this.syncEveryFrame && !this.dirty)) return;
    const { source, kernel } = this.gpu;
    const backend = this.renderer.backend as unknown as BackendData;
    const targets: { pos: GPUBuffer; nrm: GPUBuffer; dep?: GPUBuffer; first: number; count: number }[] = [];
    for (const { mesh, first, count } of this.objects) {
      const g = mesh.geometry;
      const pos = backend.get(g.getAttribute('position')).buffer;
      const nrm = backend.get(g.getAttribute('normal')).buffer;
      // Untinted (static) objects never read `depth`, so three makes no buffer for it.
      const dep = backend.get(g.getAttribute(DEPTH_ATTRIBUTE)).buffer;
      if (pos && nrm) targets.push({ pos, nrm, dep, first, count });
    }
    if (targets.length === 0) return; // three creates its buffers at the first draw
    const encoder = source.device.createCommandEncoder({ label: 'scene view: normals and copies' });
    kernel.encode(encoder, source.positions);
    for (const t of targets) {
      encoder.copyBufferToBuffer(source.positions, 16 * t.first, t.pos, 0, 16 * t.count);
      encoder.copyBufferToBuffer(kernel.normals, 12 * t.first, t.nrm, 0, 12 * t.count);
      if (source.depth && t.dep) encoder.copyBufferToBuffer(source.depth, 16 * t.first, t.dep, 0, 16 * t.count);
    }
    source.device.queue.submit([encoder.finish()]);
    this.gpuCopies += 1;
    // Copy again next frame if some buffers did not exist yet, or if this render re-uploads CPU arrays over the copy.
    this.dirty = targets.length < this.objects.length || this.cpuWritten;
    this.cpuWritten = false;
  }

  /**
   * CPU engine / WebGL fallback: new positions (xyz per scene vertex) and optionally the
   * penetration depth per scene vertex (0 when free); recomputes area-weighted normals on the
   * CPU (three's computeVertexNormals over the indexed triangles) and the bounds. While linked
   * to the GPU this only shows until the next sync() copies over it (e.g. the rest shape before
   * the first GPU frame).
   */
  updateFromCpu(positions: ArrayLike<number>, depth?: ArrayLike<number>): void {
    const n = this.surface.vertexCount;
    if (positions.length !== 3 * n) throw new Error(`SceneView.updateFromCpu: ${positions.length} position numbers, the scene has ${n} vertices (3 each)`);
    if (depth && depth.length !== n) throw new Error(`SceneView.updateFromCpu: ${depth.length} depths, the scene has ${n} vertices (1 each)`);
    for (const { mesh, first, count } of this.objects) {
      const g = mesh.geometry;
      const attr = g.getAttribute('position') as BufferAttribute;
      const stride = attr.itemSize;
      const dst = attr.array as Float32Array;
      for (let v = 0; v < count; v++) {
        const s = 3 * (first + v);
        dst[stride * v] = positions[s];
        dst[stride * v + 1] = positions[s + 1];
        dst[stride * v + 2] = positions[s + 2];
      }
      attr.needsUpdate = true;
      if (depth) {
        const d = g.getAttribute(DEPTH_ATTRIBUTE) as BufferAttribute;
        const arr = d.array as Float32Array;
        for (let v = 0; v < count; v++) arr[4 * v + 3] = depth[first + v];
        d.needsUpdate = true;
      }
      g.computeVertexNormals();
      g.computeBoundingBox();
      g.computeBoundingSphere();
    }
    this.cpuWritten = true;
  }

  addTo(parent: Object3D): void {
    parent.add(this.group);
  }

  dispose(): void {
    this.unlinkGpu();
    this.group.removeFromParent();
    for (const { mesh } of this.objects) {
      mesh.geometry.dispose();
      mesh.material.dispose();
    }
    this.xrayMaterial.dispose();
  }
}
