/**
 * The words under the Scene menu (#scene-note), as separate paragraphs: what the scene is, its
 * size against its default and the paper's, and why the page picked a smaller size or lighter
 * settings on this adapter. The registry's descriptions are written for the runner's --help;
 * pageDescription() drops what only the runner has (its flags and the default counts, which the
 * size line gives). No DOM here.
 */
import type { SceneSize } from '../scenes/types';

/** A scene description without the runner's flags and its "Default: ..." sentence. */
export function pageDescription(text: string): string {
  let t = text
    // "(1184 vertices, 4069 tets each; --copies N, default 4)" -> "(1184 vertices, 4069 tets each)"
    .replace(/;\s*--[^;)]*(?=\))/g, '')
    // "(--copies N, default 3; 1674 vertices ...)" -> "(1674 vertices ...)"
    .replace(/\(--[^;)]*;\s*/g, '(')
    // "(or --self-collision-from F)" -> ""
    .replace(/\s*\((?:or )?--[^()]*\)/g, '');
  const sentences = t.split(/(?<=\.)\s+/).filter((s) => s.length > 0);
  const kept: string[] = [];
  for (let s of sentences) {
    if (/^(Default\b|--)/.test(s)) continue;
    // "... onto the ground plane: --copies N (default 4), ..." -> "... onto the ground plane."
    s = s.replace(/\s*:\s*--.*$/, '.');
    // "at --speed each" -> "at speed each"
    s = s.replace(/--([a-z][\w-]*)/g, '$1');
    kept.push(s);
  }
  t = kept.join(' ');
  return t.trim();
}

/** "Size: 2 octopi (default 4; paper Fig. 9: 8 octopi)." */
export function sizeLine(size: SceneSize, value: number): string {
  return `Size: ${size.label} ${value} (default ${size.default}; ${size.note}).`;
}

/** Why the page picked a smaller size or lighter settings here, or undefined on a GPU. */
export function smallDefaultReason(softwareAdapter: boolean, cpuEngine: boolean): string | undefined {
  if (cpuEngine) return 'the CPU reference engine simulates here (no WebGPU solver): it computes every frame in float64 on one CPU core';
  if (softwareAdapter) return 'this is a software GPU adapter (the GPU is emulated on the CPU): a frame of the full-size default would take tens of seconds';
  return undefined;
}
