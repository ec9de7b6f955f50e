/**
 * The surface material of scene objects: the object's colour mixed toward TINT_BLUE by the
 * penetration depth of the vertex (issue 10, "the deeper the bluer"), in TSL so the same node
 * graph runs on the WebGPU backend and on the WebGL fallback.
 *
 *   blue = tint * smoothstep(0, depthScale, depth.w)
 *
 * `depth` is a vec4 vertex attribute (xyz: the boundary target of the shortest path, w: the
 * depth, 0 when free), interpolated over each triangle, so a surface patch fades from free
 * (object colour) to clearly blue where depth >= depthScale. The uniforms are shared by all
 * materials made from one TintUniforms, so one setter changes every object.
 */
import { MeshStandardNodeMaterial } from 'three/webgpu';
import { attribute, color, float, mix, smoothstep, uniform } from 'three/tsl';
import { DoubleSide, MeshBasicNodeMaterial } from 'three/webgpu';
import { TINT_BLUE } from '../palette';

/** Name of the per-vertex vec4 attribute the tint reads (w = penetration depth). */
export const DEPTH_ATTRIBUTE = 'depth';

export class TintUniforms {
  /** 1: tint on, 0: off. */
  readonly amount = uniform(1);
  /** Depth (world units) at which the surface is fully blue; > 0. */
  readonly depthScale = uniform(1);

  set enabled(on: boolean) {
    this.amount.value = on ? 1 : 0;
  }

  get enabled(): boolean {
    return this.amount.value !== 0;
  }

  setDepthScale(scale: number): void {
    if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`tint depth scale ${scale} must be a finite number > 0`);
    this.depthScale.value = scale;
  }
}

export interface TintedMaterialOptions {
  /** sRGB hex colour of the free surface. */
  color: number;
  /** false: the colour alone (e.g. static colliders). Default true. */
  tinted?: boolean;
}

export function tintedMaterial(tint: TintUniforms, options: TintedMaterialOptions): MeshStandardNodeMaterial {
  const material = new MeshStandardNodeMaterial({ roughness: 0.55, metalness: 0 });
  const base = color(options.color);
  if (options.tinted === false) {
    material.colorNode = base;
  } else {
    const depth = attribute(DEPTH_ATTRIBUTE, 'vec4').w;
    const blue = smoothstep(0, tint.depthScale, depth).mul(tint.amount);
    material.colorNode = mix(base, color(TINT_BLUE), blue);
  }
  return material;
}

/** Largest opacity of the see-through tint (intersectionXrayMaterial). */
export const XRAY_OPACITY = 0.75;

/**
 * The see-through tint: penetrating surface lies INSIDE another body (or inside itself), where
 * the body in front hides it, so the solid tint alone shows only a thin fringe at the
 * intersection curve. This material draws the same geometry again, blue with opacity
 * smoothstep(0, depthScale, depth) x XRAY_OPACITY, without depth test: the buried parts glow
 * through whatever covers them, and vanish as the contacts push them out.
 */
export function intersectionXrayMaterial(tint: TintUniforms): MeshBasicNodeMaterial {
  const material = new MeshBasicNodeMaterial({ transparent: true, depthTest: false, depthWrite: false, side: DoubleSide });
  const depth = attribute(DEPTH_ATTRIBUTE, 'vec4').w;
  material.colorNode = color(TINT_BLUE);
  material.opacityNode = smoothstep(0, tint.depthScale, depth).mul(tint.amount).mul(float(XRAY_OPACITY));
  return material;
}
