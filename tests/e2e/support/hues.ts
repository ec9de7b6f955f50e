/**
 * Counts screenshot pixels by hue: for each reference colour, the saturated pixels whose hue is
 * nearer to it than to any other reference and within `tolerance` degrees. Shading changes a
 * lit surface's brightness and saturation, not (much) its hue, so this tells objects apart.
 */
import type { DecodedPng } from './png';
import { rgbOf } from './pixels';

export function hueOf(r: number, g: number, b: number): number {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  if (d === 0) return 0;
  let h: number;
  if (max === r) h = ((g - b) / d) % 6;
  else if (max === g) h = (b - r) / d + 2;
  else h = (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

function hueDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return Math.min(d, 360 - d);
}

/** Calls fn with the hue of every pixel whose max - min channel exceeds minChroma. */
function forEachSaturatedHue(png: DecodedPng, minChroma: number, fn: (hue: number) => void): void {
  for (let i = 0; i < png.rgba.length; i += 4) {
    const r = png.rgba[i]!;
    const g = png.rgba[i + 1]!;
    const b = png.rgba[i + 2]!;
    if (Math.max(r, g, b) - Math.min(r, g, b) > minChroma) fn(hueOf(r, g, b));
  }
}

/** Per reference colour, pixels with max - min channel > minChroma nearest to its hue within tolerance. */
export function hueCounts(png: DecodedPng, colours: readonly number[], tolerance = 9, minChroma = 40): number[] {
  const hues = colours.map((c) => hueOf(...rgbOf(c)));
  const counts = hues.map(() => 0);
  forEachSaturatedHue(png, minChroma, (h) => {
    let best = -1;
    let bestD = tolerance;
    for (let k = 0; k < hues.length; k++) {
      const d = hueDistance(h, hues[k]!);
      if (d <= bestD) {
        best = k;
        bestD = d;
      }
    }
    if (best >= 0) counts[best]! += 1;
  });
  return counts;
}

/** Pixels with max - min channel > minChroma whose hue lies in [from, to] degrees (to may exceed 360). */
export function countHueBand(png: DecodedPng, from: number, to: number, minChroma = 40): number {
  let count = 0;
  forEachSaturatedHue(png, minChroma, (hue) => {
    const h = hue < from ? hue + 360 : hue;
    if (h >= from && h <= to) count += 1;
  });
  return count;
}
