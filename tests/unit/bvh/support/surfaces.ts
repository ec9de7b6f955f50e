/** Seeded test inputs: triangle soups and smooth deformations. */
import { rng } from '../../../support/random';

/** n independent random triangles of size ~`size` inside a cube of side `extent`. */
export function triangleSoup(n: number, extent: number, size: number, seed: number): { positions: Float32Array; triangles: Uint32Array } {
  const r = rng(seed);
  const positions = new Float32Array(9 * n);
  const triangles = new Uint32Array(3 * n);
  for (let t = 0; t < n; t++) {
    const cx = r() * extent, cy = r() * extent, cz = r() * extent;
    for (let k = 0; k < 3; k++) {
      positions[9 * t + 3 * k] = cx + (r() - 0.5) * size;
      positions[9 * t + 3 * k + 1] = cy + (r() - 0.5) * size;
      positions[9 * t + 3 * k + 2] = cz + (r() - 0.5) * size;
      triangles[3 * t + k] = 3 * t + k;
    }
  }
  return { positions, triangles };
}

/** A closed UV sphere (poles shared), radius `radius`. */
export function uvSphere(slices: number, stacks: number, radius: number): { positions: Float32Array; triangles: Uint32Array } {
  const pos: number[] = [0, 0, radius];
  for (let i = 1; i < stacks; i++) {
    const th = (Math.PI * i) / stacks;
    for (let j = 0; j < slices; j++) {
      const ph = (2 * Math.PI * j) / slices;
      pos.push(radius * Math.sin(th) * Math.cos(ph), radius * Math.sin(th) * Math.sin(ph), radius * Math.cos(th));
    }
  }
  pos.push(0, 0, -radius);
  const south = pos.length / 3 - 1;
  const ring = (i: number, j: number): number => 1 + (i - 1) * slices + (j % slices);
  const tri: number[] = [];
  for (let j = 0; j < slices; j++) tri.push(0, ring(1, j), ring(1, j + 1));
  for (let i = 1; i < stacks - 1; i++) {
    for (let j = 0; j < slices; j++) {
      tri.push(ring(i, j), ring(i + 1, j), ring(i + 1, j + 1), ring(i, j), ring(i + 1, j + 1), ring(i, j + 1));
    }
  }
  for (let j = 0; j < slices; j++) tri.push(south, ring(stacks - 1, j + 1), ring(stacks - 1, j));
  return { positions: new Float32Array(pos), triangles: new Uint32Array(tri) };
}

/** A smooth bend-and-twist of every vertex (large displacement, continuous), scaled by `size`. */
export function deform(positions: Float32Array, size: number, amount: number, seed: number): Float32Array {
  const r = rng(seed);
  const k1 = (1 + r()) / size, k2 = (1 + r()) / size, ph = r() * 6;
  const out = new Float32Array(positions.length);
  for (let v = 0; v < positions.length; v += 3) {
    const x = positions[v], y = positions[v + 1], z = positions[v + 2];
    const a = amount * Math.sin(k1 * z + ph);
    out[v] = x * Math.cos(a) - y * Math.sin(a) + amount * size * 0.3 * Math.sin(k2 * y);
    out[v + 1] = x * Math.sin(a) + y * Math.cos(a);
    out[v + 2] = z + amount * size * 0.2 * Math.cos(k1 * x + ph);
  }
  return out;
}
