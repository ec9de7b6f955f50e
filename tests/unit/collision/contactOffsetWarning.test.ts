import { describe, expect, it } from 'vitest';
import { CONTACT_OFFSET_WARN_RATIO, contactOffsetWarning } from '../../../src/collision/contactOffset';

describe('contactOffsetWarning: an explicit offset against the smallest element', () => {
  it("'auto' and offsets up to a quarter of the smallest edge pass; larger ones name their ratio and the limit", () => {
    expect(CONTACT_OFFSET_WARN_RATIO).toBe(0.25);
    expect(contactOffsetWarning('auto', 0.05)).toBeNull();
    expect(contactOffsetWarning(0, 0.05)).toBeNull();
    expect(contactOffsetWarning(0.0125, 0.05)).toBeNull();
    // Half an element: the cube stack measured +73 % energy in 3 frames (docs/collisions.md).
    const w = contactOffsetWarning(0.025, 0.05);
    expect(w).toMatch(/contact offset 0\.025 is 0\.50 of the smallest element edge \(0\.050\)/);
    expect(w).toMatch(/at most about 0\.013/);
    // Scale-free: the same ratio warns at any mesh scale.
    expect(contactOffsetWarning(25, 50)).toMatch(/is 0\.50 of the smallest element edge \(50\)/);
    expect(contactOffsetWarning(12.5, 50)).toBeNull();
    // No mesh yet (no edge): nothing to compare with.
    expect(contactOffsetWarning(1, 0)).toBeNull();
  });
});
