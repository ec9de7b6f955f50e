/**
 * ColliderView: the analytic colliders of a scene (sim/colliders.ts: planes, solid boxes,
 * bowls) drawn semi-transparent with an outline, following their scripted state.
 *
 *   const colliders = new ColliderView(setup.colliders, { extent: sceneBounds, groundY: 0 });
 *   colliders.addTo(viewer.scene);
 *   colliders.update(simTime);   // once per frame: scripted planes move, a plane switched off disappears
 *
 * A plane is a square centred on the projection of the scene's centre, 2.4 times the scene's
 * bounding radius wide (a box container's walls enclose the objects). An upward plane at
 * `groundY` is the floor the viewer's ground plane already shows, so it is not drawn twice.
 * The state at `time` comes from encodeCollider, the same encoding the solvers read, so what
 * is drawn is where the solver pushes.
 */
import {
  Box3,
  BoxGeometry,
  BufferGeometry,
  DoubleSide,
  EdgesGeometry,
  Group,
  LineBasicNodeMaterial,
  LineSegments,
  Mesh,
  MeshStandardNodeMaterial,
  type Object3D,
  PlaneGeometry,
  SphereGeometry,
  Sphere,
  Vector3,
} from 'three/webgpu';
import { COLLIDER_KIND, COLLIDER_STRIDE, encodeCollider, type Collider } from '../../sim/colliders';
import { COLLIDER_COLOR, COLLIDER_OPACITY } from '../palette';

export interface ColliderViewOptions {
  /** Scene bounds: the size and centre of the drawn plane squares. */
  extent: Box3;
  /** Height of the viewer's ground plane: an upward plane collider there is not drawn. */
  groundY?: number;
}

const UP = new Vector3(0, 1, 0);
const PLANE_AXIS = new Vector3(0, 0, 1); // PlaneGeometry's normal

export class ColliderView {
  readonly group = new Group();
  private readonly shapes: (Object3D | undefined)[] = [];
  private readonly encoded = new Float64Array(COLLIDER_STRIDE);
  private readonly center: Vector3;
  private readonly size: number;
  private readonly surface: MeshStandardNodeMaterial;
  private readonly outline: LineBasicNodeMaterial;
  private readonly geometries: BufferGeometry[] = [];

  constructor(
    private readonly colliders: readonly Collider[],
    options: ColliderViewOptions,
  ) {
    if (options.extent.isEmpty()) throw new Error('ColliderView: the scene extent is empty');
    const sphere = options.extent.getBoundingSphere(new Sphere());
    this.center = sphere.center;
    this.size = 2.4 * Math.max(sphere.radius, 1e-6);
    this.surface = new MeshStandardNodeMaterial({
      color: COLLIDER_COLOR, roughness: 0.8, metalness: 0, transparent: true, opacity: COLLIDER_OPACITY, side: DoubleSide, depthWrite: false,
    });
    this.outline = new LineBasicNodeMaterial({ color: COLLIDER_COLOR, transparent: true, opacity: 0.7 });
    this.group.name = 'colliders';
    colliders.forEach((c, i) => {
      const shape = this.build(c, i, options.groundY);
      this.shapes.push(shape);
      if (shape) this.group.add(shape);
    });
    this.update(0);
  }

  private track<G extends BufferGeometry>(g: G): G {
    this.geometries.push(g);
    return g;
  }

  /** Surface plus outline of `geometry`, under one parent. */
  private outlined(geometry: BufferGeometry, name: string): Object3D {
    const parent = new Mesh(this.track(geometry), this.surface);
    parent.name = name;
    parent.add(new LineSegments(this.track(new EdgesGeometry(geometry)), this.outline));
    return parent;
  }

  private build(c: Collider, index: number, groundY: number | undefined): Object3D | undefined {
    encodeCollider(c, 0, this.encoded, 0);
    if (c.kind === 'plane') {
      const e = this.encoded;
      const normal = new Vector3(e[4], e[5], e[6]);
      const isFloor = typeof c.offset === 'number' && groundY !== undefined && normal.angleTo(UP) < 1e-6 && Math.abs(c.offset - groundY) <= 1e-9 * Math.max(1, this.size);
      if (isFloor) return undefined;
      const plane = this.outlined(new PlaneGeometry(1, 1), `plane collider ${index}`);
      plane.scale.set(this.size, this.size, 1);
      plane.quaternion.setFromUnitVectors(PLANE_AXIS, normal);
      return plane;
    }
    if (c.kind === 'box') {
      const box = this.outlined(new BoxGeometry(1, 1, 1), `box collider ${index}`);
      box.scale.set(c.max[0] - c.min[0], c.max[1] - c.min[1], c.max[2] - c.min[2]);
      box.position.set((c.min[0] + c.max[0]) / 2, (c.min[1] + c.max[1]) / 2, (c.min[2] + c.max[2]) / 2);
      return box;
    }
    // Bowl: the lower hemisphere (polar angle pi/2..pi) of the sphere around its centre.
    const bowl = this.outlined(new SphereGeometry(1, 48, 12, 0, 2 * Math.PI, Math.PI / 2, Math.PI / 2), `bowl collider ${index}`);
    bowl.scale.setScalar(c.radius);
    bowl.position.set(c.center[0], c.center[1], c.center[2]);
    return bowl;
  }

  /** Moves scripted colliders to their state at simulation time `time` (seconds). */
  update(time: number): void {
    const e = this.encoded;
    this.colliders.forEach((c, i) => {
      const shape = this.shapes[i];
      if (!shape) return;
      encodeCollider(c, time, e, 0);
      shape.visible = e[1] !== 0;
      if (e[0] === COLLIDER_KIND.plane && shape.visible) {
        // The square's centre: the scene centre projected onto n.x = offset.
        const n = new Vector3(e[4], e[5], e[6]);
        const s = n.dot(this.center) - e[7];
        shape.position.copy(this.center).addScaledVector(n, -s);
      }
    });
  }

  /** The drawn object of collider `i` (undefined for a floor plane left to the ground). */
  shape(i: number): Object3D | undefined {
    return this.shapes[i];
  }

  addTo(parent: Object3D): void {
    parent.add(this.group);
  }

  dispose(): void {
    this.group.removeFromParent();
    for (const g of this.geometries) g.dispose();
    this.surface.dispose();
    this.outline.dispose();
  }
}
