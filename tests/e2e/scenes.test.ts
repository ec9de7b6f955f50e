/**
 * A tour of every scene in ONE page of the built page (headless Chromium, SwiftShader), the way a
 * user switches scenes: the first scene from its link, every other one from the Scene menu (the
 * page then picks the scene's small size on this software adapter). Each scene
 *  - is drawn as built with pixels in the colour of each of its objects (src/app/palette.ts);
 *  - shows only the controls that belong to it (no mesh-scene controls, one View folder) and
 *    writes its link into the URL;
 *  - records frames through the recorder's folder: the runner's reader (src/runner/reportReader.ts)
 *    accepts the JSON, its frames are consecutive with the solver's phases, the CSV has a row per
 *    frame; no object stops on NaN/Inf;
 *  - the frame time agrees with the clock: the recorded wall time of each frame and the frame time
 *    the page displays match, within 10 %, the intervals between frames landing as this test
 *    timed them in the page; fps x frame time = 1000; the GPU's timestamps fit inside the frames;
 *  - is shaded right after its GPU frames: the normals three.js draws equal the area-weighted
 *    normals of the drawn triangles (float64, computed here), the drawn positions equal the
 *    solver's, and no object pixel is darker than the unlit ambient term allows.
 * Then, in the same page: octopi in a box with collisions (Fig. 9, the Detection switch), a
 * vertex grabbed with Shift + drag on the cantilever, the mesh scene's copies piling into a box,
 * and the blue tint of intersections appearing and vanishing with recovery mode.
 * One page for all: a page's first scene compiles every GPU kernel (20-35 s on SwiftShader), a
 * scene switched to in the same page reuses them (1-2 s). Cheap settings where the check allows:
 * 1 substep x 1 iteration, collisions off, no shadows, no tint.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeHash } from '../../src/app/config/hashConfig';
import { OBJECT_COLORS, TINT_BLUE } from '../../src/app/palette';
import { pageScenes } from '../../src/app/scenePanel';
import { readReport } from '../../src/runner/reportReader';
import type { RunReport } from '../../src/runner/reportDocument';
import { findScene } from '../../src/scenes/registry';
import { recordPageErrors, useServedBrowser } from './support/browser';
import { countHueBand, hueCounts, hueOf } from './support/hues';
import { rgbOf } from './support/pixels';
import { decodePng } from './support/png';
import { ambientFloorViolations, normalsAgainstMesh, renderedSurface } from './support/shading';

const CHEAP = 'substeps=1&iterations=1&collisions=0&shadows=0&tint=0';
/** Frames recorded per scene: enough for frame intervals, a CSV and the shading after 3 GPU frames. */
const FRAMES = 5;
/** Phases a GPU frame may report (src/contract/stage.ts PhaseName). */
const PHASES = new Set(['predict', 'material', 'detect', 'spb', 'contacts', 'finalize', 'ccd', 'bvh', 'sync']);

const env = useServedBrowser();
let page: Page;
let errors: string[];
let downloadDir: string;
const downloads: Download[] = [];

beforeAll(async () => {
  // A small viewport: on the software adapter every pixel is drawn by the CPU.
  page = await env.browser.newPage({ viewport: { width: 640, height: 400 }, deviceScaleFactor: 1 });
  errors = recordPageErrors(page);
  downloadDir = mkdtempSync(join(tmpdir(), 'spb-e2e-'));
  page.on('download', (d) => downloads.push(d));
});

afterAll(async () => {
  await page?.close();
  if (downloadDir) rmSync(downloadDir, { recursive: true, force: true });
});

type Status = Record<string, string>;

async function status(): Promise<Status> {
  return page.locator('#sim-status').evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
}

/**
 * `work` within `ms`, else an error naming `what`, the page's status and its errors: a page call
 * that never answers (a hung readback or worker job) fails where it hangs, not at the test's timeout.
 */
async function bounded<T>(what: string, work: Promise<T>, ms = 180_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      void status().then(
        (s) => reject(new Error(`${what}: no answer in ${ms / 1000} s; page status ${JSON.stringify(s)}; page errors: ${errors.join(' | ') || '(none)'}`)),
        (e: unknown) => reject(new Error(`${what}: no answer in ${ms / 1000} s; the page's status could not be read either (${String(e)})`)),
      );
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function bannerText(): Promise<string> {
  return page.locator('#error-banner').evaluate((el) => ((el as HTMLElement).hidden ? '' : (el.textContent ?? '').trim()));
}

/** The banner's text when it shows an error (not a warning such as a stiffness the substeps do not resolve). */
async function errorText(): Promise<string> {
  return page.locator('#error-banner').evaluate((el) => ((el as HTMLElement).hidden || el.dataset.kind === 'warning' ? '' : (el.textContent ?? '').trim()));
}

/** Waits until `name` is built and nothing is under way, with no error on the banner. */
async function waitScene(name: string): Promise<Status> {
  await page.waitForFunction(
    (n) => {
      const s = document.getElementById('sim-status')?.dataset;
      const banner = document.getElementById('error-banner');
      return (s?.state === 'ready' && s.scene === n && (s.activity === 'paused' || s.activity === 'running')) || (banner !== null && !banner.hidden);
    },
    name,
    { timeout: 180_000, polling: 100 },
  );
  await page.evaluate(() => window.softBodyPage!.simulation.settled());
  expect(await errorText(), errors.join(' | ')).toBe('');
  return status();
}

/** Lets the renderer draw the current state (a render asked for, then two animation frames). */
async function drawn(): Promise<void> {
  await page.evaluate(() => {
    window.softBodyPage!.viewer.requestRender();
    return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

/** Saturated pixels near each object colour's hue, with the page's panels hidden. */
async function objectPixels(objects: number): Promise<number[]> {
  const style = await page.addStyleTag({ content: '#perf-panel, #info, .lil-gui, #notices { display: none !important; }' });
  await drawn();
  const png = decodePng(await page.screenshot());
  await style.evaluate((el) => (el as HTMLElement).remove());
  return hueCounts(png, OBJECT_COLORS.slice(0, Math.min(objects, OBJECT_COLORS.length)));
}

interface Recording {
  report: RunReport;
  csv: string;
  /** [frame, performance.now()] as the status line showed each new frame. */
  landed: [number, number][];
}

/** Records `frames` frames while running (Record, Run), pauses, and returns both files and when each frame landed. */
async function recordFrames(frames: number): Promise<Recording> {
  await page.evaluate(() => {
    const el = document.getElementById('sim-status')!;
    const log: [number, number][] = [];
    (window as unknown as { landedLog: typeof log }).landedLog = log;
    // Timed as the page writes the frame number: a MutationObserver is told only at the end of the
    // task, after the recorder and overlays have taken the frame, which on a loaded machine put a
    // frame's landing up to 160 ms late (CI: air-boxes, recorded 1217 ms against 1055 timed).
    const real = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'dataset')!.get!.call(el) as DOMStringMap;
    const timed = new Proxy(real, {
      set(target, key, value) {
        if (key === 'frame') {
          const f = Number(value);
          if (log.length === 0 || log[log.length - 1]![0] !== f) log.push([f, performance.now()]);
        }
        return Reflect.set(target, key, value);
      },
    });
    Object.defineProperty(el, 'dataset', { configurable: true, get: () => timed });
  });
  await page.fill('#rec-frames', String(frames));
  await page.press('#rec-frames', 'Enter');
  downloads.length = 0;
  await page.click('#rec-record');
  await page.click('#sim-run');
  await page.waitForFunction(() => document.getElementById('rec-status')?.dataset.state === 'ended', undefined, { timeout: 300_000, polling: 100 });
  await page.evaluate(async () => {
    window.softBodyPage!.simulation.pause();
    await window.softBodyPage!.simulation.settled();
  });
  for (let i = 0; i < 100 && downloads.length < 2; i++) await page.waitForTimeout(50);
  expect(downloads.map((d) => d.suggestedFilename().replace(/^.*\./, '')).sort()).toEqual(['csv', 'json']);
  const text = async (ext: string): Promise<string> => {
    const d = downloads.find((x) => x.suggestedFilename().endsWith(ext))!;
    const path = join(downloadDir, d.suggestedFilename());
    await d.saveAs(path);
    return readFileSync(path, 'utf8');
  };
  const landed = await page.evaluate(() => (window as unknown as { landedLog: [number, number][] }).landedLog);
  return { report: readReport(await text('.json')), csv: await text('.csv'), landed };
}

function checkRecording(r: Recording, scene: string, frames: number): void {
  const { report } = r;
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
  const lines = r.csv.trim().split(/\r?\n/);
  expect(lines.length).toBe(frames + 1);
  const header = lines[0]!.split(',');
  expect(header).toContain('frame');
  expect(header.some((c) => c.includes('material'))).toBe(true);
  for (const line of lines.slice(1)) expect(line.split(',').length).toBe(header.length);
}

/**
 * The frame time against the clock: each recorded frame's wall time (after the first, which
 * counts from its submission) equals the interval between it and the previous frame landing as
 * timed here, summed within 10 %; the frame time the page shows is the mean over its window of
 * the same intervals (the run's first frame from the recording), within 10 %; fps = 1000 / frame
 * time; and the GPU's timestamps of a frame fit inside its wall time.
 */
async function checkFrameTimes(r: Recording): Promise<void> {
  const at = new Map(r.landed);
  const frames = r.report.frames;
  let recorded = 0;
  let observed = 0;
  let gpu = 0;
  for (const f of frames.slice(1)) {
    const t = at.get(f.frame);
    const before = at.get(f.frame - 1);
    expect(t !== undefined && before !== undefined, `frame ${f.frame} landed: ${JSON.stringify(r.landed)}`).toBe(true);
    recorded += f.wallMs;
    observed += t! - before!;
    gpu += Object.values(f.phasesMs).reduce((a, b) => a + b, 0);
  }
  expect(Math.abs(recorded - observed), `recorded ${recorded} ms, timed ${observed} ms`).toBeLessThan(0.1 * observed);
  expect(gpu, `GPU timestamps ${gpu} ms in ${recorded} ms of frames`).toBeLessThanOrEqual(1.1 * recorded);
  // The run's frames, as the status line's window holds them (at most 30): the first from the recording, the rest timed.
  const s = await status();
  const run = r.landed.filter(([f]) => f >= frames[0]!.frame);
  const shown = Number(s.frameMs);
  expect(run.length).toBeLessThanOrEqual(30);
  let expected = frames[0]!.wallMs;
  for (let i = 1; i < run.length; i++) expected += run[i]![1] - run[i - 1]![1];
  expected /= run.length;
  expect(Math.abs(shown - expected), `shown ${shown} ms per frame, timed ${expected}`).toBeLessThan(0.1 * expected);
  // fps and frame time are printed with 3 decimals: equal to 1000 up to that rounding.
  expect(Math.abs((Number(s.fps) * shown) / 1000 - 1), `${s.fps} fps x ${shown} ms`).toBeLessThan(2e-3);
  // The timing panel shows the same summary, and its legend the newest frame's values.
  await drawn();
  const panel = Number(await page.locator('.timing-readout').getAttribute('data-frame-ms'));
  expect(panel).toBeCloseTo(shown, 2);
  const legend = await page.locator('#perf-panel .u-legend .u-series .u-value').allTextContents();
  expect(legend.length).toBeGreaterThan(1);
  expect(legend.filter((v) => v === '--'), legend.join(' | ')).toEqual([]);
  expect(legend[0]).toBe(String(r.landed.at(-1)![0]));
}

/** The normals and positions three.js draws after the GPU frames, and the darkest object pixel. */
async function checkShading(objects: number): Promise<void> {
  await drawn();
  const surface = normalsAgainstMesh(await renderedSurface(page));
  expect(surface.vertices).toBeGreaterThan(0);
  expect(surface.maxPositionDiff, 'drawn positions against the solver\'s').toBe(0);
  expect(surface.maxAngleDeg, 'drawn normals against the mesh\'s own').toBeLessThan(0.5);
  const floor = await ambientFloorViolations(page, objects);
  expect(floor.objectPixels).toBeGreaterThan(100);
  expect(floor.darker, `pixels darker than the ambient floor ${floor.floor.toFixed(0)}; darkest ${floor.darkest}`).toBe(0);
}

/** The panel holds the registry scene's controls only: no mesh-scene folder, one View folder. */
async function checkPanelFitsRegistryScene(): Promise<void> {
  for (const id of ['#gui-shape', '#gui-resolution', '#gui-copies', '#gui-object-source']) expect(await page.locator(id).isVisible(), id).toBe(false);
  const titles = await page.locator('.lil-gui .lil-title, .lil-gui .title').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.textContent?.trim() ?? ''));
  expect(titles.filter((t) => t === 'View')).toHaveLength(1);
  expect(titles).not.toContain('Mesh scene');
  expect(await page.locator('#gui-size').isVisible()).toBe(true);
  // The mesh statistics belong to the mesh scene only.
  expect(await page.locator('#mesh-stats').isVisible()).toBe(false);
  // The note: paragraphs, none run together.
  const note = await page.locator('#scene-note p').allTextContents();
  expect(note.length).toBeGreaterThanOrEqual(2);
  for (const p of note) expect(p, p).not.toMatch(/\.[A-Z]|--/);
}

const registryScenes = pageScenes().filter((s) => s.name !== 'mesh');

describe('every scene of the page, in one page', () => {
  registryScenes.forEach(({ name }, i) => {
    it(`${name}: ${i === 0 ? 'from its link' : 'from the Scene menu, at its small size'}; its own controls; ${FRAMES} recorded frames without NaN; frame time against the clock; shading after GPU frames`, async () => {
      const size = findScene(name).size!;
      if (i === 0) {
        await page.goto(`${env.url}#scene=${name}&size=${size.min}&${CHEAP}`);
      } else {
        await page.selectOption('#gui-scene', name);
      }
      const s = await waitScene(name);
      // From the menu the page picks the scene's size for this adapter (SwiftShader here: the small one).
      const small = (await page.evaluate(() => document.body.dataset.defaults)) === 'small';
      expect(await page.evaluate(() => window.softBodyPage!.simulation.sceneSize)).toBe(i === 0 ? size.min : small ? size.small : size.default);
      const link = decodeHash(await page.evaluate(() => window.location.hash), 'x');
      expect(link.scene).toBe(name);
      expect(link.params).toEqual({ substeps: 1, iterations: 1, collisions: false });
      await checkPanelFitsRegistryScene();
      const objects = Number(s.objects);
      // Drawn as built (before running: with collisions off some objects pass through each other or fly off).
      const counts = await objectPixels(objects);
      for (let k = 0; k < counts.length; k++) expect(counts[k], `object colour ${k} of ${objects}: ${counts.join(', ')}`).toBeGreaterThan(30);
      const r = await recordFrames(FRAMES);
      checkRecording(r, name, FRAMES);
      const after = await status();
      expect(Number(after.frame)).toBeGreaterThanOrEqual(FRAMES);
      expect(Number.isFinite(Number(after.minY)), `lowest point ${after.minY}`).toBe(true);
      expect(await bannerText(), errors.join(' | ')).not.toMatch(/NaN|stopped/);
      await checkFrameTimes(r);
      await checkShading(objects);
    }, 300_000);
  });

  it('octopi dropped into a box with collisions (Fig. 9): hybrid, then DCD only, from the Detection menu; counters in the recording', async () => {
    await page.selectOption('#gui-scene', 'octopus-box');
    await waitScene('octopus-box');
    await page.fill('#gui-size input', '1');
    await page.press('#gui-size input', 'Enter');
    await page.waitForFunction(() => window.softBodyPage!.simulation.sceneSize === 1);
    // Switched on while the scene may still be building: the built engine must get it too.
    await page.check('#gui-collisions input');
    const s = await waitScene('octopus-box');
    expect(Number(s.objects)).toBe(1);
    expect(await page.evaluate(() => window.softBodyPage!.simulation.params.collisions)).toBe(true);
    const r = await recordFrames(8);
    checkRecording(r, 'octopus-box', 8);
    expect(r.report.params.collisionMode).toBe('hybrid');
    for (const f of r.report.frames) {
      expect(f.collisions, `frame ${f.frame}`).toBeDefined();
      expect(f.collisions!.mode).toBe('hybrid');
      expect(Object.keys(f.phasesMs)).toEqual(expect.arrayContaining(['detect', 'ccd']));
      // The substeps each frame took: the budget, or more on impact up to the 'auto' cap (twice, at least 24).
      const budget = r.report.params.substeps;
      expect(r.report.params.impactSubsteps).toBe('auto');
      expect(Number.isInteger(f.counters.substeps), `frame ${f.frame}`).toBe(true);
      expect(f.counters.substeps!).toBeGreaterThanOrEqual(budget);
      expect(f.counters.substeps!).toBeLessThanOrEqual(Math.max(24, 2 * budget));
    }
    await page.selectOption('#gui-collisionMode select', { label: 'DCD + shortest path only' });
    await page.evaluate(() => window.softBodyPage!.simulation.step());
    expect(await page.evaluate(() => window.softBodyPage!.simulation.params.collisionMode)).toBe('dcd');
    expect(await page.evaluate(() => window.location.hash)).toContain('mode=dcd');
    expect(Number.isFinite(Number((await status()).minY))).toBe(true);
    // The partition's pass rule is taken when the GPU solver is built: the page builds the engine
    // again, from the scene's start, and the next frame runs with it.
    await page.selectOption('#gui-partitionBalance select', { label: 'by pass size' });
    await page.waitForFunction(() => window.softBodyPage!.simulation.params.partitionBalance === 'count');
    await waitScene('octopus-box');
    await page.evaluate(() => window.softBodyPage!.simulation.step());
    const rebuilt = await status();
    expect(Number(rebuilt.frame)).toBe(1);
    expect(Number.isFinite(Number(rebuilt.minY))).toBe(true);
    expect(await page.evaluate(() => window.location.hash)).toContain('partition=count');
    expect(await errorText(), errors.join(' | ')).toBe('');
    // Back to the cheap settings for what follows.
    await page.selectOption('#gui-partitionBalance select', { label: "by the busiest vertex's load" });
    await page.uncheck('#gui-collisions input');
    await page.selectOption('#gui-collisionMode select', { label: 'Hybrid CCD + DCD (Alg. 5)' });
  }, 300_000);

  it('gravity typed as -40 is clamped to the control\'s -30, and the page says so; a refresh while typing keeps what was typed', async () => {
    // The page publishes changes (a frame landing) while a value is being typed: the panel's
    // refresh must not put the old value back before Enter (src/app/keepingEdits.ts).
    await page.fill('#gui-gravity input', '-12');
    await page.evaluate(() => window.softBodyPage!.simulation.onChange?.());
    await page.press('#gui-gravity input', 'Enter');
    expect(await page.evaluate(() => window.softBodyPage!.simulation.params.gravity)).toEqual([0, -12, 0]);
    await page.fill('#gui-gravity input', '-40');
    await page.press('#gui-gravity input', 'Enter');
    await page.waitForFunction(() => !document.getElementById('error-banner')!.hidden);
    const message = await bannerText();
    expect(message).toContain('Gravity y');
    expect(message).toContain('-40');
    expect(message).toContain('-30 is used');
    expect(await page.evaluate(() => window.softBodyPage!.simulation.params.gravity)).toEqual([0, -30, 0]);
    await page.click('#error-banner .close');
    expect(await page.locator('#error-banner').isHidden()).toBe(true);
    await page.fill('#gui-gravity input', '-9.81');
    await page.press('#gui-gravity input', 'Enter');
    expect(await bannerText()).not.toContain('outside the control');
  });

  it('Shift + drag upward on the cantilever raises the vertex under the pointer; letting go releases it; a plain drag orbits', async () => {
    await page.selectOption('#gui-scene', 'cantilever');
    await waitScene('cantilever');
    await page.fill('#gui-size input', '8');
    await page.press('#gui-size input', 'Enter');
    await page.waitForFunction(() => window.softBodyPage!.simulation.sceneSize === 8);
    for (const [id, value] of [['#gui-substeps input', '4'], ['#gui-iterations input', '2']] as const) {
      await page.fill(id, value);
      await page.press(id, 'Enter');
    }
    await waitScene('cantilever');
    const style = await page.addStyleTag({ content: '#perf-panel, #info, .lil-gui, #notices { display: none !important; }' });
    await drawn();
    // The beam's pixels (object 0's hue); grab at their centre.
    const png = decodePng(await page.screenshot());
    const hue = hueOf(...rgbOf(OBJECT_COLORS[0]!));
    let count = 0, sumX = 0, sumY = 0;
    for (let y = 0; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) {
        const k = 4 * (y * png.width + x);
        const [r, g, b] = [png.rgba[k]!, png.rgba[k + 1]!, png.rgba[k + 2]!];
        if (Math.max(r, g, b) - Math.min(r, g, b) < 40) continue;
        const d = Math.abs(hueOf(r, g, b) - hue);
        if (Math.min(d, 360 - d) > 10) continue;
        count++;
        sumX += x;
        sumY += y;
      }
    }
    expect(count).toBeGreaterThan(100);
    const grabX = Math.round(sumX / count);
    const grabY = Math.round(sumY / count);
    const readY = (v: number): Promise<number> =>
      page.evaluate(async (vertex) => (await (window.softBodyPage!.simulation.currentEngine as unknown as { gpuSolver: { readPositions(): Promise<Float32Array> } }).gpuSolver.readPositions())[3 * vertex + 1]!, v);
    const cameraBefore = await page.evaluate(() => window.softBodyPage!.viewer.camera.position.toArray());
    await page.keyboard.down('Shift');
    await page.mouse.move(grabX, grabY);
    await page.mouse.down();
    await page.waitForFunction(() => document.querySelector('#viewport canvas')?.getAttribute('data-grabbed-vertex') !== null, undefined, { timeout: 60_000 });
    const vertex = Number(await page.locator('#viewport canvas').getAttribute('data-grabbed-vertex'));
    const y0 = await readY(vertex);
    await page.mouse.move(grabX, grabY - 60, { steps: 4 });
    for (let f = 0; f < 6; f++) await page.evaluate(() => window.softBodyPage!.simulation.step());
    const y1 = await readY(vertex);
    await page.mouse.up();
    await page.keyboard.up('Shift');
    expect(y1, `vertex ${vertex}: y ${y0} -> ${y1}`).toBeGreaterThan(y0 + 0.05);
    expect(await page.locator('#viewport canvas').getAttribute('data-grabbed-vertex')).toBeNull();
    // The camera did not orbit during the grab; without Shift the same drag orbits it.
    expect(await page.evaluate(() => window.softBodyPage!.viewer.camera.position.toArray())).toEqual(cameraBefore);
    await page.mouse.move(grabX, grabY);
    await page.mouse.down();
    await page.mouse.move(grabX + 80, grabY, { steps: 4 });
    await page.mouse.up();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.softBodyPage!.viewer.camera.position.toArray())).not.toEqual(cameraBefore);
    await style.evaluate((el) => (el as HTMLElement).remove());
    for (const [id, value] of [['#gui-substeps input', '1'], ['#gui-iterations input', '1']] as const) {
      await page.fill(id, value);
      await page.press(id, 'Enter');
    }
  }, 300_000);

  it('the mesh scene: its folder comes back; two copies of a generated sphere pile into a box and record', async () => {
    await page.uncheck('#gui-collisions input');
    await page.selectOption('#gui-scene', 'mesh');
    await page.waitForFunction(() => document.getElementById('mesh-stats')?.dataset.state === 'ready' && window.softBodyPage!.simulation.config.scene === 'mesh');
    expect(await page.locator('#gui-shape').isVisible()).toBe(true);
    expect(await page.locator('#gui-size').isVisible()).toBe(false);
    await page.selectOption('#gui-shape', 'sphere');
    await page.waitForFunction(() => document.getElementById('mesh-stats')?.dataset.source?.startsWith('sphere') ?? false);
    await page.fill('#gui-resolution input', '8');
    await page.press('#gui-resolution input', 'Enter');
    await page.waitForFunction(() => document.getElementById('mesh-stats')?.dataset.source === 'sphere (resolution 8)');
    await page.fill('#gui-copies input', '2');
    await page.press('#gui-copies input', 'Enter');
    await page.waitForFunction(() => window.softBodyPage!.simulation.config.mesh.copies === 2);
    // The mesh scene is built by its first Run or Step; the recorder needs it built.
    await page.click('#sim-step');
    await waitScene('mesh');
    const r = await recordFrames(FRAMES);
    checkRecording(r, 'mesh', FRAMES);
    const s = await status();
    expect(Number(s.objects)).toBe(2);
    const counts = await objectPixels(2);
    expect(counts.every((c) => c > 30), counts.join(', ')).toBe(true);
    expect(decodeHash(await page.evaluate(() => window.location.hash), 'x').mesh).toEqual({ shape: 'sphere', resolution: 8, copies: 2 });
  }, 300_000);

  /**
   * The blue tint: three spheres in a box with collisions off sink into each other; the
   * frame-end intersection pass finds the penetrating surface and the renderer tints it blue
   * (deeper = bluer); with collisions and recovery mode on (paper 000 section 5.2) far fewer blue
   * pixels remain. Truth: the tint's hue (palette.ts TINT_BLUE; no object colour is blue) and the
   * overlap itself, counted by the intersection display's readback.
   */
  it('spheres sinking into each other with collisions off turn blue; switched on with recovery, far less blue remains', async () => {
    await page.uncheck('#gui-collisions input');
    await page.uncheck('#gui-recovery input');
    await page.fill('#gui-copies input', '3');
    await page.press('#gui-copies input', 'Enter');
    for (const [id, value] of [['#gui-substeps input', '2'], ['#gui-iterations input', '2'], ['#gui-contactIterations input', '3']] as const) {
      await page.fill(id, value);
      await page.press(id, 'Enter');
    }
    await page.selectOption('#gui-collisionMode select', { label: 'DCD + shortest path only' });
    await page.check('#gui-view-tint input');
    await page.waitForFunction(() => window.softBodyPage!.simulation.config.mesh.copies === 3);
    await page.evaluate(() => window.softBodyPage!.simulation.step());
    const style = await page.addStyleTag({ content: '#perf-panel, #info, .lil-gui, #notices { display: none !important; }' });
    const blueHue = hueOf(...rgbOf(TINT_BLUE));
    const bluePixels = async (): Promise<number> => {
      await bounded('drawing the frame', drawn());
      return countHueBand(decodePng(await bounded('the screenshot', page.screenshot())), blueHue - 30, blueHue + 60, 50);
    };
    const penetrating = (): Promise<number> =>
      bounded('readIntersections', page.evaluate(async () => {
        const engine = window.softBodyPage!.simulation.currentEngine as unknown as { gpuSolver: { readIntersections(): Promise<{ vertexIds: Uint32Array }> } };
        return (await engine.gpuSolver.readIntersections()).vertexIds.length;
      }));
    // One frame at a time (step() resolves when its frame landed), so the switch below happens at
    // an exact frame: the first with 40 penetrating vertices. Run and pause in chunks let the
    // overlap at the switch vary with the chunk's alignment (40 to 270 inside), and recovery
    // from the deepest of those tore the balls (a fifth of the tets inverted) and made each
    // shortest-path query 10-100x dearer: 60 s to minutes a frame on SwiftShader, one CI timeout
    // (docs/collisions.md "Recovery from a deep overlap: the cost of a torn state").
    const stepFrame = (): Promise<void> => bounded('step()', page.evaluate(() => window.softBodyPage!.simulation.step()));
    expect(Number((await status()).objects)).toBe(3);
    const atStart = await bluePixels();
    const insideAtStart = await penetrating();
    let inside = 0;
    let sinkFrames = 0;
    while (sinkFrames < 60 && inside < 40) {
      await stepFrame();
      sinkFrames++;
      inside = await penetrating();
    }
    const overlapped = await bluePixels();
    // The switch at the first frame past 40 (58 on SwiftShader, frame 24): one frame later the
    // overlap is about 40 deeper a frame, and from about 270 recovery tears the balls.
    expect(inside, `penetrating vertices at the switch, after ${sinkFrames} frames`).toBeLessThan(150);
    // Recovery at the page's small budget (5 substeps x 2 iterations) with 6 contact passes: on the
    // CPU twin (brute-force counter) this start comes apart within 2 frames; at 2 x 2 with 3 passes
    // it does not (docs/collisions.md, section 3.5's skip). Recovery queries every vertex, edge
    // point and tet centroid each substep: seconds to tens of seconds a frame on SwiftShader. Step
    // until the overlap is mostly gone (at most 12 frames).
    await page.evaluate(() => window.softBodyPage!.simulation.setParams({ collisions: true, recovery: true, substeps: 5, contactIterations: 6 }));
    let insideAfter = inside;
    let recoveryFrames = 0;
    while (recoveryFrames < 12 && insideAfter >= inside / 4) {
      await stepFrame();
      recoveryFrames++;
      insideAfter = await penetrating();
    }
    const recovered = await bluePixels();
    await style.evaluate((el) => (el as HTMLElement).remove());
    console.log(`blue pixels: start ${atStart}, overlapped ${overlapped} (${sinkFrames} frames), after ${recoveryFrames} frames of recovery ${recovered}; penetrating vertices ${insideAtStart} -> ${inside} -> ${insideAfter}`);
    expect(insideAtStart).toBe(0);
    expect(atStart).toBeLessThan(20);
    expect(inside).toBeGreaterThanOrEqual(40);
    expect(overlapped).toBeGreaterThan(300);
    expect(recovered).toBeLessThan(overlapped / 4);
    expect(insideAfter).toBeLessThan(inside / 4);
    expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
  }, 900_000);
});
