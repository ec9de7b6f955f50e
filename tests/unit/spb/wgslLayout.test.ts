/**
 * The WGSL snippets the shortest-path kernels include (shaders/lib) against their TypeScript
 * sides: feature codes of closestPointOnTriangle, the BVH node layout, the query list's header
 * words, Query size and the Euclidean bit, the result's status codes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as cpt from '../../../src/geometry/closestPointOnTriangle';
import { BVH_COUNT, BVH_HI, BVH_LINK, BVH_LO, BVH_NODE_BYTES } from '../../../src/bvh/surfaceBvh';
import { QUERY_FOUND, QUERY_NONE, QUERY_OVERFLOW, QUERY_SKIPPED } from '../../../src/spb';
import { QL_CAPACITY, QL_COUNT, QL_HEADER_WORDS, QUERY_EUCLIDEAN, QUERY_WORDS } from '../../../src/spb/gpu/queryListLayout';
import { RESULT_WORDS } from '../../../src/spb/gpu/packSpbBuffers';

function lib(name: string): string {
  return readFileSync(new URL(`../../../shaders/lib/${name}.wgsl`, import.meta.url), 'utf8');
}

function constant(wgsl: string, name: string): number {
  const m = new RegExp(`const ${name} = (0x[0-9a-f]+|[0-9.e+-]+)u?;`).exec(wgsl);
  if (!m) throw new Error(`no WGSL constant ${name}`);
  return Number(m[1]);
}

/** Members of a WGSL struct with their types, in order. */
function members(wgsl: string, struct: string): string[] {
  const m = new RegExp(`struct ${struct} \\{([^}]*)\\}`).exec(wgsl);
  if (!m) throw new Error(`no WGSL struct ${struct}`);
  return m[1].split(/,\s*/).map((s) => s.replace(/\/\/.*$/gm, '').trim()).filter((s) => s.length > 0);
}

describe('shaders/lib snippets of the shortest path', () => {
  it('closestPointOnTriangle: feature codes and degeneracy threshold of the TypeScript version', () => {
    const w = lib('closestPointOnTriangle');
    expect(constant(w, 'FEATURE_VERTEX2')).toBe(cpt.FEATURE_VERTEX2);
    expect(constant(w, 'FEATURE_EDGE01')).toBe(cpt.FEATURE_EDGE01);
    expect(constant(w, 'FEATURE_EDGE20')).toBe(cpt.FEATURE_EDGE20);
    expect(constant(w, 'FEATURE_FACE')).toBe(cpt.FEATURE_FACE);
    expect(constant(w, 'CPT_DEGENERATE_REL')).toBe(cpt.DEGENERATE_REL);
    expect(members(w, 'ClosestPoint')).toEqual(['point: vec3<f32>', 'feature: u32']);
  });

  it('bvhNode: 8 words, lo at 0, link at 3, hi at 4, count at 7 (src/bvh/surfaceBvh.ts)', () => {
    expect(members(lib('bvhNode'), 'BvhNode')).toEqual(['lo: vec3<f32>', 'link: u32', 'hi: vec3<f32>', 'count: u32']);
    expect([BVH_LO, BVH_LINK, BVH_HI, BVH_COUNT, BVH_NODE_BYTES]).toEqual([0, 3, 4, 7, 32]);
  });

  it('queryList: header words, Query of 8 words (vec3 + 5 scalars), the Euclidean bit', () => {
    const w = lib('queryList');
    expect(constant(w, 'QL_COUNT')).toBe(QL_COUNT);
    expect(constant(w, 'QL_CAPACITY')).toBe(QL_CAPACITY);
    expect(constant(w, 'QL_HEADER_WORDS')).toBe(QL_HEADER_WORDS);
    expect(constant(w, 'QUERY_EUCLIDEAN')).toBe(QUERY_EUCLIDEAN);
    expect(members(w, 'Query')).toEqual(['p: vec3<f32>', 'tet: u32', 'exclude: i32', 'exclude2: i32', 'source: u32', 'param: f32']);
    expect(QUERY_WORDS).toBe(8); // vec3 (12 bytes) + 5 words = 32 bytes, 16-aligned
  });

  it('spbResult: 12 words and the QUERY_* codes of src/spb/query.ts', () => {
    const w = lib('spbResult');
    expect(members(w, 'SpbResult')).toHaveLength(RESULT_WORDS - 2); // s is a vec3 (3 words)
    expect(constant(w, 'SPB_QUERY_NONE')).toBe(QUERY_NONE);
    expect(constant(w, 'SPB_QUERY_FOUND')).toBe(QUERY_FOUND);
    expect(constant(w, 'SPB_QUERY_OVERFLOW')).toBe(QUERY_OVERFLOW);
    expect(constant(w, 'SPB_QUERY_SKIPPED')).toBe(QUERY_SKIPPED);
  });
});
