/**
 * Soft boxes stacked in a container, pressed flat by a plate and released (paper 004's Figs. 2-5
 * and 8 in 3D: the air mesh remembers where each object was, so the boxes pop back up in their
 * order). --copies N boxes (default 4), the top one --resolution R cells across (default 4), on
 * the air lattice of the container (collision/air/buildAirMesh.ts meshes the air on the same
 * lattice, so the boxes and the air conform); airBoxesLayout says where each sits. The plate descends to a fifth of
 * the stack's height over PRESS_DESCEND, holds, lifts back over PRESS_LIFT and is switched off
 * at PRESS_OFF: within the first 3 s, so that 6 s (360 frames) show the whole recovery. Runs in
 * every collision mode (default 'air'; the container's walls and floor are colliders in all).
 */
import type { AirSpec } from '../collision/air/airMesh';
import { hexGridBox } from '../mesh/procedural/hexGridBox';
import type { Collider } from '../sim/colliders';
import { buildModel, type SimObjectDesc } from '../sim/model';
import { defaultParams } from '../contract/params';
import { containerColliders } from './container';
import { sizedValue } from './size';
import type { SceneDefinition, SceneSize } from './types';

export const AIR_BOX_SIDE = 0.4;
export const AIR_BOXES_RESOLUTION = 4;
const SIZE: SceneSize = {
  label: 'boxes', option: 'copies', min: 1, max: 12, step: 1, default: 4, small: 3, paper: 4,
  note: 'paper 004 Fig. 5 (3D boxes: 250 object tets, 2,775 air tets) and Fig. 8 (four animals pressed flat)',
};
const MATERIAL = { youngsModulus: 1e5, poissonRatio: 0.3, density: 400 };
/** Seconds: the plate descends, holds, lifts back to its start and is switched off. */
export const PRESS_DESCEND: [number, number] = [0.2, 1.6];
export const PRESS_LIFT: [number, number] = [2.0, 2.8];
export const PRESS_OFF = 2.9;
/** The pressed stack's thickness as a fraction of its height at rest. */
export const PRESS_LAYER = 0.2;

/** Vertex and tet counts of the stack (held by tests/unit/scenes). */
export function airBoxesCounts(copies: number, resolution: number): { vertices: number; tets: number } {
  const ry = Math.max(1, Math.round(resolution / 2));
  let vertices = 0, tets = 0;
  for (let i = 0; i < copies; i++) {
    const w = resolution + 2 * (copies - 1 - i);
    vertices += (w + 1) * (w + 1) * (ry + 1);
    tets += 6 * w * w * ry;
  }
  return { vertices, tets };
}
const DEFAULT_COUNTS = airBoxesCounts(SIZE.default, AIR_BOXES_RESOLUTION);

export interface AirBoxesLayout {
  objects: SimObjectDesc[];
  air: AirSpec;
  /** Height of the stack's top at rest, and of the floor. */
  top: number;
  cell: number;
  halfWidth: number;
}

/**
 * Box i (from the bottom) is resolution + 2 (copies - 1 - i) cells across and half the
 * resolution high, one cell above box i - 1 and one cell over in +x and -z: flush with the
 * edge of the box below on those sides, so no box overhangs and the centroids are ordered along
 * every axis. The bottom box rests on the floor; the container leaves room on each side for the
 * pressed boxes to spread.
 */
export function airBoxesLayout(copies: number, resolution: number): AirBoxesLayout {
  if (!Number.isInteger(copies) || copies < 1) throw new RangeError(`air-boxes: copies must be an integer >= 1, got ${copies}`);
  if (!Number.isInteger(resolution) || resolution < 2 || resolution > 24) throw new RangeError(`air-boxes: resolution must be an integer in [2, 24], got ${resolution}`);
  const r = resolution;
  const ry = Math.max(1, Math.round(r / 2));
  const cell = AIR_BOX_SIDE / r;
  const bottom = r + 2 * (copies - 1);
  const margin = Math.ceil(bottom / 4) + 1;
  const width = 2 * margin + bottom;
  const height = copies * (ry + 1) + 1;
  const half = (width * cell) / 2;
  const objects: SimObjectDesc[] = [];
  for (let i = 0; i < copies; i++) {
    const w = bottom - 2 * i;
    // Box i's low corner: +2 in x (flush on +x), +0 in z (flush on -z) from the one below.
    const lo = [margin + 2 * i, i * (ry + 1), margin];
    const centre: [number, number, number] = [(lo[0] + w / 2) * cell - half, (lo[1] + ry / 2) * cell, (lo[2] + w / 2) * cell - half];
    const box = hexGridBox([w * cell, ry * cell, w * cell], [w, ry, w], centre);
    objects.push({ name: `box ${i + 1}`, positions: box.positions, tets: box.tets, material: MATERIAL });
  }
  return {
    objects,
    air: { min: [-half, 0, -half], max: [half, height * cell, half], cell },
    top: (copies * (ry + 1) - 1) * cell,
    cell,
    halfWidth: half,
  };
}

/** The plate's height over time: down to the layer, held, back up, then off (null). */
export function plateScript(start: number, layer: number): (t: number) => number | null {
  return (t) => {
    if (t >= PRESS_OFF) return null;
    const down = Math.min(1, Math.max(0, (t - PRESS_DESCEND[0]) / (PRESS_DESCEND[1] - PRESS_DESCEND[0])));
    const up = Math.min(1, Math.max(0, (t - PRESS_LIFT[0]) / (PRESS_LIFT[1] - PRESS_LIFT[0])));
    const height = start + (layer - start) * down + (start - layer) * up;
    // The plate is n.x >= offset with n = (0, -1, 0): offset = -height.
    return -height;
  };
}

export const airBoxes: SceneDefinition = {
  name: 'air-boxes',
  description:
    `Soft boxes (the top one ${AIR_BOX_SIDE} across) stacked in a container, pressed flat to ${PRESS_LAYER} of the stack's height by a plate and released ` +
    `(paper 004 Figs. 5 and 8; the plate lifts by ${PRESS_LIFT[1]} s): --copies N boxes (default ${SIZE.default}), --resolution cells across a box ` +
    `(default ${AIR_BOXES_RESOLUTION}; each box below is 2 cells wider). Default: ${DEFAULT_COUNTS.vertices} vertices, ${DEFAULT_COUNTS.tets} tets. Collision mode 'air' by default; runs in every mode.`,
  accepts: ['copies', 'resolution'],
  size: SIZE,
  defaultCounts: DEFAULT_COUNTS,
  build(options = {}) {
    const copies = sizedValue('air-boxes', SIZE, options);
    const layout = airBoxesLayout(copies, options.resolution ?? AIR_BOXES_RESOLUTION);
    const plate: Collider = { kind: 'plane', normal: [0, -1, 0], offset: plateScript(layout.top + layout.cell / 2, PRESS_LAYER * layout.top) };
    return {
      model: buildModel(layout.objects),
      colliders: [...containerColliders(layout.halfWidth, layout.halfWidth), plate],
      handles: [],
      air: layout.air,
      params: defaultParams({ dt: 1 / 60, substeps: 20, iterations: 3, friction: 0.3, damping: 3, collisions: true, selfCollision: true, collisionMode: 'air' }),
    };
  },
};
