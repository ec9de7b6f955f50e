/**
 * The layer rule of DESIGN.md and docs/architecture.md, read from the source itself: every import
 * between folders of src/ points down the layer order, and nothing below app/ imports three.js,
 * lil-gui or touches the DOM's globals, so the core runs in a worker and in Node.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Top to bottom: a folder may import only the folders after it. */
const LAYERS = ['app', 'runner', 'scenes', 'sim', 'workers', 'collision', 'penetration', 'spb', 'bvh', 'contract', 'gpu', 'mesh', 'geometry'];

const root = join(dirname(new URL(import.meta.url).pathname), '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Module specifiers of static imports, re-exports and dynamic imports. */
function specifiers(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*'([^']+)'/g)) out.push(m[1]);
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) out.push(m[1]);
  return out;
}

const files = sourceFiles(root).map((path) => ({ path, folder: relative(root, path).split(sep)[0], text: readFileSync(path, 'utf8') }));

describe('layers (docs/architecture.md)', () => {
  it('every folder of src/ is a known layer', () => {
    const folders = new Set(files.map((f) => f.folder).filter((f) => !f.endsWith('.ts')));
    expect([...folders].filter((f) => !LAYERS.includes(f))).toEqual([]);
  });

  it('every import between folders points down', () => {
    const upward: string[] = [];
    for (const f of files) {
      for (const spec of specifiers(f.text)) {
        if (!spec.startsWith('.')) continue;
        const target = relative(root, normalize(join(dirname(f.path), spec))).split(sep)[0];
        if (target === f.folder || !LAYERS.includes(target)) continue;
        if (LAYERS.indexOf(target) < LAYERS.indexOf(f.folder)) upward.push(`${relative(root, f.path)} imports ${spec} (${f.folder} -> ${target})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('nothing below app/ imports three.js or lil-gui, or reads document/window', () => {
    const bad: string[] = [];
    for (const f of files) {
      if (f.folder === 'app') continue;
      for (const spec of specifiers(f.text)) if (/^(three|lil-gui)(\/|$)/.test(spec)) bad.push(`${relative(root, f.path)} imports ${spec}`);
      const code = f.text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
      if (/\b(document|window)\s*\./.test(code)) bad.push(`${relative(root, f.path)} touches the DOM`);
    }
    expect(bad).toEqual([]);
  });
});
