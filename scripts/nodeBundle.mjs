// One Vite SSR build of a TypeScript entry into an ES module for Node, shared by scripts/run-ts.mjs
// (dependencies left to node_modules but `webgpu` resolved at run time) and
// scripts/bundleStandalone.mjs (every import inlined): `?raw` WGSL imports and workers resolve as
// in the browser. Returns the bundle's path.
import { build } from 'vite';
import { basename, join, resolve } from 'node:path';

export const PROJECT_ROOT = new URL('..', import.meta.url).pathname;

/** entry: the .ts file; outDir: where <entry name>.mjs goes; ssr: Vite's ssr options; extra: more build options. */
export async function bundleForNode(entry, outDir, ssr, extra = {}) {
  const name = basename(entry).replace(/\.ts$/, '');
  await build({
    root: PROJECT_ROOT,
    logLevel: 'warn',
    configFile: false,
    build: {
      ssr: resolve(entry),
      outDir: resolve(outDir),
      emptyOutDir: false,
      target: 'node20',
      ...extra,
      rollupOptions: { ...(extra.rollupOptions ?? {}), output: { entryFileNames: `${name}.mjs`, format: 'es', ...(extra.rollupOptions?.output ?? {}) } },
    },
    ssr,
  });
  return join(resolve(outDir), `${name}.mjs`);
}
