/**
 * Grabbing a vertex with the mouse in the built page (headless Chromium, SwiftShader): Shift +
 * drag on the cantilever (a beam pinned at one end, sagging under gravity) picks the boundary
 * vertex under the pointer, the running simulation moves it to where the pointer went (in the
 * plane facing the camera, so dragging up on screen raises it), and releasing lets it go.
 * Truth: the grabbed vertex's height before and after (read back from the solver), against the
 * drag's direction; and the plain drag (no Shift) orbits the camera instead.
 */
import { describe, expect, it } from 'vitest';
import { OBJECT_COLORS } from '../../src/app/palette';
import { recordPageErrors, useServedBrowser } from './support/browser';
import { hueOf } from './support/hues';
import { rgbOf } from './support/pixels';
import { decodePng } from './support/png';

const env = useServedBrowser();

describe('grabbing a vertex with the mouse', () => {
  it('Shift + drag upward on the beam raises the vertex under the pointer; letting go releases it', async () => {
    const page = await env.browser.newPage({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 1 });
    const errors = recordPageErrors(page);
    await page.goto(`${env.url}#scene=cantilever&size=8&substeps=4&iterations=2&collisions=0&shadows=0&tint=0`);
    await page.waitForFunction(() => document.getElementById('sim-status')?.dataset.state === 'ready', undefined, { timeout: 120_000 });
    await page.addStyleTag({ content: '#perf-panel, #sim-status, .lil-gui { display: none !important; }' });
    await page.evaluate(() => window.softBodyPage!.viewer.requestRender());
    await page.waitForTimeout(1000);
    // The beam's pixels (object 0's hue); grab at the one farthest from the pinned end's side: the rightmost.
    const png = decodePng(await page.screenshot());
    // The panels stay hidden: the beam may lie under one of them.
    const hue = hueOf(...rgbOf(OBJECT_COLORS[0]!));
    let grabX = -1, grabY = -1, count = 0, sumX = 0, sumY = 0;
    for (let y = 0; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) {
        const i = 4 * (y * png.width + x);
        const [r, g, b] = [png.rgba[i]!, png.rgba[i + 1]!, png.rgba[i + 2]!];
        if (Math.max(r, g, b) - Math.min(r, g, b) < 40) continue;
        const d = Math.abs(hueOf(r, g, b) - hue);
        if (Math.min(d, 360 - d) > 10) continue;
        count++;
        sumX += x;
        sumY += y;
      }
    }
    expect(count).toBeGreaterThan(100);
    grabX = Math.round(sumX / count);
    grabY = Math.round(sumY / count);

    const cameraBefore = await page.evaluate(() => window.softBodyPage!.viewer.camera.position.toArray());
    await page.keyboard.down('Shift');
    await page.mouse.move(grabX, grabY);
    await page.mouse.down();
    await page.waitForFunction(() => document.querySelector('#viewport canvas')?.getAttribute('data-grabbed-vertex') !== null, undefined, { timeout: 60_000 });
    const vertex = Number(await page.locator('#viewport canvas').getAttribute('data-grabbed-vertex'));
    const y0 = await page.evaluate(async (v) => (await (window.softBodyPage!.simulation.currentEngine as unknown as { gpuSolver: { readPositions(): Promise<Float32Array> } }).gpuSolver.readPositions())[3 * v + 1]!, vertex);
    await page.mouse.move(grabX, grabY - 60, { steps: 4 });
    for (let f = 0; f < 6; f++) await page.evaluate(() => window.softBodyPage!.simulation.step());
    const y1 = await page.evaluate(async (v) => (await (window.softBodyPage!.simulation.currentEngine as unknown as { gpuSolver: { readPositions(): Promise<Float32Array> } }).gpuSolver.readPositions())[3 * v + 1]!, vertex);
    await page.mouse.up();
    await page.keyboard.up('Shift');
    expect(y1, `vertex ${vertex}: y ${y0} -> ${y1}`).toBeGreaterThan(y0 + 0.05);
    expect(await page.locator('#viewport canvas').getAttribute('data-grabbed-vertex')).toBeNull();
    // The camera did not orbit during the grab.
    expect(await page.evaluate(() => window.softBodyPage!.viewer.camera.position.toArray())).toEqual(cameraBefore);
    // Without Shift the same drag orbits the camera.
    await page.mouse.move(grabX, grabY);
    await page.mouse.down();
    await page.mouse.move(grabX + 80, grabY, { steps: 4 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.softBodyPage!.viewer.camera.position.toArray())).not.toEqual(cameraBefore);
    expect(errors).toEqual([]);
    await page.close();
  }, 300_000);
});
