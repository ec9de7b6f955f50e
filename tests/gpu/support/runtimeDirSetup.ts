/**
 * One private runtime folder for the whole GPU suite (vitest.config.ts gpu globalSetup). Without
 * XDG_RUNTIME_DIR, src/gpu/device.ts gives its process a folder removed at that process's exit,
 * but the test runner ends its worker processes with a signal, so every suite run left one behind
 * in the temporary folder. Set here, before the workers start, it is inherited by them and
 * removed when the suite ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  if (process.env.XDG_RUNTIME_DIR) return () => {};
  const dir = mkdtempSync(join(tmpdir(), 'softbody-gpu-suite-runtime-'));
  process.env.XDG_RUNTIME_DIR = dir;
  return () => {
    delete process.env.XDG_RUNTIME_DIR;
    rmSync(dir, { recursive: true, force: true });
  };
}
