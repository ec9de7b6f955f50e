/** Seeded randomness for tests and benchmarks, so that every failure reproduces. */

/** Mulberry32: a small seeded PRNG, uniform in [0, 1); the same seed always gives the same sequence. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random point of tet `tet`: barycentric weights from four exponential draws, normalised
 * (uniform over the tet). Draws four numbers from `r`.
 */
export function randomInteriorPoint(positions: ArrayLike<number>, tets: ArrayLike<number>, tet: number, r: () => number): [number, number, number] {
  let w = [r(), r(), r(), r()].map((v) => -Math.log(v + 1e-300));
  const sum = w.reduce((a, b) => a + b, 0);
  w = w.map((v) => v / sum);
  const p: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < 4; i++) {
    const v = tets[4 * tet + i];
    for (let c = 0; c < 3; c++) p[c] += w[i] * positions[3 * v + c];
  }
  return p;
}
