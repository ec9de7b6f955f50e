/**
 * Colours of the view, in one dependency-free module so end-to-end tests can import them
 * to tell object pixels from background pixels in screenshots.
 *
 * Blue is reserved for the penetration tint (TINT_BLUE): no object, ground or collider colour
 * has a hue between 190 and 270 degrees, so a blue pixel always means "intersecting here".
 */

/** Page and scene background (sRGB). */
export const BACKGROUND_COLOR = 0x1d2127;
/** Soft-body surface colour of the single-mesh viewer (sRGB): saturated, never like the grey grid. */
export const OBJECT_COLOR = 0xe8845a;
export const GRID_CENTER_COLOR = 0x6a7280;
export const GRID_COLOR = 0x3b414b;

/**
 * Per-object colours of a scene (sRGB), cycled by object index: saturated, far apart in hue
 * (orange, green, yellow, red, magenta, teal-green, lime, pink), none blue.
 */
export const OBJECT_COLORS: readonly number[] = [
  0xe8845a, // orange (hue 18)
  0x5dbb46, // green (106)
  0xe8c33a, // yellow (46)
  0xd8434e, // red (356)
  0xcc58b4, // magenta (312)
  0x2fb592, // teal-green (163)
  0xa9cf2f, // lime (75)
  0xf08fb4, // pink (337)
];

/** Colour of scene object `index` (cycles through OBJECT_COLORS). */
export function objectColor(index: number): number {
  if (!Number.isInteger(index) || index < 0) throw new RangeError(`objectColor: object index ${index} must be an integer >= 0`);
  return OBJECT_COLORS[index % OBJECT_COLORS.length];
}

/** Saturated blue the surface is mixed toward where it penetrates (the deeper the bluer). */
export const TINT_BLUE = 0x1048ff;
/** Static (kinematic) tet-mesh colliders: a neutral warm grey. */
export const STATIC_OBJECT_COLOR = 0x9a948c;
/** Ground plane under the scene: light, so shadows read clearly on it. */
export const GROUND_COLOR = 0xc9c6c0;
/**
 * The hemisphere light (renderer.ts): sky colour, ground colour (what a face turned straight down
 * receives: light bounced off the ground plane) and intensity. Every lit pixel of an object is at
 * least its colour x HEMISPHERE_GROUND x HEMISPHERE_INTENSITY / pi (the unlit ambient term;
 * the end-to-end shading test holds the page to it).
 */
export const HEMISPHERE_SKY = 0xdfe8ff;
export const HEMISPHERE_GROUND = 0x8a8076;
export const HEMISPHERE_INTENSITY = 1.2;
/** Analytic colliders (planes, boxes, bowls), drawn semi-transparent. */
export const COLLIDER_COLOR = 0xd9d2c5;
export const COLLIDER_OPACITY = 0.28;

/** Overlays: penetrating points, their shortest paths, CCD contacts, BVH boxes. */
export const OVERLAY_POINT_COLOR = 0xffe14d;
export const OVERLAY_PATH_COLOR = 0xff4df2;
export const OVERLAY_CCD_COLOR = 0x40ff80;
export const OVERLAY_BOX_COLOR = 0xffffff;
