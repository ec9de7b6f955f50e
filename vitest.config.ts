import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Three suites: unit (pure TypeScript), gpu (real WGSL through Dawn on any adapter),
// e2e (the built page in headless Chromium). scripts/test.mjs runs them, side by side where there are two cores.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          // A guard against hangs, not a speed limit: npm test runs this suite beside the GPU suite
          // (scripts/test.mjs), which slows the longest tests (about 80 s alone) by half again.
          testTimeout: 300_000,
          // A worker on every core (vitest's default leaves one to its own process, which waits):
          // on a 2-core machine the suite took 642 s with one worker, 455 s with two.
          maxWorkers: availableParallelism(),
          // Test files share their worker's modules instead of importing them afresh: in the CI at
          // e3a04b7 the 170 files spent 129 s importing (docs/benchmarks.md "The test suite's time on the CI machine").
          isolate: false,
        },
      },
      {
        test: {
          name: 'gpu',
          include: ['tests/gpu/**/*.test.ts'],
          globalSetup: ['tests/gpu/support/runtimeDirSetup.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
          // Dawn is one native instance per process; run GPU files one after another.
          fileParallelism: false,
          // All files in one process, sharing its modules and so tests/support/gpu.ts's one device:
          // Dawn compiles each pipeline once per device, and on SwiftShader the first solver with
          // collisions takes about 17 s to compile.
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // One browser and one preview server for every file (tests/e2e/support/globalSetup.ts).
          globalSetup: ['tests/e2e/support/globalSetup.ts'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
