#!/usr/bin/env node
// Takes the README picture: serves the BUILT page (dist/; `npm run screenshot` builds it
// first), opens it in headless Chromium with WebGPU on SwiftShader, waits until the default
// shape is generated and drawn, and saves the page to docs/screenshot.png.
// Usage: node scripts/screenshot.mjs [--shape name] [--resolution n] [--out path] [--width w --height h]
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    shape: { type: 'string' },
    resolution: { type: 'string' },
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
const query = new URLSearchParams();
if (values.shape) query.set('shape', values.shape);
if (values.resolution) query.set('resolution', values.resolution);
const url = `http://127.0.0.1:${port}/${query.size > 0 ? `?${query}` : ''}`;

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
        return !!v && !!v.dataset.shownSerial && v.dataset.shownSerial === v.dataset.drawnSerial;
      },
      undefined,
      { timeout: 300_000, polling: 200 },
    );
  } catch (error) {
    const banner = await page.locator('#error-banner').textContent().catch(() => '');
    throw new Error(`the page drew no mesh: ${banner?.trim() || error.message}; page errors: ${errors.join(' | ') || 'none'}`);
  }
  // Let the orbit controls' damping settle and a few more frames land.
  await page.waitForTimeout(1500);
  const png = await page.screenshot({ type: 'png' });
  mkdirSync(dirname(resolve(values.out)), { recursive: true });
  writeFileSync(values.out, png);
  const stats = await page.locator('#mesh-stats').evaluate((el) => ({ ...el.dataset }));
  console.log(`saved ${values.out} (${png.length} bytes) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log(`mesh: ${stats.source}: ${stats.vertices} vertices, ${stats.tets} tets, ${stats.triangles} boundary triangles`);
  if (errors.length > 0) console.warn(`page errors: ${errors.join(' | ')}`);
} catch (error) {
  console.error(`screenshot failed: ${error.message}`);
  status = 1;
} finally {
  await browser.close();
  server.httpServer.close();
}
process.exit(status);
