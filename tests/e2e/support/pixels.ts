/** Pixel classification for screenshots of the page (see src/app/palette.ts). */
import type { DecodedPng } from './png';

export function rgbOf(hex: number): [number, number, number] {
  return [(hex >> 16) & 0xff, (hex >> 8) & 0xff, hex & 0xff];
}

export interface RegionCount {
  total: number;
  /** Pixels within `tolerance` of the background colour on every channel. */
  background: number;
  /** Saturated pixels (max - min channel > 40): the shaded object, never the grey grid or background. */
  object: number;
}

/** Counts pixels in the rectangle [x0, x1) x [y0, y1) given as fractions of the image size. */
export function countRegion(
  png: DecodedPng,
  background: number,
  region: { x0: number; x1: number; y0: number; y1: number },
  tolerance = 8,
): RegionCount {
  const [br, bg, bb] = rgbOf(background);
  const xa = Math.floor(region.x0 * png.width);
  const xb = Math.ceil(region.x1 * png.width);
  const ya = Math.floor(region.y0 * png.height);
  const yb = Math.ceil(region.y1 * png.height);
  const count: RegionCount = { total: 0, background: 0, object: 0 };
  for (let y = ya; y < yb; y++) {
    for (let x = xa; x < xb; x++) {
      const i = (y * png.width + x) * 4;
      const r = png.rgba[i]!;
      const g = png.rgba[i + 1]!;
      const b = png.rgba[i + 2]!;
      count.total += 1;
      if (Math.abs(r - br) <= tolerance && Math.abs(g - bg) <= tolerance && Math.abs(b - bb) <= tolerance) count.background += 1;
      else if (Math.max(r, g, b) - Math.min(r, g, b) > 40) count.object += 1;
    }
  }
  return count;
}
