import { fileURLToPath } from 'node:url';
import { execSync } from 'node:child_process';
import { defineConfig } from 'vite';
import { sharedMeshesPlugin } from './scripts/sharedMeshesPlugin.ts';

/** Commit and date of the checkout being built, for the recorder's header (src/app/recorder/buildInfo.ts). */
function gitBuild(): { commit: string; date: string } {
  const git = (args: string): string => execSync(`git ${args}`, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return { commit: git('rev-parse --short HEAD'), date: git('log -1 --format=%cI') };
  } catch {
    return { commit: 'unknown', date: 'unknown' };
  }
}

// Cross-origin isolation (COOP/COEP) makes SharedArrayBuffer available to the worker pool.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  // The shared meshes (../shared/meshes, never copied here) at /shared-meshes/<file> for the scenes that use them.
  plugins: [sharedMeshesPlugin(fileURLToPath(new URL('../shared/meshes', import.meta.url)))],
  // WGSL files live in the top-level shaders/ folder and are imported with `?raw`.
  server: { headers: isolationHeaders, fs: { allow: ['.'] } },
  preview: { headers: isolationHeaders },
  worker: { format: 'es' },
  define: { __BUILD__: JSON.stringify(gitBuild()) },
  build: { target: 'es2022', sourcemap: true },
});
