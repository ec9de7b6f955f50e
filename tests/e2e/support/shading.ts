/**
 * Checks of what the renderer draws after GPU frames, against truths that share no code with it:
 *  - renderedSurface(): the position and normal vertex buffers three.js draws each object from
 *    (copied out of its GPU buffers), the object's triangles, and the solver's positions;
 *    normalsAgainstMesh() recomputes area-weighted vertex normals from those positions in float64
 *    and gives the largest angle to the drawn normals;
 *  - ambientFloorViolations(): with everything but the objects hidden in front of a pure blue
 *    background, every object pixel must be at least as bright as the hemisphere light's lower
 *    half alone allows (colour x HEMISPHERE_GROUND x HEMISPHERE_INTENSITY / pi, the unlit
 *    ambient term: a face turned straight down gets exactly that), halved in linear light for the
 *    Fresnel share three takes from the diffuse term at grazing angles.
 */
import type { Page } from 'playwright-core';
import { HEMISPHERE_GROUND, HEMISPHERE_INTENSITY, OBJECT_COLORS, STATIC_OBJECT_COLOR } from '../../../src/app/palette';
import { decodePng } from './png';
import { rgbOf } from './pixels';

export interface DrawnObject {
  /** xyzw per vertex of the object's range: three's position buffer. */
  drawn: number[];
  /** xyz per vertex: three's normal buffer. */
  normals: number[];
  /** Object-local vertex ids, 3 per triangle (the index three draws). */
  index: number[];
  /** xyzw per vertex of the same range, read from the solver's position buffer. */
  solver: number[];
}

/** Reads back what three.js draws each object of the page's scene from, and the solver's positions. */
export async function renderedSurface(page: Page): Promise<DrawnObject[]> {
  return page.evaluate(async () => {
    const handle = window.softBodyPage!;
    const drawing = handle.drawing!;
    const view = drawing.view;
    const device = handle.gpu!.device;
    const backend = handle.viewer.renderer.backend as unknown as { get(o: object): { buffer?: GPUBuffer } };
    const read = async (buffer: GPUBuffer, offset: number, size: number): Promise<Float32Array> => {
      const staging = device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(buffer, offset, staging, 0, size);
      device.queue.submit([encoder.finish()]);
      await staging.mapAsync(GPUMapMode.READ);
      const out = new Float32Array(staging.getMappedRange().slice(0));
      staging.destroy();
      return out;
    };
    const solver = (handle.simulation.currentEngine as unknown as { gpuSolver: { positionBuffer: GPUBuffer } }).gpuSolver.positionBuffer;
    const out = [];
    let first = 0;
    for (let o = 0; o < view.objectCount; o++) {
      const g = view.mesh(o).geometry;
      const count = g.getAttribute('position').count;
      const pos = backend.get(g.getAttribute('position')).buffer;
      const nrm = backend.get(g.getAttribute('normal')).buffer;
      if (!pos || !nrm) throw new Error(`object ${o}: three has no GPU buffers for it yet`);
      out.push({
        drawn: Array.from(await read(pos, 0, 16 * count)),
        normals: Array.from(await read(nrm, 0, 12 * count)),
        index: Array.from(g.index!.array as Uint32Array),
        solver: Array.from(await read(solver, 16 * first, 16 * count)),
      });
      first += count;
    }
    return out;
  });
}

/**
 * The largest angle (degrees) between a drawn normal and the area-weighted normal of the drawn
 * triangles around its vertex (float64), over every vertex some triangle uses, and the largest
 * difference between the drawn positions and the solver's.
 */
export function normalsAgainstMesh(objects: DrawnObject[]): { maxAngleDeg: number; maxPositionDiff: number; vertices: number } {
  let maxAngleDeg = 0;
  let maxPositionDiff = 0;
  let vertices = 0;
  for (const o of objects) {
    const n = o.drawn.length / 4;
    const sum = new Float64Array(3 * n);
    const used = new Uint8Array(n);
    const p = (v: number, k: number): number => o.drawn[4 * v + k]!;
    for (let t = 0; t < o.index.length; t += 3) {
      const [a, b, c] = [o.index[t]!, o.index[t + 1]!, o.index[t + 2]!];
      const e1 = [p(b, 0) - p(a, 0), p(b, 1) - p(a, 1), p(b, 2) - p(a, 2)];
      const e2 = [p(c, 0) - p(a, 0), p(c, 1) - p(a, 1), p(c, 2) - p(a, 2)];
      const cr = [e1[1]! * e2[2]! - e1[2]! * e2[1]!, e1[2]! * e2[0]! - e1[0]! * e2[2]!, e1[0]! * e2[1]! - e1[1]! * e2[0]!];
      for (const v of [a, b, c]) {
        used[v] = 1;
        for (let k = 0; k < 3; k++) sum[3 * v + k] += cr[k]!;
      }
    }
    for (let v = 0; v < n; v++) {
      for (let k = 0; k < 3; k++) maxPositionDiff = Math.max(maxPositionDiff, Math.abs(o.drawn[4 * v + k]! - o.solver[4 * v + k]!));
      if (!used[v]) continue;
      vertices++;
      const len = Math.hypot(sum[3 * v]!, sum[3 * v + 1]!, sum[3 * v + 2]!);
      const m = [o.normals[3 * v]!, o.normals[3 * v + 1]!, o.normals[3 * v + 2]!];
      const mlen = Math.hypot(m[0]!, m[1]!, m[2]!);
      if (!(len > 0) || !(mlen > 0)) {
        maxAngleDeg = 180; // a zero or NaN normal where the mesh has a surface
        continue;
      }
      const cos = (sum[3 * v]! * m[0]! + sum[3 * v + 1]! * m[1]! + sum[3 * v + 2]! * m[2]!) / (len * mlen);
      const angle = (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI;
      maxAngleDeg = Math.max(maxAngleDeg, Number.isFinite(angle) ? angle : 180);
    }
  }
  return { maxAngleDeg, maxPositionDiff, vertices };
}

const toLinear = (c: number): number => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const toSrgb = (c: number): number => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** The brightest channel (0..255) the unlit ambient term gives an object of `colour`, halved in linear light. */
export function ambientFloor(colour: number): number {
  const albedo = rgbOf(colour).map((c) => toLinear(c / 255));
  const ground = rgbOf(HEMISPHERE_GROUND).map((c) => toLinear(c / 255));
  const lit = albedo.map((a, k) => (0.5 * a * ground[k]! * HEMISPHERE_INTENSITY) / Math.PI);
  return 255 * toSrgb(Math.max(...lit));
}

/**
 * Screenshot of the canvas with only the scene's objects drawn in front of a pure blue
 * background (no ground, grid, colliders or overlays; the page's panels hidden), and the object
 * pixels whose brightest channel is below the ambient floor of the darkest of the scene's
 * colours. Restores the view after.
 */
export async function ambientFloorViolations(page: Page, objects: number, statics: number[] = []): Promise<{ objectPixels: number; darker: number; floor: number; darkest: number[] }> {
  const colours = Array.from({ length: objects }, (_, i) => (statics.includes(i) ? STATIC_OBJECT_COLOR : OBJECT_COLORS[i % OBJECT_COLORS.length]!));
  const floor = Math.min(...colours.map(ambientFloor));
  const style = await page.addStyleTag({ content: '#perf-panel, #info, .lil-gui, #notices, #progress { display: none !important; }' });
  await page.evaluate(async () => {
    const handle = window.softBodyPage!;
    const v = handle.viewer;
    const keep = handle.drawing!.view.group;
    const hidden: { visible: boolean }[] = [];
    for (const child of v.scene.children) {
      if (child === keep || (child as { isLight?: boolean }).isLight || !child.visible) continue;
      child.visible = false;
      hidden.push(child);
    }
    const background = v.scene.background as { getHex(): number; setHex(h: number): void };
    (window as unknown as { restoreView: () => void }).restoreView = ((old: number) => () => {
      for (const o of hidden) o.visible = true;
      background.setHex(old);
      v.requestRender();
    })(background.getHex());
    background.setHex(0x0000ff);
    v.requestRender();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
  const png = decodePng(await page.locator('#viewport canvas').screenshot());
  await page.evaluate(() => (window as unknown as { restoreView: () => void }).restoreView());
  await style.evaluate((el) => (el as HTMLElement).remove());
  let objectPixels = 0;
  let darker = 0;
  let darkest = [255, 255, 255];
  for (let i = 0; i < png.rgba.length; i += 4) {
    const [r, g, b] = [png.rgba[i]!, png.rgba[i + 1]!, png.rgba[i + 2]!];
    if (r <= 2 && g <= 2 && b >= 253) continue; // the blue background
    objectPixels++;
    const m = Math.max(r, g, b);
    if (m < Math.max(...darkest)) darkest = [r, g, b];
    if (m < floor) darker++;
  }
  return { objectPixels, darker, floor, darkest };
}

