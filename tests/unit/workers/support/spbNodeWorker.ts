/**
 * Node cannot load the TypeScript worker entry, so tests bundle src/workers/spbWorkerNode.ts once
 * per process with Vite in SSR mode (every import inlined, so the bundle runs from a temporary
 * folder) and start pool workers from the bundle: the real entry, the real pool, real threads.
 */
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { nodeWorkerBundle } from '../../../../src/runner/nodeWorkerBundle';
import { nodePoolWorker } from '../../../../src/workers/nodePoolWorker';
import type { PoolWorker } from '../../../../src/workers/workerPool';

const root = resolve(__dirname, '../../../..');

/** Path of the bundled worker (built on first call). */
export function spbWorkerBundle(): Promise<string> {
  return nodeWorkerBundle(root, 'src/workers/spbWorkerNode.ts');
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
