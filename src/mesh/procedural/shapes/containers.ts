/** Static containers with thick walls (they are meshed with tets like everything else). */
import { box, shell, sphere } from '../sdf';
import type { ShapeDefinition } from './shapeTypes';

export const bowlShape: ShapeDefinition = {
  name: 'bowl',
  description: 'Hemispherical bowl opening up (+y), thick walled, flat rim.',
  container: true,
  params: [
    { name: 'radius', description: 'outer radius', min: 0.05, max: 20, default: 0.5 },
    { name: 'thickness', description: 'wall thickness', min: 0.005, max: 5, default: 0.1 },
  ],
  defaultResolution: 20,
  build: ({ radius: R, thickness: t }) => {
    if (t >= R) throw new Error(`bowl: thickness ${t} must be below radius ${R}`);
    const cy = R / 2; // sphere centre: the bowl spans y in [-R/2, R/2]
    const wall = shell(sphere(0, cy, 0, R - t / 2), t);
    const sdf = (x: number, y: number, z: number): number => Math.max(wall(x, y, z), y - cy);
    return {
      sdf,
      bounds: { min: [-R, -R / 2, -R], max: [R, R / 2, R] },
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
