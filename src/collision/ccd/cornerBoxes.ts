/**
 * An element's box as the union of its corners' boxes (6 floats each: min xyz, max xyz), the
 * broad phase's inner loop (broadPhase.ts elementBoxes, ownPairCache.ts unionBoxes): the corners
 * in locals, one store per float.
 */
export function unionCornerBoxes(corners: Uint32Array, per: number, boxes: Float32Array, e: number, out: Float32Array, at: number): void {
  let b = 6 * corners[per * e];
  let x0 = boxes[b], y0 = boxes[b + 1], z0 = boxes[b + 2], x1 = boxes[b + 3], y1 = boxes[b + 4], z1 = boxes[b + 5];
  for (let c = 1; c < per; c++) {
    b = 6 * corners[per * e + c];
    if (boxes[b] < x0) x0 = boxes[b];
    if (boxes[b + 1] < y0) y0 = boxes[b + 1];
    if (boxes[b + 2] < z0) z0 = boxes[b + 2];
    if (boxes[b + 3] > x1) x1 = boxes[b + 3];
    if (boxes[b + 4] > y1) y1 = boxes[b + 4];
    if (boxes[b + 5] > z1) z1 = boxes[b + 5];
  }
  out[at] = x0;
  out[at + 1] = y0;
  out[at + 2] = z0;
  out[at + 3] = x1;
  out[at + 4] = y1;
  out[at + 5] = z1;
}
