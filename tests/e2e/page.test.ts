/**
 * The built page in headless Chromium on SwiftShader, opened as a newcomer opens it (no link):
 * the first load, WebGPU, drawing, the GUI, import, errors, notices.
 * Truths: the adapter the browser reports, screenshot pixels against the palette, counts of
 * real meshes made by others (shared/meshes/README.md), the line we corrupted ourselves, the
 * camera's own projection of an imported mesh's corners.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_COLOR, OBJECT_COLOR } from '../../src/app/palette';
import { sharedMeshPath } from '../support/sharedMeshes';
import { openPage, readStats, useServedBrowser, waitForMeshDrawn } from './support/browser';
import { hueCounts } from './support/hues';
import { countRegion } from './support/pixels';
import { decodePng } from './support/png';

/**
 * The first load on the software adapter reaches its first simulated frame within this time,
 * from the page's request to the frame's results (measured here, 2 cores: see docs/benchmarks.md
 * "The page's first load"). Most of it is compiling the GPU kernels, once per page.
 */
const FIRST_FRAME_WITHIN_MS = 90_000;

const env = useServedBrowser();
let page: Page;
let errors: string[];
let loadStarted = 0;

beforeAll(async () => {
  loadStarted = Date.now();
  ({ page, errors } = await openPage(env.browser, env.url));
});

afterAll(async () => {
  await page?.close();
});

/** Waits until the stats name a source containing `source`, then until that mesh is drawn. */
async function waitForSource(source: string): Promise<Record<string, string>> {
  try {
    await page.waitForFunction((want) => document.getElementById('mesh-stats')?.dataset.source?.includes(want) ?? false, source, {
      timeout: 120_000,
      polling: 100,
    });
  } catch (error) {
    const banner = await page.locator('#error-banner').textContent();
    throw new Error(`stats never showed "${source}"; error banner: ${banner?.trim() || '(none)'}; ${(error as Error).message}`);
  }
  await waitForMeshDrawn(page, 60_000, errors);
  return readStats(page);
}

/** Pixels of the single-mesh viewer's object colour over the whole canvas (the ground and sky are not). */
async function objectColourPixels(): Promise<number> {
  return hueCounts(decodePng(await page.locator('#viewport canvas').screenshot()), [OBJECT_COLOR])[0]!;
}

describe('the first load', () => {
  it('opens the small default on the software adapter, says which and why, and reaches its first frame in time with a busy indicator', async () => {
    await waitForMeshDrawn(page, 120_000, errors);
    expect(await page.evaluate(() => document.body.dataset.defaults)).toBe('small');
    const stats = await readStats(page);
    expect(stats.source).toBe('squishyBall (resolution 22)');
    const note = (await page.locator('#scene-note').textContent()) ?? '';
    expect(note).toContain('Small default');
    expect(note).toContain('software GPU adapter');
    // The status line is there from the first load on, and says nothing is built yet.
    expect(await page.locator('#sim-status').isVisible()).toBe(true);
    expect(await page.locator('#sim-status').getAttribute('data-activity')).toBe('idle');
    // The ground is in view before the first frame.
    expect(await page.evaluate(() => window.softBodyPage!.viewer.ground.visible)).toBe(true);
    await page.evaluate(() => {
      const el = document.getElementById('sim-status')!;
      const seen: string[] = [];
      (window as unknown as { activityLog: string[] }).activityLog = seen;
      new MutationObserver(() => {
        const a = `${el.dataset.activity}/${el.dataset.busy}`;
        if (seen[seen.length - 1] !== a) seen.push(a);
      }).observe(el, { attributes: true });
    });
    await page.click('#sim-step');
    await page.waitForFunction(() => document.getElementById('sim-status')?.dataset.frame === '1', undefined, { timeout: FIRST_FRAME_WITHIN_MS, polling: 100 });
    const firstFrameMs = Date.now() - loadStarted;
    console.log(`first load: first frame ${firstFrameMs} ms after the page was requested`);
    expect(firstFrameMs).toBeLessThan(FIRST_FRAME_WITHIN_MS);
    await page.evaluate(() => window.softBodyPage!.simulation.settled());
    const seen = await page.evaluate(() => (window as unknown as { activityLog: string[] }).activityLog);
    // Busy while building and while the frame was under way, then paused and idle.
    expect(seen, seen.join(' ')).toContain('building/true');
    expect(seen, seen.join(' ')).toContain('stepping/true');
    expect(seen.at(-1)).toBe('paused/false');
    const s = await page.locator('#sim-status').evaluate((el) => ({ ...(el as HTMLElement).dataset }));
    expect(Number(s.tets)).toBe(Number(stats.tets));
    expect(Number(s.framesInFlight)).toBe(1);
    expect(errors).toEqual([]);
  }, FIRST_FRAME_WITHIN_MS + 150_000);
});

describe('the page', () => {
  it('the help overlay opens with H and closes with Esc; it names the mouse, the keys and the counters', async () => {
    await waitForMeshDrawn(page, 120_000, errors);
    // Keys typed into a control are the control's: start from the page itself.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('h');
    const help = page.locator('#help');
    await help.waitFor({ state: 'visible' });
    const text = (await help.textContent()) ?? '';
    for (const words of ['Shift + drag', 'Space', 'escaped boxes', 'frame time']) expect(text).toContain(words);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    // The panel's Help button opens it too.
    await page.click('#help-open');
    await help.waitFor({ state: 'visible' });
    await page.click('#help-close');
    await help.waitFor({ state: 'hidden' });
  });

  it('loads with WebGPU available in headless Chromium and draws through it', async () => {
    const adapter = await page.evaluate(async () => {
      if (!navigator.gpu) return 'navigator.gpu is missing';
      const a = await navigator.gpu.requestAdapter();
      return a ? 'ok' : 'requestAdapter() returned null';
    });
    expect(adapter, `WebGPU unavailable in Chromium with the DESIGN.md flags: ${adapter}`).toBe('ok');
    await waitForMeshDrawn(page, 120_000, errors);
    expect(await page.evaluate(() => document.body.dataset.webgpu)).toBe('available');
    expect(await page.locator('#viewport').getAttribute('data-backend')).toBe('webgpu');
    expect(await page.locator('#no-webgpu').isHidden()).toBe(true);
    expect(await page.locator('#error-banner').isHidden(), `error banner: ${await page.locator('#error-banner').textContent()}`).toBe(true);
  });

  it('shows the shaded object in the middle of the part of the canvas the panel leaves free', async () => {
    await waitForMeshDrawn(page, 120_000, errors);
    const style = await page.addStyleTag({ content: '#perf-panel, #info, .lil-gui, #notices { display: none !important; }' });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const png = decodePng(await page.locator('#viewport canvas').screenshot());
    await style.evaluate((el) => (el as HTMLElement).remove());
    // The panel covers the right 300 px of the 960 (page.css --panel-width): the free part's middle is x 0.1-0.6 of the canvas.
    const middle = countRegion(png, BACKGROUND_COLOR, { x0: 0.15, x1: 0.55, y0: 0.3, y1: 0.7 });
    const corner = countRegion(png, BACKGROUND_COLOR, { x0: 0, x1: 0.08, y0: 0, y1: 0.08 });
    // The top corner sees only the sky: it must be the background colour, or the comparison is meaningless.
    expect(corner.background / corner.total).toBeGreaterThan(0.95);
    expect(middle.object / middle.total, `object pixels in the middle: ${JSON.stringify(middle)}`).toBeGreaterThan(0.1);
  });

  it("every control in the panel shows its name and its whole value field inside the panel, the two side by side", async () => {
    // lil-gui keeps a name on one line and lets a long one push its widget: "Light vertices raised to
    // (× neighbours' mass)" once hid its own number field past the panel's edge (page.css wraps names).
    await waitForMeshDrawn(page, 120_000, errors);
    const bad = await page.evaluate(() => {
      const panel = document.querySelector('.lil-gui.lil-root')!.getBoundingClientRect();
      const out: string[] = [];
      let checked = 0;
      for (const row of document.querySelectorAll<HTMLElement>('.lil-controller')) {
        if (row.offsetParent === null) continue; // in a closed folder or hidden
        const nameElement = row.querySelector('.lil-name')!;
        const name = nameElement.getBoundingClientRect(), label = nameElement.textContent;
        for (const field of row.querySelectorAll<HTMLElement>('.lil-widget input, .lil-widget select')) {
          if (field.offsetParent === null) continue;
          const r = field.getBoundingClientRect();
          checked++;
          if (r.left < panel.left - 0.5 || r.right > panel.right + 0.5) out.push(`${label}: field ${r.left.toFixed(0)}-${r.right.toFixed(0)} outside the panel ${panel.left.toFixed(0)}-${panel.right.toFixed(0)}`);
          if (field.getAttribute('type') !== 'checkbox' && r.width < 30) out.push(`${label}: field only ${r.width.toFixed(0)} px wide`);
          if (name.right > r.left + 0.5) out.push(`${label}: name reaches ${name.right.toFixed(0)}, over its field at ${r.left.toFixed(0)}`);
        }
      }
      return { out, checked };
    });
    expect(bad.checked, 'controls with a value field').toBeGreaterThan(10);
    expect(bad.out).toEqual([]);
  });

  it('statistics describe the mesh and change when another shape is chosen in the GUI', async () => {
    await waitForMeshDrawn(page, 120_000, errors);
    const before = await readStats(page);
    for (const key of ['vertices', 'tets', 'triangles']) expect(Number(before[key]), key).toBeGreaterThan(0);
    const minD = Number(before.minDihedral);
    const maxD = Number(before.maxDihedral);
    expect(minD).toBeGreaterThan(0);
    expect(maxD).toBeLessThan(180);
    expect(minD).toBeLessThan(maxD);

    const options = await page.locator('#gui-shape option').evaluateAll((els) =>
      els.map((e) => ({ value: (e as HTMLOptionElement).value, selected: (e as HTMLOptionElement).selected })),
    );
    expect(options.length).toBeGreaterThan(1);
    const current = options.find((o) => o.selected)!.value;
    const cheap = ['cube', 'beam', 'cuboid', 'rod'];
    const next = options.find((o) => !o.selected && cheap.includes(o.value)) ?? options.find((o) => !o.selected)!;
    await page.selectOption('#gui-shape', next.value);
    const after = await waitForSource(next.value);
    expect(after.source).not.toBe(before.source);
    expect([after.tets, after.vertices]).not.toEqual([before.tets, before.vertices]);
    expect(current).not.toBe(next.value);
  });

  it('imports octopus_2KFaces.t through the file input: 1,184 vertices and 4,069 tets', async () => {
    await page.setInputFiles('#mesh-file-input', sharedMeshPath('octopus_2KFaces.t'));
    const after = await waitForSource('octopus_2KFaces.t');
    expect(after.source).toBe('octopus_2KFaces.t');
    expect(after.tets).toBe('4069');
    expect(after.vertices).toBe('1184');
    expect(await page.locator('#error-banner').isHidden()).toBe(true);
    // The panel names the imported object, not the shape generated before it, and so does the link.
    expect(await page.locator('#gui-object-source input').inputValue()).toBe('octopus_2KFaces.t');
    const hash = new URLSearchParams((await page.evaluate(() => window.location.hash)).slice(1));
    expect(hash.get('imported')).toBe('octopus_2KFaces.t');
    expect(hash.has('shape')).toBe(false);
    expect(hash.has('res')).toBe(false);
  });

  it('frames the imported mesh: its eight corners inside the canvas, clear of the panel, over the ground, before any frame', async () => {
    const framing = await page.evaluate(() => {
      const handle = window.softBodyPage!;
      const view = handle.loader.currentView!;
      const camera = handle.viewer.camera;
      const box = view.bounds;
      const lift = view.object.position.y;
      const canvas = document.querySelector('#viewport canvas')!.getBoundingClientRect();
      const panel = document.querySelector('.lil-gui.lil-root')!.getBoundingClientRect();
      const corners: [number, number][] = [];
      for (let c = 0; c < 8; c++) {
        const p = camera.position.clone().set(c & 1 ? box.max.x : box.min.x, (c & 2 ? box.max.y : box.min.y) + lift, c & 4 ? box.max.z : box.min.z).project(camera);
        corners.push([((p.x + 1) / 2) * canvas.width, ((1 - p.y) / 2) * canvas.height]);
      }
      return { corners, width: canvas.width, height: canvas.height, panelLeft: panel.left, ground: handle.viewer.ground.visible, groundY: handle.viewer.ground.position.y, minY: box.min.y };
    });
    for (const [x, y] of framing.corners) {
      expect(x, JSON.stringify(framing)).toBeGreaterThan(0);
      expect(x, JSON.stringify(framing)).toBeLessThan(framing.panelLeft);
      expect(y, JSON.stringify(framing)).toBeGreaterThan(0);
      expect(y, JSON.stringify(framing)).toBeLessThan(framing.height);
    }
    // The ground plane is shown at the mesh's own lowest point (where the drop scene puts it).
    expect(framing.ground).toBe(true);
    expect(framing.groundY).toBeCloseTo(framing.minY, 6);
  });

  it('imports the TetGen pair octopus_2KFaces.1.node + .1.ele (multi-select): the same counts', async () => {
    await page.setInputFiles('#mesh-file-input', [sharedMeshPath('octopus_2KFaces.1.node'), sharedMeshPath('octopus_2KFaces.1.ele')]);
    const after = await waitForSource('octopus_2KFaces.1.node');
    expect(after.source).toContain('octopus_2KFaces.1.ele');
    expect(after.tets).toBe('4069');
    expect(after.vertices).toBe('1184');
  });

  it('imports a file dropped on the page (drag and drop): Beam.t has 58 vertices and 116 tets', async () => {
    const text = readFileSync(sharedMeshPath('Beam.t'), 'utf8');
    await page.evaluate((content) => {
      const data = new DataTransfer();
      data.items.add(new File([content], 'Beam.t', { type: 'text/plain' }));
      for (const type of ['dragenter', 'dragover', 'drop']) {
        document.body.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
      }
    }, text);
    const after = await waitForSource('Beam.t');
    expect(after.tets).toBe('116');
    expect(after.vertices).toBe('58');
    expect(await page.locator('#drop-hint').isHidden()).toBe(true);
  });

  it('reports generation progress from the worker: increasing fractions up to 1, then idle', async () => {
    await page.evaluate(() => {
      const el = document.getElementById('progress')!;
      const seen: { state: string; fraction: string }[] = [];
      (window as unknown as { progressLog: typeof seen }).progressLog = seen;
      new MutationObserver(() => seen.push({ state: el.dataset.state ?? '', fraction: el.dataset.fraction ?? '' })).observe(el, {
        attributes: true,
      });
    });
    await page.selectOption('#gui-shape', 'octopus');
    await waitForSource('octopus');
    await page.waitForFunction(() => document.getElementById('progress')?.dataset.state === 'idle');
    const log = await page.evaluate(() => (window as unknown as { progressLog: { state: string; fraction: string }[] }).progressLog);
    expect(log.some((e) => e.state === 'busy')).toBe(true);
    const fractions = [...new Set(log.map((e) => e.fraction).filter((f) => f !== ''))].map(Number);
    expect(fractions.length, JSON.stringify(log)).toBeGreaterThan(5);
    for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]!);
    expect(fractions.at(-1)).toBe(1);
  });

  it('a corrupted file shows an error naming the file and line, and the previous object stays', async () => {
    await waitForMeshDrawn(page, 60_000, errors);
    const before = await readStats(page);
    const lines = readFileSync(sharedMeshPath('Cube.t'), 'utf8').split('\n');
    const bad = lines.findIndex((l) => l.startsWith('Tet ')) + 5; // 0-based index of a tet record
    lines[bad] = lines[bad]!.replace(/\s\d+$/, ' x7'); // a vertex index that is not a number
    await page.setInputFiles('#mesh-file-input', {
      name: 'corrupted_cube.t',
      mimeType: 'text/plain',
      buffer: Buffer.from(lines.join('\n')),
    });
    const banner = page.locator('#error-banner');
    await banner.waitFor({ state: 'visible', timeout: 60_000 });
    const message = (await banner.textContent()) ?? '';
    expect(message).toContain('corrupted_cube.t');
    expect(message).toContain(`:${bad + 1}`);
    expect(await readStats(page)).toEqual(before);
    expect(await page.locator('#viewport').getAttribute('data-shown-serial')).toBeTruthy();

    // The scene still works: a good file after the bad one loads and clears the banner.
    await page.setInputFiles('#mesh-file-input', sharedMeshPath('Cube.t'));
    const cube = await waitForSource('Cube.t');
    expect(cube.tets).toBe('234');
    expect(cube.vertices).toBe('100');
    expect(await banner.isHidden()).toBe(true);
  });
});

/** Object pixels over the whole canvas (the mesh viewer's colour; the ground and its shadow are grey). */
async function objectPixels(): Promise<number> {
  return objectColourPixels();
}

/**
 * Puts the shown mesh's positions, scaled by `scale` about their centroid, into a GPU buffer
 * on the page's device, links it, and waits until several frames were drawn from it.
 */
async function drawScaledFromGpu(scale: number, stride: 3 | 4): Promise<number> {
  const copies = await page.evaluate(
    async ({ scale, stride }) => {
      const handle = window.softBodyPage!;
      const mesh = handle.loader.currentMesh!;
      const device = handle.gpu!.device;
      const n = mesh.vertexCount;
      const c = [0, 0, 0];
      for (let v = 0; v < n; v++) for (let k = 0; k < 3; k++) c[k]! += mesh.positions[3 * v + k]! / n;
      const data = new Float32Array(n * stride);
      for (let v = 0; v < n; v++) {
        for (let k = 0; k < 3; k++) data[stride * v + k] = c[k]! + scale * (mesh.positions[3 * v + k]! - c[k]!);
      }
      const buffer = device.createBuffer({
        label: 'test positions',
        size: data.byteLength,
        usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
      });
      device.queue.writeBuffer(buffer, 0, data);
      const link = handle.showGpuPositions({ buffer, stride });
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      for (let i = 0; i < 600 && link.copies < 3; i++) await frame();
      await frame();
      return link.copies;
    },
    { scale, stride },
  );
  expect(copies, 'frames drawn from the GPU buffer').toBeGreaterThanOrEqual(3);
  return objectPixels();
}

describe('drawing positions that live on the GPU', () => {
  it('draws from a simulation-style GPUBuffer (vec4 and packed xyz): a mesh scaled by s covers about s^2 of the pixels', async () => {
    await page.setInputFiles('#mesh-file-input', sharedMeshPath('Cuboid.t'));
    await waitForSource('Cuboid.t');
    const full = await drawScaledFromGpu(1, 4);
    expect(full).toBeGreaterThan(5000);
    const half = await drawScaledFromGpu(0.5, 4);
    expect(half / full).toBeGreaterThan(0.25 * 0.6);
    expect(half / full).toBeLessThan(0.25 * 1.5);
    const packed = await drawScaledFromGpu(0.7, 3);
    expect(packed / full).toBeGreaterThan(0.49 * 0.7);
    expect(packed / full).toBeLessThan(0.49 * 1.3);
  });
});

describe('URL options', () => {
  it('an unknown ?shape= is reported and the default shape is shown instead', async () => {
    const { page: p, errors: pageErrors } = await openPage(env.browser, `${env.url}?shape=nope`);
    await waitForMeshDrawn(p, 120_000, pageErrors);
    const banner = p.locator('#error-banner');
    expect(await banner.isVisible()).toBe(true);
    expect(await banner.textContent()).toContain('Unknown shape "nope"');
    const first = await p.locator('#gui-shape option').first().getAttribute('value');
    expect((await readStats(p)).source).toContain(first!);
    await p.close();
  });
});

describe('the page without WebGPU', () => {
  it('says that the simulator needs WebGPU instead of showing a blank screen', async () => {
    const context = await env.browser.newContext({ viewport: { width: 800, height: 600 } });
    await context.addInitScript(() => {
      // As in a browser without WebGPU: no navigator.gpu at all.
      delete (Navigator.prototype as { gpu?: unknown }).gpu;
    });
    const p = await context.newPage();
    await p.goto(`${env.url}?shape=sphere&resolution=10`);
    const notice = p.locator('#no-webgpu');
    await notice.waitFor({ state: 'visible', timeout: 60_000 });
    const text = (await notice.textContent()) ?? '';
    expect(text).toContain('needs WebGPU');
    expect(text).toMatch(/Chrome or Edge 113/);
    expect(text).toMatch(/CPU reference solver/);
    expect(await p.evaluate(() => document.body.dataset.webgpu)).toBe('unavailable');
    // Drawing falls back to WebGL 2, so the shapes can still be looked at.
    await waitForMeshDrawn(p, 120_000);
    expect(await p.locator('#viewport').getAttribute('data-backend')).toBe('webgl');
    // The notice sits at the top, clear of the middle of the view, and can be put away.
    const box = (await notice.boundingBox())!;
    expect(box.y + box.height).toBeLessThan(0.4 * 600);
    expect(box.x > 400 || box.x + box.width < 400 || box.y > 300 || box.y + box.height < 300).toBe(true);
    await p.click('#no-webgpu .close');
    expect(await notice.isHidden()).toBe(true);
    // Small scenes here too: the CPU engine simulates.
    expect(await p.evaluate(() => document.body.dataset.defaults)).toBe('small');
    await context.close();
  });
});
