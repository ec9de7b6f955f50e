/**
 * OverlayView: debugging overlays drawn from CPU arrays (the caller fills them after its async
 * readbacks), each layer a toggle:
 *   'points'  penetrating points, small spheres           setPoints(xyz: 3 per point)
 *   'paths'   their shortest paths, point -> target      setSegments('paths', ab: 6 per segment)
 *   'ccd'     CCD contacts, as segments                  setSegments('ccd', ab: 6 per segment)
 *   'boxes'   BVH boxes of one level, as line boxes      setBoxes(minMax: 6 per box, min xyz then max xyz)
 *
 *   const overlays = new OverlayView({ pointRadius: 0.3 * surface.meanEdgeLength });
 *   overlays.addTo(viewer.scene);
 *   overlays.setVisible('paths', true);
 *
 * Overlays are drawn on top of the surfaces (no depth test): the paths run inside the objects.
 * Buffers grow by doubling and are reused between calls; the arrays are copied.
 */
import {
  BufferAttribute,
  BufferGeometry,
  Group,
  IcosahedronGeometry,
  InstancedMesh,
  LineBasicNodeMaterial,
  LineSegments,
  Matrix4,
  MeshBasicNodeMaterial,
  type Object3D,
} from 'three/webgpu';
import { OVERLAY_BOX_COLOR, OVERLAY_CCD_COLOR, OVERLAY_PATH_COLOR, OVERLAY_POINT_COLOR } from '../palette';

export type OverlayLayer = 'points' | 'paths' | 'ccd' | 'boxes';
export const OVERLAY_LAYERS: readonly OverlayLayer[] = ['points', 'paths', 'ccd', 'boxes'];

export interface OverlayViewOptions {
  /** Radius of the point spheres in world units (default 0.01). */
  pointRadius?: number;
}

/** The 12 edges of a box as corner index pairs; corner c has x from bit 0, y bit 1, z bit 2. */
const BOX_EDGES = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7];
const OVERLAY_ORDER = 10;

/** A LineSegments whose vertex buffer grows by doubling. */
class SegmentLayer {
  readonly lines: LineSegments<BufferGeometry, LineBasicNodeMaterial>;
  private capacity = 0;

  constructor(name: string, color: number) {
    const material = new LineBasicNodeMaterial({ color, depthTest: false, transparent: true });
    this.lines = new LineSegments(new BufferGeometry(), material);
    this.lines.name = name;
    this.lines.frustumCulled = false;
    this.lines.renderOrder = OVERLAY_ORDER;
    this.lines.visible = false;
    this.reserve(16);
  }

  private reserve(vertices: number): void {
    if (vertices <= this.capacity) return;
    let capacity = Math.max(16, this.capacity);
    while (capacity < vertices) capacity *= 2;
    const old = this.lines.geometry;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(3 * capacity), 3));
    this.lines.geometry = geometry;
    old.dispose();
    this.capacity = capacity;
  }

  /** `fill(target)` writes `vertices` xyz triples into target. */
  set(vertices: number, fill: (target: Float32Array) => void): void {
    this.reserve(vertices);
    const attr = this.lines.geometry.getAttribute('position') as BufferAttribute;
    fill(attr.array as Float32Array);
    attr.needsUpdate = true;
    this.lines.geometry.setDrawRange(0, vertices);
  }

  dispose(): void {
    this.lines.geometry.dispose();
    this.lines.material.dispose();
  }
}

export class OverlayView {
  readonly group = new Group();
  private readonly pointGroup = new Group();
  private points?: InstancedMesh;
  private pointCount = 0;
  private readonly sphere = new IcosahedronGeometry(1, 1);
  private readonly pointMaterial = new MeshBasicNodeMaterial({ color: OVERLAY_POINT_COLOR, depthTest: false, transparent: true });
  private readonly segments: Record<'paths' | 'ccd' | 'boxes', SegmentLayer>;
  private radius: number;
  private readonly matrix = new Matrix4();

  constructor(options: OverlayViewOptions = {}) {
    this.radius = 0.01;
    if (options.pointRadius !== undefined) this.pointRadius = options.pointRadius;
    this.segments = {
      paths: new SegmentLayer('overlay paths', OVERLAY_PATH_COLOR),
      ccd: new SegmentLayer('overlay ccd contacts', OVERLAY_CCD_COLOR),
      boxes: new SegmentLayer('overlay bvh boxes', OVERLAY_BOX_COLOR),
    };
    this.group.name = 'overlays';
    this.pointGroup.name = 'overlay points';
    this.pointGroup.visible = false;
    this.group.add(this.pointGroup, this.segments.paths.lines, this.segments.ccd.lines, this.segments.boxes.lines);
  }

  private layerObject(layer: OverlayLayer): Object3D {
    if (layer === 'points') return this.pointGroup;
    const s = this.segments[layer];
    if (!s) throw new Error(`OverlayView: unknown layer "${layer}" (layers: ${OVERLAY_LAYERS.join(', ')})`);
    return s.lines;
  }

  setVisible(layer: OverlayLayer, on: boolean): void {
    this.layerObject(layer).visible = on;
  }

  isVisible(layer: OverlayLayer): boolean {
    return this.layerObject(layer).visible;
  }

  /** Radius of the point spheres (world units, > 0); applies at the next setPoints. */
  set pointRadius(r: number) {
    if (!(r > 0) || !Number.isFinite(r)) throw new RangeError(`OverlayView.pointRadius ${r} must be a finite number > 0`);
    this.radius = r;
  }

  get pointRadius(): number {
    return this.radius;
  }

  /** Number of points, segments or boxes last given to each layer. */
  count(layer: OverlayLayer): number {
    if (layer === 'points') return this.pointCount;
    const range = this.segments[layer].lines.geometry.drawRange.count;
    return layer === 'boxes' ? range / 24 : range / 2;
  }

  /** Penetrating points: xyz per point. */
  setPoints(xyz: ArrayLike<number>): void {
    if (xyz.length % 3 !== 0) throw new Error(`OverlayView.setPoints: ${xyz.length} numbers is not a multiple of 3 (xyz per point)`);
    const n = xyz.length / 3;
    if (!this.points || this.points.instanceMatrix.count < n) {
      let capacity = Math.max(64, this.points?.instanceMatrix.count ?? 0);
      while (capacity < n) capacity *= 2;
      if (this.points) {
        this.pointGroup.remove(this.points);
        this.points.dispose();
      }
      this.points = new InstancedMesh(this.sphere, this.pointMaterial, capacity);
      this.points.frustumCulled = false;
      this.points.renderOrder = OVERLAY_ORDER;
      this.pointGroup.add(this.points);
    }
    const r = this.radius;
    for (let i = 0; i < n; i++) {
      this.matrix.makeScale(r, r, r).setPosition(xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]);
      this.points.setMatrixAt(i, this.matrix);
    }
    this.points.count = n;
    this.points.instanceMatrix.needsUpdate = true;
    this.pointCount = n;
  }

  /** Segments a -> b, 6 numbers each (a xyz, b xyz): shortest paths or CCD contacts. */
  setSegments(layer: 'paths' | 'ccd', ab: ArrayLike<number>): void {
    if (layer !== 'paths' && layer !== 'ccd') throw new Error(`OverlayView.setSegments: layer "${String(layer)}" is not a segment layer (paths, ccd)`);
    if (ab.length % 6 !== 0) throw new Error(`OverlayView.setSegments(${layer}): ${ab.length} numbers is not a multiple of 6 (a xyz, b xyz per segment)`);
    this.segments[layer].set(ab.length / 3, (target) => {
      for (let i = 0; i < ab.length; i++) target[i] = ab[i];
    });
  }

  /** Axis-aligned boxes as 12 line edges each; 6 numbers per box: min xyz, max xyz. */
  setBoxes(minMax: ArrayLike<number>): void {
    if (minMax.length % 6 !== 0) throw new Error(`OverlayView.setBoxes: ${minMax.length} numbers is not a multiple of 6 (min xyz, max xyz per box)`);
    const n = minMax.length / 6;
    this.segments.boxes.set(24 * n, (target) => {
      let k = 0;
      for (let b = 0; b < n; b++) {
        for (const c of BOX_EDGES) {
          target[k++] = minMax[6 * b + (c & 1 ? 3 : 0)];
          target[k++] = minMax[6 * b + 1 + (c & 2 ? 3 : 0)];
          target[k++] = minMax[6 * b + 2 + (c & 4 ? 3 : 0)];
        }
      }
    });
  }

  addTo(parent: Object3D): void {
    parent.add(this.group);
  }

  dispose(): void {
    this.group.removeFromParent();
    this.points?.dispose();
    this.sphere.dispose();
    this.pointMaterial.dispose();
    for (const s of Object.values(this.segments)) s.dispose();
  }
}
