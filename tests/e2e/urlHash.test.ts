/**
 * The whole configuration lives in the URL hash: a link with every GUI setting builds a page
 * whose solver, materials, view and panel show exactly those values, the page writes the same
 * configuration back into its hash, a change in the panel lands in the hash, and that hash
 * reloaded reproduces it. Truth: the link itself (decoded by the page's codec, unit-tested in
 * tests/unit/app/hashConfig.test.ts).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { decodeHash } from '../../src/app/config/hashConfig';
import { recordPageErrors, useServedBrowser } from './support/browser';

const EVERY_SETTING =
  '#scene=beam-twist&size=16&engine=gpu&dt=0.02&substeps=3&iterations=2&solve=jacobi&relax=1.3&constraint=springs&compliance=0.001' +
  '&damping=1.5&gravity=0,-5,0&friction=0.3&collisions=0&self=0&recovery=1&inter=euclidean&penetration=ddf&mode=ccd&passes=2&bvh=10&culling=0&selfcull=plain' +
  '&epsI=0.00001&epsR=0.001&young.0=12345&poisson.0=0.25&density.0=800&tint=0&shadows=0&wire=1&points=1&paths=1&ccdview=1&bvhlevel=2';

const env = useServedBrowser();

/** Opens a link; `built`: also waits until its scene is built (the solver has the settings), else only until the page has read it. */
async function open(hash: string, built = true): Promise<{ page: Page; errors: string[] }> {
  const page = await env.browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
  const errors = recordPageErrors(page);
  await page.goto(`${env.url}${hash}`);
  if (built) await page.waitForFunction(() => document.getElementById('sim-status')?.dataset.state === 'ready', undefined, { timeout: 120_000 });
  // The panel exists once the page has read the link and written its own hash back.
  else await page.waitForFunction(() => document.getElementById('gui-scene') !== null && window.softBodyPage !== undefined, undefined, { timeout: 60_000 });
  return { page, errors };
}

/** What the panel's controls display, by id (number fields, checkboxes, menus by their label). */
async function panelValues(page: Page): Promise<Record<string, string | boolean>> {
  return page.evaluate(() => {
    const out: Record<string, string | boolean> = {};
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('.lil-gui [id^="gui-"]'))) {
      const self = <T extends Element>(tag: string, sel: string): T | null => (el.tagName === tag ? (el as unknown as T) : el.querySelector<T>(sel));
      const box = self<HTMLInputElement>('INPUT', 'input[type=checkbox]');
      const select = self<HTMLSelectElement>('SELECT', 'select');
      const input = self<HTMLInputElement>('INPUT', 'input');
      if (box && box.type === 'checkbox') out[el.id] = box.checked;
      else if (select) out[el.id] = select.options[select.selectedIndex]?.textContent ?? '';
      else if (input) out[el.id] = input.value;
    }
    return out;
  });
}

describe('the URL hash', () => {
  it('reproduces every setting of a link, in the solver and in the panel, and writes it back', async () => {
    const { page, errors } = await open(EVERY_SETTING);
    try {
      const want = decodeHash(EVERY_SETTING, 'x');
      const hash = await page.evaluate(() => window.location.hash);
      expect(decodeHash(hash, 'x')).toEqual(want);
      const sim = await page.evaluate(() => ({ params: window.softBodyPage!.simulation.params, objects: window.softBodyPage!.simulation.objects, view: window.softBodyPage!.simulation.config.view }));
      expect(sim.params).toMatchObject(want.params);
      expect(sim.objects[0]!.material).toEqual({ youngsModulus: 12345, poissonRatio: 0.25, density: 800 });
      expect(sim.view).toEqual(want.view);
      const shown = await panelValues(page);
      if (process.env.HASH_LOG) console.log(JSON.stringify(shown));
      expect(Number(shown['gui-dt'])).toBeCloseTo(0.02, 5);
      expect(Number(shown['gui-substeps'])).toBe(3);
      expect(Number(shown['gui-iterations'])).toBe(2);
      expect(Number(shown['gui-jacobiRelaxation'])).toBeCloseTo(1.3, 5);
      expect(Number(shown['gui-springCompliance'])).toBeCloseTo(0.001, 8);
      expect(Number(shown['gui-damping'])).toBeCloseTo(1.5, 5);
      expect(Number(shown['gui-gravity'])).toBeCloseTo(-5, 5);
      expect(Number(shown['gui-friction'])).toBeCloseTo(0.3, 5);
      expect(Number(shown['gui-contactIterations'])).toBe(2);
      expect(Number(shown['gui-bvhRebuildFrames'])).toBe(10);
      expect(Number(shown['gui-epsI'])).toBeCloseTo(0.00001, 10);
      expect(Number(shown['gui-epsR'])).toBeCloseTo(0.001, 8);
      expect(Number(shown['gui-young'])).toBe(12345);
      expect(shown['gui-solveOrder']).toMatch(/Jacobi/);
      expect(shown['gui-constraint']).toMatch(/spring/i);
      expect(shown['gui-interObject']).toMatch(/Euclidean/);
      expect(shown['gui-penetration']).toMatch(/Deformed distance field/);
      expect(shown['gui-collisionMode']).toMatch(/CCD only/);
      expect(shown['gui-selfCulling']).toMatch(/Plain dual-cone/);
      expect(shown['gui-engine']).toMatch(/GPU/);
      expect(shown['gui-scene']).toBe('beam-twist');
      expect(Number(shown['gui-size'])).toBe(16);
      expect({ c: shown['gui-collisions'], s: shown['gui-selfCollision'], r: shown['gui-recovery'], k: shown['gui-culling'] }).toEqual({ c: false, s: false, r: true, k: false });
      expect({ t: shown['gui-view-tint'], sh: shown['gui-view-shadows'], w: shown['gui-view-wireframe'], p: shown['gui-view-points'], pa: shown['gui-view-paths'], c: shown['gui-view-ccd'] }).toEqual({
        t: false, sh: false, w: true, p: true, pa: true, c: true,
      });
      // Settings that change nothing under the others are greyed with the reason (contract/idleSettings.ts):
      // the link turns collisions off and solves with Jacobi springs.
      const idle = await page.evaluate(() => Object.fromEntries(['gui-penetration', 'gui-airIterations', 'gui-lineSearch', 'gui-jacobiRelaxation', 'gui-substeps']
        .map((id) => [id, document.getElementById(id)!.classList.contains('idle-setting') ? document.getElementById(id)!.dataset.idle : ''])));
      expect(idle).toEqual({
        'gui-penetration': 'collisions are off', 'gui-airIterations': 'collisions are off',
        'gui-lineSearch': 'it lengthens the steps of Neo-Hookean tets and the constraint is springs', 'gui-jacobiRelaxation': '', 'gui-substeps': '',
      });

      // A change in the panel lands in the hash, and the hash reloaded reproduces it (read from the
      // page's configuration: the first page already showed that a built solver gets what it holds).
      await page.fill('#gui-substeps input', '7');
      await page.press('#gui-substeps input', 'Enter');
      await page.waitForFunction(() => window.location.hash.includes('substeps=7'));
      const changed = await page.evaluate(() => window.location.hash);
      const again = await open(changed, false);
      try {
        expect(await again.page.evaluate(() => window.softBodyPage!.simulation.params.substeps)).toBe(7);
        expect(decodeHash(await again.page.evaluate(() => window.location.hash), 'x')).toEqual(decodeHash(changed, 'x'));
      } finally {
        await again.page.close();
      }
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 300_000);

  it('refuses a bad value in a link with a message naming it, and shows the default scene', async () => {
    const page = await env.browser.newPage({ viewport: { width: 800, height: 600 }, deviceScaleFactor: 1 });
    await page.goto(`${env.url}#scene=beam-twist&substeps=2.5`);
    try {
      await page.waitForFunction(() => !document.getElementById('error-banner')!.hidden, undefined, { timeout: 60_000 });
      expect(await page.locator('#error-banner .message').textContent()).toContain('substeps=2.5 must be an integer');
      await page.waitForFunction(() => document.getElementById('mesh-stats')?.dataset.state === 'ready', undefined, { timeout: 120_000 });
    } finally {
      await page.close();
    }
  }, 300_000);
});
