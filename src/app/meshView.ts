/**
 * Draws a TetMesh as its boundary triangles. The vertex buffer holds ALL mesh vertices (so
 * simulated positions can be copied in as they are, vertex ids unchanged) and the index
 * buffer holds only the boundary triangles; interior vertices are simply never referenced.
 */
import { Box3, BufferAttribute, BufferGeometry, Mesh, MeshStandardMaterial, type Scene } from 'three/webgpu';
import { OBJECT_COLOR } from './palette';

/** What the view needs from a TetMesh (any object with these arrays will do). */
export interface BoundarySource {
  positions: Float32Array;
  boundaryTriangles: Uint32Array;
}


export class MeshView {
  readonly object: Mesh<BufferGeometry, MeshStandardMaterial>;
  private positionAttr: BufferAttribute;
  readonly vertexCount: number;
  readonly triangleCount: number;

  constructor(source: BoundarySource) {
    if (source.positions.length % 3 !== 0) {
      throw new Error(`MeshView: positions length ${source.positions.length} is not a multiple of 3`);
    }
    if (source.boundaryTriangles.length % 3 !== 0) {
      throw new Error(`MeshView: boundaryTriangles length ${source.boundaryTriangles.length} is not a multiple of 3`);
    }
    this.vertexCount = source.positions.length / 3;
    this.triangleCount = source.boundaryTriangles.length / 3;
    const geometry = new BufferGeometry();
    // Own copy: the simulation may later write positions every frame through updatePositions().
    this.positionAttr = new BufferAttribute(new Float32Array(source.positions), 3);
    geometry.setAttribute('position', this.positionAttr);
    geometry.setIndex(new BufferAttribute(new Uint32Array(source.boundaryTriangles), 1));
    geometry.computeVertexNormals();
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();
    const material = new MeshStandardMaterial({ color: OBJECT_COLOR, roughness: 0.55, metalness: 0.0 });
    this.object = new Mesh(geometry, material);
    this.object.name = 'tet-mesh-boundary';
  }

  get bounds(): Box3 {
    return (this.object.geometry.boundingBox ?? new Box3()).clone();
  }

  set wireframe(on: boolean) {
    this.object.material.wireframe = on;
    this.object.material.needsUpdate = true;
  }

  /**
   * Replaces all vertex positions (xyz per vertex, same vertex ids as the TetMesh) and
   * recomputes smooth normals. This is the hook for the simulation: call it once per frame
   * with the positions read back from the GPU (or computed on the CPU).
   */
  updatePositions(positions: Float32Array): void {
    if (positions.length !== this.vertexCount * 3) {
      throw new Error(`MeshView.updatePositions: got ${positions.length / 3} vertices, the view has ${this.vertexCount}`);
    }
    const attr = this.positionAttr;
    const stride = attr.itemSize;
    const target = attr.array as Float32Array;
    if (stride === 3) target.set(positions);
    else for (let v = 0; v < this.vertexCount; v++) target.set(positions.subarray(3 * v, 3 * v + 3), stride * v);
    attr.needsUpdate = true;
    const geometry = this.object.geometry;
    geometry.computeVertexNormals();
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();
  }

  /** The vertex attribute three.js draws (for GpuPositionLink, which fills its GPU buffer). */
  get positionAttribute(): BufferAttribute {
    return this.positionAttr;
  }

  /**
   * Re-lays the vertex buffer with `stride` floats per vertex (3: packed xyz, 4: xyzw as in a
   * WGSL array<vec4f>), so a simulation buffer of that layout can be copied into it as is.
   */
  setPositionStride(stride: 3 | 4): void {
    if (stride === this.positionAttr.itemSize) return;
    const old = this.positionAttr;
    const array = new Float32Array(this.vertexCount * stride);
    for (let v = 0; v < this.vertexCount; v++) {
      array[stride * v] = old.getX(v);
      array[stride * v + 1] = old.getY(v);
      array[stride * v + 2] = old.getZ(v);
    }
    this.positionAttr = new BufferAttribute(array, stride);
    this.object.geometry.setAttribute('position', this.positionAttr);
  }

  /**
   * Positions written on the GPU make CPU normals and bounds stale: shade facets from screen
   * derivatives instead (no normal attribute needed) and never frustum-cull on old bounds.
   */
  useGpuPositions(): void {
    this.object.material.flatShading = true;
    this.object.material.needsUpdate = true;
    this.object.frustumCulled = false;
  }

  addTo(scene: Scene): void {
    scene.add(this.object);
  }

  dispose(): void {
    this.object.removeFromParent();
    this.object.geometry.dispose();
    this.object.material.dispose();
  }
}
