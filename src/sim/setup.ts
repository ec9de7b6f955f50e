/** What a scene hands to a solver: the model plus its colliders, handles and parameter overrides. */
import type { AirSpec } from '../collision/air/airMesh';
import type { Collider } from './colliders';
import type { HandleScript } from './handles';
import type { Model } from './model';
import type { SolverParams } from '../contract/params';

export interface SimSetup {
  model: Model;
  colliders: Collider[];
  /** Handle h moves the vertices whose model.handleOfVertex is h. */
  handles: HandleScript[];
  params: SolverParams;
  /** The container of the air mesh (collision mode 'air', collision/air/); scenes without it refuse that mode. */
  air?: AirSpec;
}

/** Checks that every handle id used by a vertex has a script. */
export function checkSetup(setup: SimSetup): void {
  const { model, handles } = setup;
  for (let v = 0; v < model.vertexCount; v++) {
    const h = model.handleOfVertex[v];
    if (h >= handles.length) {
      const o = model.vertexObject[v];
      throw new Error(`object ${o} (${model.objectNames[o]}): vertex ${v - model.objectVertexOffsets[o]} uses handle ${h}, but the scene has ${handles.length} handles`);
    }
  }
}

/** Message for an object stopped because its state became NaN/Inf. */
export function nonFiniteMessage(model: Model, object: number, frame: number): string {
  return `object ${object} (${model.objectNames[object]}) stopped at frame ${frame}: its positions became NaN/Inf (too large a time step, too stiff a material or an inverted element); it is frozen so the error cannot spread`;
}
