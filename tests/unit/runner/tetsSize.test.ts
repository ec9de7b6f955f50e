/**
 * --tets N (src/runner/tetsSize.ts, sceneSetup.ts): the size found is the one a brute-force scan
 * of every size calls nearest, on count functions shaped like the scenes' (linear in copies,
 * cubic in resolution with lattice rounding, plateaus); outside the reachable counts the
 * message names the range; a real scene's choice beats its neighbours; bad combinations refused.
 */
import { describe, expect, it } from 'vitest';
import { parseRunArgs, UsageError, type RunOptions } from '../../../src/runner/args';
import { buildScene, checkSceneFlags } from '../../../src/runner/sceneSetup';
import { sizeForTets, TetsRangeError } from '../../../src/runner/tetsSize';
import { findScene } from '../../../src/scenes/registry';

function options(...argv: string[]): RunOptions {
  const c = parseRunArgs(argv);
  if (c.kind !== 'run') throw new Error('expected a run');
  return c.options;
}

/** Nearest by scanning every size (ties: the smaller size). */
function bruteForce(min: number, max: number, step: number, target: number, f: (s: number) => number): number {
  let best = min;
  for (let s = min; s <= max; s += step) if (Math.abs(f(s) - target) < Math.abs(f(best) - target)) best = s;
  return best;
}

describe('--tets: size search', () => {
  const shapes: [string, { min: number; max: number; step: number; option: 'copies' | 'resolution' }, (s: number) => number][] = [
    ['copies, 4069 tets each', { min: 1, max: 256, step: 1, option: 'copies' }, (s) => 4069 * s],
    ['lattice, cubic with rounding', { min: 28, max: 170, step: 1, option: 'resolution' }, (s) => Math.floor(0.62 * s ** 3 + 37 * Math.sin(s) ** 2)],
    ['lattice on a step of 4, quadratic (not the cube law the guess assumes)', { min: 8, max: 240, step: 4, option: 'resolution' }, (s) => 13 * s * s + 5],
    ['plateaus (the same count over several sizes)', { min: 1, max: 90, step: 1, option: 'copies' }, (s) => 1000 * Math.floor(s / 7) + 100],
  ];
  for (const [name, range, f] of shapes) {
    it(`${name}: the brute-force nearest, in few builds`, () => {
      const lo = f(range.min);
      const hi = f(range.max);
      for (let i = 0; i <= 40; i++) {
        const target = Math.round(lo * Math.pow(hi / lo, i / 40));
        let calls = 0;
        const got = sizeForTets('scene', range, target, (s) => (calls++, f(s)));
        const want = bruteForce(range.min, range.max, range.step, target, f);
        expect(Math.abs(f(got.size) - target), `${name} target ${target}: got size ${got.size}, brute force ${want}`).toBe(Math.abs(f(want) - target));
        expect(got.tets).toBe(f(got.size));
        expect(calls).toBe(got.probes);
        // Logarithmic: a scan would take up to the whole range.
        expect(calls, `${name} target ${target}`).toBeLessThanOrEqual(3 * Math.ceil(Math.log2((range.max - range.min) / range.step + 1)) + 2);
      }
    });
  }

  it('a count outside the reachable range is refused naming the range and sizes', () => {
    const range = { min: 2, max: 10, step: 1, option: 'copies' as const };
    expect(() => sizeForTets('octopus-box', range, 100, (s) => 1000 * s)).toThrow(TetsRangeError);
    // Below the range only the smallest size is built: the refusal must not wait for the largest.
    const built: number[] = [];
    expect(() => sizeForTets('octopus-box', range, 100, (s) => (built.push(s), 1000 * s))).toThrow('--tets 100: scene octopus-box starts at 2000 tets (size 2, its smallest; the largest is size 10); give a count of at least 2000');
    expect(built).toEqual([2]);
    // Above it the largest is built once, right after the smallest (not after the size below it).
    built.length = 0;
    expect(() => sizeForTets('octopus-box', range, 10001, (s) => (built.push(s), 1000 * s))).toThrow('reaches 2000 tets (size 2) to 10000 tets (size 10)');
    expect(built).toEqual([2, 10]);
    built.length = 0;
    expect(() => sizeForTets('octopus-box', { min: 1, max: 256, step: 1, option: 'copies' }, 5e6, (s) => (built.push(s), 4069 * s))).toThrow('reaches 4069 tets (size 1) to 1041664 tets (size 256)');
    expect(built).toEqual([1, 256]);
    expect(sizeForTets('octopus-box', range, 10000, (s) => 1000 * s).size).toBe(10);
    expect(sizeForTets('octopus-box', range, 2000, (s) => 1000 * s).size).toBe(2);
  });
});

describe('--tets on the command line', () => {
  it('is refused with --size, --resolution or --copies, and on scenes without a size', () => {
    expect(() => options('--scene', 'octopus-box', '--tets', '1000', '--size', '3')).toThrow("--tets and --size both set the scene's size: give one");
    expect(() => options('--scene', 'octopus-pile', '--tets', '1000', '--copies', '3')).toThrow(UsageError);
    expect(() => options('--scene', 'octopus-drop', '--tets', '0')).toThrow('--tets must be an integer >= 1');
    expect(() => checkSceneFlags(findScene('drop'), options('--scene', 'drop', '--mesh', 'a.t', '--tets', '1000'))).toThrow('scene drop has no size');
  });

  it('cube-stack: the chosen size builds the tets reported, and its neighbours are farther from N', () => {
    const scene = findScene('cube-stack');
    const o = options('--scene', 'cube-stack', '--tets', '9500');
    const messages: string[] = [];
    const setup = buildScene(scene, o, undefined, {}, (m) => messages.push(m));
    const tets = (size: number) => scene.build({ size }).model.tetCount;
    const size = setup.model.objectNames.length;
    expect(setup.model.tetCount).toBe(tets(size));
    for (const n of [size - 1, size + 1]) expect(Math.abs(tets(n) - 9500)).toBeGreaterThanOrEqual(Math.abs(setup.model.tetCount - 9500));
    expect(messages.join('\n')).toMatch(new RegExp(`--tets 9500: size ${size} \\(cubes\\) has ${setup.model.tetCount} tets`));
    expect(() => buildScene(scene, options('--scene', 'cube-stack', '--tets', '10'), undefined), 'below one cube').toThrow(/--tets 10: scene cube-stack starts at \d+ tets \(size 1, its smallest; the largest is size 64\)/);
  });
});
