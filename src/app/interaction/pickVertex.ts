/**
 * Which boundary vertex the mouse points at: among the boundary vertices within `radius` of the
 * mouse ray, the one nearest the camera (so a click grabs the surface in front, not one behind
 * it). Positions come from a readback at the click (they live on the GPU). No DOM or three.js.
 */
export interface Ray {
  origin: readonly [number, number, number];
  /** Unit direction. */
  direction: readonly [number, number, number];
}

export interface PickedVertex {
  vertex: number;
  position: [number, number, number];
  /** Distance along the ray. */
  along: number;
}

export function pickVertex(positions: ArrayLike<number>, boundaryVertices: ArrayLike<number>, ray: Ray, radius: number): PickedVertex | undefined {
  const [ox, oy, oz] = ray.origin;
  const [dx, dy, dz] = ray.direction;
  let best: PickedVertex | undefined;
  for (let i = 0; i < boundaryVertices.length; i++) {
    const v = boundaryVertices[i]!;
    const px = positions[3 * v]! - ox, py = positions[3 * v + 1]! - oy, pz = positions[3 * v + 2]! - oz;
    const along = px * dx + py * dy + pz * dz;
    if (!(along > 0)) continue;
    const off2 = px * px + py * py + pz * pz - along * along;
    if (off2 > radius * radius) continue;
    if (!best || along < best.along) best = { vertex: v, position: [positions[3 * v]!, positions[3 * v + 1]!, positions[3 * v + 2]!], along };
  }
  return best;
}

/** Where the mouse ray meets the plane through `point` facing the camera (normal = -view direction). */
export function dragTarget(ray: Ray, point: readonly [number, number, number], viewDirection: readonly [number, number, number]): [number, number, number] | undefined {
  const [nx, ny, nz] = viewDirection;
  const denom = ray.direction[0] * nx + ray.direction[1] * ny + ray.direction[2] * nz;
  if (Math.abs(denom) < 1e-9) return undefined;
  const t = ((point[0] - ray.origin[0]) * nx + (point[1] - ray.origin[1]) * ny + (point[2] - ray.origin[2]) * nz) / denom;
  if (!(t > 0)) return undefined;
  return [ray.origin[0] + t * ray.direction[0], ray.origin[1] + t * ray.direction[1], ray.origin[2] + t * ray.direction[2]];
}
