import { describe, expect, it } from 'vitest';
import { IntHashMap } from '../../../src/mesh/procedural/intHashMap';
import { rng } from '../../support/random';

describe('IntHashMap', () => {
  it('agrees with a Map over random inserts, overwrites and lookups through several growths', () => {
    const rand = rng(11);
    const m = new IntHashMap(4);
    const ref = new Map<number, number>();
    for (let i = 0; i < 50000; i++) {
      // Structured keys (like lattice edge keys) plus random ones.
      const key = i % 3 === 0 ? Math.floor(rand() * 2 ** 31) : 3 * Math.floor(rand() * 20000) + (i % 3);
      const value = Math.floor(rand() * 1e9);
      m.set(key, value);
      ref.set(key, value);
    }
    expect(m.size).toBe(ref.size);
    for (const [k, v] of ref) expect(m.get(k)).toBe(v);
    let absent = 0;
    for (let i = 0; i < 10000; i++) {
      const k = Math.floor(rand() * 2 ** 31);
      if (!ref.has(k)) {
        absent++;
        expect(m.get(k)).toBe(-1);
      }
    }
    expect(absent).toBeGreaterThan(9000);
  });

  it('rejects keys outside int32', () => {
    expect(() => new IntHashMap().set(-1, 0)).toThrow(/not a non-negative int32/);
    expect(() => new IntHashMap().set(2 ** 31, 0)).toThrow(/not a non-negative int32/);
  });
});
