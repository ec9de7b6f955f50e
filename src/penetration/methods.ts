/**
 * How a penetrating point gets its contact target (paper 000 section 5.5, Figs. 22-23; Fisher
 * and Lin 2001). Every DCD query of the time step is answered by one of them (CCD contacts do
 * not use a target):
 *   'exact'        the shortest path to the boundary of the deformed, possibly self-intersecting
 *                  mesh (src/spb, paper 000): the nearest boundary point a valid path reaches;
 *   'restClosest'  the point mapped to the rest pose by its barycentrics in its tet, the closest
 *                  boundary point of the rest mesh, mapped back to the current pose through its
 *                  triangle (restClosest.ts): the "popular approach" paper 000 section 5.5 rejects;
 *   'ddf'          the deformed distance field of Fisher and Lin 2001 (deformedDistance.ts): the
 *                  rest pose's inward distance and direction at the tet's vertices, interpolated
 *                  in the tet's current shape (eqs. 3-5), target s = x + depth * direction.
 */
export type PenetrationMethod = 'exact' | 'restClosest' | 'ddf';
export const PENETRATION_METHODS: readonly PenetrationMethod[] = ['exact', 'restClosest', 'ddf'];

/** The method's name for messages and the page ("shortest path", ...). */
export const PENETRATION_LABELS: Readonly<Record<PenetrationMethod, string>> = {
  exact: 'Shortest path (exact)',
  restClosest: 'Rest-pose closest point',
  ddf: 'Deformed distance field',
};
