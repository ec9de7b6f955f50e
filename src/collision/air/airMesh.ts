/**
 * The air mesh (Müller et al. 2015, "Air Meshes for Robust Collision Handling", paper 004): a
 * tetrahedralization of the space between the objects inside a container, conforming with the
 * objects (every boundary face of an object is a face of an air tet, unless it lies on the
 * container's wall). Its vertices are the objects' boundary vertices (model vertex ids, moved by
 * the solver) and fixed points of the container (ids from `modelVertexCount` on, inverse mass 0).
 * A collision is an air tet that inverts; eq. 2 keeps every air tet's volume >= 0.
 *
 * Vertex ids: v < modelVertexCount is model vertex v (its GPU position, its inverse mass);
 * v >= modelVertexCount is fixed point v - modelVertexCount (xyz in `fixedPoints`).
 */

/** A scene's container for the air mesh: an axis-aligned box on a lattice of spacing `cell`. */
export interface AirSpec {
  min: readonly [number, number, number];
  max: readonly [number, number, number];
  /**
   * Lattice spacing: the container's sides are whole multiples of it, and every object's
   * boundary vertices lie on the lattice (objects meshed as grid boxes of this spacing).
   */
  cell: number;
}

export interface AirMesh {
  /** Model vertices (ids below this are the solver's vertices). */
  modelVertexCount: number;
  /** xyz per point of the air's own (ids modelVertexCount + k) at the start. */
  points: Float64Array;
  /** Per point: 0 for the container's fixed points, > 0 for air particles. */
  pointInvMass: Float64Array;
  /** 4 air vertex ids per air tet, positively oriented at build time. */
  tets: Uint32Array;
}

/** How the air mesh was built (reported by the runner and the benchmark). */
export interface AirMeshStats {
  airTets: number;
  objectTets: number;
  /** Model vertices that are air vertices (the objects' boundary vertices, less those on the container walls). */
  objectVertices: number;
  fixedPoints: number;
  /** Lattice points in free air that could not be collapsed away: air particles (0 in most scenes). */
  particles: number;
  /** Lattice tets of the container before the objects were cut out, and free lattice vertices collapsed away. */
  latticeTets: number;
  collapsed: number;
  buildMs: number;
  /** Which mesher built it: the container's lattice (buildAirMesh.ts) or the general one (generalAirMesh.ts). */
  mesher?: 'lattice' | 'general';
  /** General mesher: tets of the Delaunay tetrahedralization before recovery. */
  delaunayTets?: number;
  /**
   * General mesher: object edges and triangles missing from the Delaunay tetrahedralization, flips and Steiner points that recovered them, cavities refilled as cones, flips of the quality pass
   * (all of the attempt that succeeded), and the attempts (Delaunay and recovery from scratch, each with the next variant of the Steiner points' placement; 1 where the first succeeded).
   */
  recovery?: { missingEdges: number; missingFaces: number; flips: number; steinerPoints: number; cones: number; qualityFlips: number; attempts: number };
}

export function airVertexCount(mesh: AirMesh): number {
  return mesh.modelVertexCount + mesh.points.length / 3;
}

export function airTetCount(mesh: AirMesh): number {
  return mesh.tets.length / 4;
}

/**
 * Positions of every air vertex (xyz, float64): the model's `x` (3 per model vertex) followed by
 * the points' (`points`, default their start). `out` is reused when given.
 */
export function airPositions(mesh: AirMesh, x: ArrayLike<number>, points: ArrayLike<number> = mesh.points, out?: Float64Array): Float64Array {
  const n = airVertexCount(mesh);
  const p = out && out.length === 3 * n ? out : new Float64Array(3 * n);
  for (let i = 0; i < 3 * mesh.modelVertexCount; i++) p[i] = x[i];
  for (let i = 0; i < mesh.points.length; i++) p[3 * mesh.modelVertexCount + i] = points[i];
  return p;
}

/** det[x1 - x0, x2 - x0, x3 - x0] (6 x the signed volume) of the tet (a, b, c, d) over xyz positions p. */
export function orient6(p: ArrayLike<number>, a: number, b: number, c: number, d: number): number {
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
  const ux = p[3 * b] - ax, uy = p[3 * b + 1] - ay, uz = p[3 * b + 2] - az;
  const vx = p[3 * c] - ax, vy = p[3 * c + 1] - ay, vz = p[3 * c + 2] - az;
  const wx = p[3 * d] - ax, wy = p[3 * d + 1] - ay, wz = p[3 * d + 2] - az;
  return ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
}

/**
 * The tet quality of paper 004 eq. 4, q = 12 V / (sqrt 2 l_rms^3) = sqrt 2 det / l_rms^3: 1 for a
 * regular tet, 0 when flat, negative when inverted.
 */
export function tetQuality(p: ArrayLike<number>, a: number, b: number, c: number, d: number): number {
  const det = orient6(p, a, b, c, d);
  const sum = dist2(p, a, b) + dist2(p, a, c) + dist2(p, a, d) + dist2(p, b, c) + dist2(p, b, d) + dist2(p, c, d);
  const rms = Math.sqrt(sum / 6);
  return rms > 0 ? (Math.SQRT2 * det) / (rms * rms * rms) : 0;
}

function dist2(p: ArrayLike<number>, a: number, b: number): number {
  const u = 3 * a, v = 3 * b;
  return (p[u] - p[v]) ** 2 + (p[u + 1] - p[v + 1]) ** 2 + (p[u + 2] - p[v + 2]) ** 2;
}

/** Checks the mesh's arrays (ids in range, lengths), naming the first bad entry. */
export function checkAirMesh(mesh: AirMesh, where = 'air mesh'): void {
  if (mesh.points.length % 3 !== 0) throw new RangeError(`${where}: points has ${mesh.points.length} numbers, not 3 per point`);
  if (mesh.pointInvMass.length !== mesh.points.length / 3) throw new RangeError(`${where}: pointInvMass has ${mesh.pointInvMass.length} entries for ${mesh.points.length / 3} points`);
  if (mesh.tets.length % 4 !== 0) throw new RangeError(`${where}: tets has ${mesh.tets.length} ids, not 4 per tet`);
  const n = airVertexCount(mesh);
  for (let i = 0; i < mesh.tets.length; i++) {
    if (!(mesh.tets[i] < n)) throw new RangeError(`${where}: air tet ${i >> 2} corner ${i & 3} is vertex ${mesh.tets[i]}, out of range [0, ${n})`);
  }
}
