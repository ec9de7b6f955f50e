/**
 * The small air-boxes stack (airBoxesLayout(3, 2)) with a quick press by a plate: down over
 * 0.05-0.45 s to a quarter of its height, up over 0.55-0.85 s, off at 0.9 s. 10 substeps x 3
 * iterations, friction 0.3, damping 3/s; `params` on top (collision mode, air solve order, passes).
 * Used by tests/unit/collision/airBoxes.test.ts and bench/airSolveOrder.ts.
 */
import { airBoxesLayout } from '../../src/scenes/airBoxes';
import { containerColliders } from '../../src/scenes/container';
import type { Collider } from '../../src/sim/colliders';
import { buildModel } from '../../src/sim/model';
import { defaultParams, type SolverParams } from '../../src/contract/params';
import type { SimSetup } from '../../src/sim/setup';

export function pressedAirStack(params: Partial<SolverParams>, press = true): SimSetup {
  const layout = airBoxesLayout(3, 2);
  const start = layout.top + layout.cell / 2, layer = 0.25 * layout.top;
  const plate: Collider = {
    kind: 'plane', normal: [0, -1, 0],
    offset: (t) => {
      if (t >= 0.9) return null;
      const down = Math.min(1, Math.max(0, (t - 0.05) / 0.4)), up = Math.min(1, Math.max(0, (t - 0.55) / 0.3));
      return -(start + (layer - start) * down + (start - layer) * up);
    },
  };
  return {
    model: buildModel(layout.objects),
    colliders: [...containerColliders(layout.halfWidth, layout.halfWidth), ...(press ? [plate] : [])],
    handles: [],
    air: layout.air,
    params: defaultParams({ substeps: 10, iterations: 3, friction: 0.3, damping: 3, ...params }),
  };
}
