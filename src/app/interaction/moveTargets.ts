/**
 * What the mouse can move in a scene (TransformControls, moveControls.ts): its analytic colliders
 * and its pins (the handles of src/sim/handles.ts). Each is moved by a translation `delta` on top
 * of its own (possibly scripted) motion: a plane's offset grows by n . delta, a box or a bowl is
 * shifted, a pin's script gets delta added to its translation. No DOM or three.js here.
 */
import type { Collider, Vec3 } from '../../sim/colliders';
import type { HandleScript } from '../../sim/handles';
import type { SimSetup } from '../../sim/setup';

export interface MoveTarget {
  kind: 'collider' | 'pin';
  index: number;
  label: string;
}

export function moveTargetsOf(setup: Pick<SimSetup, 'colliders' | 'handles'>): MoveTarget[] {
  return [
    ...setup.colliders.map((c, index) => ({ kind: 'collider' as const, index, label: `collider ${index}: ${c.kind}` })),
    ...setup.handles.map((_, index) => ({ kind: 'pin' as const, index, label: `pin ${index}` })),
  ];
}

function add(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

/** The collider translated by delta (scripted plane offsets keep their script, switched-off stays off). */
export function movedCollider(c: Collider, delta: Vec3): Collider {
  if (c.kind === 'box') return { kind: 'box', min: add(c.min, delta), max: add(c.max, delta) };
  if (c.kind === 'bowl') return { kind: 'bowl', center: add(c.center, delta), radius: c.radius };
  const len = Math.hypot(...c.normal);
  const shift = (c.normal[0] * delta[0] + c.normal[1] * delta[1] + c.normal[2] * delta[2]) / len;
  const offset = c.offset;
  if (typeof offset === 'number') return { kind: 'plane', normal: c.normal, offset: offset + shift };
  return {
    kind: 'plane',
    normal: c.normal,
    offset: (t) => {
      const d = offset(t);
      return d === null ? null : d + shift;
    },
  };
}

/** The pin's script with `delta` added to its translation. */
export function movedHandle(script: HandleScript, delta: Vec3): HandleScript {
  return (t) => {
    const { matrix, translation } = script(t);
    return { matrix, translation: add(translation, delta) };
  };
}

/**
 * Where the gizmo sits: a box's or bowl's centre; the point of a plane nearest `focus` (the
 * scene's centre); a pin's vertices' centroid at `time`.
 */
export function anchorOf(target: MoveTarget, setup: Pick<SimSetup, 'colliders' | 'handles' | 'model'>, time: number, focus: Vec3): Vec3 {
  if (target.kind === 'collider') {
    const c = setup.colliders[target.index]!;
    if (c.kind === 'box') return [(c.min[0] + c.max[0]) / 2, (c.min[1] + c.max[1]) / 2, (c.min[2] + c.max[2]) / 2];
    if (c.kind === 'bowl') return [...c.center];
    const len = Math.hypot(...c.normal);
    const n: Vec3 = [c.normal[0] / len, c.normal[1] / len, c.normal[2] / len];
    const offset = (typeof c.offset === 'number' ? c.offset : c.offset(time)) ?? 0;
    const s = n[0] * focus[0] + n[1] * focus[1] + n[2] * focus[2] - offset / len;
    return [focus[0] - s * n[0], focus[1] - s * n[1], focus[2] - s * n[2]];
  }
  const m = setup.model;
  const { matrix: a, translation: b } = setup.handles[target.index]!(time);
  const sum: [number, number, number] = [0, 0, 0];
  let count = 0;
  for (let v = 0; v < m.vertexCount; v++) {
    if (m.handleOfVertex[v] !== target.index) continue;
    const r = [m.restPositions[3 * v]!, m.restPositions[3 * v + 1]!, m.restPositions[3 * v + 2]!];
    for (let i = 0; i < 3; i++) sum[i] += a[i]! * r[0]! + a[3 + i]! * r[1]! + a[6 + i]! * r[2]! + b[i]!;
    count++;
  }
  return count > 0 ? [sum[0] / count, sum[1] / count, sum[2] / count] : [...focus];
}
