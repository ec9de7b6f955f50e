/**
 * Node cannot load the TypeScript worker entry, so the runner, tests and bench/ccd.ts bundle
 * src/workers/ccdWorkerNode.ts once per process with Vite in SSR mode (every import inlined, so the
 * bundle runs from a temporary folder) and start pool workers from the bundle: the real entry, the
 * real pool, real threads.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import type { CcdTopology } from '../collision/ccd/broadPhase';
import type { CollisionWorkerJobs } from '../collision/workerJobs';
import { poolJobs } from '../workers/collisionJobsPool';
import { nodeCcdPool } from '../workers/ccdNodePool';

let bundle: Promise<string> | undefined;

/** Path of the bundled CCD worker (built on first call); `root`: the project's root folder. */
export function ccdWorkerBundle(root: string): Promise<string> {
  bundle ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'ccd-worker-'));
    await build({
      root,
      logLevel: 'warn',
      configFile: false,
      build: {
        ssr: resolve(root, 'src/workers/ccdWorkerNode.ts'),
        outDir,
        emptyOutDir: false,
        target: 'node20',
        minify: false,
        rollupOptions: { output: { entryFileNames: 'ccdWorkerNode.mjs', format: 'es' } },
      },
      ssr: { noExternal: true },
    });
    return join(outDir, 'ccdWorkerNode.mjs');
  })();
  return bundle;
}

/**
 * The runner's collision worker pool (Node worker threads, sized from os.availableParallelism()) as a
 * factory of the worker jobs for GpuCollisionOptions.workerJobs; `terminate` ends its threads.
 */
export async function runnerCcdPool(root: string): Promise<{ factory: (topology: CcdTopology) => CollisionWorkerJobs; size: number; terminate(): void }> {
  const pool = nodeCcdPool(await ccdWorkerBundle(root));
  return { factory: poolJobs(pool), size: pool.size, terminate: () => pool.terminate() };
}
