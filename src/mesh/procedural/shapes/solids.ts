/** Simple solids: sphere, cube, cuboid, beam (long box) and rod (long cylinder). */
import { box, roundedCylinderX, sphere } from '../sdf';
import { centredBounds, type ShapeDefinition, type ThinProbe } from './shapeTypes';

export const sphereShape: ShapeDefinition = {
  name: 'sphere',
  description: 'Solid ball centred at the origin.',
  container: false,
  params: [{ name: 'radius', description: 'radius', min: 0.01, max: 10, default: 0.5 }],
  defaultResolution: 14,
  build: ({ radius: r }) => ({
    sdf: sphere(0, 0, 0, r),
    bounds: centredBounds(r, r, r),
    thinnest: 2 * r,
    probes: [{ a: [-1.1 * r, 0, 0], b: [1.1 * r, 0, 0], thickness: 2 * r, label: 'diameter' }],
  }),
};

function boxProbes(sx: number, sy: number, sz: number): ThinProbe[] {
  // A segment along the smallest dimension through the centre.
  const sizes = [sx, sy, sz];
  const axis = sizes.indexOf(Math.min(sx, sy, sz));
  const a: [number, number, number] = [0.1 * sx, 0.1 * sy, 0.1 * sz];
  const b: [number, number, number] = [...a];
  a[axis] = -0.55 * sizes[axis];
  b[axis] = 0.55 * sizes[axis];
  return [{ a, b, thickness: sizes[axis], label: `thinnest dimension (${'xyz'[axis]})` }];
}

function boxShape(name: string, description: string, defaults: [number, number, number], res: number): ShapeDefinition {
  return {
    name,
    description,
    container: false,
    params: [
      { name: 'sizeX', description: 'extent along x', min: 0.01, max: 20, default: defaults[0] },
      { name: 'sizeY', description: 'extent along y', min: 0.01, max: 20, default: defaults[1] },
      { name: 'sizeZ', description: 'extent along z', min: 0.01, max: 20, default: defaults[2] },
    ],
    defaultResolution: res,
    build: ({ sizeX, sizeY, sizeZ }) => ({
      sdf: box(0, 0, 0, sizeX / 2, sizeY / 2, sizeZ / 2),
      bounds: centredBounds(sizeX / 2, sizeY / 2, sizeZ / 2),
      thinnest: Math.min(sizeX, sizeY, sizeZ),
      probes: boxProbes(sizeX, sizeY, sizeZ),
    }),
  };
}

export const cuboidShape = boxShape('cuboid', 'Axis-aligned box with free extents.', [1, 0.6, 0.4], 20);
export const beamShape = boxShape('beam', 'Long square beam along x (bending tests).', [2, 0.25, 0.25], 40);

export const cubeShape: ShapeDefinition = {
  name: 'cube',
  description: 'Cube centred at the origin.',
  container: false,
  params: [{ name: 'size', description: 'edge length', min: 0.01, max: 20, default: 1 }],
  defaultResolution: 12,
  build: ({ size }) => ({
    sdf: box(0, 0, 0, size / 2, size / 2, size / 2),
    bounds: centredBounds(size / 2, size / 2, size / 2),
    thinnest: size,
    probes: boxProbes(size, size, size),
  }),
};

export const rodShape: ShapeDefinition = {
  name: 'rod',
  description: 'Solid cylinder along x, rim edges rounded (radius/4) so the lattice does not chip them.',
  container: false,
  params: [
    { name: 'length', description: 'length along x', min: 0.02, max: 20, default: 2 },
    { name: 'radius', description: 'radius', min: 0.005, max: 5, default: 0.1 },
  ],
  defaultResolution: 48,
  build: ({ length, radius }) => ({
    sdf: roundedCylinderX(0, 0, 0, radius, length / 2, Math.min(radius, length / 2) / 4),
    bounds: centredBounds(length / 2, radius, radius),
    thinnest: 2 * radius,
    probes: [{ a: [0.1 * length, -1.2 * radius, 0], b: [0.1 * length, 1.2 * radius, 0], thickness: 2 * radius, label: 'diameter' }],
  }),
};
