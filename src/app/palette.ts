/**
 * Colours of the view, in one dependency-free module so end-to-end tests can import them
 * to tell object pixels from background pixels in screenshots.
 */

/** Page and scene background (sRGB). */
export const BACKGROUND_COLOR = 0x1d2127;
/** Soft-body surface colour (sRGB): saturated, so it never resembles the grey grid. */
export const OBJECT_COLOR = 0xe8845a;
export const GRID_CENTER_COLOR = 0x6a7280;
export const GRID_COLOR = 0x3b414b;
