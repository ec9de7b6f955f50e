#!/usr/bin/env node
// Runs a TypeScript entry (a benchmark or the headless runner) in Node with the same module
// resolution as the page: Vite bundles it in SSR mode (so `?raw` WGSL imports and workers
// resolve exactly as in the browser), then Node runs the bundle.
// Usage: node scripts/run-ts.mjs <entry.ts> [args for the entry...]
import { build } from 'vite';
import { spawnSync } from 'node:child_process';
import { basename, join, resolve } from 'node:path';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args...]');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const outDir = join(root, 'dist', 'node');
const name = basename(entry).replace(/\.ts$/, '');
await build({
  root,
  logLevel: 'warn',
  configFile: false,
  build: {
    ssr: resolve(entry),
    outDir,
    emptyOutDir: false,
    target: 'node20',
    sourcemap: 'inline',
    rollupOptions: { output: { entryFileNames: `${name}.mjs`, format: 'es' } },
  },
  ssr: { external: ['webgpu'] },
});
const r = spawnSync(process.execPath, ['--enable-source-maps', join(outDir, `${name}.mjs`), ...args], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
