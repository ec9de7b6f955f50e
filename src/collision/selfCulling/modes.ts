/**
 * Self-collision culling's setting (SolverParams.selfCulling): 'off' keeps every same-object
 * candidate pair of the box test; 'plain' is Heo et al.'s BVH dual-cone method without internal
 * boundary edges (paper 002 section 4; it misses contacts, kept to show that); 'enhanced' is paper
 * 002's enhanced dual-cone method (section 5), which misses none (nodeTests.ts).
 */
export type SelfCullingMode = 'off' | 'plain' | 'enhanced';
export const SELF_CULLING_MODES: readonly SelfCullingMode[] = ['off', 'plain', 'enhanced'];
