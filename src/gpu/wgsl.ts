/**
 * Shared WGSL snippets, included by name. A kernel's source says
 *
 *   #include "closestPointOnTriangle"
 *
 * on a line of its own, and `withIncludes` replaces it by shaders/lib/closestPointOnTriangle.wgsl
 * (recursively, each snippet at most once per module, so two snippets may include a third).
 * One copy of each piece (position access, thread index, closest point with its feature, BVH
 * node layout) for every kernel; nothing is pasted between shaders.
 */
const snippets = import.meta.glob('../../shaders/lib/*.wgsl', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

const byName = new Map<string, string>();
for (const [path, code] of Object.entries(snippets)) {
  const name = path.slice(path.lastIndexOf('/') + 1, -'.wgsl'.length);
  byName.set(name, code);
}

/** Names of the available snippets (files in shaders/lib). */
export function wgslSnippetNames(): string[] {
  return [...byName.keys()].sort();
}

const INCLUDE = /^[ \t]*#include\s+"([A-Za-z0-9_]+)"[ \t]*$/gm;

/** `code` with every `#include "name"` line replaced by that snippet; unknown names throw. */
export function withIncludes(code: string, label = 'shader'): string {
  const done = new Set<string>();
  const expand = (src: string, from: string): string =>
    src.replace(INCLUDE, (_line, name: string) => {
      const snippet = byName.get(name);
      if (snippet === undefined) throw new Error(`${from}: #include "${name}": no shaders/lib/${name}.wgsl (have: ${wgslSnippetNames().join(', ')})`);
      if (done.has(name)) return `// (${name} included above)`;
      done.add(name);
      return `// ---- begin ${name} (shaders/lib/${name}.wgsl)\n${expand(snippet, name)}\n// ---- end ${name}`;
    });
  return expand(code, label);
}
