/**
 * Node cannot load a TypeScript worker entry, so the runner, tests and benchmarks bundle it once
 * per process with Vite in SSR mode (every import inlined, so the bundle runs from a temporary
 * folder) and start pool workers from the bundle: the real entry, the real pool, real threads.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const bundles = new Map<string, Promise<string>>();

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
      const outDir = mkdtempSync(join(tmpdir(), `${name}-`));
      await build({
        root,
        logLevel: 'warn',
        configFile: false,
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
      return join(outDir, `${name}.mjs`);
    })();
    bundles.set(key, bundle);
  }
  return bundle;
}
