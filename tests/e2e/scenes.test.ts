/**
 * Every scene of the page's menu in the built page (headless Chromium, SwiftShader): it loads
 * from a link (#scene=...), records 30 frames through the recorder's folder while running, and
 * then
 *  - no object stopped on NaN/Inf and the lowest point is finite;
 *  - the screenshot shows pixels in the colour of each of its objects (src/app/palette.ts);
 *  - the recording downloaded a JSON and a CSV: the runner's reader (src/runner/reportReader.ts)
 *    accepts the JSON, it has 30 consecutive frames whose phases are the solver's, and the CSV
 *    has a header and one row per frame.
 * Cheap settings for the software adapter: the scene's smallest size, 1 substep x 1 iteration,
 * collisions off, no shadows, no tint: detection costs 0.3-0.9 s a substep on SwiftShader, which
 * would make this sweep 15 minutes. Collisions in the page are covered by the octopus-box test
 * below (the Fig. 9 switch, hybrid CCD + DCD) and by intersectionTint.test.ts; the scenes'
 * collision physics by the GPU tests (tests/gpu).
 */
import { readFileSync } from 'node:fs';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageScenes } from '../../src/app/scenePanel';
import { OBJECT_COLORS } from '../../src/app/palette';
import { readReport } from '../../src/runner/reportReader';
import { findScene } from '../../src/scenes/registry';
import { recordPageErrors, useServedBrowser } from './support/browser';
import { decodePng } from './support/png';
import { hueCounts } from './support/hues';

const CHEAP = 'substeps=1&iterations=1&collisions=0&shadows=0&tint=0';
const FRAMES = 30;
/** Phases a GPU frame may report (src/contract/stage.ts PhaseName). */
const PHASES = new Set(['predict', 'material', 'detect', 'spb', 'contacts', 'finalize', 'ccd', 'bvh', 'sync']);

const env = useServedBrowser();

interface Loaded {
  page: Page;
  errors: string[];
  objects: number;
}

async function openScene(hash: string, scene: string): Promise<Loaded> {
  // A small viewport: on the software adapter every simulated frame waits for the drawing before it.
  const page = await env.browser.newPage({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 1 });
  const errors = recordPageErrors(page);
  await page.goto(`${env.url}#${hash}`);
  await page.waitForFunction(
    (name) => {
      const s = document.getElementById('sim-status');
      const banner = document.getElementById('error-banner');
      return (s?.dataset.state === 'ready' && s.dataset.scene === name) || (banner !== null && !banner.hidden);
    },
    scene,
    { timeout: 120_000, polling: 200 },
  );
  const banner = await page.locator('#error-banner').evaluate((el) => ((el as HTMLElement).hidden ? '' : el.textContent ?? ''));
  expect(banner.trim(), `error banner: ${banner} ${errors.join(' | ')}`).toBe('');
  const objects = Number(await page.locator('#sim-status').getAttribute('data-objects'));
  return { page, errors, objects };
}

/** Records `frames` frames while running and returns the two downloaded files' text. */
async function recordFrames(page: Page, frames = FRAMES): Promise<{ json: string; csv: string }> {
  await page.fill('#rec-frames', String(frames));
  await page.press('#rec-frames', 'Enter');
  const downloads: Download[] = [];
  page.on('download', (d) => downloads.push(d));
  await page.click('#rec-record');
  await page.click('#sim-run');
  await page.waitForFunction(() => document.getElementById('rec-status')?.dataset.state === 'ended', undefined, { timeout: 300_000, polling: 250 });
  await page.evaluate(() => window.softBodyPage!.simulation.pause());
  for (let i = 0; i < 100 && downloads.length < 2; i++) await page.waitForTimeout(100);
  expect(downloads.map((d) => d.suggestedFilename().replace(/^.*\./, '')).sort()).toEqual(['csv', 'json']);
  const text = async (ext: string): Promise<string> => readFileSync((await downloads.find((d) => d.suggestedFilename().endsWith(ext))!.path())!, 'utf8');
  return { json: await text('.json'), csv: await text('.csv') };
}

/** Saturated pixels near each object colour's hue, with the page's panels hidden (shown again after). */
async function objectPixels(page: Page, objects: number): Promise<number[]> {
  const style = await page.addStyleTag({ content: '#perf-panel, #sim-status, .lil-gui, #mesh-stats, #error-banner { display: none !important; }' });
  await page.evaluate(() => window.softBodyPage!.viewer.requestRender());
  await page.waitForTimeout(1500);
  const png = decodePng(await page.screenshot());
  await style.evaluate((el) => (el as HTMLElement).remove());
  const colours = OBJECT_COLORS.slice(0, Math.min(objects, OBJECT_COLORS.length));
  return hueCounts(png, colours);
}

function checkRecording(files: { json: string; csv: string }, scene: string, frames = FRAMES): void {
  const report = readReport(files.json);
  if (process.env.SCENES_LOG) {
    const sum = (k: string) => report.frames.reduce((a, f) => a + (f.phasesMs[k] ?? 0), 0) / report.frames.length;
    console.log(scene, report.counts, 'mean wall', report.frames.reduce((a, f) => a + f.wallMs, 0) / report.frames.length, 'render', report.frames.reduce((a, f) => a + (f.renderMs ?? 0), 0) / report.frames.length, Object.fromEntries(Object.keys(report.frames[0]!.phasesMs).map((k) => [k, sum(k)])));
  }
  expect(report.source).toBe('page');
  expect(report.scene).toBe(scene);
  expect(report.frames.length).toBe(frames);
  for (let i = 1; i < report.frames.length; i++) expect(report.frames[i]!.frame).toBe(report.frames[i - 1]!.frame + 1);
  for (const f of report.frames) {
    const names = Object.keys(f.phasesMs);
    expect(names.every((n) => PHASES.has(n)), names.join(',')).toBe(true);
    expect(names).toContain('material');
    expect(Number.isFinite(f.wallMs)).toBe(true);
  }
  expect(report.browser).toMatch(/Chrome/);
  const lines = files.csv.trim().split(/\r?\n/);
  expect(lines.length).toBe(frames + 1);
  const header = lines[0]!.split(',');
  expect(header).toContain('frame');
  expect(header.some((c) => c.includes('material'))).toBe(true);
  for (const line of lines.slice(1)) expect(line.split(',').length).toBe(header.length);
}

const registryScenes = pageScenes().filter((s) => s.name !== 'mesh');

describe('every scene of the page', () => {
  for (const { name } of registryScenes) {
    it(`${name}: loads from its link, records ${FRAMES} frames without NaN, draws each object in its colour`, async () => {
      const size = findScene(name).size!;
      const t0 = Date.now();
      const { page, errors, objects } = await openScene(`scene=${name}&size=${size.min}&${CHEAP}`, name);
      if (process.env.SCENES_LOG) console.log(name, 'loaded in', Date.now() - t0, 'ms');
      try {
        // Drawn as built (before running: with collisions off some objects pass through each other or fly off).
        const counts = await objectPixels(page, objects);
        for (let i = 0; i < counts.length; i++) expect(counts[i], `object colour ${i} of ${objects}: ${counts.join(', ')}`).toBeGreaterThan(30);
        const files = await recordFrames(page);
        const status = await page.locator('#sim-status').evaluate((el) => ({ ...(el as HTMLElement).dataset }));
        expect(Number(status.frame)).toBeGreaterThanOrEqual(FRAMES);
        expect(Number.isFinite(Number(status.minY)), `lowest point ${status.minY}`).toBe(true);
        const banner = await page.locator('#error-banner').evaluate((el) => ((el as HTMLElement).hidden ? '' : el.textContent ?? ''));
        expect(banner, errors.join(' | ')).not.toMatch(/NaN|stopped/);
        checkRecording(files, name);
      } finally {
        await page.close();
      }
    }, 420_000);
  }

  it('octopi dropped into a box with collisions (Fig. 9): hybrid, then DCD only, from the Detection menu; counters in the recording', async () => {
    const { page, objects } = await openScene('scene=octopus-box&size=1&substeps=1&iterations=1&shadows=0&tint=0', 'octopus-box');
    try {
      expect(objects).toBe(1);
      const files = await recordFrames(page, 8);
      checkRecording(files, 'octopus-box', 8);
      const report = readReport(files.json);
      expect(report.params.collisionMode).toBe('hybrid');
      for (const f of report.frames) {
        expect(f.collisions, `frame ${f.frame}`).toBeDefined();
        expect(f.collisions!.mode).toBe('hybrid');
        expect(Object.keys(f.phasesMs)).toEqual(expect.arrayContaining(['detect', 'ccd']));
      }
      await page.selectOption('#gui-collisionMode select', { label: 'DCD + shortest path only' });
      await page.evaluate(() => window.softBodyPage!.simulation.step());
      expect(await page.evaluate(() => window.softBodyPage!.simulation.params.collisionMode)).toBe('dcd');
      expect(await page.evaluate(() => window.location.hash)).toContain('mode=dcd');
      const status = await page.locator('#sim-status').evaluate((el) => ({ ...(el as HTMLElement).dataset }));
      expect(Number.isFinite(Number(status.minY))).toBe(true);
    } finally {
      await page.close();
    }
  }, 420_000);

  it('the mesh scene: two copies of a generated sphere pile into a box and record', async () => {
    const { page, objects } = await openScene(`scene=mesh&shape=sphere&res=8&copies=2&run=1&${CHEAP}`, 'mesh');
    try {
      expect(objects).toBe(2);
      await page.evaluate(() => window.softBodyPage!.simulation.pause());
      const files = await recordFrames(page);
      checkRecording(files, 'mesh');
      const counts = await objectPixels(page, objects);
      expect(counts.every((c) => c > 30), counts.join(', ')).toBe(true);
    } finally {
      await page.close();
    }
  }, 420_000);
});
