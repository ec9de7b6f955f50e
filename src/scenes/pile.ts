/**
 * Objects stacked in layers inside an open box so that they fall onto each other: each layer
 * is a k x k grid of cells (k = floor(sqrt(N / 4)), at least 1, so a pile is about four layers
 * deep), each cell wide enough for its object turned by any angle about y (twice the largest
 * horizontal radius, plus a margin), layers separated by a gap. Every object is turned by a
 * different angle (multiples of the golden angle) so the pile is not a regular stack. Objects
 * start apart by construction: cells are disjoint within a layer and layers in height.
 */
import type { Material } from '../sim/material';
import { buildModel, type SimObjectDesc } from '../sim/model';
import type { SolverParams } from '../contract/params';
import { containerColliders } from './container';
import { boundsOf, placeAbove, radiusAboutY, turnedAboutY } from './place';
import type { SceneSetup } from './types';

export interface PileItem {
  name: string;
  positions: ArrayLike<number>;
  tets: ArrayLike<number>;
  material: Material;
}

export interface PileOptions {
  /** Gap between layers (and under the first) as a fraction of the tallest object. */
  gapFraction?: number;
  /** Extra cell width as a fraction of the widest object's diameter. */
  margin?: number;
  /** Height added under the first layer (default 0: the first gap above y = 0). */
  lift?: number;
}

const GOLDEN_ANGLE = Math.PI * (3 - Math.sqrt(5));

/** Cells per side of a layer for n objects. */
export function pileColumns(n: number): number {
  return Math.max(1, Math.floor(Math.sqrt(n / 4)));
}

export interface PileScene extends SceneSetup {
  /** Half widths of the box's inside in x and z. */
  halfWidth: number;
}

export function pileScene(items: readonly PileItem[], params: SolverParams, options: PileOptions = {}): PileScene {
  if (items.length === 0) throw new Error('a pile needs at least one object');
  const gapFraction = options.gapFraction ?? 0.25;
  const margin = options.margin ?? 0.1;
  // Centred on the y axis with the lowest point at 0, so a turn about y keeps the cell.
  const centred = items.map((it) => placeAbove(it.positions, 0));
  const heights = centred.map((p) => {
    const b = boundsOf(p);
    return b.max[1] - b.min[1];
  });
  const radius = Math.max(...centred.map(radiusAboutY));
  const tallest = Math.max(...heights);
  const cell = 2 * radius * (1 + margin);
  const gap = gapFraction * tallest;
  const k = pileColumns(items.length);
  const perLayer = k * k;
  const objects: SimObjectDesc[] = [];
  let base = gap + (options.lift ?? 0);
  for (let first = 0; first < items.length; first += perLayer) {
    const last = Math.min(items.length, first + perLayer);
    let layerHeight = 0;
    for (let i = first; i < last; i++) {
      const slot = i - first;
      const x = ((slot % k) - (k - 1) / 2) * cell;
      const z = (Math.floor(slot / k) - (k - 1) / 2) * cell;
      const it = items[i];
      objects.push({ name: it.name, positions: turnedAboutY(centred[i], i * GOLDEN_ANGLE, [x, base, z]), tets: it.tets, material: it.material });
      layerHeight = Math.max(layerHeight, heights[i]);
    }
    base += layerHeight + gap;
  }
  const halfWidth = (k * cell) / 2;
  return { model: buildModel(objects), colliders: containerColliders(halfWidth, halfWidth), handles: [], params, halfWidth };
}
