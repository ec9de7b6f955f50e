import { describe, expect, it } from 'vitest';
import { partitionedColouring } from '../../../src/mesh/partitionedColouring';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { loadSharedTetArrays } from '../../support/sharedMeshes';
import { makeSetup } from './support/setups';

/**
 * SolverParams.partitionBalance reaches the model the solver sweeps (model.ts setPartitionBalance),
 * at construction and between frames, and either pass rule gives the same free fall, g t^2 / 2
 * (symplectic Euler: g h^2 n (n + 1) / 2 after n substeps), since a rigid fall strains no tet.
 */
describe('the partitioned order\'s pass rule as a solver setting', () => {
  const cube = loadSharedTetArrays('Cube.t');
  const material = { youngsModulus: 2e4, poissonRatio: 0.4 };
  const rounds = (p: { passes: { maxColours: number }[] }): number => p.passes.reduce((s, q) => s + q.maxColours, 0);

  it('builds the partition by the rule of the params, rebuilds it when the rule changes, and falls as g t^2 / 2 under either', () => {
    const setup = makeSetup([{ ...cube, material }], { dt: 1 / 60, substeps: 4, iterations: 2, partitionBalance: 'count' }, []);
    const m = setup.model;
    const y0 = m.restPositions[1];
    const solver = new CpuSolver(setup);
    const fixed = new Uint8Array(m.vertexCount);
    const byCount = partitionedColouring(m.tets, 4, m.restPositions, m.vertexCount, fixed, { balance: 'count' });
    const byValence = partitionedColouring(m.tets, 4, m.restPositions, m.vertexCount, fixed, { balance: 'valence' });
    expect(m.partitionBalance).toBe('count');
    expect(Array.from(m.tetPartition.order)).toEqual(Array.from(byCount.order));
    for (let f = 0; f < 3; f++) solver.stepFrame();
    solver.params = { ...solver.params, partitionBalance: 'valence' };
    for (let f = 0; f < 3; f++) solver.stepFrame();
    expect(m.partitionBalance).toBe('valence');
    expect(Array.from(m.tetPartition.order)).toEqual(Array.from(byValence.order));
    // The rules differ on this mesh (else the rebuild would prove nothing).
    expect(rounds(byValence)).not.toBe(rounds(byCount));
    const n = 24, h = 1 / 240, g = 9.81;
    const drop = y0 - solver.x[1];
    expect(Math.abs(drop / ((g * h * h * n * (n + 1)) / 2) - 1)).toBeLessThan(1e-9);
  });

  it('refuses an unknown rule by name', () => {
    expect(() => new CpuSolver(makeSetup([{ ...cube, material }], { partitionBalance: 'random' as never }, []))).toThrow(/partitionBalance must be one of valence, count/);
  });
});
