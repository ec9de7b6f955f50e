/**
 * The stencils of isosurface stuffing (Labelle & Shewchuk 2007, Sec. 3, Fig. 3): how a BCC
 * tet whose vertices are inside (-), on the surface (0) or outside (+) is filled with tets
 * that cover exactly its inside part, the region bounded by its faces and by the cut points
 * on its -/+ edges.
 *
 * Up to symmetry there are six cut cases (counts of -, 0, +):
 *   (1,0,3) one tet;  (1,1,2) one tet;  (1,2,1) one tet;
 *   (2,1,1) a pyramid: two tets;  (2,0,2) and (3,0,1) a triangular prism: three tets.
 * A quadrilateral that lies on a face of the BCC tet is shared with the neighbouring BCC tet,
 * so its diagonal must be chosen from the face alone (the caller's `uWins`), otherwise the
 * mesh would not conform. A prism can be cut into three tets without a new vertex exactly
 * when its three quad diagonals do not form a cycle (Dompierre et al. 1999); the face rules
 * used here never form one for (3,0,1), and the free quad of (2,0,2), which lies on the
 * isosurface and is shared with nobody, is chosen to break any cycle.
 *
 * Points are integer codes: a lattice vertex id (>= 0) or a cut point (negative, from `cut`).
 */
export interface StencilContext {
  /** Code of the cut point on lattice edge u-w (u, w of opposite signs). */
  cut(u: number, w: number): number;
  /**
   * For the quadrilateral (u, w, cut(w,o), cut(u,o)) on the BCC face (u, w, o) with u, w
   * inside and o outside: true when its diagonal is u - cut(w,o), false for w - cut(u,o).
   * Must depend on the face only (it is called from both tets sharing the face).
   */
  uWins(u: number, w: number, o: number): boolean;
  /** Squared distance between two points (to pick the shorter free diagonal). */
  dist2(p: number, q: number): number;
  /** Outputs one tet (any vertex order; the caller orients it). */
  emit(a: number, b: number, c: number, d: number): void;
}

const neg = new Int32Array(4);
const zer = new Int32Array(4);
const pos = new Int32Array(4);

/**
 * Fills one BCC tet with vertices v[0..3] and signs s[0..3] (-1, 0, +1) that has at least one
 * inside and one outside vertex.
 */
export function fillCutTet(ctx: StencilContext, v: ArrayLike<number>, s: ArrayLike<number>): void {
  let nn = 0, nz = 0, np = 0;
  for (let i = 0; i < 4; i++) {
    if (s[i] < 0) neg[nn++] = v[i];
    else if (s[i] > 0) pos[np++] = v[i];
    else zer[nz++] = v[i];
  }
  if (nn === 0 || np === 0) throw new Error(`fillCutTet: tet ${v[0]},${v[1]},${v[2]},${v[3]} is not cut`);
  if (nn === 1) {
    const a = neg[0];
    if (np === 3) ctx.emit(a, ctx.cut(a, pos[0]), ctx.cut(a, pos[1]), ctx.cut(a, pos[2]));
    else if (np === 2) ctx.emit(a, zer[0], ctx.cut(a, pos[0]), ctx.cut(a, pos[1]));
    else ctx.emit(a, zer[0], zer[1], ctx.cut(a, pos[0]));
    return;
  }
  if (nn === 2 && nz === 1) {
    // Pyramid: apex on the surface, base quad (a, b, cut(b,c), cut(a,c)) on face (a, b, c).
    const a = neg[0], b = neg[1], z = zer[0], c = pos[0];
    const ac = ctx.cut(a, c), bc = ctx.cut(b, c);
    if (ctx.uWins(a, b, c)) {
      ctx.emit(z, a, b, bc);
      ctx.emit(z, a, bc, ac);
    } else {
      ctx.emit(z, a, b, ac);
      ctx.emit(z, b, bc, ac);
    }
    return;
  }
  if (nn === 2) {
    // Prism: triangles (a, ac, ad) and (b, bc, bd); quads on faces abc and abd, and the free
    // quad (ac, ad, bd, bc) on the isosurface.
    const a = neg[0], b = neg[1], c = pos[0], d = pos[1];
    const ac = ctx.cut(a, c), ad = ctx.cut(a, d), bc = ctx.cut(b, c), bd = ctx.cut(b, d);
    const b01 = ctx.uWins(a, b, c), b02 = ctx.uWins(a, b, d);
    let b12: boolean;
    if (b01 && !b02) b12 = false; // 0 > 1 and 2 > 0: 1 > 2 would close a cycle
    else if (!b01 && b02) b12 = true; // 1 > 0 and 0 > 2: need 1 > 2
    else b12 = ctx.dist2(ac, bd) <= ctx.dist2(ad, bc);
    splitPrism(ctx, a, ac, ad, b, bc, bd, b01, b02, b12);
    return;
  }
  // nn === 3, np === 1: prism with triangles (a, b, c) and their cuts toward d.
  const a = neg[0], b = neg[1], c = neg[2], d = pos[0];
  splitPrism(
    ctx, a, b, c, ctx.cut(a, d), ctx.cut(b, d), ctx.cut(c, d),
    ctx.uWins(a, b, d), ctx.uWins(a, c, d), ctx.uWins(b, c, d),
  );
}

/**
 * Splits the prism with bottom (x0, x1, x2) and top (y0, y1, y2) (xi - yi are its lateral
 * edges) into three tets. bij says the diagonal of lateral quad (i, j) is xi - yj (else xj - yi).
 * The vertex k whose bottom point starts both of its diagonals takes the top triangle as one
 * tet; the other two tets fill the pyramid x_k + quad (j, l).
 */
export function splitPrism(
  ctx: StencilContext,
  x0: number, x1: number, x2: number, y0: number, y1: number, y2: number,
  b01: boolean, b02: boolean, b12: boolean,
): void {
  let xk: number, yk: number, xj: number, yj: number, xl: number, yl: number, bjl: boolean;
  if (b01 && b02) [xk, yk, xj, yj, xl, yl, bjl] = [x0, y0, x1, y1, x2, y2, b12];
  else if (!b01 && b12) [xk, yk, xj, yj, xl, yl, bjl] = [x1, y1, x0, y0, x2, y2, b02];
  else if (!b02 && !b12) [xk, yk, xj, yj, xl, yl, bjl] = [x2, y2, x0, y0, x1, y1, b01];
  else throw new Error('splitPrism: the three quad diagonals form a cycle (no split without a Steiner point)');
  ctx.emit(xk, yk, yj, yl);
  if (bjl) {
    ctx.emit(xk, xj, xl, yl);
    ctx.emit(xk, xj, yl, yj);
  } else {
    ctx.emit(xk, xl, xj, yj);
    ctx.emit(xk, xl, yj, yl);
  }
}
