/**
 * Worker entry: runs the CPU reference solver (src/sim/cpuSolver.ts, float64) off the page's
 * thread, so the page stays responsive while a large mesh takes a second per frame. Each
 * frame's positions go back as a float32 copy whose buffer is transferred.
 */
import * as Comlink from 'comlink';
import { CpuSolver } from '../sim/cpuSolver';
import { setObjectMaterial } from '../sim/model';
import type { CpuFrameResult, CpuSolverWorkerApi } from './cpuSolverWorkerApi';
import { buildPageScene } from './scene/pageScene';

let solver: CpuSolver | undefined;
let taken = 0;

function need(): CpuSolver {
  if (!solver) throw new Error('CPU solver worker: init() was not called');
  return solver;
}

function result(solveMs: number): CpuFrameResult {
  const s = need();
  const positions = new Float32Array(s.x.length);
  let minY = Infinity;
  for (let i = 0; i < s.x.length; i++) positions[i] = s.x[i]!;
  for (let i = 1; i < s.x.length; i += 3) if (s.x[i]! < minY) minY = s.x[i]!;
  const messages = s.messages.slice(taken);
  taken = s.messages.length;
  const collisions = s.params.collisions ? { ...s.collisionCounters } : undefined;
  // Before the first frame (init, reset) no frame has chosen its substeps yet: the parameters'.
  const step = { substeps: s.frameSubstepCount || s.params.substeps, ...(s.closingSpeed !== null ? { closingSpeed: s.closingSpeed } : {}) };
  return Comlink.transfer({ positions, frame: s.frame, time: s.time, minY, solveMs, messages, ...step, ...(collisions ? { collisions } : {}) }, [positions.buffer]);
}

const api: CpuSolverWorkerApi = {
  init(request) {
    solver = new CpuSolver(buildPageScene(request.source, request.overrides).setup);
    taken = 0;
    return result(0);
  },
  step(params) {
    const s = need();
    s.params = { ...params, gravity: [...params.gravity] };
    const t0 = performance.now();
    s.stepFrame();
    return result(performance.now() - t0);
  },
  reset() {
    need().reset();
    taken = 0;
    return result(0);
  },
  setMaterial(object, material) {
    const s = need();
    setObjectMaterial(s.model, object, material);
    s.refreshMasses();
  },
};

Comlink.expose(api);
