#!/usr/bin/env node
// Takes the README picture: serves the BUILT page (dist/; `npm run screenshot` builds it
// first), opens it in headless Chromium with WebGPU on SwiftShader as a newcomer would (no link:
// the default scene this adapter gets), waits until it is drawn, steps --frames frames with the
// Step button so the status line shows real frame times, and saves the page to docs/screenshot.png.
// Usage: node scripts/screenshot.mjs [--hash '#scene=...'] [--frames n] [--out path] [--width w --height h]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    hash: { type: 'string', default: '' },
    frames: { type: 'string', default: '3' },
    out: { type: 'string', default: join(root, 'docs', 'screenshot.png') },
    width: { type: 'string', default: '1280' },
    height: { type: 'string', default: '800' },
  },
});

const CHROMIUM = '/usr/bin/chromium';
// The flags that give WebGPU on SwiftShader (DESIGN.md); the same list as tests/e2e/support/browser.ts.
const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu-sandbox', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--enable-unsafe-webgpu', '--enable-features=Vulkan', '--use-vulkan=swiftshader',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
];

if (!existsSync(join(root, 'dist', 'index.html'))) {
  console.error('dist/index.html not found: run "npx vite build" first (or "npm run screenshot").');
  process.exit(1);
}
if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} not found: install Debian package chromium.`);
  process.exit(1);
}

const server = await preview({ root, logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, open: false } });
const { port } = server.httpServer.address();
const frames = Number(values.frames);
if (!Number.isInteger(frames) || frames < 0) {
  console.error(`--frames ${values.frames} must be an integer >= 0`);
  process.exit(1);
}
const hash = values.hash && !values.hash.startsWith('#') ? `#${values.hash}` : values.hash;
const url = `http://127.0.0.1:${port}/${hash}`;

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: FLAGS });
let status = 0;
try {
  const page = await browser.newPage({ viewport: { width: Number(values.width), height: Number(values.height) }, deviceScaleFactor: 1 });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  const started = performance.now();
  await page.goto(url);
  try {
    await page.waitForFunction(
      () => {
        const v = document.getElementById('viewport');
        const s = document.getElementById('sim-status');
        return (!!v && !!v.dataset.shownSerial && v.dataset.shownSerial === v.dataset.drawnSerial) || s?.dataset.state === 'ready';
      },
      undefined,
      { timeout: 300_000, polling: 200 },
    );
    for (let f = 1; f <= frames; f++) {
      await page.click('#sim-step');
      await page.waitForFunction((n) => Number(document.getElementById('sim-status')?.dataset.frame) >= n, f, { timeout: 300_000, polling: 200 });
    }
    await page.evaluate(() => window.softBodyPage?.simulation.settled());
  } catch (error) {
    const banner = await page.locator('#error-banner').textContent().catch(() => '');
    throw new Error(`the page drew no mesh: ${banner?.trim() || error.message}; page errors: ${errors.join(' | ') || 'none'}`);
  }
  // Let the orbit controls' damping settle and a few more frames land.
  await page.waitForTimeout(1500);
  const png = await page.screenshot({ type: 'png' });
  mkdirSync(dirname(resolve(values.out)), { recursive: true });
  writeFileSync(values.out, png);
  const shown = await page.locator('#sim-status').evaluate((el) => ({ ...el.dataset }));
  console.log(`saved ${values.out} (${png.length} bytes) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`scene ${shown.scene}: ${shown.vertices ?? '?'} vertices, ${shown.tets ?? '?'} tets; frame ${shown.frame}, frame time ${shown.frameMs} ms`);
  if (errors.length > 0) console.warn(`page errors: ${errors.join(' | ')}`);
} catch (error) {
  console.error(`screenshot failed: ${error.message}`);
  status = 1;
} finally {
  await browser.close();
  server.httpServer.close();
}
process.exit(status);
