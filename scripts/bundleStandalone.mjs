#!/usr/bin/env node
// Bundles TypeScript entries (benchmarks, the runner) into standalone ES modules for a machine
// without the dev dependencies, e.g. a lent GPU machine that has only Node and the `webgpu`
// package: every import is inlined but `webgpu` (and `vite`, which the worker bundler loads only
// when NODE_WORKER_BUNDLES is unset). The collision worker is bundled beside them; run with
// NODE_WORKER_BUNDLES=<out folder> so that the pool starts it instead of building one with Vite
// (src/runner/nodeWorkerBundle.ts).
// Usage: node scripts/bundleStandalone.mjs <out folder> <entry.ts>...
//   then, there: NODE_WORKER_BUNDLES=<out folder> node <out folder>/<entry>.mjs [args]
import { resolve } from 'node:path';
import { bundleForNode, PROJECT_ROOT } from './nodeBundle.mjs';

const [outDir, ...entries] = process.argv.slice(2);
if (!outDir || entries.length === 0) {
  console.error('usage: node scripts/bundleStandalone.mjs <out folder> <entry.ts>...');
  process.exit(2);
}
const bundle = (entry, external) =>
  bundleForNode(entry, outDir, { noExternal: true, external }, { copyPublicDir: false, minify: false, rollupOptions: { external, output: { codeSplitting: false } } });
for (const entry of entries) await bundle(entry, ['webgpu', 'vite']);
// The worker runs from its own bundle with every import inlined (nodeWorkerBundle.ts bundles it the same way).
await bundle(resolve(PROJECT_ROOT, 'src/workers/ccdWorkerNode.ts'), []);
console.log(`bundled ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'} and the collision worker into ${resolve(outDir)}`);
