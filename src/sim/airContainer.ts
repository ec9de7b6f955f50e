/**
 * The air container of a scene (collision mode 'air', collision/air/): the scene's own lattice
 * container where it names one (SimSetup.air: air-boxes) and the mesher allows it, else an
 * axis-aligned box for the general mesher around every object and fixed collider:
 *   - a side with a static axis-aligned plane collider facing inwards (a floor, the walls of the
 *     pile scenes' open box) sits just beyond that plane (CLEARANCE x the scene's size), so an
 *     object resting on it keeps a layer of air beneath;
 *   - an open side sits MARGIN x the scene's size beyond the objects and the bowl and box
 *     colliders: there the container's wall is the only thing that stops an object (its fixed
 *     points invert the air tets of an object that tries to leave);
 *   - the walls' fixed points are spaced WALL_SPACING x the objects' mean tet edge, at least
 *     1 / WALL_POINTS_PER_SIDE of the container's longest side (the walls are far from the objects).
 */
import type { AirContainer } from '../collision/air/buildAir';
import type { AirMesher } from '../contract/params';
import type { SimSetup } from './setup';

const MARGIN = 0.5;
const CLEARANCE = 0.02;
const WALL_SPACING = 4;
const WALL_POINTS_PER_SIDE = 12;

export function airContainerFor(setup: SimSetup, mesher: AirMesher): AirContainer {
  if (mesher === 'lattice' || (mesher === 'auto' && setup.air)) {
    if (!setup.air) throw new Error(`air mesher 'lattice' needs a scene meshed on an air lattice (the air-boxes scene); this scene has none: use 'general' or 'auto'`);
    return { mesher: 'lattice', ...setup.air };
  }
  const m = setup.model;
  const x = m.restPositions;
  if (m.vertexCount === 0) throw new Error('air mode needs at least one object');
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let v = 0; v < m.vertexCount; v++) for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], x[3 * v + a]); hi[a] = Math.max(hi[a], x[3 * v + a]); }
  const objectLo = [...lo], objectHi = [...hi];
  for (const c of setup.colliders) {
    if (c.kind === 'bowl') for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], c.center[a] - c.radius); hi[a] = Math.max(hi[a], c.center[a] + c.radius); }
    if (c.kind === 'box') for (let a = 0; a < 3; a++) { lo[a] = Math.min(lo[a], c.min[a]); hi[a] = Math.max(hi[a], c.max[a]); }
  }
  const size = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
  const min: [number, number, number] = [lo[0] - MARGIN * size, lo[1] - MARGIN * size, lo[2] - MARGIN * size];
  const max: [number, number, number] = [hi[0] + MARGIN * size, hi[1] + MARGIN * size, hi[2] + MARGIN * size];
  for (const c of setup.colliders) {
    if (c.kind !== 'plane' || typeof c.offset !== 'number') continue;
    const len = Math.hypot(c.normal[0], c.normal[1], c.normal[2]);
    const axis = [0, 1, 2].find((a) => Math.abs(Math.abs(c.normal[a]) - len) <= 1e-12 * len);
    if (axis === undefined) continue;
    // n.x >= offset: n = +e_a bounds below at offset, n = -e_a bounds above at -offset.
    if (c.normal[axis] > 0) {
      const wall = c.offset / len - CLEARANCE * size;
      if (wall < objectLo[axis] && wall > min[axis]) min[axis] = wall;
    } else {
      const wall = -c.offset / len + CLEARANCE * size;
      if (wall > objectHi[axis] && wall < max[axis]) max[axis] = wall;
    }
  }
  let edges = 0, total = 0;
  for (let t = 0; t < m.tetCount; t++) {
    for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
      const u = m.tets[4 * t + i], v = m.tets[4 * t + j];
      total += Math.hypot(x[3 * u] - x[3 * v], x[3 * u + 1] - x[3 * v + 1], x[3 * u + 2] - x[3 * v + 2]);
      edges++;
    }
  }
  const meanEdge = edges > 0 ? total / edges : size / 8;
  const side = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return { mesher: 'general', min, max, wallSpacing: Math.max(WALL_SPACING * meanEdge, side / WALL_POINTS_PER_SIDE) };
}
