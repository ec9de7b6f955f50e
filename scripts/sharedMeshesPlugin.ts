/**
 * Serves the shared tet meshes (../shared/meshes beside the project, never copied into it) at
 * /shared-meshes/<file> in `vite dev` and `vite preview`, so the page's scenes that use them
 * (src/scenes meshFiles, e.g. Fig. 22's Cuboid.t) can fetch them. Only plain file names in that
 * folder are served; a missing folder or file is a 404 whose text says where it was looked for.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { Plugin } from 'vite';

export const SHARED_MESHES_URL = '/shared-meshes/';

export function sharedMeshesPlugin(folder = resolve(process.cwd(), '../shared/meshes')): Plugin {
  const handle = (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const url = req.url ?? '';
    if (!url.startsWith(SHARED_MESHES_URL)) return next();
    const name = decodeURIComponent(url.slice(SHARED_MESHES_URL.length).split('?')[0] ?? '');
    const path = resolve(folder, name);
    if (!/^[\w.-]+$/.test(name) || !existsSync(path) || !statSync(path).isFile()) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain');
      res.end(`no shared mesh "${name}" in ${folder}`);
      return;
    }
    res.setHeader('Content-Type', 'text/plain');
    res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    createReadStream(path).pipe(res);
  };
  return {
    name: 'shared-meshes',
    configureServer(server) {
      server.middlewares.use(handle);
    },
    configurePreviewServer(server) {
      server.middlewares.use(handle);
    },
  };
}
