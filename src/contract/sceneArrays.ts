/**
 * What the stages read of the scene's static model: the merged arrays of every object, in the
 * model's vertex and tet order (sim/model.ts's Model has them; collision and the state depend
 * on this shape, not on the solver's Model, so every import points down).
 */
export interface SceneArrays {
  readonly vertexCount: number;
  readonly tetCount: number;
  /** xyz per vertex at rest. */
  readonly restPositions: Float64Array;
  /** xyz per vertex at the start. */
  readonly initialVelocities: Float64Array;
  /** Inverse mass per vertex (0 for handles). */
  readonly invMass: Float64Array;
  /** Object id per vertex. */
  readonly vertexObject: Uint32Array;
  /** 4 vertex ids per tet, positively oriented. */
  readonly tets: Uint32Array;
  /** Object id per tet. */
  readonly tetObject: Uint32Array;
  /** Object names, in object id order. */
  readonly objectNames: readonly string[];
  /** First vertex and first tet of each object, and the totals at the end (objects + 1 entries). */
  readonly objectVertexOffsets: Uint32Array;
  readonly objectTetOffsets: Uint32Array;
}
