/**
 * The CCD narrow phase's header words that the host reads back (shaders/ccdNarrow.wgsl) against
 * collision/gpu/ccdStage.ts: the counters from CCD_HITS_VF to CCD_EE_APART, and the
 * escape list past the query-list header and the room for one query (the contact solve binds the
 * same buffer as a query list, so the list must not overlap what it reads).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CCD_COUNTER_FIRST, CCD_COUNTER_WORDS, ESCAPE_LIST_CAPACITY, ESCAPE_LIST_FIRST_WORD, ESCAPE_LIST_WORDS } from '../../../src/collision/gpu/ccdStage';
import { QL_HEADER_WORDS, QUERY_WORDS } from '../../../src/spb/gpu/queryListLayout';

const wgsl = readFileSync(new URL('../../../shaders/ccdNarrow.wgsl', import.meta.url), 'utf8');

function constant(name: string): number {
  const m = new RegExp(`const ${name} = ([0-9]+)u;`).exec(wgsl);
  if (!m) throw new Error(`no WGSL constant ${name} in shaders/ccdNarrow.wgsl`);
  return Number(m[1]);
}

describe('CCD header words read back', () => {
  it('the counters run from CCD_HITS_VF to CCD_EE_APART, and the escape list lies past the query list the contact solve reads', () => {
    expect(constant('CCD_HITS_VF')).toBe(CCD_COUNTER_FIRST);
    expect(constant('CCD_EE_APART')).toBe(CCD_COUNTER_FIRST + CCD_COUNTER_WORDS - 1);
    expect(constant('CCD_ESCAPE_LIST_COUNT')).toBeLessThan(constant('CCD_EE_APART'));
    expect(constant('CCD_ESCAPE_DISTANCE_SELF')).toBeLessThan(constant('CCD_ESCAPE_LIST_COUNT'));
    expect(constant('CCD_ESCAPE_LIST')).toBe(ESCAPE_LIST_FIRST_WORD);
    expect(ESCAPE_LIST_FIRST_WORD).toBeGreaterThanOrEqual(QL_HEADER_WORDS + QUERY_WORDS);
    expect(constant('CCD_ESCAPE_LIST_CAPACITY')).toBe(ESCAPE_LIST_CAPACITY);
    expect(ESCAPE_LIST_WORDS).toBe(2 * ESCAPE_LIST_CAPACITY);
    expect(CCD_COUNTER_FIRST + CCD_COUNTER_WORDS).toBeLessThanOrEqual(QL_HEADER_WORDS);
  });
});
