#!/usr/bin/env node
// Bundles TypeScript entries (benchmarks, the runner) into standalone ES modules for a machine
// without the dev dependencies, e.g. a lent GPU machine that has only Node and the `webgpu`
// package: every import is inlined but `webgpu` (and `vite`, which the worker bundler loads only
// when NODE_WORKER_BUNDLES is unset). The collision worker is bundled beside them; run with
// NODE_WORKER_BUNDLES=<out folder> so that the pool starts it instead of building one with Vite
// (src/runner/nodeWorkerBundle.ts).
// Usage: node scripts/bundleStandalone.mjs <out folder> <entry.ts>...
//   then, there: NODE_WORKER_BUNDLES=<out folder> node <out folder>/<entry>.mjs [args]
import { build } from 'vite';
import { basename, resolve } from 'node:path';

const [outDir, ...entries] = process.argv.slice(2);
if (!outDir || entries.length === 0) {
  console.error('usage: node scripts/bundleStandalone.mjs <out folder> <entry.ts>...');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const bundle = async (entry, external) => {
  await build({
    root,
    logLevel: 'warn',
    configFile: false,
    build: {
      ssr: resolve(entry),
      outDir: resolve(outDir),
      emptyOutDir: false,
      copyPublicDir: false,
      target: 'node20',
      minify: false,
      rollupOptions: { external, output: { entryFileNames: `${basename(entry).replace(/\.ts$/, '')}.mjs`, format: 'es', codeSplitting: false } },
    },
    ssr: { noExternal: true, external },
  });
};
for (const entry of entries) await bundle(entry, ['webgpu', 'vite']);
// The worker runs from its own bundle with every import inlined (nodeWorkerBundle.ts bundles it the same way).
await bundle(resolve(root, 'src/workers/ccdWorkerNode.ts'), []);
console.log(`bundled ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} and the collision worker into ${resolve(outDir)}`);
