/**
 * Signed distance functions (negative inside) and the combinators the procedural shapes are
 * built from. Every function is a plain (x, y, z) => number closure over numbers, with no
 * per-call allocation: the lattice evaluates millions of points.
 *
 * The stuffing algorithm only needs the sign and a value whose magnitude does not exceed the
 * true distance by much (so that far-away lattice blocks can be skipped, see
 * isosurfaceStuffing.ts). Exact primitives below are exact; the combinators (min, max, smooth
 * min, tapered tubes) keep |f| a lower bound of the distance or close to one.
 */
export type Sdf = (x: number, y: number, z: number) => number;

/** Euclidean norms; Math.hypot is several times slower in V8 and these run millions of times. */
export function len(x: number, y: number, z: number): number {
  return Math.sqrt(x * x + y * y + z * z);
}
function len2(x: number, y: number): number {
  return Math.sqrt(x * x + y * y);
}

/** Axis-aligned bounds that contain the whole zero set (the solid part). */
export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

export function sphere(cx: number, cy: number, cz: number, r: number): Sdf {
  return (x, y, z) => len(x - cx, y - cy, z - cz) - r;
}

/** Exact box distance: half extents (hx, hy, hz) around (cx, cy, cz). */
export function box(cx: number, cy: number, cz: number, hx: number, hy: number, hz: number): Sdf {
  return (x, y, z) => {
    const qx = Math.abs(x - cx) - hx, qy = Math.abs(y - cy) - hy, qz = Math.abs(z - cz) - hz;
    const outside = len(Math.max(qx, 0), Math.max(qy, 0), Math.max(qz, 0));
    const inside = Math.min(Math.max(qx, qy, qz), 0);
    return outside + inside;
  };
}

/** Exact distance to a capped cylinder of radius r along y, from y = cy - hh to cy + hh. */
export function cylinderY(cx: number, cy: number, cz: number, r: number, hh: number): Sdf {
  return (x, y, z) => {
    const dr = len2(x - cx, z - cz) - r;
    const dy = Math.abs(y - cy) - hh;
    return Math.min(Math.max(dr, dy), 0) + len2(Math.max(dr, 0), Math.max(dy, 0));
  };
}

/** Same as cylinderY but along x. */
export function cylinderX(cx: number, cy: number, cz: number, r: number, hh: number): Sdf {
  const f = cylinderY(cy, cx, cz, r, hh);
  return (x, y, z) => f(y, x, z);
}

/**
 * Cylinder along x whose rim edges are rounded with radius e (exact): the distance to the
 * cylinder shrunk by e on every side, minus e.
 */
export function roundedCylinderX(cx: number, cy: number, cz: number, r: number, hh: number, e: number): Sdf {
  if (!(e >= 0 && e < Math.min(r, hh))) throw new Error(`roundedCylinderX: edge radius ${e} must be in [0, min(r, hh))`);
  const f = cylinderX(cx, cy, cz, r - e, hh - e);
  return (x, y, z) => f(x, y, z) - e;
}

/**
 * Tube of linearly varying radius around segment a-b (a sphere swept along the segment):
 * closest segment parameter t, then |p - s(t)| - r(t). Not the exact round-cone distance, but
 * its zero set is a smooth tapered tube and its gradient norm is sqrt(1 + (dr/ds)^2), close
 * to 1 for the gentle tapers used here.
 */
export function taperedSegment(
  ax: number, ay: number, az: number, ra: number,
  bx: number, by: number, bz: number, rb: number,
): Sdf {
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const len2 = ux * ux + uy * uy + uz * uz;
  const inv = len2 > 0 ? 1 / len2 : 0;
  return (x, y, z) => {
    const px = x - ax, py = y - ay, pz = z - az;
    let t = (px * ux + py * uy + pz * uz) * inv;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    return len(px - t * ux, py - t * uy, pz - t * uz) - (ra + (rb - ra) * t);
  };
}

export function capsule(ax: number, ay: number, az: number, bx: number, by: number, bz: number, r: number): Sdf {
  return taperedSegment(ax, ay, az, r, bx, by, bz, r);
}

/** Union (exact outside, a lower bound inside). */
export function union(parts: readonly Sdf[]): Sdf {
  if (parts.length === 0) throw new Error('union of no SDFs');
  if (parts.length === 1) return parts[0];
  return (x, y, z) => {
    let d = Infinity;
    for (let i = 0; i < parts.length; i++) {
      const v = parts[i](x, y, z);
      if (v < d) d = v;
    }
    return d;
  };
}

/**
 * Polynomial smooth minimum (blend radius k): equals min(a, b) when |a - b| >= k and rounds
 * the crease otherwise, so limbs join the body with a fillet instead of a sharp notch that
 * would need a finer lattice.
 */
export function smoothMin(a: number, b: number, k: number): number {
  const h = Math.max(k - Math.abs(a - b), 0) / k;
  return Math.min(a, b) - h * h * k * 0.25;
}

/** A minus B. */
export function subtract(a: Sdf, b: Sdf): Sdf {
  return (x, y, z) => Math.max(a(x, y, z), -b(x, y, z));
}

export function intersect(a: Sdf, b: Sdf): Sdf {
  return (x, y, z) => Math.max(a(x, y, z), b(x, y, z));
}

/** Shell of thickness t centred on the zero set of f ("onion"): hollow solids. */
export function shell(f: Sdf, thickness: number): Sdf {
  const half = thickness / 2;
  return (x, y, z) => Math.abs(f(x, y, z)) - half;
}

/** A part of a bounded union: its SDF and a sphere that contains every point where it is <= 0. */
export interface BoundedPart {
  sdf: Sdf;
  cx: number;
  cy: number;
  cz: number;
  /** Radius R such that sdf(p) >= |p - c| - R everywhere (true for the primitives above when
   *  the sphere contains the primitive). */
  radius: number;
}

/**
 * Union of many parts (tentacles, arm segments) that skips a part when the distance to its
 * bounding sphere already exceeds the best value found: |p - c| - R is a lower bound of that
 * part's value, so the result is identical to the plain min while most parts are never
 * evaluated far from them.
 */
export function boundedUnion(parts: readonly BoundedPart[]): Sdf {
  if (parts.length === 0) throw new Error('union of no SDFs');
  const n = parts.length;
  const c = new Float64Array(4 * n);
  const fns = parts.map((p) => p.sdf);
  parts.forEach((p, i) => c.set([p.cx, p.cy, p.cz, p.radius], 4 * i));
  const lower = new Float64Array(n); // scratch (the closure is never re-entered)
  return (x, y, z) => {
    // The part with the smallest lower bound first: it usually holds the minimum, and its
    // value then culls nearly every other part.
    let first = 0;
    for (let i = 0; i < n; i++) {
      const dx = x - c[4 * i], dy = y - c[4 * i + 1], dz = z - c[4 * i + 2];
      lower[i] = Math.sqrt(dx * dx + dy * dy + dz * dz) - c[4 * i + 3];
      if (lower[i] < lower[first]) first = i;
    }
    let d = fns[first](x, y, z);
    for (let i = 0; i < n; i++) {
      if (i === first || lower[i] >= d) continue;
      const v = fns[i](x, y, z);
      if (v < d) d = v;
    }
    return d;
  };
}

/** Bounding sphere of a tapered segment (every swept sphere inside it). */
export function taperedSegmentPart(
  ax: number, ay: number, az: number, ra: number,
  bx: number, by: number, bz: number, rb: number,
): BoundedPart {
  const cx = (ax + bx) / 2, cy = (ay + by) / 2, cz = (az + bz) / 2;
  const half = len(bx - ax, by - ay, bz - az) / 2;
  return { sdf: taperedSegment(ax, ay, az, ra, bx, by, bz, rb), cx, cy, cz, radius: half + Math.max(ra, rb) };
}

export function spherePart(cx: number, cy: number, cz: number, r: number): BoundedPart {
  return { sdf: sphere(cx, cy, cz, r), cx, cy, cz, radius: r };
}

/** Tapered tube through a polyline as bounded parts (one per segment). */
export function taperedPolylineParts(points: Float64Array, radii: Float64Array): BoundedPart[] {
  const n = radii.length;
  if (points.length !== 3 * n || n < 2) throw new Error(`taperedPolyline: ${points.length / 3} points for ${n} radii (need >= 2, equal)`);
  const parts: BoundedPart[] = [];
  for (let i = 0; i + 1 < n; i++) {
    parts.push(
      taperedSegmentPart(
        points[3 * i], points[3 * i + 1], points[3 * i + 2], radii[i],
        points[3 * i + 3], points[3 * i + 4], points[3 * i + 5], radii[i + 1],
      ),
    );
  }
  return parts;
}

/**
 * Groups consecutive parts (segments of one arm, stretches of a tube) under one bounding
 * sphere each: a two-level bounded union, so a point far from a whole arm tests one sphere
 * instead of every segment. The group sphere contains every member sphere, so its lower bound
 * stays valid.
 */
export function groupParts(parts: readonly BoundedPart[], groupSize: number): BoundedPart[] {
  const groups: BoundedPart[][] = [];
  for (let s = 0; s < parts.length; s += groupSize) groups.push(parts.slice(s, s + groupSize));
  return groups.map(enclose);
}

/** One bounded part standing for a non-empty set of parts. */
export function enclose(members: readonly BoundedPart[]): BoundedPart {
  if (members.length === 0) throw new Error('enclose: empty group');
  let cx = 0, cy = 0, cz = 0;
  for (const p of members) {
    cx += p.cx / members.length;
    cy += p.cy / members.length;
    cz += p.cz / members.length;
  }
  let radius = 0;
  for (const p of members) radius = Math.max(radius, len(p.cx - cx, p.cy - cy, p.cz - cz) + p.radius);
  return { sdf: boundedUnion(members), cx, cy, cz, radius };
}
