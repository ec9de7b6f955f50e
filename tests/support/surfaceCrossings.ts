/**
 * Brute-force surface crossing counter: where the boundary surface passes through itself or
 * through another object's surface, the geometric fact the page's blue tint shows (paper 000
 * Figs. 16-17 judge recovery by it). It shares no code with src/ nor with intersectionCounter.ts:
 * its own boundary (faces used by exactly one tet), its own orientation predicate, a sweep over x
 * as its only broad phase, float64.
 *
 * Two boundary triangles that share no vertex cross when an edge of one passes through the other
 * (a segment crosses a triangle: its ends strictly on opposite sides of the triangle's plane and
 * the line through it strictly inside the three edge planes). Pairs sharing a vertex are not
 * tested (neighbours on the surface meet there by construction), and touching without passing
 * (a zero orientation) is not a crossing.
 *
 * Why beside the vertex counter: a boundary vertex pushed past the opposite face of its own tet
 * (an inverted tet) lies inside the neighbouring tets, so the vertex counter reports it, yet the
 * surface there is a dent that crosses nothing. Paper 000 section 3.5 treats those as inverted
 * elements, not self-intersections, and section 5.2 reports that recovery leaves "numerous
 * inverted elements" which the material then undoes (Fig. 17b-c). The two counters together say
 * which of the two a state has.
 */

export interface SurfaceInput {
  positions: ArrayLike<number>;
  tets: ArrayLike<number>;
  tetObject: ArrayLike<number>;
}

export interface SurfaceCrossings {
  /** Crossing pairs of boundary triangles of one object. */
  selfPairs: number;
  /** Crossing pairs of boundary triangles of two objects. */
  interPairs: number;
  /** Boundary vertices that are a corner of a triangle in a self crossing pair. */
  selfVertices: number;
  /** Boundary vertices that are a corner of a triangle in an inter-object crossing pair. */
  interVertices: number;
  /** Every vertex of a crossing pair (self or inter), ascending. */
  crossingVertices: number[];
  /** Boundary triangles of the whole scene. */
  boundaryTriangles: number;
  /** With `{ pairs: true }`: 6 vertex ids per crossing pair (the two triangles' corners), and whether it is a self pair. */
  pairs?: { corners: number[]; self: boolean }[];
}

/** 6 x the signed volume of (a, b, c, d). */
function orient(p: ArrayLike<number>, a: number, b: number, c: number, d: number): number {
  const ax = p[3 * a], ay = p[3 * a + 1], az = p[3 * a + 2];
  const bx = p[3 * b] - ax, by = p[3 * b + 1] - ay, bz = p[3 * b + 2] - az;
  const cx = p[3 * c] - ax, cy = p[3 * c + 1] - ay, cz = p[3 * c + 2] - az;
  const dx = p[3 * d] - ax, dy = p[3 * d + 1] - ay, dz = p[3 * d + 2] - az;
  return bx * (cy * dz - cz * dy) - by * (cx * dz - cz * dx) + bz * (cx * dy - cy * dx);
}

/** Segment pq passes through the interior of triangle abc. */
export function segmentCrossesTriangle(x: ArrayLike<number>, p: number, q: number, a: number, b: number, c: number): boolean {
  const sp = orient(x, a, b, c, p), sq = orient(x, a, b, c, q);
  if (!((sp > 0 && sq < 0) || (sp < 0 && sq > 0))) return false;
  const e0 = orient(x, p, q, a, b), e1 = orient(x, p, q, b, c), e2 = orient(x, p, q, c, a);
  return (e0 > 0 && e1 > 0 && e2 > 0) || (e0 < 0 && e1 < 0 && e2 < 0);
}

/** The faces used by exactly one tet, 3 vertex ids each, with their object. */
function boundaryFaces(tets: ArrayLike<number>, tetObject: ArrayLike<number>): { faces: number[]; object: number[] } {
  const seen = new Map<string, { face: number[]; object: number; uses: number }>();
  const sides = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];
  for (let t = 0; 4 * t < tets.length; t++) {
    for (const side of sides) {
      const face = side.map((k) => tets[4 * t + k]);
      const key = [...face].sort((u, w) => u - w).join(',');
      const entry = seen.get(key);
      if (entry) entry.uses++;
      else seen.set(key, { face, object: tetObject[t], uses: 1 });
    }
  }
  const faces: number[] = [], object: number[] = [];
  for (const entry of seen.values()) if (entry.uses === 1) { faces.push(...entry.face); object.push(entry.object); }
  return { faces, object };
}

export function countSurfaceCrossings(input: SurfaceInput, options: { pairs?: boolean } = {}): SurfaceCrossings {
  const x = input.positions;
  const { faces, object } = boundaryFaces(input.tets, input.tetObject);
  const n = object.length;
  const lo = new Float64Array(3 * n), hi = new Float64Array(3 * n);
  for (let f = 0; f < n; f++) {
    for (let ax = 0; ax < 3; ax++) {
      const v0 = x[3 * faces[3 * f] + ax], v1 = x[3 * faces[3 * f + 1] + ax], v2 = x[3 * faces[3 * f + 2] + ax];
      lo[3 * f + ax] = Math.min(v0, v1, v2);
      hi[3 * f + ax] = Math.max(v0, v1, v2);
    }
  }
  const order = Array.from({ length: n }, (_, f) => f).sort((f, g) => lo[3 * f] - lo[3 * g]);
  const selfVertex = new Set<number>(), interVertex = new Set<number>();
  let selfPairs = 0, interPairs = 0;
  const pairs: { corners: number[]; self: boolean }[] = [];
  for (let i = 0; i < n; i++) {
    const f = order[i];
    const fa = faces[3 * f], fb = faces[3 * f + 1], fc = faces[3 * f + 2];
    for (let j = i + 1; j < n; j++) {
      const g = order[j];
      if (lo[3 * g] > hi[3 * f]) break;
      if (lo[3 * g + 1] > hi[3 * f + 1] || lo[3 * f + 1] > hi[3 * g + 1]) continue;
      if (lo[3 * g + 2] > hi[3 * f + 2] || lo[3 * f + 2] > hi[3 * g + 2]) continue;
      const ga = faces[3 * g], gb = faces[3 * g + 1], gc = faces[3 * g + 2];
      if (ga === fa || ga === fb || ga === fc || gb === fa || gb === fb || gb === fc || gc === fa || gc === fb || gc === fc) continue;
      const crosses =
        segmentCrossesTriangle(x, fa, fb, ga, gb, gc) || segmentCrossesTriangle(x, fb, fc, ga, gb, gc) || segmentCrossesTriangle(x, fc, fa, ga, gb, gc) ||
        segmentCrossesTriangle(x, ga, gb, fa, fb, fc) || segmentCrossesTriangle(x, gb, gc, fa, fb, fc) || segmentCrossesTriangle(x, gc, ga, fa, fb, fc);
      if (!crosses) continue;
      const self = object[f] === object[g];
      if (self) selfPairs++;
      else interPairs++;
      if (options.pairs) pairs.push({ corners: [fa, fb, fc, ga, gb, gc], self });
      const into = self ? selfVertex : interVertex;
      for (const v of [fa, fb, fc, ga, gb, gc]) into.add(v);
    }
  }
  const crossingVertices = [...new Set([...selfVertex, ...interVertex])].sort((u, w) => u - w);
  return { selfPairs, interPairs, selfVertices: selfVertex.size, interVertices: interVertex.size, crossingVertices, boundaryTriangles: n, ...(options.pairs ? { pairs } : {}) };
}
