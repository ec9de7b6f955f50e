/** Static containers with thick walls (they are meshed with tets like everything else). */
import { box } from '../sdf';
import type { ShapeDefinition } from './shapeTypes';

export const bowlShape: ShapeDefinition = {
  name: 'bowl',
  description: 'Hemispherical bowl opening up (+y), thick walled, with a rounded rim.',
  container: true,
  params: [
    { name: 'radius', description: 'outer radius', min: 0.05, max: 20, default: 0.5 },
    { name: 'thickness', description: 'wall thickness', min: 0.005, max: 5, default: 0.1 },
  ],
  defaultResolution: 20,
  build: ({ radius: R, thickness: t }) => {
    if (t >= R) throw new Error(`bowl: thickness ${t} must be below radius ${R}`);
    // Exact distance to the lower half of the sphere of radius rho (the wall's mid surface),
    // minus t/2. In the plane (horizontal distance q, height y) around the sphere centre, the
    // closest point of that half circle is the rim point (rho, 0) for points above the rim
    // plane (y > 0), else the circle itself. The rim comes out as a half torus: a sharp rim
    // would be cut jagged by the lattice.
    const rho = R - t / 2;
    const cy = (R - t / 2) / 2; // centres the bounds [cy - R, cy + t/2] on y = 0
    const sdf = (x: number, y: number, z: number): number => {
      const q = Math.sqrt(x * x + z * z), h = y - cy;
      const d = h > 0 ? Math.sqrt((q - rho) * (q - rho) + h * h) : Math.abs(Math.sqrt(q * q + h * h) - rho);
      return d - t / 2;
    };
    return {
      sdf,
      bounds: { min: [-R, cy - R, -R], max: [R, cy + t / 2, R] },
      thinnest: t,
      probes: [{ a: [0, cy - R - 0.3 * t, 0], b: [0, cy - R + 1.3 * t, 0], thickness: t, label: 'bottom wall' }],
    };
  },
};

export const boxContainerShape: ShapeDefinition = {
  name: 'box',
  description: 'Open-top box container (+y open), thick walls.',
  container: true,
  params: [
    { name: 'sizeX', description: 'outer extent along x', min: 0.05, max: 50, default: 1 },
    { name: 'sizeY', description: 'outer height', min: 0.05, max: 50, default: 0.5 },
    { name: 'sizeZ', description: 'outer extent along z', min: 0.05, max: 50, default: 1 },
    { name: 'thickness', description: 'wall and floor thickness', min: 0.005, max: 5, default: 0.1 },
  ],
  defaultResolution: 20,
  build: ({ sizeX, sizeY, sizeZ, thickness: t }) => {
    if (2 * t >= Math.min(sizeX, sizeZ) || t >= sizeY) {
      throw new Error(`box: thickness ${t} leaves no inside for outer size ${sizeX} x ${sizeY} x ${sizeZ}`);
    }
    const outer = box(0, 0, 0, sizeX / 2, sizeY / 2, sizeZ / 2);
    // The cavity starts at the floor and runs past the top, which opens the box.
    const cavity = box(0, t, 0, sizeX / 2 - t, sizeY / 2, sizeZ / 2 - t);
    const sdf = (x: number, y: number, z: number): number => Math.max(outer(x, y, z), -cavity(x, y, z));
    return {
      sdf,
      bounds: { min: [-sizeX / 2, -sizeY / 2, -sizeZ / 2], max: [sizeX / 2, sizeY / 2, sizeZ / 2] },
      thinnest: t,
      probes: [
        { a: [sizeX / 2 + 0.3 * t, 0, 0], b: [sizeX / 2 - 1.3 * t, 0, 0], thickness: t, label: 'side wall' },
        { a: [0, -sizeY / 2 - 0.3 * t, 0], b: [0, -sizeY / 2 + 1.3 * t, 0], thickness: t, label: 'floor' },
      ],
    };
  },
};
