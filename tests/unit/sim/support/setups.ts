/** Small solver setups shared by the CPU physics tests and the GPU-vs-CPU tests. */
import type { Collider } from '../../../../src/sim/colliders';
import type { HandleScript } from '../../../../src/sim/handles';
import { buildModel } from '../../../../src/sim/model';
import type { Material } from '../../../../src/sim/material';
import { defaultParams, type SolverParams } from '../../../../src/contract/params';
import type { SimSetup } from '../../../../src/sim/setup';

export interface TestBody {
  positions: ArrayLike<number>;
  tets: ArrayLike<number>;
  material?: Partial<Material>;
  /** Pins vertices where this returns a handle id >= 0. */
  pin?: (x: number, y: number, z: number) => number;
  offset?: [number, number, number];
  scale?: number;
}

export function makeSetup(bodies: TestBody[], params: Partial<SolverParams>, colliders: Collider[] = [], handles: HandleScript[] = []): SimSetup {
  const model = buildModel(
    bodies.map((b, i) => {
      const n = b.positions.length / 3;
      const p = new Float64Array(3 * n);
      const s = b.scale ?? 1;
      const o = b.offset ?? [0, 0, 0];
      for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) p[3 * v + k] = b.positions[3 * v + k] * s + o[k];
      let handleOfVertex: Int32Array | undefined;
      if (b.pin) {
        handleOfVertex = new Int32Array(n);
        for (let v = 0; v < n; v++) handleOfVertex[v] = b.pin(p[3 * v], p[3 * v + 1], p[3 * v + 2]);
      }
      return {
        name: `body${i}`,
        positions: p,
        tets: b.tets,
        material: { youngsModulus: 1e5, poissonRatio: 0.3, density: 1000, ...b.material },
        handleOfVertex,
      };
    }),
  );
  return { model, colliders, handles, params: defaultParams(params) };
}
