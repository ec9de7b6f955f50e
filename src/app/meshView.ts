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
  private readonly positionAttribute: BufferAttribute;
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
    this.positionAttribute = new BufferAttribute(new Float32Array(source.positions), 3);
    geometry.setAttribute('position', this.positionAttribute);
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
    (this.positionAttribute.array as Float32Array).set(positions);
    this.positionAttribute.needsUpdate = true;
    const geometry = this.object.geometry;
    geometry.computeVertexNormals();
    geometry.computeBoundingBox();
    geometry.computeBoundingSphere();
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
