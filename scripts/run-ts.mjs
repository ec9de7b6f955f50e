#!/usr/bin/env node
// Runs a TypeScript entry (a benchmark or the headless runner) in Node with the same module
// resolution as the page: Vite bundles it in SSR mode (so `?raw` WGSL imports and workers
// resolve exactly as in the browser), then Node runs the bundle.
// Usage: node scripts/run-ts.mjs <entry.ts> [args for the entry...]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { bundleForNode, PROJECT_ROOT } from './nodeBundle.mjs';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs <entry.ts> [args...]');
  process.exit(2);
}
const bundle = await bundleForNode(entry, join(PROJECT_ROOT, 'dist', 'node'), { external: ['webgpu'] }, { sourcemap: 'inline' });
const r = spawnSync(process.execPath, ['--enable-source-maps', bundle, ...args], {
  stdio: 'inherit',
});
process.exit(r.status ?? 1);
