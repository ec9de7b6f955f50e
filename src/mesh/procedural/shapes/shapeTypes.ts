/** What a procedural shape provides: parameters for a GUI and an SDF built from them. */
import type { Bounds, Sdf } from '../sdf';

export interface ShapeParam {
  name: string;
  description: string;
  min: number;
  max: number;
  default: number;
  /** True for counts (tentacles). */
  integer?: boolean;
}

/** A segment across a thin part of the shape (a test or a GUI can count tets along it). */
export interface ThinProbe {
  a: [number, number, number];
  b: [number, number, number];
  /** Thickness of the part along the probe. */
  thickness: number;
  label: string;
}

export interface ShapeSdf {
  sdf: Sdf;
  bounds: Bounds;
  /** Thickness of the thinnest part (tentacle diameter, wall thickness). */
  thinnest: number;
  probes: ThinProbe[];
}

export type ShapeParams = Record<string, number>;

export interface ShapeDefinition {
  name: string;
  description: string;
  /** Static container (bowl, box) rather than a soft body. */
  container: boolean;
  params: readonly ShapeParam[];
  /** Lattice cubes across the longest side of the bounds, at default parameters (5k-30k tets). */
  defaultResolution: number;
  build(params: ShapeParams): ShapeSdf;
}

/** Fills in defaults, rejects unknown names and out-of-range values with a clear message. */
export function resolveParams(shape: ShapeDefinition, given: Partial<ShapeParams> = {}): ShapeParams {
  const out: ShapeParams = {};
  for (const name of Object.keys(given)) {
    if (!shape.params.some((p) => p.name === name)) {
      throw new Error(`shape "${shape.name}": unknown parameter "${name}" (known: ${shape.params.map((p) => p.name).join(', ')})`);
    }
  }
  for (const p of shape.params) {
    const v = given[p.name] ?? p.default;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < p.min || v > p.max) {
      throw new Error(`shape "${shape.name}": parameter ${p.name} = ${v} is outside [${p.min}, ${p.max}]`);
    }
    if (p.integer && !Number.isInteger(v)) throw new Error(`shape "${shape.name}": parameter ${p.name} = ${v} must be an integer`);
    out[p.name] = v;
  }
  return out;
}

/** Bounds of a centred box with half extents. */
export function centredBounds(hx: number, hy: number, hz: number): Bounds {
  return { min: [-hx, -hy, -hz], max: [hx, hy, hz] };
}
