/**
 * The runner's scene setup for the collision scenes: which mesh file a scene reads, the
 * scene-specific flags it refuses, and the run's parameters: command-line flags fix a
 * parameter for the whole run (the scene's schedule loses it), --self-collision-from F turns
 * self-collision off for the first F frames. The frame-by-frame parameters are replayed here
 * the way the runner applies them (changesAt before each frame) and compared with the rule.
 */
import { describe, expect, it } from 'vitest';
import { parseRunArgs, UsageError, type RunOptions } from '../../../src/runner/args';
import { buildScene, checkSceneFlags, meshFileOf, runParams } from '../../../src/runner/sceneSetup';
import { readMeshFile } from '../../../src/runner/meshFile';
import { findScene } from '../../../src/scenes/registry';
import { changesAt } from '../../../src/scenes/schedule';
import type { SceneSetup } from '../../../src/scenes/types';
import type { SolverParams } from '../../../src/contract/params';

function options(...argv: string[]): RunOptions {
  const c = parseRunArgs(argv);
  if (c.kind !== 'run') throw new Error('expected a run');
  return c.options;
}

/** Parameters in force during each of `frames` frames, applying changes the way scripts/sim.ts does. */
function replay(setup: SceneSetup, argv: string[], frames: number): SolverParams[] {
  const o = options(...argv);
  const plan = runParams(setup, o);
  let p: SolverParams = { ...setup.params, ...plan.initial };
  const out: SolverParams[] = [];
  for (let f = 1; f <= frames; f++) {
    const change = changesAt(plan.schedule, f - 1);
    if (change) p = { ...p, ...change };
    out.push(p);
  }
  return out;
}

function setupOf(argv: string[]): SceneSetup {
  const o = options(...argv);
  const scene = findScene(o.scene);
  checkSceneFlags(scene, o);
  const file = meshFileOf(scene, o);
  return buildScene(scene, o, file ? readMeshFile(file) : undefined);
}

describe('runner scene setup for the collision scenes', () => {
  it('octopus-pile reads the shared octopus unless --mesh is given; the drop scene still needs --mesh', () => {
    const pile = findScene('octopus-pile');
    expect(meshFileOf(pile, options('--scene', 'octopus-pile'))).toBe('../shared/meshes/octopus_2KFaces.t');
    expect(meshFileOf(pile, options('--scene', 'octopus-pile', '--mesh', 'a.t'))).toBe('a.t');
    expect(meshFileOf(findScene('cube-stack'), options('--scene', 'cube-stack'))).toBeUndefined();
    expect(() => checkSceneFlags(pile, options('--scene', 'octopus-pile'))).not.toThrow();
    expect(() => checkSceneFlags(findScene('drop'), options('--scene', 'drop'))).toThrow(/scene drop needs --mesh FILE/);
    expect(() => checkSceneFlags(findScene('mesh-pile'), options('--scene', 'mesh-pile'))).toThrow(/scene mesh-pile needs --mesh FILE/);
  });

  it('--copies reaches the pile and stack scenes and is refused by the others', () => {
    expect(setupOf(['--scene', 'cube-stack', '--copies', '3']).model.objectNames).toHaveLength(3);
    expect(setupOf(['--scene', 'mesh-pile', '--mesh', '../shared/meshes/Cube.t', '--copies', '5']).model.tetCount).toBe(5 * 234);
    for (const scene of ['noodle-recovery', 'squishy-squeeze', 'drop', 'cantilever']) {
      const o = options('--scene', scene, '--copies', '2', '--mesh', 'x.t');
      expect(() => checkSceneFlags(findScene(scene), o), scene).toThrow(new RegExp(`scene ${scene} does not take --(copies|mesh)`));
    }
  });

  it('noodle-recovery: the scene\'s schedule, or the command line\'s', () => {
    const noodle = setupOf(['--scene', 'noodle-recovery']);
    // Scene default: off for frames 0..89, on (with recovery) from frame 90.
    let p = replay(noodle, ['--scene', 'noodle-recovery'], 92);
    expect(p.map((x) => x.selfCollision).indexOf(true)).toBe(90);
    expect(p.map((x) => x.recovery).indexOf(true)).toBe(90);
    expect(p[89]).toMatchObject({ selfCollision: false, recovery: false });
    // --self-collision-from 7: the switch moves to frame 7 (the scene follows the hint for recovery).
    const argv = ['--scene', 'noodle-recovery', '--self-collision-from', '7'];
    p = replay(setupOf(argv), argv, 20);
    expect(p.map((x) => x.selfCollision).indexOf(true)).toBe(7);
    expect(p.map((x) => x.recovery).indexOf(true)).toBe(7);
    expect(p.slice(7).every((x) => x.selfCollision && x.recovery)).toBe(true);
    // --self-collision on fixes it for the whole run; recovery still switches at the scene's frame.
    p = replay(noodle, ['--scene', 'noodle-recovery', '--self-collision', 'on'], 92);
    expect(p.every((x) => x.selfCollision)).toBe(true);
    expect(p.map((x) => x.recovery).indexOf(true)).toBe(90);
    // --recovery off and --self-collision off: nothing is left to schedule.
    const plan = runParams(noodle, options('--scene', 'noodle-recovery', '--recovery', 'off', '--self-collision', 'off'));
    expect(plan.schedule).toEqual([]);
    expect(plan.initial).toEqual({ recovery: false, selfCollision: false });
  });

  it('--self-collision-from on a scene without a schedule; 0 means on from the start', () => {
    const cubes = setupOf(['--scene', 'cube-stack']);
    let p = replay(cubes, ['--scene', 'cube-stack', '--self-collision-from', '3', '--contact-iterations', '4'], 6);
    expect(p.map((x) => x.selfCollision)).toEqual([false, false, false, true, true, true]);
    expect(p.every((x) => x.contactIterations === 4 && x.collisions)).toBe(true);
    p = replay(cubes, ['--scene', 'cube-stack', '--self-collision-from', '0'], 3);
    expect(p.every((x) => x.selfCollision)).toBe(true);
    expect(runParams(cubes, options('--scene', 'cube-stack', '--self-collision-from', '0')).schedule).toEqual([]);
  });

  it('a bad scheduled change or a bad parameter is a UsageError naming it', () => {
    const noodle = setupOf(['--scene', 'noodle-recovery']);
    const bad: SceneSetup = { ...noodle, schedule: [{ frame: 5, params: { contactIterations: 0 } }] };
    expect(() => runParams(bad, options('--scene', 'noodle-recovery'))).toThrow(UsageError);
    expect(() => runParams(bad, options('--scene', 'noodle-recovery'))).toThrow(/schedule at frame 5: contactIterations must be an integer >= 1/);
    const early: SceneSetup = { ...noodle, schedule: [{ frame: -1, params: { recovery: true } }] };
    expect(() => runParams(early, options('--scene', 'noodle-recovery'))).toThrow(/schedule entry 0: frame must be an integer >= 0, got -1/);
    // The same change fixed on the command line removes it from the schedule: nothing bad is left.
    expect(runParams(bad, options('--scene', 'noodle-recovery', '--contact-iterations', '2')).schedule).toEqual([]);
  });
});
