/**
 * One browser and one preview server for the whole end-to-end suite (vitest.config.ts e2e
 * globalSetup): Chromium is launched once as a Playwright browser server and every test file
 * connects to it (support/browser.ts useServedBrowser), and dist/ is served once. Starting a
 * browser and a server per file cost about 3 s a file; the GPU process is the same for all.
 */
import type { TestProject } from 'vitest/node';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, serveDist } from './browser';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared browser server's endpoint (chromium.connect). */
    e2eBrowserEndpoint: string;
    /** The built page, served once (http://127.0.0.1:PORT/). */
    e2eUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const served = await serveDist();
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  project.provide('e2eBrowserEndpoint', server.wsEndpoint());
  project.provide('e2eUrl', served.url);
  return async () => {
    await server.close();
    await served.close();
  };
}
