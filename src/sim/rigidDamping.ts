/**
 * Damping of deformation only (Müller, Heidelberger, Hennix, Ratcliff 2007, "Position based
 * dynamics", section 3.5), float64 CPU reference of shaders/xpbdRigidDamping.wgsl.
 *
 * Per object, the free vertices' velocities are split into the object's rigid motion
 * v_cm + omega x (x_i - x_cm), with omega = I^-1 L from its angular momentum L and inertia
 * tensor I about the centre of mass, and a deformation part; only the deformation part is
 * scaled by `factor` (max(0, 1 - damping h)). Linear and angular momentum are kept exactly:
 * sum m_i (v_i - rigid_i) = 0 and sum m_i r_i x (v_i - rigid_i) = L - I omega = 0. So a damped
 * body falls at g and a spinning one keeps spinning, while vibrations decay.
 *
 * Objects with handle vertices have no free rigid motion (their handles hold them): all of
 * their free vertices' velocity is damped, as before. Handle vertices and stopped objects
 * (inverse mass 0) are left alone.
 */
import type { Model } from './model';

/**
 * Relative Tikhonov term added to the inertia tensor: omega = (I + eps tr(I) Id)^-1 L. For a
 * body of volume it changes omega by ~3 eps relative (an angular momentum loss of 3e-6 x
 * (1 - factor) per substep); for a degenerate one (all free vertices on one line, or one
 * vertex) it keeps the solve finite, and the direction it invents, along the line, moves no
 * vertex (omega x r = 0 for r on the line).
 */
export const INERTIA_REGULARISATION = 1e-6;

/** Per object: 1 when any of its vertices is on a handle. */
export function objectsWithHandles(model: Model): Uint8Array {
  const out = new Uint8Array(model.objectNames.length);
  for (let v = 0; v < model.vertexCount; v++) if (model.handleOfVertex[v] >= 0) out[model.vertexObject[v]] = 1;
  return out;
}

/** Numbers per object in a rigid-motion record: centre of mass (3), v_cm (3), omega (3). */
export const RIGID_STRIDE = 9;

/**
 * Rigid motion of the free vertices (inverse mass w > 0) of [start, end) into out[o..o+9):
 * centre of mass, its velocity and omega. Returns false when no vertex is free. Positions are
 * summed relative to the range's first vertex (the GPU does so to avoid f32 cancellation;
 * the CPU follows the same formulas).
 */
export function rigidMotion(x: Float64Array, v: Float64Array, w: Float64Array, start: number, end: number, out: Float64Array, o: number): boolean {
  const rx0 = x[3 * start], ry0 = x[3 * start + 1], rz0 = x[3 * start + 2];
  let mass = 0;
  let sx = 0, sy = 0, sz = 0; // sum m r
  let px = 0, py = 0, pz = 0; // sum m v
  let lx = 0, ly = 0, lz = 0; // sum m r x v
  let cxx = 0, cyy = 0, czz = 0, cxy = 0, cxz = 0, cyz = 0; // sum m r r^T
  for (let i = start; i < end; i++) {
    if (!(w[i] > 0)) continue;
    const m = 1 / w[i];
    const rx = x[3 * i] - rx0, ry = x[3 * i + 1] - ry0, rz = x[3 * i + 2] - rz0;
    const vx = v[3 * i], vy = v[3 * i + 1], vz = v[3 * i + 2];
    mass += m;
    sx += m * rx; sy += m * ry; sz += m * rz;
    px += m * vx; py += m * vy; pz += m * vz;
    lx += m * (ry * vz - rz * vy); ly += m * (rz * vx - rx * vz); lz += m * (rx * vy - ry * vx);
    cxx += m * rx * rx; cyy += m * ry * ry; czz += m * rz * rz;
    cxy += m * rx * ry; cxz += m * rx * rz; cyz += m * ry * rz;
  }
  if (!(mass > 0)) return false;
  // Move the sums to the centre of mass c: L_c = L - M c x v_cm, C_c = C - M c c^T.
  const cx = sx / mass, cy = sy / mass, cz = sz / mass;
  const vx = px / mass, vy = py / mass, vz = pz / mass;
  lx -= mass * (cy * vz - cz * vy); ly -= mass * (cz * vx - cx * vz); lz -= mass * (cx * vy - cy * vx);
  cxx -= mass * cx * cx; cyy -= mass * cy * cy; czz -= mass * cz * cz;
  cxy -= mass * cx * cy; cxz -= mass * cx * cz; cyz -= mass * cy * cz;
  out[o] = rx0 + cx; out[o + 1] = ry0 + cy; out[o + 2] = rz0 + cz;
  out[o + 3] = vx; out[o + 4] = vy; out[o + 5] = vz;
  solveInertia(cxx, cyy, czz, cxy, cxz, cyz, lx, ly, lz, out, o + 6);
  return true;
}

/**
 * omega = I^-1 L with I = tr(C) Id - C (C = sum m r r^T about the centre of mass), regularised
 * (INERTIA_REGULARISATION) and scaled by tr(I)/3 so the 3x3 adjugate stays in range in f32
 * too. A zero or non-finite result gives omega = 0 (no rotation to keep).
 */
export function solveInertia(cxx: number, cyy: number, czz: number, cxy: number, cxz: number, cyz: number, lx: number, ly: number, lz: number, out: Float64Array, o: number): void {
  out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
  const tr = cxx + cyy + czz; // tr(I) = 2 tr(C)
  const s = (2 * tr) / 3;
  if (!(s > 0) || !Number.isFinite(s)) return;
  const d = 3 * INERTIA_REGULARISATION;
  const a = (tr - cxx) / s + d, b = (tr - cyy) / s + d, c = (tr - czz) / s + d;
  const e = -cxy / s, f = -cxz / s, g = -cyz / s; // off-diagonals xy, xz, yz
  // Adjugate of the symmetric [[a e f] [e b g] [f g c]].
  const A = b * c - g * g, B = a * c - f * f, C = a * b - e * e;
  const D = f * g - e * c, E = e * g - f * b, F = e * f - a * g; // xy, xz, yz cofactors
  const det = a * A + e * D + f * E;
  if (!(det > 0)) return;
  const k = 1 / (det * s);
  const wx = (A * lx + D * ly + E * lz) * k;
  const wy = (D * lx + B * ly + F * lz) * k;
  const wz = (E * lx + F * ly + C * lz) * k;
  if (!Number.isFinite(wx) || !Number.isFinite(wy) || !Number.isFinite(wz)) return;
  out[o] = wx; out[o + 1] = wy; out[o + 2] = wz;
}

/**
 * Scales every running object's deformation velocity by `factor` (section 3.5, step 6:
 * v_i <- rigid_i + factor (v_i - rigid_i)). `rigid` is scratch of RIGID_STRIDE per object.
 */
export function dampDeformation(
  model: Model, x: Float64Array, v: Float64Array, w: Float64Array, stopped: Uint8Array, hasHandles: Uint8Array, factor: number, rigid: Float64Array,
): void {
  const offsets = model.objectVertexOffsets;
  for (let ob = 0; ob < stopped.length; ob++) {
    if (stopped[ob]) continue;
    const start = offsets[ob], end = offsets[ob + 1];
    const o = RIGID_STRIDE * ob;
    if (hasHandles[ob] || !rigidMotion(x, v, w, start, end, rigid, o)) rigid.fill(0, o, o + RIGID_STRIDE);
    const cx = rigid[o], cy = rigid[o + 1], cz = rigid[o + 2];
    const vx = rigid[o + 3], vy = rigid[o + 4], vz = rigid[o + 5];
    const ox = rigid[o + 6], oy = rigid[o + 7], oz = rigid[o + 8];
    for (let i = start; i < end; i++) {
      if (!(w[i] > 0)) continue;
      const rx = x[3 * i] - cx, ry = x[3 * i + 1] - cy, rz = x[3 * i + 2] - cz;
      const ux = vx + oy * rz - oz * ry, uy = vy + oz * rx - ox * rz, uz = vz + ox * ry - oy * rx;
      v[3 * i] = ux + factor * (v[3 * i] - ux);
      v[3 * i + 1] = uy + factor * (v[3 * i + 1] - uy);
      v[3 * i + 2] = uz + factor * (v[3 * i + 2] - uz);
    }
  }
}

/**
 * Work tables of the GPU passes (shaders/xpbdRigidDamping.wgsl): each object's vertex range
 * cut into chunks of `chunk` vertices, one workgroup each. chunks: vec4<u32> (object, first
 * vertex, end vertex, 0); objects: vec4<u32> (first chunk, end chunk, has handles, first vertex).
 */
export function rigidDampingTables(model: Model, chunk: number): { chunks: Uint32Array; objects: Uint32Array; chunkCount: number } {
  const offsets = model.objectVertexOffsets;
  const objectCount = model.objectNames.length;
  const hasHandles = objectsWithHandles(model);
  let chunkCount = 0;
  for (let o = 0; o < objectCount; o++) chunkCount += Math.max(1, Math.ceil((offsets[o + 1] - offsets[o]) / chunk));
  const chunks = new Uint32Array(4 * chunkCount);
  const objects = new Uint32Array(4 * objectCount);
  let c = 0;
  for (let o = 0; o < objectCount; o++) {
    objects[4 * o] = c;
    for (let start = offsets[o]; ; start += chunk) {
      chunks.set([o, start, Math.min(start + chunk, offsets[o + 1]), 0], 4 * c++);
      if (start + chunk >= offsets[o + 1]) break;
    }
    objects.set([c, hasHandles[o], offsets[o]], 4 * o + 1);
  }
  return { chunks, objects, chunkCount };
}

/**
 * rigidDampingTables' objects and chunks in one vec4<u32> array, for a kernel that binds them as
 * one buffer (shaders/xpbdFinalizeDampWarm.wgsl, at the 10 storage buffers a kernel may bind):
 * [object count, 0, 0, 0], the objects, then the chunks (the objects' chunk ranges unchanged).
 */
export function dampingTableWords(tables: { chunks: Uint32Array; objects: Uint32Array }): Uint32Array {
  const words = new Uint32Array(4 + tables.objects.length + tables.chunks.length);
  words[0] = tables.objects.length / 4;
  words.set(tables.objects, 4);
  words.set(tables.chunks, 4 + tables.objects.length);
  return words;
}
