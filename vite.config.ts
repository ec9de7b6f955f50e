import { defineConfig } from 'vite';

// Cross-origin isolation (COOP/COEP) makes SharedArrayBuffer available to the worker pool.
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  // WGSL files live in the top-level shaders/ folder and are imported with `?raw`.
  server: { headers: isolationHeaders, fs: { allow: ['.'] } },
  preview: { headers: isolationHeaders },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
});
