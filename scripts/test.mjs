#!/usr/bin/env node
// The one test command: type check, unit tests, GPU kernel tests (Dawn on any WebGPU
// adapter, SwiftShader when no GPU), end-to-end tests (the built page in headless Chromium).
// Ends with one plain line "N passed, N failed" summing every suite; exits non-zero on any failure.
// Usage: node scripts/test.mjs [typecheck|unit|gpu|e2e ...]   (default: all)
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'test-results');
mkdirSync(outDir, { recursive: true });
const requested = process.argv.slice(2);
const want = (name) => requested.length === 0 || requested.includes(name);

const SWIFTSHADER_ICD = '/usr/lib/chromium/vk_swiftshader_icd.json';
const CHROMIUM = '/usr/bin/chromium';

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function hasLibVulkan() {
  const r = spawnSync('sh', ['-c', 'ldconfig -p 2>/dev/null | grep -q "libvulkan.so.1 "'], {});
  return r.status === 0;
}

/** Chromium (browser tests, and its SwiftShader Vulkan driver for Dawn) and libvulkan1. */
function ensureSystemPackages() {
  const missing = [];
  if (!existsSync(CHROMIUM) || !existsSync(SWIFTSHADER_ICD)) missing.push('chromium');
  if (!hasLibVulkan()) missing.push('libvulkan1');
  if (missing.length === 0) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (isRoot && existsSync('/usr/bin/apt-get')) {
    console.log(`[test] installing system packages: ${missing.join(' ')}`);
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', ...missing], { DEBIAN_FRONTEND: 'noninteractive' });
  } else {
    console.log(
      `[test] missing system packages: ${missing.join(', ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}` +
        ' (GPU and browser tests will fail until then).',
    );
  }
}

let passed = 0;
let failed = 0;
let skipped = 0;

const vitestArgs = (project, json) => ['vitest', 'run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`];

function reportPath(project) {
  const json = join(outDir, `${project}.json`);
  rmSync(json, { force: true });
  return json;
}

function vitestSuite(project, env = {}) {
  const json = reportPath(project);
  tally(project, json, run('npx', vitestArgs(project, json), env));
}

/**
 * A command run beside the others: its output goes to test-results/<name>.log, printed whole when
 * it ends, so its lines do not interleave with theirs. Resolves to its exit status.
 */
function runBeside(name, cmd, args, env = {}) {
  const log = join(outDir, `${name}.log`);
  const fd = openSync(log, 'w');
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', fd, fd], env: { ...process.env, ...env } });
    child.on('error', (e) => {
      console.log(`[test] ${name} could not start: ${e.message}`);
      resolve(1);
    });
    child.on('close', (code) => {
      closeSync(fd);
      console.log(`[test] ${name} (run beside the others), its output:`);
      process.stdout.write(readFileSync(log, 'utf8'));
      resolve(code ?? 1);
    });
  });
}

/** A vitest suite run beside another (runBeside). Resolves to its report's path and exit status. */
async function vitestSuiteBeside(project, env = {}) {
  const json = reportPath(project);
  return { json, status: await runBeside(project, 'npx', vitestArgs(project, json), env) };
}

/** Adds a suite's counts from its JSON report; a suite with no report, or failing with no failed test, counts as a failure. */
function tally(project, json, status) {
  if (!existsSync(json)) {
    console.log(`[test] suite ${project} produced no report (exit ${status}): counted as 1 failure`);
    failed += 1;
    return;
  }
  const report = JSON.parse(readFileSync(json, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  // A file that fails to load (syntax error, throw at import) has no test results but fails the run.
  const brokenFiles = (report.testResults ?? []).filter(
    (f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0,
  ).length;
  failed += brokenFiles;
  if (status !== 0 && report.numFailedTests === 0 && brokenFiles === 0) {
    console.log(`[test] suite ${project} exited ${status} with no failed test: counted as 1 failure`);
    failed += 1;
  }
}

ensureSystemPackages();

// The type check (about 20 s, one core and a half) runs beside the test suites where there are
// two cores or more; its result is counted when it ends.
const typecheckArgs = ['tsc', '--noEmit', '-p', 'tsconfig.json'];
let typecheck = Promise.resolve(null);
if (want('typecheck')) {
  console.log('[test] type check (tsc --noEmit)');
  typecheck = availableParallelism() >= 2 && process.env.SPB_TEST_SERIAL !== '1' ? runBeside('typecheck', 'npx', typecheckArgs) : Promise.resolve(run('npx', typecheckArgs));
}
// Dawn picks the Vulkan driver from this variable; set here, not in a test, because
// vitest's workers copy the environment at start. A real GPU's driver wins when
// SPB_REAL_GPU=1 is set.
const gpuEnv = process.env.SPB_REAL_GPU === '1' ? {} : { VK_ICD_FILENAMES: SWIFTSHADER_ICD };
// The unit and GPU suites run at the same time where there are cores for both: the GPU suite runs
// its files one after another in one process (vitest.config.ts) and keeps about 1.5 of 2 cores
// busy on SwiftShader, the unit suite fills what it leaves. The end-to-end suite starts when the
// unit suite ends, beside the GPU suite's last files (the unit suite ended about 90 s before the GPU
// suite in the CI at 31f5352). SPB_TEST_SERIAL=1 runs them in turn.
const beside = want('unit') && want('gpu') && availableParallelism() >= 2 && process.env.SPB_TEST_SERIAL !== '1';

function e2eSuite() {
  console.log('[test] building the page (vite build)');
  // --emptyOutDir false: dist/node holds the runner's bundle, which GPU tests may be running now.
  if (run('npx', ['vite', 'build', '--logLevel', 'warn', '--emptyOutDir', 'false']) !== 0) {
    console.log('[test] vite build failed: e2e suite counted as 1 failure');
    failed += 1;
  } else {
    vitestSuite('e2e');
  }
}

if (beside) {
  console.log('[test] unit and GPU suites at the same time, then e2e beside the GPU suite (SPB_TEST_SERIAL=1 runs them in turn); the GPU suite\'s output follows when it ends');
  const gpu = vitestSuiteBeside('gpu', gpuEnv);
  vitestSuite('unit');
  if (want('e2e')) e2eSuite();
  const { json, status } = await gpu;
  tally('gpu', json, status);
} else {
  if (want('unit')) vitestSuite('unit');
  if (want('gpu')) vitestSuite('gpu', gpuEnv);
  if (want('e2e')) e2eSuite();
}

const typecheckStatus = await typecheck;
if (typecheckStatus !== null) {
  if (typecheckStatus === 0) passed += 1;
  else failed += 1;
}

const skippedText = skipped > 0 ? `, ${skipped} skipped` : '';
console.log(`${passed} passed, ${failed} failed${skippedText}`);
process.exit(failed > 0 ? 1 : 0);
