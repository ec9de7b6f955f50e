/**
 * End-to-end harness: serves the BUILT page (dist/, made by `vite build`) with `vite preview`
 * on 127.0.0.1 (WebGPU needs a secure context) and drives Debian's Chromium through
 * playwright-core with the flags that give WebGPU on SwiftShader (DESIGN.md). The suite shares
 * one browser and one server (globalSetup.ts); each file connects to them.
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const PROJECT_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const DIST = resolve(PROJECT_ROOT, 'dist');

/** Exactly the flags known to work (never --disable-gpu: the WebGPU canvas then draws white). */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
];

export function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} not found: install Debian package chromium (sudo apt-get install -y chromium)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Serves dist/ on a free port of 127.0.0.1 (with the COOP/COEP headers of vite.config.ts). */
export async function serveDist(): Promise<Served> {
  if (!existsSync(resolve(DIST, 'index.html'))) {
    throw new Error(`${DIST}/index.html not found: build the page first with "npx vite build" (npm test does it)`);
  }
  const server: PreviewServer = await preview({
    root: PROJECT_ROOT,
    logLevel: 'warn',
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not report a TCP address');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () =>
      new Promise<void>((done, fail) => {
        server.httpServer.close((err) => (err ? fail(err) : done()));
      }),
  };
}

/**
 * Connects the calling test file to the suite's shared browser and served page (globalSetup.ts),
 * in its beforeAll; closing the connection in afterAll closes the file's pages, not the browser.
 * The getters are valid inside its tests.
 */
export function useServedBrowser(): { readonly browser: Browser; readonly url: string } {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await chromium.connect(inject('e2eBrowserEndpoint'));
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    get browser(): Browser {
      if (!browser) throw new Error('useServedBrowser: the browser is connected in beforeAll; use it inside a test');
      return browser;
    },
    get url(): string {
      return inject('e2eUrl');
    },
  };
}

/** Collects the page's console errors and uncaught exceptions, to print when a test fails. */
export function recordPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`));
  return errors;
}

/** Opens the page with a fixed viewport so screenshots are comparable between runs. */
export async function openPage(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 960, height: 640 }, deviceScaleFactor: 1 });
  const errors = recordPageErrors(page);
  await page.goto(url);
  return { page, errors };
}

/**
 * Waits until a mesh is on screen: the stats panel shows it and a frame containing it has
 * been rendered (data-drawn-serial catches up with data-shown-serial on #viewport).
 */
export async function waitForMeshDrawn(page: Page, timeoutMs = 120_000, errors: string[] = []): Promise<void> {
  try {
    await page.waitForFunction(
      () => {
        const v = document.getElementById('viewport');
        return !!v && !!v.dataset.shownSerial && v.dataset.shownSerial === v.dataset.drawnSerial;
      },
      undefined,
      { timeout: timeoutMs, polling: 100 },
    );
  } catch (error) {
    const banner = await page.locator('#error-banner').textContent().catch(() => null);
    throw new Error(
      `No mesh was drawn within ${timeoutMs} ms. Error banner: ${banner?.trim() || '(none)'}. Page errors: ${errors.join(' | ') || '(none)'}. ${(error as Error).message}`,
    );
  }
}

/** The numeric data-* attributes of #mesh-stats. */
export async function readStats(page: Page): Promise<Record<string, string>> {
  return page.locator('#mesh-stats').evaluate((el) => ({ ...(el as HTMLElement).dataset }) as Record<string, string>);
}
