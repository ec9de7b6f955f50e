/**
 * The simulation in the built page (headless Chromium, SwiftShader): a small sphere dropped
 * on the ground through the Run / Step / Reset buttons.
 * Truths: the discrete free fall of the integrator (v += h g, x += h v per substep, before any
 * vertex touches the ground; damping slows deformation only, not the fall), the ground height the page reports against
 * the mesh's own lowest vertex, screenshot pixels of the orange object, rest without
 * gravity, and the solver's NaN/Inf message for a material that cannot be solved.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedMeshPath } from '../support/sharedMeshes';
import { openPage, useServedBrowser, waitForMeshDrawn } from './support/browser';
import { decodePng, type DecodedPng } from './support/png';

/**
 * Cheap settings for the software adapter: 1,536 tets (resolution 6; resolution 8's 3,480 took 2.3x
 * as long a frame), 5 substeps x 2 iterations, collisions off
 * (the ground is a collider of the material stage, which runs whatever the collision setting; the
 * collision stages cost 3/4 of a frame here, and the page's collisions are checked by
 * scenes.test.ts: Fig. 9's counters, the blue tint and recovery).
 */
const SUBSTEPS = 5;
/**
 * Damping acts on deformation only (not the fall), so to have the ball at rest by frame 30 it
 * must damp the elastic rebound within the impact: at 2/s the ball still bounces 0.43 of its
 * lift at frames 53-60, at 100/s it rebounds 0.06 of it and rests (CPU reference, same scene).
 */
const DAMPING = 100;
const DT = 1 / 60;
const GRAVITY = 9.81;
const SETTINGS = `shape=sphere&res=6&substeps=${SUBSTEPS}&iterations=2&damping=${DAMPING}&dt=${DT}`;
/** The page's link for the drop. */
const LINK = `#scene=mesh&${SETTINGS}&collisions=0`;
/** The older query keys (?shape=&resolution=&run=...) still open the mesh scene: the no-WebGPU test uses them. */
const QUERY = `?shape=sphere&resolution=6&substeps=${SUBSTEPS}&iterations=2&damping=${DAMPING}&dt=${DT}`;
/** The ball lands at frame 19 and rests from frame 20 (both engines); 30 frames check 10 of rest. */
const FRAMES = 30;

const env = useServedBrowser();
let page: Page;
let errors: string[];

interface Status {
  frame: number;
  running: boolean;
  minY: number;
  groundY: number;
  startMinY: number;
  frameMs: number;
  engine: string;
  timing: string;
  state: string;
}

async function status(): Promise<Status> {
  const d = await page.locator('#sim-status').evaluate((el) => ({ ...(el as HTMLElement).dataset }));
  return {
    frame: Number(d.frame),
    running: d.running === 'true',
    minY: Number(d.minY),
    groundY: Number(d.groundY),
    startMinY: Number(d.startMinY),
    frameMs: Number(d.frameMs),
    engine: d.engine ?? '',
    timing: d.timing ?? '',
    state: d.state ?? '',
  };
}

/**
 * Waits until no frame is in flight and the lowest point describes the frame on screen (with
 * the GPU solver it comes from an asynchronous readback that may lag), then reads the status.
 */
async function settledStatus(): Promise<Status> {
  await page.evaluate(() => window.softBodyPage!.simulation.settled());
  await page.waitForFunction(
    () => {
      const d = document.getElementById('sim-status')!.dataset;
      return d.minYFrame === d.frame;
    },
    undefined,
    { timeout: 60_000, polling: 20 },
  );
  return status();
}

async function waitForFrame(atLeast: number, timeout = 120_000): Promise<void> {
  try {
    await page.waitForFunction((n) => Number(document.getElementById('sim-status')?.dataset.frame) >= n, atLeast, {
      timeout,
      polling: 50,
    });
  } catch (error) {
    // Say where the page stood (a lost step, a frame that never landed, an error shown), not only that time ran out.
    const where = await page.evaluate(() => ({
      status: { ...document.getElementById('sim-status')?.dataset },
      banner: document.getElementById('error-banner')?.textContent ?? '',
    }));
    throw new Error(`frame ${atLeast} not reached in ${timeout} ms: ${JSON.stringify(where)}`, { cause: error });
  }
}

/** Lets the renderer draw the current state (two animation frames). */
async function settleDrawing(): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The lowest and highest y of the mesh as generated (before the page raises it). */
async function meshYRange(): Promise<{ min: number; max: number }> {
  return page.evaluate(() => {
    const p = window.softBodyPage!.loader.currentMesh!.positions;
    let min = Infinity;
    let max = -Infinity;
    for (let i = 1; i < p.length; i += 3) {
      min = Math.min(min, p[i]!);
      max = Math.max(max, p[i]!);
    }
    return { min, max };
  });
}

/** Rows of the orange object's pixels in the band the panel leaves free. */
function objectRows(png: DecodedPng): { count: number; meanRow: number } {
  let count = 0;
  let rowSum = 0;
  // The part of the canvas the panel (right) leaves free.
  const x0 = Math.floor(0.05 * png.width);
  const x1 = Math.ceil(0.72 * png.width);
  for (let y = 0; y < png.height; y++) {
    for (let x = x0; x < x1; x++) {
      const i = 4 * (y * png.width + x);
      const r = png.rgba[i]!;
      const g = png.rgba[i + 1]!;
      const b = png.rgba[i + 2]!;
      if (r - b > 40 && r >= g) {
        count++;
        rowSum += y;
      }
    }
  }
  return { count, meanRow: count > 0 ? rowSum / count : NaN };
}

async function screenshot(): Promise<DecodedPng> {
  await settleDrawing();
  return decodePng(await page.locator('#viewport canvas').screenshot());
}

/**
 * Drop of a body in free fall after `frames` frames, stepping the integrator's recurrence
 * per substep: v += h g, x -= h v. Damping (DAMPING, on in the page) acts on deformation
 * only (Müller et al. 2007, section 3.5), so it leaves a rigid fall alone.
 */
function freeFallDrop(frames: number): number {
  const h = DT / SUBSTEPS;
  let v = 0;
  let drop = 0;
  for (let s = 0; s < frames * SUBSTEPS; s++) {
    v += h * GRAVITY;
    drop += h * v;
  }
  return drop;
}

beforeAll(async () => {
  ({ page, errors } = await openPage(env.browser, env.url + LINK));
  await waitForMeshDrawn(page, 120_000, errors);
});

afterAll(async () => {
  await page?.close();
});

/**
 * Drops the object on the open page for FRAMES frames with the buttons and checks the fall
 * against the integrator's free fall, the ground contact, the rest at the end and the pixels.
 */
async function checkDrop(engine: 'gpu' | 'cpu'): Promise<void> {
    expect(await page.locator('#sim-status').getAttribute('data-state')).toBe('idle');
    const mesh = await meshYRange();
    const height = mesh.max - mesh.min;

    // Record every frame's lowest point as the page publishes it.
    await page.evaluate(() => {
      const el = document.getElementById('sim-status')!;
      const log: [number, number][] = [];
      (window as unknown as { dropLog: typeof log }).dropLog = log;
      new MutationObserver(() => {
        if (el.dataset.state !== 'ready') return; // not built yet: no lowest point
        // The lowest point carries its own frame: with the GPU solver it comes from an async readback.
        const frame = Number(el.dataset.minYFrame);
        if (log.length === 0 || log[log.length - 1]![0] !== frame) log.push([frame, Number(el.dataset.minY)]);
      }).observe(el, { attributes: true });
    });

    await page.click('#sim-step');
    await waitForFrame(1);
    const first = await status();
    expect(first.running).toBe(false);
    expect(first.engine).toBe(engine);
    // The ground is where the mesh's lowest vertex was; the object starts half its height above.
    expect(first.groundY).toBeCloseTo(mesh.min, 4);
    expect((first.startMinY - first.groundY) / height).toBeCloseTo(0.5, 3);
    const before = await screenshot();

    await page.click('#sim-run');
    await waitForFrame(FRAMES, 240_000);
    // Pause stops at the next frame boundary: the frame under way finishes ("pausing"), no other starts.
    await page.evaluate(() => {
      const el = document.getElementById('sim-status')!;
      const seen: string[] = [el.dataset.activity ?? ''];
      (window as unknown as { pauseLog: string[] }).pauseLog = seen;
      new MutationObserver(() => {
        if (seen[seen.length - 1] !== el.dataset.activity) seen.push(el.dataset.activity ?? '');
      }).observe(el, { attributes: true, attributeFilter: ['data-activity'] });
    });
    const limit = Number(await page.locator('#sim-status').getAttribute('data-frames-in-flight'));
    await page.click('#sim-run'); // pause
    const label = await page.locator('#sim-run').textContent();
    // Read after the click: no frame is submitted from then on, so at most `limit` more land.
    const pausedAt = Number((await status()).frame);
    await page.evaluate(() => window.softBodyPage!.simulation.settled());
    await page.waitForFunction(() => document.getElementById('sim-status')?.dataset.running === 'false');
    const end = await status();
    const pauseLog = await page.evaluate(() => (window as unknown as { pauseLog: string[] }).pauseLog);
    expect(end.frame, `paused at frame ${pausedAt}, ${limit} in flight at most`).toBeLessThanOrEqual(pausedAt + limit);
    if (end.frame > pausedAt) {
      expect(pauseLog, pauseLog.join(' ')).toContain('pausing');
      expect(label).toMatch(/Pausing/);
    }
    expect(pauseLog.at(-1)).toBe('paused');
    const after = await screenshot();
    const log = await page.evaluate(() => (window as unknown as { dropLog: [number, number][] }).dropLog);
    expect(errors, errors.join('\n')).toEqual([]);
    expect(await page.locator('#error-banner').isHidden(), await page.locator('#error-banner').textContent() ?? '').toBe(true);

    const lift = first.startMinY - first.groundY;
    const tolerance = 1e-3 * height;
    // Before any vertex reaches the ground the body falls rigidly: the integrator's free fall.
    const landing = log.findIndex(([, y]) => y - first.groundY <= 0.02 * height);
    expect(landing, JSON.stringify(log)).toBeGreaterThan(0);
    const airborne = log.slice(0, landing);
    expect(airborne.length, JSON.stringify(log)).toBeGreaterThan(5);
    for (const [frame, y] of airborne) {
      const expected = freeFallDrop(frame);
      expect(Math.abs(first.startMinY - y - expected), `frame ${frame}: fell ${first.startMinY - y}, free fall ${expected}`).toBeLessThan(
        0.01 * expected + 1e-6 * height,
      );
    }
    // It reaches the ground, never sinks below it, and is resting on it at the end.
    expect(Math.min(...log.map(([, y]) => y))).toBeGreaterThanOrEqual(first.groundY - tolerance);
    // It comes down onto the ground, held above it by the colliders' contact offset (1 % of the mean
    // boundary edge: 1.3e-3 of the height at resolution 6), so within 3e-3 of its height.
    expect(log.some(([, y]) => y - first.groundY < 3 * tolerance), JSON.stringify(log.slice(-12))).toBe(true);
    const last = log.filter(([frame]) => frame > end.frame - 8);
    console.log(`drop (${engine}): lift ${lift.toFixed(4)}, landing frame ${landing}, frames above ground ${log.filter(([f]) => f >= landing).map(([f, y]) => `${f}:${((y - first.groundY) / lift).toExponential(1)}`).join(' ')}`);
    expect(last.length).toBeGreaterThan(3);
    for (const [frame, y] of last) expect(y - first.groundY, `frame ${frame}`).toBeLessThan(0.01 * lift);
    expect(end.frame).toBeGreaterThanOrEqual(FRAMES);

    // The object moved down on screen (same camera: it is framed once, when the scene is built).
    const a = objectRows(before);
    const b = objectRows(after);
    expect(a.count).toBeGreaterThan(2000);
    expect(b.count).toBeGreaterThan(2000);
    expect(b.meanRow - a.meanRow, `object rows ${a.meanRow} -> ${b.meanRow}`).toBeGreaterThan(0.03 * before.height);
}

describe('the drop in the page', () => {
  it('runs 30 frames on the GPU solver: the lowest point falls as the integrator predicts, stops at the ground and never goes below it; the picture changes', async () => {
    // Chromium here draws with WebGPU, so the GPU solver runs and three.js draws from its buffer.
    await checkDrop('gpu');
  });

  it('shows the simulation time per frame and which clock measured it', async () => {
    const s = await status();
    expect(s.frameMs).toBeGreaterThan(0);
    expect(['cpu', 'gpu']).toContain(s.engine);
    // GPU timestamps only from a GPU engine on an adapter that has them; the CPU clock otherwise.
    const timestamps = await page.evaluate(() => window.softBodyPage!.gpu?.features.has('timestamp-query') ?? false);
    expect(s.timing).toBe(s.engine === 'gpu' && timestamps ? 'gpu-timestamps' : 'cpu-clock');
    expect(await page.locator('#sim-status').textContent()).toMatch(/frame time \d[\d.]* m?s \([\d.]+ fps/);
  });

  it('reset puts the object back at its raised start, paused at frame 0', async () => {
    await page.click('#sim-reset');
    await page.waitForFunction(() => document.getElementById('sim-status')?.dataset.frame === '0');
    const s = await settledStatus();
    expect(s.running).toBe(false);
    const mesh = await meshYRange();
    expect(Math.abs(s.minY - s.startMinY)).toBeLessThan(1e-6 * (mesh.max - mesh.min) + 1e-6 * Math.abs(s.startMinY));
  });

  it('without gravity the object at rest stays where it is', async () => {
    const displacement = await page.evaluate(async () => {
      const sim = window.softBodyPage!.simulation;
      const engine = sim.currentEngine!;
      sim.setParams({ gravity: [0, 0, 0] });
      const start = engine.lowestPoint();
      for (let i = 0; i < 10; i++) await sim.step();
      while (engine.lowestPoint().frame !== sim.frame) await new Promise((r) => requestAnimationFrame(r));
      const moved = Math.abs(engine.lowestPoint().y - start.y);
      sim.setParams({ gravity: [0, -9.81, 0] });
      await sim.reset();
      return moved;
    });
    const mesh = await meshYRange();
    // float32 on the GPU: a few ulps of the coordinates, nothing like the 0.14 a frame of gravity gives.
    expect(displacement).toBeLessThan(1e-5 * (mesh.max - mesh.min));
  });

  it('a mesh imported while running (octopus_2KFaces.t) becomes the simulated object and falls onto its own ground; the link says run=1 only while it runs', async () => {
    await page.click('#sim-run');
    await page.waitForFunction(() => document.getElementById('sim-status')?.dataset.running === 'true');
    expect(await page.evaluate(() => window.location.hash)).toContain('run=1');
    await page.setInputFiles('#mesh-file-input', sharedMeshPath('octopus_2KFaces.t'));
    await page.waitForFunction(() => document.getElementById('mesh-stats')?.dataset.source === 'octopus_2KFaces.t', undefined, {
      timeout: 60_000,
    });
    const mesh = await meshYRange();
    const vertices = await page.evaluate(() => window.softBodyPage!.loader.currentMesh!.vertexCount);
    expect(vertices).toBe(1184); // shared/meshes/README.md
    // The new object's scene: ground at its own lowest vertex, still running, counting from frame 1.
    await page.waitForFunction(
      (groundY) => {
        const d = document.getElementById('sim-status')!.dataset;
        return d.state === 'ready' && Math.abs(Number(d.groundY) - groundY) < 1e-4 && Number(d.frame) >= 10;
      },
      mesh.min,
      { timeout: 120_000, polling: 50 },
    );
    const s = await status();
    expect(s.running).toBe(true);
    expect(s.frame).toBeLessThan(FRAMES); // a fresh simulation, not the sphere's
    expect(s.startMinY - s.minY).toBeGreaterThan(0.5 * freeFallDrop(5));
    expect(s.minY).toBeGreaterThanOrEqual(s.groundY - 1e-3 * (mesh.max - mesh.min));
    const running = new URLSearchParams((await page.evaluate(() => window.location.hash)).slice(1));
    expect(running.get('run')).toBe('1');
    expect(running.get('imported')).toBe('octopus_2KFaces.t');
    await page.click('#sim-reset');
    await page.waitForFunction(() => document.getElementById('sim-status')?.dataset.running === 'false');
    // Stopped: the link no longer says run=1.
    await page.waitForFunction(() => !new URLSearchParams(window.location.hash.slice(1)).has('run'));
    // Settled means the reset has happened, even when it was still waiting for frames in flight
    // when the page was asked (a step clicked next must count from frame 0, not from before the reset).
    expect((await settledStatus()).frame).toBe(0);
  });

  it("a Young's modulus of Infinity is refused with a message naming it, and the simulation goes on", async () => {
    const input = page.locator('.lil-controller', { hasText: "Young's modulus" }).locator('input');
    const before = await input.inputValue();
    await input.fill('Infinity');
    await input.press('Enter');
    const banner = page.locator('#error-banner');
    await banner.waitFor({ state: 'visible', timeout: 60_000 });
    const message = (await banner.textContent()) ?? '';
    expect(message).toContain("Young's modulus");
    expect(message).toContain('Infinity');
    // The field shows the material still in use, and the object still steps with finite positions.
    await page.waitForFunction((v) => {
      const el = [...document.querySelectorAll('.lil-controller')].find((c) => c.textContent?.includes("Young's modulus"));
      return el?.querySelector('input')?.value === v;
    }, before);
    const frozen = await settledStatus();
    await page.click('#sim-step');
    await waitForFrame(frozen.frame + 1);
    const after = await settledStatus();
    expect(after.frame).toBe(frozen.frame + 1);
    expect(Number.isFinite(after.minY)).toBe(true);
  });

  it('a step asked for while a reset is under way runs from the reset state: frame 1, one frame of free fall from the start', async () => {
    const r = await page.evaluate(async () => {
      const sim = window.softBodyPage!.simulation;
      for (let i = 0; i < 3; i++) await sim.step();
      const reset = sim.reset(); // not awaited: the step below is asked for while it runs
      await sim.step();
      await reset;
      await sim.settled();
      const engine = sim.currentEngine!;
      const deadline = performance.now() + 30_000; // a frame lost by the reset would never be read back
      while (engine.lowestPoint().frame !== sim.frame && performance.now() < deadline) await new Promise((f) => requestAnimationFrame(f));
      return { frame: sim.frame, lowestFrame: engine.lowestPoint().frame };
    });
    expect(r).toEqual({ frame: 1, lowestFrame: 1 });
    const s = await settledStatus();
    expect(s.frame).toBe(1);
    // One frame of the integrator's free fall from the raised start (nothing touches the ground yet).
    const mesh = await meshYRange();
    expect(Math.abs(s.startMinY - s.minY - freeFallDrop(1))).toBeLessThan(0.01 * freeFallDrop(1) + 1e-6 * (mesh.max - mesh.min));
  });
});

describe('the drop with the CPU reference solver in its worker (?engine=cpu)', () => {
  let gpuPage: Page;
  let gpuErrors: string[];

  beforeAll(async () => {
    // The helpers above act on `page`: point them at a second page for these tests.
    gpuPage = page;
    gpuErrors = errors;
    ({ page, errors } = await openPage(env.browser, `${env.url}${LINK}&engine=cpu`));
    await waitForMeshDrawn(page, 120_000, errors);
  });

  afterAll(async () => {
    await page?.close();
    page = gpuPage;
    errors = gpuErrors;
  });

  it('runs the same 30-frame drop with the same checks', async () => {
    await checkDrop('cpu');
    expect(await page.locator('#sim-status').getAttribute('data-timing')).toBe('cpu-clock');
  });
});

describe('the simulation without WebGPU', () => {
  it('runs on the CPU reference solver and the WebGL fallback draws it', async () => {
    const context = await env.browser.newContext({ viewport: { width: 800, height: 600 } });
    await context.addInitScript(() => {
      delete (Navigator.prototype as { gpu?: unknown }).gpu;
    });
    const p = await context.newPage();
    await p.goto(`${env.url}${QUERY}&run=1`);
    await waitForMeshDrawn(p, 120_000);
    expect(await p.locator('#viewport').getAttribute('data-backend')).toBe('webgl');
    // Pause as soon as 8 frames are done, so that it is read while still in the air.
    await p.waitForFunction(
      () => {
        if (Number(document.getElementById('sim-status')?.dataset.frame) < 8) return false;
        window.softBodyPage!.simulation.pause();
        return true;
      },
      undefined,
      { timeout: 120_000, polling: 20 },
    );
    await p.waitForTimeout(1000); // a frame in flight lands
    const d = await p.locator('#sim-status').evaluate((el) => ({ ...(el as HTMLElement).dataset }));
    expect(d.engine).toBe('cpu');
    // The status line and the timing panel show one frame time (one summary).
    await p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(Number(await p.locator('.timing-readout').getAttribute('data-frame-ms'))).toBeCloseTo(Number(d.frameMs), 2);
    expect(Number(d.minYFrame)).toBeLessThan(15);
    // Still in free fall after 8 frames (it lands near frame 21): the integrator's drop.
    const fell = Number(d.startMinY) - Number(d.minY);
    const expected = freeFallDrop(Number(d.minYFrame));
    expect(Math.abs(fell - expected), `fell ${fell}, free fall ${expected} at frame ${d.minYFrame}`).toBeLessThan(0.01 * expected);
    await context.close();
  });
});
