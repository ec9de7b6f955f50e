/**
 * The contact thickness delta (SolverParams.contactOffset; docs/collisions.md "Contact offset"):
 * every contact is solved to (x - s) . n >= delta, colliders included, and CCD reports pairs that
 * come within delta. 'auto' scales with the scene: a fraction of its mean boundary edge at rest (3 %
 * between objects, 1 % for self-contacts and the colliders), so a resting contact's residual (a
 * few Jacobi passes leave some) sits inside the skin instead of inside the other body, at any mesh
 * scale; capped by the scene's shortest element edge, so that features of one surface never come
 * within it (CONTACT_OFFSET_AUTO_CAP). The GPU and the CPU engines take it from here.
 */
import { computeFaceTopology } from '../mesh/faceTopology';
import { shortestTetEdge } from '../mesh/shortestTetEdge';
import type { SceneArrays } from '../contract/sceneArrays';
import type { SolverParams } from '../contract/params';

/**
 * 'auto' contact offset between objects, as a fraction of the scene's mean boundary edge. 3 %, not
 * the 1 % of self-contacts and colliders: ranked by the per-substep count on the five 3-octopus
 * boxes (docs/collisions.md "Contact offset by kind"), a vertex ended a substep inside another
 * octopus 50 times at 1 %, 14 at 2.9 % and 1 at 5.1 % for all contacts; self-contacts at that
 * thickness tripled the vertices through their own inverted tets (58 -> 192), so they keep 1 %
 * (CONTACT_OFFSET_AUTO_SELF_RATIO). Not 5 %: a block resting on a slab below the friction angle
 * crept 0.133 mm in 2 s at 2 material iterations (the law allows 0.1; 0.035 at 3 %).
 */
export const CONTACT_OFFSET_AUTO_RATIO = 0.03;

/**
 * 'auto' offset of self-contacts (a point and a triangle of one object) and of the colliders, as a
 * fraction of the mean boundary edge. The colliders are projected in every material iteration, so
 * their thin layer is not what lets a pile through, and a thicker one would float every resting
 * body visibly above the ground (3 % of an element edge: 17 mm under `Cube.t`'s 2-unit cube).
 */
export const CONTACT_OFFSET_AUTO_SELF_RATIO = 0.01;

const meanEdges = new WeakMap<SceneArrays, number>();

/**
 * Mean length of the model's boundary edges at rest (every boundary edge lies on two boundary
 * triangles, so this is the mean over the triangles' edges). Computed once per model.
 */
export function meanBoundaryEdge(model: SceneArrays): number {
  const known = meanEdges.get(model);
  if (known !== undefined) return known;
  const mean = meanTriangleEdge(model.restPositions, computeFaceTopology(model.tets, { source: 'scene' }).boundaryTriangles);
  meanEdges.set(model, mean);
  return mean;
}

/** Mean edge length of triangles `tris` (3 vertex ids each) over xyz `positions` (0 without triangles). */
export function meanTriangleEdge(positions: ArrayLike<number>, tris: ArrayLike<number>): number {
  const x = positions;
  let sum = 0;
  for (let f = 0; f < tris.length; f += 3) {
    for (let k = 0; k < 3; k++) {
      const a = 3 * tris[f + k], b = 3 * tris[f + ((k + 1) % 3)];
      sum += Math.hypot(x[b] - x[a], x[b + 1] - x[a + 1], x[b + 2] - x[a + 2]);
    }
  }
  return tris.length > 0 ? sum / tris.length : 0;
}

/**
 * The self-contacts' thickness limit, as a fraction of the smallest element edge, before the
 * inf-norm's reach (CONTACT_OFFSET_SELF_CAP is this over sqrt(3)). At delta near an element's edge,
 * features of one surface two rings apart (not adjacent, so not excluded) lie within delta of each
 * other (coplanar neighbours on a flat face among them), and their contacts would push the surface
 * against itself: measured (docs/collisions.md "Contact offset"), two cubes stacked 5 mm apart with
 * 0.05 m elements, 8 frames with self-collision, +77 % energy at a whole element (+9.7 % with
 * self-collision off: the lift), and 2.4x after 12 frames. So self-contacts keep
 * selfContactOffset, never more than CONTACT_OFFSET_SELF_CAP of the smallest element edge, while the
 * contacts between objects and with the colliders keep the whole delta.
 */
export const CONTACT_OFFSET_FEATURE_RATIO = 0.5;

/**
 * Element edges of offset between objects up to which contacts between bodies were measured to hold
 * (docs/collisions.md "Several element edges between bodies": the 2-cube stack's elastic energy
 * stayed at most 24 J in 20 frames at 2, 3, 4 and 6 edges); beyond, nothing was measured.
 */
export const CONTACT_OFFSET_INTER_EDGES_TRIED = 6;

/**
 * A note when an explicit offset exceeds what self-contacts keep (selfContactOffset: its cap binds),
 * saying too when it exceeds the CONTACT_OFFSET_INTER_EDGES_TRIED element edges measured; null otherwise.
 * `shortestEdge`: the scene's smallest element edge at rest.
 */
export function contactOffsetNote(offset: SolverParams['contactOffset'], shortestEdge: number): string | null {
  if (offset === 'auto' || !(shortestEdge > 0) || !(offset > CONTACT_OFFSET_SELF_CAP * shortestEdge)) return null;
  const cap = CONTACT_OFFSET_SELF_CAP * shortestEdge;
  const beyond = offset > CONTACT_OFFSET_INTER_EDGES_TRIED * shortestEdge
    ? ` Between objects, contacts were measured to hold up to ${CONTACT_OFFSET_INTER_EDGES_TRIED} element edges (2 cubes stacked; docs/collisions.md ` +
      `"Several element edges between bodies"); a thicker layer was not measured.`
    : '';
  return (
    `contact offset ${offset} is ${(offset / shortestEdge).toFixed(2)} of the smallest element edge (${shortestEdge.toPrecision(2)}): ` +
    `contacts between objects and with the colliders keep it, self-contacts keep ${cap.toPrecision(2)} ` +
    `(${CONTACT_OFFSET_SELF_CAP.toFixed(2)} of that edge: features of one surface a few elements apart lie within a thicker layer).` + beyond
  );
}

/**
 * The separation a contact keeps in this build (SolverParams.contactOffsetSpeed): delta where its
 * surfaces start at least delta apart, else their gap at the substep's start, raised to `floor`,
 * plus `step`, the layer's opening for one build; and never more than `depenetration` past that
 * start gap (SolverParams.depenetrationSpeed): a penetration the contact started with goes at that
 * speed, without velocity (the split impulse, cpu/contactsCpu.ts). A shortest-path (DCD) contact's
 * point starts inside: floor 0 opens the layer beyond the surface at the ramp's speed. A CCD
 * contact's point starts outside the other body (hybrid: Pout), so a negative gap along its normal
 * is the normal's measure, not a depth (a vertex beside a face's plane, within the separation of
 * its rim, or one whose normal the feature cones turned): floor -Infinity (RAMP_FLOOR_CCD) keeps it
 * where it started instead of pushing it across. Only a start gap within one opening below zero
 * (min(step, delta): rounding at a resting face) opens; one further below is held at its start
 * gap. Opening it too pushed such a vertex by `step` at every build for as long as the measure
 * stayed negative, against the material: a GlassBox.t dropped at 30 m/s crumpled with 4 such
 * contacts 3 cm "deep" and gained 21 MJ over 40 frames (docs/collisions.md "Contacts across a
 * crushed wall"). Infinity for `step` or `depenetration`: no limit. Twin:
 * shaders/lib/contact.wgsl rampedOffset.
 */
export function rampedOffset(delta: number, gap0: number, step: number, floor: number, depenetration = Infinity): number {
  if (floor === RAMP_FLOOR_CCD && gap0 < -Math.min(step, delta)) return gap0;
  return Math.min(delta, Math.max(gap0, floor) + step, gap0 + depenetration);
}

/** rampedOffset's floor for shortest-path (DCD) contacts: their point starts inside. */
export const RAMP_FLOOR_DCD = 0;
/** rampedOffset's floor for CCD contacts: their point starts outside (hybrid: Pout). */
export const RAMP_FLOOR_CCD = -Infinity;

/**
 * The offset layer's opening per build or projection: speed x h / builds, where `builds` is how
 * often a substep of length h builds (or projects) the contact again from start positions that the
 * split impulse has moved out (collision rounds for the body contacts, material iterations for the
 * colliders), so that a substep opens it by speed x h in all.
 */
export function offsetRampStep(speed: number, h: number, builds: number): number {
  return (speed * h) / Math.max(1, builds);
}

/**
 * A ramp step for an f32 uniform: Infinity (the speed 'off') as 3e38, which min(delta, gap + step)
 * in WGSL turns into delta without an infinity in the shader.
 */
export function uniformRamp(step: number): number {
  return Math.min(step, 3e38);
}

/**
 * The 'auto' offset's cap, as a fraction of the shortest element edge: half the smallest edge
 * (CONTACT_OFFSET_FEATURE_RATIO) over sqrt(3), because CCD's search measures the separation in the
 * inf-norm (docs/collisions.md "CCD contacts"), whose reach is sqrt(3) offsets along a diagonal.
 * Where 1 % of the mean boundary edge is more, the mesh's elements vary widely in size. The case
 * that decided it: the shared GlassBox.t (mean boundary edge 10.2 m, shortest edge 0.197 m: its
 * rim is a strip of 0.14 m triangles) had an 'auto' offset of 0.1015 m, 0.52 of its shortest edge.
 * Each inner rim corner lies 0.139 m beside a coplanar rim triangle, within the inf-norm reach once
 * the mesh is turned, and the contacts (the flat rim's one normal, a gap of 0) pushed the rim out
 * of its plane every substep: a turned copy falling freely gained 22 kJ of elastic energy in 2
 * frames. Capped, it is 0.057 m. The cap binds where the mean boundary edge is more than 9.6 times
 * the shortest element edge between objects (3 %) and 29 times for self-contacts (1 %): of the
 * shared meshes and built-in scenes only GlassBox.t (52; all others 7.6 or less).
 */
export const CONTACT_OFFSET_AUTO_CAP = CONTACT_OFFSET_FEATURE_RATIO / Math.sqrt(3);

/** What self-contacts keep at most, as a fraction of the shortest element edge (selfContactOffset): the 'auto' cap. */
export const CONTACT_OFFSET_SELF_CAP = CONTACT_OFFSET_AUTO_CAP;

/**
 * The 'auto' contact offset of a model between objects, world units: CONTACT_OFFSET_AUTO_RATIO of
 * its mean boundary edge at rest, at most CONTACT_OFFSET_AUTO_CAP of its shortest element edge.
 */
export function autoContactOffset(model: SceneArrays): number {
  return cappedAutoOffset(model, CONTACT_OFFSET_AUTO_RATIO);
}

/** The 'auto' offset of the model's self-contacts and colliders: CONTACT_OFFSET_AUTO_SELF_RATIO of its mean boundary edge, capped as autoContactOffset. */
export function autoSelfContactOffset(model: SceneArrays): number {
  return cappedAutoOffset(model, CONTACT_OFFSET_AUTO_SELF_RATIO);
}

/** `ratio` of the model's mean boundary edge at rest, at most CONTACT_OFFSET_AUTO_CAP of its shortest element edge. */
function cappedAutoOffset(model: SceneArrays, ratio: number): number {
  return Math.min(ratio * meanBoundaryEdge(model), CONTACT_OFFSET_AUTO_CAP * shortestEdgeAtRest(model));
}

const shortestEdges = new WeakMap<SceneArrays, number>();

/** The model's shortest tet edge at rest (Infinity without tets). Computed once per model. */
function shortestEdgeAtRest(model: SceneArrays): number {
  let known = shortestEdges.get(model);
  if (known === undefined) {
    known = shortestTetEdge(model.restPositions, model.tets);
    if (!Number.isFinite(known)) known = Infinity;
    shortestEdges.set(model, known);
  }
  return known;
}

/**
 * The thickness a self-contact keeps (a point and a triangle of one object; DCD and CCD, its
 * separation too) at the setting `offset`: 'auto' autoSelfContactOffset; an explicit delta, at most
 * CONTACT_OFFSET_SELF_CAP of the scene's shortest element edge, so that no two features of one
 * surface at rest lie within it (CONTACT_OFFSET_FEATURE_RATIO). Twins: shaders/contactsBuild.wgsl
 * (ContactParams.selfOffset), shaders/ccdNarrow.wgsl (CcdParams.selfSeparation).
 */
export function selfContactOffset(model: SceneArrays, offset: SolverParams['contactOffset']): number {
  if (offset === 'auto') return autoSelfContactOffset(model);
  return Math.min(offset, CONTACT_OFFSET_SELF_CAP * shortestEdgeAtRest(model));
}

/** delta in world units for the model's scene: what contacts between objects keep. */
export function modelContactOffset(model: SceneArrays, p: SolverParams['contactOffset']): number {
  return p === 'auto' ? autoContactOffset(model) : p;
}

/**
 * The colliders' thickness (the layer a point keeps above a collider) at the setting `p`: 'auto'
 * CONTACT_OFFSET_AUTO_SELF_RATIO of the mean boundary edge (autoSelfContactOffset), an explicit
 * delta as it is.
 */
export function colliderContactOffset(model: SceneArrays, p: SolverParams['contactOffset']): number {
  return p === 'auto' ? autoSelfContactOffset(model) : p;
}
