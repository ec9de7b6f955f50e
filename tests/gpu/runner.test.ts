/**
 * The headless runner as a user runs it, in a child process: `npm run sim -- ...` (which
 * bundles scripts/sim.ts with Vite into dist/node/sim.mjs, then runs it) for help, list and
 * one physics run; the other runs start that bundle directly (`node dist/node/sim.mjs`, what
 * the npm script ends with) to save the bundling second each time. Checked: help, list,
 * refused flags and files, the JSON and CSV files of a collision run as the reader and a plain
 * split read them, and physics read from the JSON and VTK output against physical laws. Free fall is checked against symplectic Euler's exact free-fall solution (the
 * integrator XPBD uses): after n substeps of h, y drops g h^2 n (n + 1) / 2 = g t^2/2 + g h t/2,
 * and the total energy falls by exactly M g^2 h t / 2 (the integrator's own dissipation).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseVtk } from '../../src/mesh/io/vtk';
import { FLAGS } from '../../src/runner/args';
import { readReport } from '../../src/runner/reportReader';
import { table1Row } from '../../src/runner/table1';
import type { StateMeasures } from '../../src/runner/measure';
import { scenes } from '../../src/scenes/registry';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `env` replaces variables of this process's environment (undefined removes them). */
function spawn(command: string, args: string[], env: Record<string, string | undefined>, timeout = 120_000): Result {
  const merged: Record<string, string | undefined> = { ...process.env, ...env };
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  const r = spawnSync(command, args, { cwd: root, env: merged as NodeJS.ProcessEnv, encoding: 'utf8', timeout });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `npm run sim -- ...args`: bundles, then runs. */
function npmSim(args: string[], env: Record<string, string | undefined> = {}): Result {
  return spawn('npm', ['run', '-s', 'sim', '--', ...args], env);
}

/** The bundle npmSim built last (the first test builds it). */
function sim(args: string[], env: Record<string, string | undefined> = {}, timeout?: number): Result {
  return spawn(process.execPath, ['--enable-source-maps', join(root, 'dist/node/sim.mjs'), ...args], env, timeout);
}

/**
 * For runs of one body that meets nothing but colliders: collisions between and within bodies
 * off, so that their kernels are never compiled (a few seconds a run on SwiftShader). The
 * TetGen run below keeps the default, and so does the shared run (recordedRun), whose files must
 * hold the collision counters.
 */
const NOTHING_TO_COLLIDE = ['--collisions', 'off'];

interface Report {
  counts: { vertices: number; tets: number };
  params: { dt: number; substeps: number; gravity: number[] };
  initial: { frame: number; time: number; state: StateMeasures };
  frames: { frame: number; time: number; state?: StateMeasures }[];
  summary: { maxTotalEnergy: number; nonFiniteVertices: number };
}

function runReport(name: string, args: string[], run: (args: string[]) => Result = sim): Report {
  const out = join(dir, `${name}.json`);
  const r = run([...args, '--out', out]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(readFileSync(out, 'utf8')) as Report;
}

describe('runner command line', () => {
  it('--help prints every flag and exits 0; --list prints the registry, one per line', () => {
    const help = npmSim(['--help']);
    expect(help.status, help.stderr).toBe(0);
    for (const f of FLAGS) expect(help.stdout).toContain(`--${f.name}`);
    const list = npmSim(['--list']);
    expect(list.status).toBe(0);
    expect(list.stdout.trim().split('\n')).toEqual(scenes.map((s) => s.name));
  });

  it('a bad flag exits 2 naming the flag', () => {
    const cases: [string[], string][] = [
      [['--scene', 'drop', '--mesh', '../shared/meshes/Cube.t', '--poisson', '0.5'], 'sim: --poisson must be in [0, 0.5), got 0.5'],
      [['--scene', 'cantilever', '--frobnicate', '2'], 'sim: unknown option --frobnicate'],
      [['--scene', 'cantilever', '--ground', 'on'], 'sim: scene cantilever does not take --ground'],
      [['--scene', 'beam-twist', '--velocity', '1,0,0'], 'sim: scene beam-twist pins vertices, so --velocity'],
      [['--scene', 'drop'], 'sim: scene drop needs --mesh FILE'],
      [['--scene', 'nope'], 'sim: unknown scene "nope"'],
    ];
    for (const [args, message] of cases) {
      const r = sim(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain(message);
    }
  });

  it('a bad mesh file exits 2 naming the file and the line', () => {
    const bad = join(dir, 'broken.t');
    writeFileSync(bad, 'Vertex 0 0 0 0\nVertex 1 1 0 0\nVertex 2 0 1 0\nVertex 3 0 0 1\nTet 0 0 1 2\n');
    const r = sim(['--scene', 'drop', '--mesh', bad]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${bad}:5: Tet record needs an id and 4 vertex ids, found 4 values`);
  });

  it('an air mesh that cannot be built for the scene exits 2 naming the object and the triangle (the error crosses the build worker)', () => {
    // Two tets of one object, the second's corner on the first's face (0, 2, 1): no air face can
    // be that triangle. (Until 2026-12-07 this test used cube-stack --copies 3 --resolution 4,
    // which the general mesher now builds: docs/collisions.md "Air mode".)
    const pinched = join(dir, 'pinched.t');
    writeFileSync(pinched, 'Vertex 0 0 0 0\nVertex 1 1 0 0\nVertex 2 0 1 0\nVertex 3 0 0 -1\nVertex 4 0.25 0.25 0\nVertex 5 0.6 0.25 0.5\nVertex 6 0.25 0.6 0.5\nVertex 7 0.25 0.25 1\nTet 0 0 2 1 3\nTet 1 4 5 6 7\n');
    const r = sim(['--scene', 'drop', '--mesh', pinched, '--collision-mode', 'air', '--frames', '1', '--out', join(dir, 'air.json')]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/sim: air mesh: object 0 \(pinched\.t\) boundary triangle \(vertices [0-2], [0-2], [0-2]; face of its tet 0, near object 0 \(pinched\.t\) vertex \d+ at \(.*vertex 4 at \(.*\) lies on it/);
    expect(r.stderr).toContain('the other collision modes run this scene');
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});

/**
 * One headless run of a small collision scene, shared by three tests (each checks its own side of
 * it; the first to run starts it): the shared Cube.t dropped from 1 cm onto the ground (on by
 * default) for 4 frames of 5 substeps, no damping, with collisions on, without a display session
 * (XDG_RUNTIME_DIR removed), writing `--out F.json --csv F.csv`, the state every 4 frames. They
 * were three runs before (the headless one of 1 frame with collisions off, the files' one of 3
 * frames from the default height through `npm run sim`, the ground's with collisions off); one
 * run saves two runner starts (about 18 and 17 s on the CI machine) and still checks everything
 * the three did.
 */
let recorded: { r: Result; json: string; csv: string; newRuntimeDirs: string[] } | undefined;
function recordedRun(): NonNullable<typeof recorded> {
  if (!recorded) {
    const runtimeDirs = () => new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('softbody-runtime-')));
    const before = runtimeDirs();
    const json = join(dir, 'drop.json');
    const csv = join(dir, 'drop.csv');
    const r = sim(['--scene', 'drop', '--mesh', '../shared/meshes/Cube.t', '--height', '0.01', '--damping', '0', '--substeps', '5', '--frames', '4', '--every', '4',
      '--out', json, '--csv', csv], { XDG_RUNTIME_DIR: undefined }, 240_000);
    recorded = { r, json, csv, newRuntimeDirs: [...runtimeDirs()].filter((n) => !before.has(n)) };
  }
  return recorded;
}

function leaf(o: unknown, path: string): unknown {
  let v: unknown = o;
  for (const k of path.split('.')) v = v === undefined || v === null ? undefined : (v as Record<string, unknown>)[k];
  return v;
}

describe('runner physics', () => {
  it('a run without a display session prints no error line (the Vulkan driver\'s XDG_RUNTIME_DIR complaint) and leaves no folder behind', () => {
    const { r, newRuntimeDirs } = recordedRun();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((line) => /^\s*error\b/i.test(line))).toEqual([]);
    expect(newRuntimeDirs).toEqual([]);
    // The suite runs on SwiftShader: the runner says so and names the faster engine for it.
    expect(r.stderr).toMatch(/note: the GPU engine runs on a software adapter \(.*SwiftShader.*\).*--engine cpu/);
  });

  /*
   * The runner's files as a user gets them (the run above; tests/gpu/runnerRecording.test.ts
   * before, which ran `npm run sim` for it: the npm script is run by the tests around it). The
   * runner's reader accepts the JSON; the CSV has one row per JSON frame and every cell equals the
   * JSON value (read by a plain split: the run has no warnings, so no quoted cell); the report's
   * table1 is the row recomputed from its own frames; the Table-1 line is printed on stderr.
   */
  it('runner JSON and CSV files: the reader accepts the JSON; the CSV has the same frames; table1 matches the frames', () => {
    const { r, json, csv } = recordedRun();
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Table 1 \(paper 000\), 4 frames:\n\s*Vert\.\s+Tet\./);

    const report = readReport(readFileSync(json, 'utf8'));
    expect(report.source).toBe('runner');
    expect(report.frames.map((f) => f.frame)).toEqual([1, 2, 3, 4]);
    expect(report.frames[0]!.collisions).toBeDefined();

    const [head, ...rows] = readFileSync(csv, 'utf8').trimEnd().split('\n');
    const columns = head!.split(',');
    expect(rows.length).toBe(report.frames.length);
    expect(columns.slice(0, 4)).toEqual(['frame', 'time', 'wallMs', 'renderMs']);
    const phases = Object.keys(report.frames[0]!.phasesMs);
    for (const p of phases) expect(columns).toContain(`phasesMs.${p}`);
    rows.forEach((line, i) => {
      const cells = line.split(',');
      expect(cells.length).toBe(columns.length);
      columns.forEach((c, k) => {
        if (c === 'collisions.warnings') return expect(cells[k]).toBe('');
        const key = c.replace(/\.(\d+)$/, '[$1]');
        const m = /^(.*)\[(\d+)\]$/.exec(key);
        const v = m ? (leaf(report.frames[i], m[1]!) as unknown[] | undefined)?.[Number(m[2])] : leaf(report.frames[i], c);
        if (v === undefined || v === null) expect(cells[k], `${i} ${c}`).toBe('');
        else if (typeof v === 'number') expect(Number(cells[k]), `${i} ${c}`).toBe(v);
        else expect(cells[k], `${i} ${c}`).toBe(String(v));
      });
    });

    expect(report.table1).toEqual(table1Row({ frames: report.frames, counts: report.counts, params: report.params }));
  });

  it('free fall of a shared mesh: centre of mass, energy, volume; VTK frames read back', () => {
    const vtkDir = join(dir, 'frames');
    const r = runReport('fall', ['--scene', 'drop', '--mesh', '../shared/meshes/Cube.t', '--ground', 'off', '--damping', '0',
      '--substeps', '5', '--frames', '4', '--every', '2', '--dump', vtkDir, ...NOTHING_TO_COLLIDE]);
    expect(r.counts).toMatchObject({ vertices: 100, tets: 234 });
    expect(r.frames.map((f) => f.frame)).toEqual([1, 2, 3, 4]);
    expect(r.frames.map((f) => f.state !== undefined)).toEqual([false, true, false, true]);
    const h = r.params.dt / r.params.substeps;
    const g = 9.81;
    const s0 = r.initial.state;
    const M = s0.totalMass;
    expect(M).toBeCloseTo(1000 * 8, 6); // Cube.t is [-1, 1]^3, default density 1000
    for (const f of r.frames) {
      if (!f.state) continue;
      const n = f.frame * r.params.substeps;
      const drop = s0.centreOfMass[1] - f.state.centreOfMass[1];
      const exact = (g * h * h * n * (n + 1)) / 2;
      expect(exact).toBeCloseTo((g * f.time ** 2) / 2 + (g * h * f.time) / 2, 12);
      // Float32 positions: measured 3.6e-4 relative.
      expect(Math.abs(drop - exact) / exact).toBeLessThan(2e-3);
      expect(Math.abs(f.state.centreOfMass[0] - s0.centreOfMass[0])).toBeLessThan(1e-5);
      expect(Math.abs(f.state.centreOfMass[2] - s0.centreOfMass[2])).toBeLessThan(1e-5);
      // Energy: never above the start, and falling by the integrator's M g^2 h t / 2 (measured 1% off).
      const dE = f.state.energy.total - s0.energy.total;
      const loss = (M * g * g * h * f.time) / 2;
      expect(dE).toBeLessThanOrEqual(0);
      expect(Math.abs(dE + loss) / loss).toBeLessThan(0.05);
      expect(Math.abs(f.state.volume / s0.volume - 1)).toBeLessThan(1e-4);
      expect(Math.hypot(...f.state.angularMomentum)).toBeLessThan(1e-3 * M * Math.hypot(...f.state.momentum.map((p) => p / M)));
    }
    expect(r.summary.maxTotalEnergy).toBe(s0.energy.total);

    // VTK frames: the start, every 2 frames, the end; counts, object ids, and positions whose
    // lumped-mass centre (masses from the frame-0 tet volumes) is the JSON's centre of mass.
    expect(readdirSync(vtkDir).sort()).toEqual(['frame_000000.vtk', 'frame_000002.vtk', 'frame_000004.vtk']);
    const rest = parseVtk(readFileSync(join(vtkDir, 'frame_000000.vtk'), 'utf8'), 'frame_000000.vtk');
    const mass = new Float64Array(rest.positions.length / 3);
    const p = rest.positions;
    for (let t = 0; t < rest.tets.length / 4; t++) {
      const [a, b, c, d] = [0, 1, 2, 3].map((k) => 3 * rest.tets[4 * t + k]);
      const e = (u: number, k: number): number => p[u + k] - p[a + k];
      const vol = (e(b, 0) * (e(c, 1) * e(d, 2) - e(c, 2) * e(d, 1)) - e(b, 1) * (e(c, 0) * e(d, 2) - e(c, 2) * e(d, 0)) + e(b, 2) * (e(c, 0) * e(d, 1) - e(c, 1) * e(d, 0))) / 6;
      for (const u of [a, b, c, d]) mass[u / 3] += vol / 4;
    }
    for (const [file, state] of [['frame_000000.vtk', s0], ['frame_000004.vtk', r.frames[3].state!]] as const) {
      const m = parseVtk(readFileSync(join(vtkDir, file), 'utf8'), file);
      expect(m.positions.length / 3).toBe(100);
      expect(m.tets.length / 4).toBe(234);
      expect(Array.from(m.cellData.object)).toEqual(new Array(234).fill(0));
      const c = [0, 0, 0];
      let total = 0;
      for (let v = 0; v < mass.length; v++) {
        total += mass[v];
        for (let k = 0; k < 3; k++) c[k] += mass[v] * m.positions[3 * v + k];
      }
      for (let k = 0; k < 3; k++) expect(Math.abs(c[k] / total - state.centreOfMass[k]), `${file} axis ${k}`).toBeLessThan(1e-6);
    }
  });

  it('free fall at the default 20 substeps: momentum is -M g t (f32 velocities round only the corrections)', () => {
    const r = runReport('fall20', ['--scene', 'drop', '--mesh', '../shared/meshes/Cube.t', '--ground', 'off', '--damping', '0',
      '--velocity', '1,0,0', '--frames', '5', '--every', '5', ...NOTHING_TO_COLLIDE]);
    expect(r.params.substeps).toBe(20);
    const f = r.frames[r.frames.length - 1];
    const M = r.initial.state.totalMass;
    const expected = -M * 9.81 * f.time;
    // Measured 1.5e-6 relative; (x - x0) / h in f32 was 0.9% off.
    expect(Math.abs(f.state!.momentum[1] / expected - 1)).toBeLessThan(1e-4);
    expect(Math.abs(f.state!.momentum[0] / M - 1)).toBeLessThan(1e-4);
  });

  it('--gravity and --velocity reach the solver (TetGen pair; the npm script finds SwiftShader itself)', () => {
    const env = existsSync('/usr/lib/chromium/vk_swiftshader_icd.json') ? { VK_ICD_FILENAMES: undefined } : {};
    const r = runReport('push', ['--scene', 'drop', '--mesh', '../shared/meshes/octopus_2KFaces.1.node', '--ground', 'off',
      '--gravity', '4,0,0', '--velocity', '0,0.5,-1.5', '--damping', '0', '--substeps', '5', '--frames', '3', '--every', '3', ...NOTHING_TO_COLLIDE], (a) => npmSim(a, env));
    expect(r.params.gravity).toEqual([4, 0, 0]);
    const f = r.frames[2];
    const h = r.params.dt / r.params.substeps;
    const n = f.frame * r.params.substeps;
    const c0 = r.initial.state.centreOfMass, c = f.state!.centreOfMass;
    const expected = [(4 * h * h * n * (n + 1)) / 2, 0.5 * f.time, -1.5 * f.time];
    for (let k = 0; k < 3; k++) expect(Math.abs(c[k] - c0[k] - expected[k]), `axis ${k}`).toBeLessThan(1e-5);
  });

  it('the ground (on by default) stops a drop from --height; the start is that high', () => {
    // The shared run above (collisions on: Cube.t meets nothing but the ground, which is a collider).
    const { r: run, json } = recordedRun();
    expect(run.status, run.stderr).toBe(0);
    const r = JSON.parse(readFileSync(json, 'utf8')) as Report;
    expect(r.initial.state.lowestPoint).toBeCloseTo(0.01, 7);
    // Free fall would put the lowest point at 0.01 - g t^2/2 < -0.01 after 4 frames.
    const f = r.frames[3];
    expect(0.01 - (9.81 * f.time ** 2) / 2).toBeLessThan(-0.01);
    expect(f.state!.lowestPoint).toBeGreaterThan(-1e-4);
    expect(f.state!.energy.total).toBeLessThanOrEqual(r.initial.state.energy.total);
  });
});
