/**
 * Simulation options read from the page URL, so a link (and the end-to-end tests, which need
 * cheap settings on a software GPU) can choose them:
 *   ?run=1  ?dt=0.0166  ?substeps=5  ?iterations=2  ?solve=gauss-seidel|jacobi
 *   ?constraint=neohookean|springs  ?damping=2  ?young=1e5  ?poisson=0.3  ?density=1000
 *   ?engine=gpu|cpu  (default: the GPU solver when the page draws with WebGPU)
 */
import { SOLVE_ORDERS, type ConstraintType, type SolverParams } from '../contract/params';
import type { Material } from '../sim/material';
import type { EngineChoice } from './engineFactory';

export interface SimUrlOptions {
  run: boolean;
  engine: EngineChoice;
  params: Partial<SolverParams>;
  material: Partial<Material>;
}

const CONSTRAINTS: readonly ConstraintType[] = ['neohookean', 'springs'];
const ENGINES: readonly EngineChoice[] = ['auto', 'gpu', 'cpu'];

function positiveNumber(params: URLSearchParams, key: string, integer = false): number | undefined {
  const text = params.get(key);
  if (text === null) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    throw new Error(`URL parameter ${key}=${text} is not a positive ${integer ? 'integer' : 'number'}`);
  }
  return n;
}

function oneOf<T extends string>(params: URLSearchParams, key: string, allowed: readonly T[]): T | undefined {
  const text = params.get(key);
  if (text === null) return undefined;
  if (!(allowed as readonly string[]).includes(text)) throw new Error(`URL parameter ${key}=${text} must be one of ${allowed.join(', ')}`);
  return text as T;
}

/** Throws an Error naming the first bad parameter. */
export function readSimUrlOptions(search: string): SimUrlOptions {
  const q = new URLSearchParams(search);
  const run = q.get('run');
  if (run !== null && run !== '0' && run !== '1') throw new Error(`URL parameter run=${run} must be 0 or 1`);
  const params: Partial<SolverParams> = {};
  const dt = positiveNumber(q, 'dt');
  if (dt !== undefined) params.dt = dt;
  const substeps = positiveNumber(q, 'substeps', true);
  if (substeps !== undefined) params.substeps = substeps;
  const iterations = positiveNumber(q, 'iterations', true);
  if (iterations !== undefined) params.iterations = iterations;
  const solve = oneOf(q, 'solve', SOLVE_ORDERS);
  if (solve !== undefined) params.solveOrder = solve;
  const constraint = oneOf(q, 'constraint', CONSTRAINTS);
  if (constraint !== undefined) params.constraint = constraint;
  const damping = q.get('damping');
  if (damping !== null) {
    const n = Number(damping);
    if (!(n >= 0 && Number.isFinite(n))) throw new Error(`URL parameter damping=${damping} must be a finite number >= 0`);
    params.damping = n;
  }
  const material: Partial<Material> = {};
  const young = positiveNumber(q, 'young');
  if (young !== undefined) material.youngsModulus = young;
  const density = positiveNumber(q, 'density');
  if (density !== undefined) material.density = density;
  const poisson = q.get('poisson');
  if (poisson !== null) {
    const n = Number(poisson);
    if (!(n >= 0 && n < 0.5)) throw new Error(`URL parameter poisson=${poisson} must be a number in [0, 0.5)`);
    material.poissonRatio = n;
  }
  const engine = oneOf(q, 'engine', ENGINES) ?? 'auto';
  return { run: run === '1', engine, params, material };
}
