/**
 * The runner's note when the impact substeps' cap bound (src/runner/impactCapNote.ts). Truth: the
 * rule's own arithmetic, a tenth of the mean boundary edge a substep: 300 m/s over a 1/60 s frame
 * with a 0.57 m edge asks for ceil(300 / 60 / 0.057) = 88 substeps.
 */
import { describe, expect, it } from 'vitest';
import { defaultParams } from '../../../src/contract/params';
import { impactCapNote } from '../../../src/runner/impactCapNote';

describe('the impact substeps cap note', () => {
  const p = defaultParams({ dt: 1 / 60, substeps: 20, impactSubsteps: 'auto' });
  it('names the frame, what the closing speed asked for and the cap that bound', () => {
    const note = impactCapNote(3, 300, 40, p, 0.57);
    expect(note).toContain('frame 3: the closing speed 300 m/s asked for 88 substeps');
    expect(note).toContain('the frame took 40, 0.22 edges a substep: the cap --impact-substeps auto (40) bound (--impact-substeps 88 lifts it)');
  });
  it('says nothing when the frame got what it asked for, or below the cap', () => {
    expect(impactCapNote(1, 300, 88, { ...p, impactSubsteps: 120 }, 0.57)).toBeNull();
    expect(impactCapNote(1, 30, 20, p, 0.57)).toBeNull(); // asks for 9: fewer than the frame's 20
    expect(impactCapNote(1, 300, 30, p, 0.57)).toBeNull(); // below the cap of 40: the decay or the floor chose it
  });
});
