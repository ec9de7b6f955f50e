/**
 * Node cannot load a TypeScript worker entry, so the runner, tests and benchmarks bundle it once
 * per process with Vite in SSR mode (every import inlined, so the bundle runs from any folder)
 * and start pool workers from the bundle: the real entry, the real pool, real threads.
 *
 * The bundle is kept by its content's hash in node_modules/.cache/worker-bundles: a process is
 * often ended by a signal (the test runner's workers are), so a folder per process would never
 * be removed; processes that bundle the same code at once rename identical files onto one name.
 */
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const bundles = new Map<string, Promise<string>>();

/** node_modules/.cache/worker-bundles, or where that cannot be written (a read-only checkout), a fixed folder in the system's temporary folder. */
function bundleCacheDir(root: string): string {
  const candidates = [resolve(root, 'node_modules/.cache/worker-bundles'), join(tmpdir(), 'softbody-worker-bundles')];
  for (const dir of candidates) {
    try {
      mkdirSync(dir, { recursive: true });
      accessSync(dir, constants.W_OK);
      return dir;
    } catch {
      // try the next
    }
  }
  throw new Error(`no writable folder for the worker bundle: neither ${candidates.join(' nor ')}`);
}

/** Path of the bundled worker entry `entry` (relative to `root`, the project's root folder), built on first call. */
export function nodeWorkerBundle(root: string, entry: string): Promise<string> {
  const key = resolve(root, entry);
  let bundle = bundles.get(key);
  if (!bundle) {
    const name = entry.slice(entry.lastIndexOf('/') + 1).replace(/\.ts$/, '');
    bundle = (async () => {
      // Prebuilt (a machine without the dev dependencies, e.g. a lent GPU machine): NODE_WORKER_BUNDLES
      // names a folder holding <entry name>.mjs, bundled as below.
      const prebuilt = process.env.NODE_WORKER_BUNDLES;
      if (prebuilt) {
        const path = resolve(prebuilt, `${name}.mjs`);
        if (!existsSync(path)) throw new Error(`NODE_WORKER_BUNDLES is set but ${path} does not exist (bundle ${entry} there, or unset it)`);
        return path;
      }
      const { build } = await import('vite');
      const cacheDir = bundleCacheDir(root);
      const outDir = mkdtempSync(join(cacheDir, `${name}-build-`));
      try {
        await build({
          root,
          logLevel: 'warn',
          configFile: false,
          // Only the worker's code: the project's public/ folder has nothing a worker loads.
          publicDir: false,
          build: {
            ssr: key,
            outDir,
            emptyOutDir: false,
            target: 'node20',
            minify: false,
            rollupOptions: { output: { entryFileNames: `${name}.mjs`, format: 'es' } },
          },
          ssr: { noExternal: true },
        });
        const built = join(outDir, `${name}.mjs`);
        const hash = createHash('sha256').update(readFileSync(built)).digest('hex').slice(0, 16);
        const file = join(cacheDir, `${name}-${hash}.mjs`);
        renameSync(built, file);
        return file;
      } finally {
        rmSync(outDir, { recursive: true, force: true });
      }
    })();
    bundles.set(key, bundle);
  }
  return bundle;
}
