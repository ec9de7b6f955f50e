/**
 * What the sliver floor's lift does after the contacts (SolverParams.sliverFloor, sliverLift
 * 'after-contacts' or 'holding-contacts'), watched on the float64 engine for
 * bench/substepPenetration.ts --lift-moves: per substep, which slivers it lifted (below
 * inversionFloor x their rest volume when it started), how far it moved their corners (positions
 * and start positions alike, so CCD never sees the move), and whether the same sliver had been
 * lifted in the substep before: the material and the contacts turned it inside out again in
 * between, a tug of war rather than a repair. Reads the stage's inputs and outputs by wrapping
 * CpuCollisionStage.liftSlivers; changes nothing.
 */
import type { CpuCollisionStage } from '../src/collision/cpu/cpuCollisionStage';
import { tetVolume6 } from '../src/collision/cpu/tetGeometry';

const mm = (metres: number): string => (1000 * metres).toFixed(2);

interface SliverTally { lifts: number; again: number; largestMove: number; lowest: number }
export interface LiftFrame { lifts: number; again: number; largestMove: number; movesOverOffset: number; cornerMoves: number }

export interface LiftWatch {
  /** The frame's tally since the last call, then cleared. */
  takeFrame(): LiftFrame;
  /** Per sliver lifted at least once, worst first: one table row each. */
  summary(most: number): string[];
}

/**
 * Wraps `stage.liftSlivers`. `tets`, `restVolume`, `tetObject`, `objectTetOffsets`: the model's.
 * A corner move is counted once per lift call (its displacement over the whole lift); "over the
 * offset": farther than the contact offset delta, the layer the contacts hold between surfaces, so
 * a move that could carry the corner through a surface the contacts held it off.
 */
export function watchSliverLift(
  stage: CpuCollisionStage, model: { tets: Uint32Array; restVolume: Float64Array; tetObject: Uint32Array; objectTetOffsets: Uint32Array },
): LiftWatch {
  const { tets, restVolume } = model;
  const perTet = new Map<number, SliverTally>();
  let liftedBefore = new Set<number>();
  let frame: LiftFrame = { lifts: 0, again: 0, largestMove: 0, movesOverOffset: 0, cornerMoves: 0 };
  const lift = stage.liftSlivers.bind(stage);
  const before = new Map<number, [number, number, number]>();
  stage.liftSlivers = (x, x0, w, params, slivers, into) => {
    const floor = params.inversionFloor;
    const below: number[] = [];
    before.clear();
    for (let i = 0; i < slivers.length; i++) {
      const t = slivers[i];
      for (let k = 0; k < 4; k++) {
        const v = tets[4 * t + k];
        before.set(v, [x[3 * v], x[3 * v + 1], x[3 * v + 2]]);
      }
      const relative = tetVolume6(x, tets, t) / (6 * restVolume[t]);
      if (relative < floor) {
        below.push(t);
        const s = perTet.get(t) ?? { lifts: 0, again: 0, largestMove: 0, lowest: Infinity };
        s.lowest = Math.min(s.lowest, relative);
        perTet.set(t, s);
      }
    }
    lift(x, x0, w, params, slivers, into);
    const moved = new Map<number, number>();
    for (const [v, p] of before) moved.set(v, Math.hypot(x[3 * v] - p[0], x[3 * v + 1] - p[1], x[3 * v + 2] - p[2]));
    // CpuSolver hands the lift its whole SolverParams; the offset reads them as step() does.
    const offset = stage.offsetOf(params as unknown as Parameters<CpuCollisionStage['offsetOf']>[0]);
    for (const d of moved.values()) {
      if (d === 0) continue;
      frame.cornerMoves++;
      frame.largestMove = Math.max(frame.largestMove, d);
      if (d > offset) frame.movesOverOffset++;
    }
    const lifted = new Set<number>();
    for (const t of below) {
      let most = 0;
      for (let k = 0; k < 4; k++) most = Math.max(most, moved.get(tets[4 * t + k]) ?? 0);
      if (most === 0) continue;
      lifted.add(t);
      const s = perTet.get(t)!;
      s.lifts++;
      s.largestMove = Math.max(s.largestMove, most);
      frame.lifts++;
      if (liftedBefore.has(t)) {
        s.again++;
        frame.again++;
      }
    }
    liftedBefore = lifted;
  };
  return {
    takeFrame() {
      const f = frame;
      frame = { lifts: 0, again: 0, largestMove: 0, movesOverOffset: 0, cornerMoves: 0 };
      return f;
    },
    summary(most) {
      const rows = [...perTet].filter(([, s]) => s.lifts > 0).sort((a, b) => b[1].lifts - a[1].lifts || b[1].largestMove - a[1].largestMove).slice(0, most);
      return rows.map(([t, s]) => {
        const o = model.tetObject[t];
        return `| ${t - model.objectTetOffsets[o]} of object ${o} | ${s.lifts} | ${s.again} | ${mm(s.largestMove)} | ${s.lowest.toFixed(2)} |`;
      });
    },
  };
}
