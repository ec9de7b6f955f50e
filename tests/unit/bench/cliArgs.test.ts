/**
 * The benchmarks' shared command line (bench/cli.ts): a mistyped or unknown flag, a missing value
 * or a stray word is refused before any work, naming it; what a benchmark documents passes.
 * Every runnable benchmark calls the check first, so none runs minutes at its defaults on a typo.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { benchArgsProblem, onOffArg, type BenchCommandLine } from '../../../bench/cli';

const spec: BenchCommandLine = { usage: 'bench/x.ts [--frames N] [--scene S] [--quiet]', values: ['--frames', '--scene'], switches: ['--quiet'] };

describe('bench command line', () => {
  it('passes the documented forms', () => {
    expect(benchArgsProblem([], spec)).toBeNull();
    expect(benchArgsProblem(['--frames', '3', '--scene', 'octopus-box', '--quiet'], spec)).toBeNull();
    expect(benchArgsProblem(['--frames', '-1'], spec)).toBeNull(); // a negative value is a value; the bench judges it
  });

  it('refuses an unknown option, naming it and the known ones', () => {
    expect(benchArgsProblem(['--frame', '3'], spec)).toBe('unknown option --frame (options: --frames, --scene, --quiet)');
    expect(benchArgsProblem(['--x'], { usage: 'bench/y.ts' })).toBe('unknown option --x (this benchmark takes no options)');
  });

  it('refuses a missing value, a value on a switch, a stray word and --name=value where the bench reads only --name value', () => {
    expect(benchArgsProblem(['--frames'], spec)).toBe('--frames needs a value');
    expect(benchArgsProblem(['--frames', '--quiet'], spec)).toBe('--frames needs a value');
    expect(benchArgsProblem(['--quiet', '3'], spec)).toBe('unexpected argument "3"');
    expect(benchArgsProblem(['--frames=3'], spec)).toBe('--frames=3: write --frames VALUE (with a space)');
    expect(benchArgsProblem(['--frames=3'], { ...spec, equalsForm: true })).toBeNull();
    expect(benchArgsProblem(['--frames='], { ...spec, equalsForm: true })).toBe('--frames needs a value');
    expect(benchArgsProblem(['dir'], { ...spec, positional: 1 })).toBeNull();
    expect(benchArgsProblem(['dir', 'more'], { ...spec, positional: 1 })).toBe('unexpected argument "more"');
  });

  it('every benchmark that is run directly checks its command line first', () => {
    const libraries = new Set<string>();
    const files = readdirSync('bench').filter((f) => f.endsWith('.ts') && f !== 'cli.ts');
    for (const f of files) {
      const text = readFileSync(`bench/${f}`, 'utf8');
      for (const m of text.matchAll(/from '\.\/([A-Za-z]+)'/g)) libraries.add(`${m[1]}.ts`);
    }
    const unchecked = files.filter((f) => !libraries.has(f) && !/checkBenchArgs\(/.test(readFileSync(`bench/${f}`, 'utf8')));
    expect(unchecked).toEqual([]);
  });

  it('reads an on|off option as a boolean and refuses any other word, naming it', () => {
    expect(onOffArg(['--recovery', 'on'], '--recovery', false)).toBe(true);
    expect(onOffArg(['--frames', '3', '--recovery', 'off'], '--recovery', true)).toBe(false);
    expect(onOffArg(['--frames', '3'], '--recovery', true)).toBe(true);
    expect(onOffArg([], '--recovery', false)).toBe(false);
    expect(() => onOffArg(['--recovery', 'of'], '--recovery', true)).toThrow('--recovery must be on or off, got "of"');
    expect(() => onOffArg(['--recovery'], '--recovery', true)).toThrow('--recovery must be on or off, got nothing');
  });

  it('no benchmark or script compares an on|off option by hand (a typo there would read as off)', () => {
    const dirs = ['bench', 'scripts'];
    const byHand = dirs.flatMap((d) => readdirSync(d).filter((f) => f.endsWith('.ts') && !(d === 'bench' && f === 'cli.ts'))
      .filter((f) => /=== 'on'|!== 'off'/.test(readFileSync(`${d}/${f}`, 'utf8'))).map((f) => `${d}/${f}`));
    expect(byHand).toEqual([]);
  });
});
