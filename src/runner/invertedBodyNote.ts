/**
 * The runner's closing note when bodies end the run turned inside out or flattened: more than
 * INVERTED_NOTE_SHARE of the tets with a signed volume of zero or below (measure.ts invertedTets).
 * Such a state can be held: Cube.t thrown at the ground at 60 m/s (2.6x its material's pressure
 * wave) ended as a sheet of volume 0 with about half its tets inverted and 1.31 MJ of strain held
 * for 70 frames, where recovery mode brought it back to its volume within 40 frames. What held it
 * was CCD, stopping the folds' triangles from passing back through each other; with
 * SolverParams.ccdSkipInverted (the default since 2026-12-04) the material brings it back by
 * itself, and a body that still ends a run so is one that is still unfolding or is pressed
 * (docs/benchmarks.md "An impact faster than the material's pressure wave").
 */

/** Share of all tets inverted above which the run says so. */
export const INVERTED_NOTE_SHARE = 0.01;

/** The note, or null when at most INVERTED_NOTE_SHARE of the tets are inverted. */
export function invertedBodyNote(invertedTets: number, tetCount: number, recovery: boolean): string | null {
  if (!(tetCount > 0) || !(invertedTets > INVERTED_NOTE_SHARE * tetCount)) return null;
  const share = `${invertedTets} of ${tetCount} tets (${((100 * invertedTets) / tetCount).toFixed(1)} %) are inverted or flat`;
  return recovery
    ? `${share}, with recovery mode on`
    : `${share}: where a body stays turned inside out or flat after what pressed it lets go (an impact faster than its material's pressure wave leaves it so), the material alone may not undo it (with --ccd-skip-inverted off, CCD holds its folds); recovery mode (--recovery on) does`;
}
