/**
 * Fixed sizes and tolerances of the shortest-path-to-boundary query, in one place so that the
 * TypeScript static twin and the WGSL kernel use the same numbers.
 */
import { DEFAULT_EPS_I, DEFAULT_EPS_R } from '../contract/params';

/** Capacities of the per-query stacks. `Infinity` = dynamic (the arrays grow). */
export interface SpbCapacities {
  /** BVH node stack of the nearest-first candidate search. */
  bvhStack: number;
  /** Candidate exit-face stack F of Alg. 1 (paper 001). */
  faceStack: number;
  /** Next-tet stack T of Alg. 1 (always the same depth as F; both are checked). */
  tetStack: number;
  /**
   * Visited tets: a ring of the last `visitedRing` entered tets (paper 001, section 1.2: 16).
   * Infinity = every tet entered in this traversal is remembered (a per-tet stamp array), so
   * each tet is entered at most once and the dynamic traversal always terminates.
   */
  visitedRing: number;
  /**
   * Tets entered per traversal. A ring cannot rule out a loop longer than itself, so the
   * static version bounds the steps and flags the query as overflowed when it hits the bound.
   */
  maxSteps: number;
}

/** The static (GPU) sizes. The authors used stacks of 32 and a ring of 16. */
export const SPB_STATIC_CAPACITIES: Readonly<SpbCapacities> = Object.freeze({
  bvhStack: 64,
  faceStack: 32,
  tetStack: 32,
  visitedRing: 16,
  maxSteps: 4096,
});

/** The dynamic (CPU fail-safe) version: nothing is bounded. */
export const SPB_DYNAMIC_CAPACITIES: Readonly<SpbCapacities> = Object.freeze({
  bvhStack: Infinity,
  faceStack: Infinity,
  tetStack: Infinity,
  visitedRing: Infinity,
  maxSteps: Infinity,
});

/**
 * Tolerances, all relative to the local element size h (the longest edge of the tet at hand),
 * because the meshes range from 1 cm to 20 units. f32 on the GPU needs the larger values;
 * larger only means more branching / less culling, never a different answer.
 */
export interface SpbTolerances {
  /** eps_i of Alg. 2: a 2D sign test counts as zero within exitFace * h^2 (2D determinants are areas). */
  exitFace: number;
  /**
   * eps_r of Alg. 4, as a cosine: a candidate is culled only when p lies in the infeasible
   * half-space by more than this cosine of the angle to the half-space boundary.
   */
  culling: number;
  /**
   * Without inversions, a ray branch is dropped once its entry point is farther from s than p
   * is, by more than beyond * h, ahead of s or behind it (Alg. 1 line 25: |c - s| > |p - s|).
   */
  beyond: number;
  /**
   * Segments shorter than zeroLength * h have no direction to traverse (section 3.3). Such a
   * candidate is the point p itself: it is accepted, at its distance, when p lies on that
   * boundary triangle as the same pre-image (p's support in its tet is on the triangle's
   * vertices); otherwise it is another layer's boundary and rejected.
   */
  zeroLength: number;
  /**
   * With inverted tets in p's component, branches may travel backward (section 3.5) and past p;
   * a branch is dropped once the distance it has travelled along the ray, forward and backward
   * summed, exceeds inversionTravel * |p - s| (supplement 001 section 1.2: 2). A valid path whose
   * traversal runs back and forth longer than that is missed (the paper's trade: 20 % of its
   * running time); Infinity follows every branch to the boundary.
   */
  inversionTravel: number;
  /**
   * A barycentric coordinate of p in its tet below this counts as zero (p on a face, edge or
   * vertex: the tets around that feature are accepted as p's). It must exceed the relative
   * error of the input positions (f32: about 1e-7 of the coordinates' magnitude, which is 1e-5
   * of an element 100x smaller than its distance from the origin), or a p given on an edge but
   * rounded slightly outside its tet is never reached.
   */
  barycentric: number;
}

export const SPB_DEFAULT_TOLERANCES: Readonly<SpbTolerances> = Object.freeze({
  exitFace: DEFAULT_EPS_I,
  culling: DEFAULT_EPS_R,
  beyond: 1e-4,
  zeroLength: 1e-7,
  inversionTravel: 2,
  barycentric: 1e-4,
});

/**
 * Expanding search of query.ts (mirrored as WGSL constants in shaders/spbQuery.wgsl). Any values
 * give the same answers; they only trade re-walked BVH nodes against candidates tested before a
 * valid path bounds the radius.
 * The first pass searches within sqrt(SPB_SEARCH_START2) h of p (h: longest edge of p's tet).
 */
export const SPB_SEARCH_START2 = 1;
/** Each further pass multiplies the squared radius by this (the radius doubles). */
export const SPB_SEARCH_GROWTH2 = 4;
/**
 * A pass skips boxes whose farthest point is within sqrt(SPB_SEARCH_SKIP2) of the previous
 * radius: all their candidates were tested, with a margin far above rounding (f32 on the GPU).
 */
export const SPB_SEARCH_SKIP2 = 0.25;
/**
 * Surface descents (surfaceDescent.ts) per query that may end without a valid path before
 * culled candidates are simply skipped (Alg. 4 as written). A descent is a guess that the face
 * next to a culled vertex/edge holds the answer; where p sits inside another layer (overlapping
 * parts), the guesses land on that layer and every one costs a failed traversal.
 */
export const SPB_DESCENT_FAILURES = 1;
/**
 * Inverted tets listed for the culling guard (meshData.ts invertedTets; the GPU prepass writes
 * the same list). Culling relies on Theorem 2, which holds only where the deformation is not
 * inverted: a candidate is culled only if the ball around p through it meets no inverted tet of
 * p's component. With more inverted tets than this in the mesh, components with inversions are
 * simply not culled (the per-query test would cost more than culling saves).
 */
export const SPB_INVERTED_LIST = 256;
