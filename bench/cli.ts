/**
 * The command line every benchmark shares, and scripts/countIntersections.ts and
 * scripts/recordSelfContactFrames.ts with them: `--help` (or `-h`) prints the usage and exits,
 * and an option the tool does not read, a value missing, or a stray word is refused naming it
 * (exit 2) before anything runs. Each tool reads its options its own way; this only makes sure
 * that a mistyped flag never runs minutes of work at the defaults and prints figures the user
 * did not ask for.
 */

export interface BenchCommandLine {
  /** The usage lines printed by --help (and after a refusal). */
  usage: string;
  /** Options that take a value: `--name value` (see equalsForm). */
  values?: readonly string[];
  /** Options that take none. */
  switches?: readonly string[];
  /** The benchmark's own parser also reads `--name=value` (default: only `--name value`). */
  equalsForm?: boolean;
  /** Words that are not options (paths, a scene name): how many may follow the options (default 0). */
  positional?: number;
}

/** Why the command line was refused, in words; null when it is fine. */
export function benchArgsProblem(argv: readonly string[], spec: BenchCommandLine): string | null {
  const values = new Set(spec.values ?? []);
  const switches = new Set(spec.switches ?? []);
  let positional = 0;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (!a.startsWith('--')) {
      positional++;
      if (positional > (spec.positional ?? 0)) return `unexpected argument "${a}"`;
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq < 0 ? a : a.slice(0, eq);
    // Most benchmarks read `--name value` only: there `--name=value` would pass unread.
    if (eq >= 0 && !(spec.equalsForm && values.has(name))) return `${a}: write ${name} VALUE (with a space)`;
    if (eq >= 0) {
      if (eq === a.length - 1) return `${name} needs a value`;
    } else if (values.has(name)) {
      const next = argv[i + 1];
      if (next === undefined || (next.startsWith('--') && next.length > 2)) return `${name} needs a value`;
      i++;
    } else if (switches.has(name)) {
      // a switch takes no value
    } else {
      const known = [...values, ...switches];
      return `unknown option ${name}${known.length > 0 ? ` (options: ${known.join(', ')})` : ' (this benchmark takes no options)'}`;
    }
  }
  return null;
}

/** Prints the usage and exits on --help; refuses a bad command line (exit 2). Call first thing. */
export function checkBenchArgs(argv: readonly string[], spec: BenchCommandLine): void {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(spec.usage);
    process.exit(0);
  }
  const problem = benchArgsProblem(argv, spec);
  if (problem === null) return;
  console.error(`${problem}\nusage: ${spec.usage}`);
  process.exit(2);
}

/**
 * The value of an on|off option (`--name on` / `--name off`; `fallback` when absent) as a
 * boolean. Anything else is refused naming the option and the word, so that `--recovery of`
 * never runs the bench with the setting silently off.
 */
export function onOffArg(argv: readonly string[], name: string, fallback: boolean): boolean {
  const i = argv.indexOf(name);
  if (i < 0) return fallback;
  const word = argv[i + 1];
  if (word === 'on') return true;
  if (word === 'off') return false;
  throw new Error(`${name} must be on or off, got ${word === undefined ? 'nothing' : `"${word}"`}`);
}
