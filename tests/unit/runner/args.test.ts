/** The runner's command line: every flag reaches RunOptions, every bad value is refused naming the flag. */
import { describe, expect, it } from 'vitest';
import { FLAGS, parseRunArgs, usageText, UsageError, type RunOptions } from '../../../src/runner/args';

function run(...argv: string[]): RunOptions {
  const c = parseRunArgs(argv);
  if (c.kind !== 'run') throw new Error(`expected a run, got ${c.kind}`);
  return c.options;
}

describe('runner arguments', () => {
  it('help and list need no scene', () => {
    expect(parseRunArgs(['--help']).kind).toBe('help');
    expect(parseRunArgs(['--list']).kind).toBe('list');
    expect(parseRunArgs(['--scene', 'x', '--help']).kind).toBe('help');
  });

  it('every value flag lands where the solver, the scene or the output reads it', () => {
    const o = run('--scene', 'drop', '--mesh', 'a.t', '--height', '0.25', '--ground', 'off', '--velocity', '1,-2,3e-1',
      '--young', '1e5', '--poisson', '0.45', '--density=500', '--friction', '0.5', '--damping', '0', '--gravity', '0,-9.81,-2',
      '--substeps', '7', '--iterations', '4', '--order', 'jacobi', '--relaxation', '1.5', '--constraint', 'springs', '--dt', '0.01',
      '--frames', '3', '--out', 'r.json', '--dump', 'd', '--every', '2', '--frames-in-flight', '2');
    expect(o).toEqual({
      scene: 'drop', mesh: 'a.t', height: 0.25, ground: false, velocity: [1, -2, 0.3], frames: 3, out: 'r.json', dump: 'd', every: 2, framesInFlight: 2, engine: 'gpu',
      material: { youngsModulus: 1e5, poissonRatio: 0.45, density: 500 },
      params: { friction: 0.5, damping: 0, gravity: [0, -9.81, -2], substeps: 7, iterations: 4, solveOrder: 'jacobi', jacobiRelaxation: 1.5, constraint: 'springs', dt: 0.01 },
    });
    expect(run('--scene', 'cantilever')).toEqual({ scene: 'cantilever', frames: 10, every: 1, framesInFlight: 1, engine: 'gpu', material: {}, params: {} });
    expect(run('--scene', 'cantilever', '--engine', 'cpu').engine).toBe('cpu');
    expect(run('--scene', 'cantilever', '--warm-start', 'off', '--line-search', 'on').params).toEqual({ warmStart: false, lineSearch: true });
    expect(run('--scene', 'cantilever', '--anderson-depth', '2').params).toEqual({ andersonDepth: 2 });
  });

  it('bad values are refused naming the flag and the rule', () => {
    const cases: [string[], RegExp][] = [
      [['--poisson', '0.5'], /--poisson must be in \[0, 0\.5\), got 0\.5/],
      [['--poisson', '-0.1'], /--poisson must be in \[0, 0\.5\)/],
      [['--young', '0'], /--young must be a number > 0/],
      [['--density', 'abc'], /--density must be a number, got "abc"/],
      [['--frames', '2.5'], /--frames must be an integer >= 1/],
      [['--substeps', '0'], /--substeps must be an integer >= 1/],
      [['--relaxation', '2.5'], /--relaxation must be a number in \[1, 2\], got 2\.5/],
      [['--relaxation', '0.5'], /--relaxation must be a number in \[1, 2\], got 0\.5/],
      [['--anderson-depth', '5'], /--anderson-depth must be an integer in \[0, 4\] \(0: off\), got 5/],
      [['--gravity', '0,-9.81'], /--gravity needs three comma-separated numbers/],
      [['--velocity', '1,x,2'], /--velocity must be a number, got "x"/],
      [['--ground', 'maybe'], /--ground must be on or off, got "maybe"/],
      [['--order', 'red-black'], /--order must be partitioned or gauss-seidel or jacobi/],
      [['--height', '-1'], /--height must be a number >= 0, got -1/],
      [['--frames-in-flight', '3'], /--frames-in-flight must be 1 or 2, got "3"/],
      [['--frames-in-flight', '0'], /--frames-in-flight must be 1 or 2, got "0"/],
      [['--engine', 'wasm'], /--engine must be gpu or cpu, got "wasm"/],
      [['--engine', 'cpu', '--frames-in-flight', '2'], /--frames-in-flight 2 needs the GPU engine/],
      [['--damping', 'NaN'], /--damping must be a number, got "NaN"/],
      [['--bogus', '1'], /unknown option --bogus/],
      [['--frames'], /--frames needs a value \(N\)/],
      [['--frames', '--dt', '1'], /--frames needs a value/],
      [['--dt', '1', '--dt', '2'], /--dt is given twice/],
      [['--list=yes'], /--list takes no value/],
      [['stray'], /unexpected argument "stray"/],
    ];
    for (const [argv, message] of cases) {
      const withScene = argv[0] === 'stray' || argv[0] === '--list=yes' ? argv : ['--scene', 'drop', ...argv];
      expect(() => parseRunArgs(withScene), argv.join(' ')).toThrow(UsageError);
      expect(() => parseRunArgs(withScene), argv.join(' ')).toThrow(message);
    }
    expect(() => parseRunArgs(['--frames', '3'])).toThrow(/--scene is required/);
  });

  it('collision flags land in the solver parameters; --copies and --self-collision-from in the options', () => {
    const o = run('--scene', 'octopus-pile', '--copies', '12', '--collisions', 'off', '--recovery', 'on', '--inter-object', 'euclidean',
      '--contact-iterations', '3', '--self-collision-from', '40', '--contact-offset', '0.002');
    expect(o).toEqual({
      scene: 'octopus-pile', copies: 12, selfCollisionFrom: 40, frames: 10, every: 1, framesInFlight: 1, engine: 'gpu', material: {},
      params: { collisions: false, recovery: true, interObject: 'euclidean', contactIterations: 3, contactOffset: 0.002 },
    });
    expect(run('--scene', 's', '--contact-offset', 'auto').params.contactOffset).toBe('auto');
    expect(run('--scene', 's', '--contact-offset', '0').params.contactOffset).toBe(0);
    expect(run('--scene', 's', '--contact-offset-speed', '0.3').params.contactOffsetSpeed).toBe(0.3);
    expect(run('--scene', 's', '--contact-offset-speed', 'off').params.contactOffsetSpeed).toBe(Infinity);
    expect(run('--scene', 's', '--depenetration-speed', '0.5').params.depenetrationSpeed).toBe(0.5);
    expect(run('--scene', 's', '--depenetration-speed', 'off').params.depenetrationSpeed).toBe(Infinity);
    expect(run('--scene', 's', '--impact-substeps', '16').params.impactSubsteps).toBe(16);
    expect(() => run('--scene', 's', '--impact-substeps', '2.5')).toThrow(/impact-substeps/);
    expect(run('--scene', 's', '--impact-substeps', 'auto').params.impactSubsteps).toBe('auto');
    expect(() => run('--scene', 's', '--impact-substeps', 'max')).toThrow(/impact-substeps/);
    expect(run('--scene', 's', '--self-collision', 'off', '--collisions=on', '--inter-object', 'exact').params)
      .toEqual({ selfCollision: false, collisions: true, interObject: 'exact' });
    expect(run('--scene', 's', '--self-collision-from', '0').selfCollisionFrom).toBe(0);
    expect(run('--scene', 's', '--collision-mode', 'air', '--air-iterations', '6', '--air-optimize-every', '0').params)
      .toEqual({ collisionMode: 'air', airIterations: 6, airOptimizeFrames: 0 });
    expect(run('--scene', 's', '--collide-every', 'iteration').params).toEqual({ collideEvery: 'iteration' });
    expect(run('--scene', 's', '--far-side-contacts', 'keep').params).toEqual({ farSideContacts: 'keep' });
    expect(run('--scene', 's', '--collider-response', 'multiplier').params).toEqual({ colliderResponse: 'multiplier' });
    expect(() => run('--scene', 's', '--collider-response', 'soft')).toThrow(/--collider-response must be auto or projection or multiplier/);
    expect(run('--scene', 's', '--contact-dispatch', 'grid').params).toEqual({ contactDispatch: 'grid' });
    expect(() => run('--scene', 's', '--contact-dispatch', 'warp')).toThrow(/--contact-dispatch/);
  });

  it('bad collision flag values are refused naming the flag', () => {
    const cases: [string[], RegExp][] = [
      [['--copies', '0'], /--copies must be an integer >= 1, got "0"/],
      [['--copies', '2.5'], /--copies must be an integer >= 1/],
      [['--collisions', 'yes'], /--collisions must be on or off, got "yes"/],
      [['--contact-offset', '-1'], /--contact-offset must be a number >= 0 \(world units\) or 'auto', got "-1"/],
      [['--contact-offset-speed', '0'], /--contact-offset-speed must be a number > 0 \(world units per second\) or 'off', got 0/],
      [['--depenetration-speed', '-1'], /--depenetration-speed must be a number > 0 \(world units per second\) or 'off', got -1/],
      [['--contact-offset', 'thick'], /--contact-offset must be a number >= 0 \(world units\) or 'auto', got "thick"/],
      [['--impact-substeps', 'max'], /--impact-substeps must be an integer >= 0 or 'auto', got "max"/],
      [['--impact-substeps', '2.5'], /--impact-substeps must be an integer >= 0 or 'auto', got "2.5"/],
      [['--impact-substeps', ''], /--impact-substeps must be an integer >= 0 or 'auto', got ""/],
      [['--self-collision', '1'], /--self-collision must be on or off, got "1"/],
      [['--recovery', 'true'], /--recovery must be on or off, got "true"/],
      [['--inter-object', 'nearest'], /--inter-object must be exact or euclidean, got "nearest"/],
      [['--contact-iterations', '0'], /--contact-iterations must be an integer >= 1, got "0"/],
      [['--collision-mode', 'airmesh'], /--collision-mode must be .*ccd.*air, got "airmesh"/],
      [['--collide-every', 'frame'], /--collide-every must be .*substep.*iteration.*contacts, got "frame"/],
      [['--far-side-contacts', 'off'], /--far-side-contacts must be .*auto.*drop.*keep, got "off"/],
      [['--air-iterations', '0'], /--air-iterations must be an integer >= 1, got "0"/],
      [['--air-optimize-every', '-1'], /--air-optimize-every must be an integer >= 0, got "-1"/],
      [['--self-collision-from', '-1'], /--self-collision-from must be an integer >= 0, got "-1"/],
      [['--self-collision-from', 'x'], /--self-collision-from must be a number, got "x"/],
      [['--self-collision-from'], /--self-collision-from needs a value \(F\)/],
      [['--self-collision', 'on', '--self-collision-from', '5'], /--self-collision and --self-collision-from both set self-collision/],
    ];
    for (const [argv, message] of cases) {
      expect(() => parseRunArgs(['--scene', 'noodle-recovery', ...argv]), argv.join(' ')).toThrow(UsageError);
      expect(() => parseRunArgs(['--scene', 'noodle-recovery', ...argv]), argv.join(' ')).toThrow(message);
    }
  });

  it('a negative number is a value, not an option', () => {
    expect(run('--scene', 's', '--gravity', '-1,0,0').params.gravity).toEqual([-1, 0, 0]);
  });

  it('the usage text lists every flag and the scenes', () => {
    const text = usageText(['a', 'b']);
    for (const f of FLAGS) expect(text).toContain(`--${f.name}`);
    expect(text).toContain('scenes: a, b');
  });
});
