/**
 * The test PNG decoder against an independent encoder: Chromium's canvas.toDataURL().
 * A pattern with gradients and noise makes the encoder use several row filter types.
 */
import { describe, expect, it } from 'vitest';
import { useServedBrowser } from './support/browser';
import { decodePng } from './support/png';

const env = useServedBrowser();

describe('decodePng', () => {
  it('decodes a Chromium-encoded PNG to exactly the pixels drawn', async () => {
    const page = await env.browser.newPage();
    const { dataUrl, pixels, width, height } = await page.evaluate(() => {
      const w = 37;
      const h = 23;
      const canvas = document.createElement('canvas');
      canvas.width = w;
      canvas.height = h;
      const ctx = canvas.getContext('2d')!;
      const image = ctx.createImageData(w, h);
      let seed = 12345;
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const i = (y * w + x) * 4;
          seed = (seed * 1103515245 + 12345) >>> 0;
          image.data[i] = (x * 7) & 0xff;
          image.data[i + 1] = (y * 11) & 0xff;
          image.data[i + 2] = seed >>> 24;
          image.data[i + 3] = 255;
        }
      }
      ctx.putImageData(image, 0, 0);
      return { dataUrl: canvas.toDataURL('image/png'), pixels: Array.from(image.data), width: w, height: h };
    });
    const png = decodePng(Buffer.from(dataUrl.split(',')[1]!, 'base64'));
    expect(png.width).toBe(width);
    expect(png.height).toBe(height);
    expect(Array.from(png.rgba)).toEqual(pixels);
    await page.close();
  });

  it('rejects data that is not a PNG', () => {
    expect(() => decodePng(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]))).toThrow(/not a PNG/);
  });
});
