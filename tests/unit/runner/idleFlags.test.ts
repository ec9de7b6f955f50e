/**
 * The runner's note on flags that change nothing (src/runner/idleFlags.ts), checked against the
 * solver itself: where the note says a flag is idle, the float64 CPU engine's run with the flag is
 * the run without it bit for bit; where it says nothing, the flag does change the run. A Cube.t
 * thrown at the ground (3 frames, landing, so the material, the contacts and the colliders act).
 */
import { describe, expect, it } from 'vitest';
import { defaultParams, type SolverParams } from '../../../src/contract/params';
import { idleFlagNotes, runParameterSets } from '../../../src/runner/idleFlags';
import { meshDrop } from '../../../src/scenes/meshDrop';
import { CpuSolver } from '../../../src/sim/cpuSolver';
import { loadSharedTetArrays } from '../../support/sharedMeshes';

function landing(params: Partial<SolverParams>): { x: Float64Array; params: SolverParams } {
  const mesh = loadSharedTetArrays('Cube.t');
  const setup = meshDrop.build({ mesh: { name: 'Cube.t', positions: mesh.positions, tets: mesh.tets }, height: 0.05 });
  setup.model.initialVelocities.fill(0);
  for (let v = 0; v < setup.model.vertexCount; v++) setup.model.initialVelocities[3 * v + 1] = -3;
  setup.params = { ...setup.params, selfCollision: true, ...params };
  const solver = new CpuSolver(setup);
  for (let f = 0; f < 3; f++) solver.stepFrame();
  return { x: Float64Array.from(solver.x), params: setup.params };
}

/** [the flag's setting, a base where the note calls it idle, a base where it acts] */
const CASES: [string, Partial<SolverParams>, Partial<SolverParams>, Partial<SolverParams>][] = [
  ['relaxation', { jacobiRelaxation: 1.6 }, { solveOrder: 'partitioned' }, { solveOrder: 'jacobi' }],
  ['warm-start', { warmStart: false }, { solveOrder: 'jacobi' }, { solveOrder: 'partitioned' }],
  ['line-search', { lineSearch: false }, { solveOrder: 'jacobi' }, { solveOrder: 'gauss-seidel' }],
  // With the collider response fixed: under 'auto' the depth also switches the colliders to 'multiplier'.
  ['anderson-depth', { andersonDepth: 2 }, { iterations: 3, colliderResponse: 'projection' }, { iterations: 6, colliderResponse: 'projection' }],
  ['anderson-line-search-sweeps', { andersonLineSearchSweeps: 2 }, { iterations: 8, andersonDepth: 0 }, { iterations: 8, andersonDepth: 2, colliderResponse: 'projection' }],
];

describe('flags that change nothing are named, and only those', () => {
  for (const [flag, setting, idleBase, activeBase] of CASES) {
    it(`--${flag}`, () => {
      const idleOff = landing(idleBase);
      const idleOn = landing({ ...idleBase, ...setting });
      expect(idleFlagNotes(setting, [idleOn.params], 'cpu', 1).join(' ')).toContain(`--${flag} changes nothing`);
      expect(Array.from(idleOn.x)).toEqual(Array.from(idleOff.x));
      const activeOff = landing(activeBase);
      const activeOn = landing({ ...activeBase, ...setting });
      expect(idleFlagNotes(setting, [activeOn.params], 'cpu', 1)).toEqual([]);
      let moved = 0;
      for (let i = 0; i < activeOn.x.length; i++) moved = Math.max(moved, Math.abs(activeOn.x[i] - activeOff.x[i]));
      expect(moved).toBeGreaterThan(0);
    });
  }

  it('stage settings whose stage is off are named (air mode, DCD), and a depth that changes the colliders is not', () => {
    const p = { ...defaultParams(), collisions: true };
    expect(idleFlagNotes({ airIterations: 7 }, [{ ...p, collisionMode: 'hybrid' }], 'cpu', 1)).toEqual(['--air-iterations changes nothing in this run: the collision mode is hybrid, not air']);
    expect(idleFlagNotes({ airIterations: 7 }, [{ ...p, collisionMode: 'air' }], 'cpu', 1)).toEqual([]);
    expect(idleFlagNotes({ penetration: 'ddf' }, [{ ...p, collisionMode: 'ccd' }], 'gpu', 1)).toEqual(['--penetration changes nothing in this run: collision mode ccd runs no DCD']);
    expect(idleFlagNotes({ collisionMode: 'ccd' }, [{ ...p, recovery: true, collisionMode: 'ccd' }], 'gpu', 1)).toEqual(['--collision-mode changes nothing in this run: recovery mode runs DCD for every point']);
    expect(idleFlagNotes({ andersonDepth: 2 }, [{ ...p, iterations: 3, colliderResponse: 'auto' }], 'cpu', 1)).toEqual([]);
  });

  it("CCD in every round acts where 'auto' solves the contacts after every iteration: two or more objects", () => {
    const p = { ...defaultParams(), collisions: true, collideEvery: 'auto' as const };
    expect(idleFlagNotes({ ccdEveryRound: true }, [p], 'cpu', 1)).toEqual(["--ccd-every-round changes nothing in this run: it acts with collide-every contacts and this run's is substep"]);
    expect(idleFlagNotes({ ccdEveryRound: true }, [p], 'cpu', 2)).toEqual([]);
  });

  it("the sliver floor's own threshold acts only above sliver-quality, with the floor on and outside recovery", () => {
    const p = { ...defaultParams(), collisions: true, recovery: false, sliverFloor: true, sliverQuality: 0.04 };
    expect(idleFlagNotes({ sliverFloorQuality: 0.1 }, [{ ...p, sliverFloorQuality: 0.1 }], 'cpu', 1)).toEqual([]);
    expect(idleFlagNotes({ sliverFloorQuality: 0.03 }, [{ ...p, sliverFloorQuality: 0.03 }], 'gpu', 1)).toEqual([
      '--sliver-floor-quality changes nothing in this run: it is not above sliver-quality, whose slivers the floor holds anyway',
    ]);
    expect(idleFlagNotes({ sliverFloorQuality: 0.1 }, [{ ...p, sliverFloor: false, sliverFloorQuality: 0.1 }], 'gpu', 1)).toEqual(['--sliver-floor-quality changes nothing in this run: sliver-floor is off']);
    expect(idleFlagNotes({ sliverFloorQuality: 0.1 }, [{ ...p, recovery: true, sliverFloorQuality: 0.1 }], 'gpu', 1)).toEqual(['--sliver-floor-quality changes nothing in this run: recovery mode floors every tet']);
    // With no softened sliver the floor still acts on the tets below its own threshold.
    expect(idleFlagNotes({ sliverFloor: true }, [{ ...p, sliverQuality: 0, sliverFloorQuality: 0.1 }], 'gpu', 1)).toEqual([]);
    expect(idleFlagNotes({ sliverFloor: true }, [{ ...p, sliverQuality: 0, sliverFloorQuality: 0 }], 'gpu', 1)).toEqual([
      '--sliver-floor changes nothing in this run: sliver-quality and sliver-floor-quality are 0: the floor holds no tet',
    ]);
    // The lift inside the material sweeps acts where the lift after the contacts does.
    expect(idleFlagNotes({ sliverFloorInSweeps: true }, [{ ...p, sliverFloorInSweeps: true }], 'cpu', 1)).toEqual([]);
    expect(idleFlagNotes({ sliverFloorInSweeps: true }, [{ ...p, sliverFloor: false, sliverFloorInSweeps: true }], 'gpu', 1)).toEqual(['--sliver-floor-in-sweeps changes nothing in this run: sliver-floor is off']);
    expect(idleFlagNotes({ sliverFloorInSweeps: true }, [{ ...p, collisionMode: 'air', sliverFloorInSweeps: true }], 'gpu', 1)).toEqual(['--sliver-floor-in-sweeps changes nothing in this run: air mode has no inversion floor']);
  });

  it("the searched sweeps of Anderson acceleration act only on accelerated runs longer than them, with the line search on", () => {
    const p = { ...defaultParams(), andersonDepth: 4, iterations: 8, solveOrder: 'partitioned' as const };
    const flag = '--anderson-line-search-sweeps changes nothing in this run: ';
    expect(idleFlagNotes({ andersonLineSearchSweeps: 4 }, [{ ...p, andersonLineSearchSweeps: 4 }], 'gpu', 1)).toEqual([]);
    expect(idleFlagNotes({ andersonLineSearchSweeps: 8 }, [{ ...p, andersonLineSearchSweeps: 8 }], 'gpu', 1)).toEqual([`${flag}this run's 8 iterations between collision rounds all search their step lengths`]);
    expect(idleFlagNotes({ andersonLineSearchSweeps: 4 }, [{ ...p, lineSearch: false, andersonLineSearchSweeps: 4 }], 'gpu', 1)).toEqual([`${flag}the line search is off`]);
    expect(idleFlagNotes({ andersonLineSearchSweeps: 4 }, [{ ...p, solveOrder: 'jacobi', andersonLineSearchSweeps: 4 }], 'gpu', 1)).toEqual([`${flag}it reuses the searched step lengths of Neo-Hookean tets in the Gauss-Seidel orders and the order is jacobi`]);
  });

  it('a flag idle at the start but active after a scheduled change is not named', () => {
    const first: SolverParams = { ...defaultParams(), collisions: true, recovery: false, sliverFloor: false };
    const sets = runParameterSets(first, [{ frame: 20, params: { recovery: true } }]);
    expect(idleFlagNotes({ inversionFloor: 0.3 }, sets, 'gpu', 1)).toEqual([]);
    expect(idleFlagNotes({ inversionFloor: 0.3 }, [first], 'gpu', 1)).toEqual(['--inversion-floor changes nothing in this run: it acts in recovery mode, or on the sliver tets with sliver-floor on']);
  });
});
