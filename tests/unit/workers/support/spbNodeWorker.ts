/**
 * Node cannot load the TypeScript worker entry, so tests bundle src/workers/spbWorkerNode.ts once
 * per process with Vite in SSR mode (every import inlined, so the bundle runs from a temporary
 * folder) and start pool workers from the bundle: the real entry, the real pool, real threads.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import { nodePoolWorker } from '../../../../src/workers/nodePoolWorker';
import type { PoolWorker } from '../../../../src/workers/workerPool';

const root = resolve(__dirname, '../../../..');
let bundle: Promise<string> | undefined;

/** Path of the bundled worker (built on first call). */
export function spbWorkerBundle(): Promise<string> {
  bundle ??= (async () => {
    const outDir = mkdtempSync(join(tmpdir(), 'spb-worker-'));
    await build({
      root,
      logLevel: 'warn',
      configFile: false,
      build: {
        ssr: resolve(root, 'src/workers/spbWorkerNode.ts'),
        outDir,
        emptyOutDir: false,
        target: 'node20',
        minify: false,
        rollupOptions: { output: { entryFileNames: 'spbWorkerNode.mjs', format: 'es' } },
      },
      ssr: { noExternal: true },
    });
    return join(outDir, 'spbWorkerNode.mjs');
  })();
  return bundle;
}

/** A pool worker running the bundled shortest-path worker. */
export async function spbPoolWorkerFactory(): Promise<() => PoolWorker> {
  const file = await spbWorkerBundle();
  return () => nodePoolWorker(file);
}

/** A worker module that fails while loading (for the failure test). */
export function brokenWorkerFile(message: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'spb-broken-worker-'));
  const file = join(dir, 'broken.mjs');
  writeFileSync(file, `throw new Error(${JSON.stringify(message)});\n`);
  return file;
}
