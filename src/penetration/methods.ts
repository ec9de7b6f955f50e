import type { PenetrationMethod } from '../contract/params';

/** The setting (SolverParams.penetration) and its values live in the contract; the methods are in this folder. */
export { PENETRATION_METHODS, type PenetrationMethod } from '../contract/params';

/** The method's name for messages and the page ("shortest path", ...). */
export const PENETRATION_LABELS: Readonly<Record<PenetrationMethod, string>> = {
  exact: 'Shortest path (exact)',
  restClosest: 'Rest-pose closest point',
  ddf: 'Deformed distance field',
};
