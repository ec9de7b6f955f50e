/**
 * The build's git commit (short hash) and commit date, injected by vite.config.ts as __BUILD__
 * (`define`); 'unknown' where the bundle was built without it (tests, the Node runner bundle) or
 * outside a git checkout.
 */
import type { BuildInfo } from '../../runner/reportDocument';

declare const __BUILD__: BuildInfo | undefined;

export function buildInfo(): BuildInfo {
  return typeof __BUILD__ !== 'undefined' && __BUILD__ ? __BUILD__ : { commit: 'unknown', date: 'unknown' };
}
