/**
 * The blue tint of intersections in the built page (headless Chromium, SwiftShader). Three
 * spheres dropped into a box with collisions OFF sink into each other: the frame-end
 * intersection pass finds their penetrating surface and the renderer, reading its depth buffer
 * on the GPU, tints it blue (deeper = bluer). With collisions and recovery mode switched on
 * (paper 000 section 5.2), the contacts push them apart and far fewer blue pixels remain.
 * Truth: the tint's hue (src/app/palette.ts TINT_BLUE; no object colour is blue) and the
 * overlap itself, counted by the intersection display's readback.
 * (The paper's case, a squishy ball flattened with self-collision off, takes 7-12 s a frame on
 * SwiftShader at its smallest size; tests/gpu/intersectionDepth.test.ts checks the depths of a
 * self-intersecting body with self-collision off against a brute-force oracle.)
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { TINT_BLUE } from '../../src/app/palette';
import { recordPageErrors, useServedBrowser } from './support/browser';
import { countHueBand, hueOf } from './support/hues';
import { rgbOf } from './support/pixels';
import { writeFileSync } from 'node:fs';
import { decodePng } from './support/png';

const HASH = 'scene=mesh&shape=sphere&res=8&copies=3&collisions=0&substeps=2&iterations=2&mode=dcd&shadows=0';

const env = useServedBrowser();

async function runFrames(page: Page, frames: number): Promise<void> {
  const target = Number(await page.locator('#sim-status').getAttribute('data-frame')) + frames;
  await page.evaluate(() => window.softBodyPage!.simulation.run());
  await page.waitForFunction((f) => Number(document.getElementById('sim-status')?.dataset.frame) >= f, target, { timeout: 300_000, polling: 100 });
  await page.evaluate(async () => {
    window.softBodyPage!.simulation.pause();
    await window.softBodyPage!.simulation.settled();
  });
}

/**
 * Pixels tinted toward blue: a shade mixed from an object colour toward TINT_BLUE has its hue
 * between the blue's and violet (orange + blue mixes to violet), a band no object colour is in.
 */
async function bluePixels(page: Page, name: string): Promise<number> {
  await page.evaluate(() => window.softBodyPage!.viewer.requestRender());
  await page.waitForTimeout(1000);
  const shot = await page.screenshot();
  if (process.env.TINT_SHOTS) writeFileSync(`/tmp/tint-${name}.png`, shot);
  const blueHue = hueOf(...rgbOf(TINT_BLUE));
  return countHueBand(decodePng(shot), blueHue - 30, blueHue + 60, 50);
}

async function penetrating(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const engine = window.softBodyPage!.simulation.currentEngine as unknown as { gpuSolver: { readIntersections(): Promise<{ vertexIds: Uint32Array }> } };
    return (await engine.gpuSolver.readIntersections()).vertexIds.length;
  });
}

describe('blue intersections', () => {
  it('spheres sinking into each other with collisions off turn blue; switched on with recovery, far less blue remains', async () => {
    const page = await env.browser.newPage({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 1 });
    const errors = recordPageErrors(page);
    await page.goto(`${env.url}#${HASH}`);
    await page.waitForFunction(() => document.getElementById('mesh-stats')?.dataset.state === 'ready', undefined, { timeout: 120_000 });
    await page.evaluate(() => window.softBodyPage!.simulation.step());
    await page.addStyleTag({ content: '#perf-panel, #sim-status, .lil-gui, #mesh-stats, #error-banner { display: none !important; }' });
    const atStart = await bluePixels(page, 'start');
    const insideAtStart = await penetrating(page);
    let overlapped = 0;
    let inside = 0;
    for (let i = 0; i < 12 && inside < 40; i++) {
      await runFrames(page, 5);
      inside = await penetrating(page);
    }
    overlapped = await bluePixels(page, 'overlapped');
    await page.evaluate(() => window.softBodyPage!.simulation.setParams({ collisions: true, recovery: true }));
    // Recovery queries every vertex, edge point and tet centroid each substep: 7-40 s a frame on
    // SwiftShader. Run in chunks until the overlap is mostly gone (at most 20 frames).
    let insideAfter = inside;
    let recoveryFrames = 0;
    while (recoveryFrames < 20 && insideAfter >= inside / 4) {
      await runFrames(page, 4);
      recoveryFrames += 4;
      insideAfter = await penetrating(page);
    }
    const recovered = await bluePixels(page, 'recovered');
    console.log(`blue pixels: start ${atStart}, overlapped ${overlapped}, after ${recoveryFrames} frames of recovery ${recovered}; penetrating vertices ${insideAtStart} -> ${inside} -> ${insideAfter}`);
    expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
    expect(insideAtStart).toBe(0);
    expect(atStart).toBeLessThan(20);
    expect(inside).toBeGreaterThanOrEqual(40);
    expect(overlapped).toBeGreaterThan(300);
    expect(recovered).toBeLessThan(overlapped / 4);
    expect(insideAfter).toBeLessThan(inside / 4);
    await page.close();
  }, 900_000);
});
