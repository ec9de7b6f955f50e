/** A large deformation for BVH tests and benchmarks: a mesh twisted about its longest box axis. */

/** Twist about the longest box axis: `turns` full turns from one end to the other (f32 out). */
export function twist(x: Float32Array, turns: number): Float32Array {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < x.length; i++) {
    lo[i % 3] = Math.min(lo[i % 3], x[i]);
    hi[i % 3] = Math.max(hi[i % 3], x[i]);
  }
  const ext = [0, 1, 2].map((c) => hi[c] - lo[c]);
  const a = ext.indexOf(Math.max(...ext)), b = (a + 1) % 3, c = (a + 2) % 3;
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i += 3) {
    const angle = (2 * Math.PI * turns * (x[i + a] - lo[a])) / ext[a];
    const u = x[i + b] - 0.5 * (lo[b] + hi[b]), v = x[i + c] - 0.5 * (lo[c] + hi[c]);
    out[i + a] = x[i + a];
    out[i + b] = u * Math.cos(angle) - v * Math.sin(angle);
    out[i + c] = u * Math.sin(angle) + v * Math.cos(angle);
  }
  return out;
}
