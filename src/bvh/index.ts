/** Surface BVH: build (binned SAH), refit, flat GPU layout, nearest-first point query. See README.md. */
export * from './surfaceBvh';
export { buildSurfaceBvh, BvhInputError, type BuildSurfaceBvhOptions } from './buildSurfaceBvh';
export { refitSurfaceBvh } from './refitSurfaceBvh';
export { queryNearestTriangles, boxDistance2, type TriangleVisitor } from './queryNearestTriangles';
export { sahCost } from './sahCost';
