/**
 * Isosurface stuffing on analytic shapes with known answers: sphere volume convergence, the
 * paper's dihedral-angle guarantee on smooth well-sampled surfaces, the BCC structure of the
 * interior, surface vertices on the isosurface, boundary topology (sphere vs torus).
 */
import { describe, expect, it } from 'vitest';
import { buildShapeSdf, findShape, latticeSpacing } from '../../../src/mesh/procedural/catalog';
import { stuffIsosurface } from '../../../src/mesh/procedural/isosurfaceStuffing';
import { tetQuality } from '../../../src/mesh/procedural/quality';
import { sphere, type Sdf } from '../../../src/mesh/procedural/sdf';
import { boundaryReport, signedVolume } from './meshChecks';
import { rng } from '../../support/random';

const ball = (r: number, c = [0, 0, 0]) => ({
  sdf: sphere(c[0], c[1], c[2], r),
  bounds: { min: [c[0] - r, c[1] - r, c[2] - r] as [number, number, number], max: [c[0] + r, c[1] + r, c[2] + r] as [number, number, number] },
});

/** Torus around the y axis (major R, minor r), written here from its definition. */
function torus(R: number, r: number, tilt: number): { sdf: Sdf; bounds: { min: [number, number, number]; max: [number, number, number] } } {
  const c = Math.cos(tilt), s = Math.sin(tilt);
  const sdf: Sdf = (x, y, z) => {
    const yy = c * y - s * z, zz = s * y + c * z; // rotate about x
    return Math.hypot(Math.hypot(x, zz) - R, yy) - r;
  };
  const e = R + r;
  return { sdf, bounds: { min: [-e, -e, -e], max: [e, e, e] } };
}

describe('isosurface stuffing', () => {
  it('converges to the volume of a sphere, 4/3 pi r^3, as the lattice is refined', () => {
    const r = 0.5, exact = (4 / 3) * Math.PI * r ** 3;
    const errors = [8, 16, 32].map((cells) => {
      const out = stuffIsosurface({ ...ball(r, [0.013, -0.021, 0.007]), spacing: (2 * r) / cells });
      return Math.abs(tetQuality(out.positions, out.tets).totalVolume - exact) / exact;
    });
    expect(errors[1]).toBeLessThan(errors[0]);
    expect(errors[2]).toBeLessThan(errors[1]);
    // The surface error is O(h^2): halving h should cut it by well over half.
    expect(errors[2]).toBeLessThan(0.5 * errors[1]);
    expect(errors[2]).toBeLessThan(0.003);
  });

  it('keeps every dihedral angle in the paper\'s [10.7, 164.8] degrees on smooth, well-sampled surfaces', () => {
    const rand = rng(3);
    for (let trial = 0; trial < 12; trial++) {
      const shape = trial % 3 === 2
        ? torus(0.5, 0.2 + 0.05 * rand(), rand())
        : ball(0.4 + 0.4 * rand(), [0.1 * rand(), 0.1 * rand(), 0.1 * rand()]);
      const spacing = trial % 3 === 2 ? 0.04 + 0.02 * rand() : 0.06 + 0.06 * rand();
      const out = stuffIsosurface({ ...shape, spacing });
      const q = tetQuality(out.positions, out.tets);
      expect(q.invertedCount).toBe(0);
      expect(q.minDihedralDeg).toBeGreaterThanOrEqual(10.7);
      expect(q.maxDihedralDeg).toBeLessThanOrEqual(164.8);
    }
  });

  it('produces a conforming mesh whose boundary has the surface\'s topology (sphere 2, torus 0)', () => {
    for (const [shape, chi] of [[ball(0.5), 2], [torus(0.5, 0.2, 0.3), 0]] as const) {
      const out = stuffIsosurface({ ...shape, spacing: 0.05 });
      const b = boundaryReport(out.positions.length / 3, out.tets);
      expect(b.overusedFaces).toBe(0);
      expect(b.sameSideFaces).toBe(0);
      expect(b.nonManifoldEdges).toBe(0);
      expect(b.nonManifoldVertices).toBe(0);
      expect(b.eulerCharacteristic).toBe(chi);
    }
  });

  it('puts every boundary vertex on the isosurface and keeps deep tets as exact BCC tets', () => {
    const r = 0.5, h = 0.05;
    const { sdf, bounds } = ball(r);
    const out = stuffIsosurface({ sdf, bounds, spacing: h });
    const P = out.positions, T = out.tets;
    // Boundary vertices: those of faces used once (by the test's own face count).
    const faceUse = new Map<string, number>();
    const faces = [[1, 2, 3], [0, 3, 2], [0, 1, 3], [0, 2, 1]];
    for (let t = 0; t < T.length / 4; t++) {
      for (const f of faces) {
        const k = f.map((i) => T[4 * t + i]).sort((a, b) => a - b).join(',');
        faceUse.set(k, (faceUse.get(k) ?? 0) + 1);
      }
    }
    let boundaryVerts = 0, worst = 0;
    const seen = new Set<number>();
    for (const [k, n] of faceUse) {
      if (n !== 1) continue;
      for (const v of k.split(',').map(Number)) {
        if (seen.has(v)) continue;
        seen.add(v);
        boundaryVerts++;
        worst = Math.max(worst, Math.abs(sdf(P[3 * v], P[3 * v + 1], P[3 * v + 2])));
      }
    }
    expect(boundaryVerts).toBeGreaterThan(100);
    expect(worst).toBeLessThan(1e-6); // float32 positions of exact roots
    // Tets entirely deeper than h are untouched BCC tets: volume h^3/12, two edges of length h
    // (one per grid) and four of h sqrt(3)/2.
    let deep = 0;
    for (let t = 0; t < T.length / 4; t++) {
      const vs = [0, 1, 2, 3].map((i) => T[4 * t + i]);
      if (!vs.every((v) => sdf(P[3 * v], P[3 * v + 1], P[3 * v + 2]) < -h)) continue;
      deep++;
      expect(signedVolume(P, T, t)).toBeCloseTo(h ** 3 / 12, 9);
      const lengths = [];
      for (let i = 0; i < 4; i++) for (let j = i + 1; j < 4; j++) {
        lengths.push(Math.hypot(P[3 * vs[i]] - P[3 * vs[j]], P[3 * vs[i] + 1] - P[3 * vs[j] + 1], P[3 * vs[i] + 2] - P[3 * vs[j] + 2]));
      }
      lengths.sort((a, b) => a - b);
      for (let i = 0; i < 4; i++) expect(lengths[i]).toBeCloseTo((h * Math.sqrt(3)) / 2, 6);
      for (let i = 4; i < 6; i++) expect(lengths[i]).toBeCloseTo(h, 6);
    }
    expect(deep).toBeGreaterThan(1000);
  });

  it('reports progress monotonically up to 1', () => {
    const seen: number[] = [];
    stuffIsosurface({ ...ball(0.5), spacing: 0.1, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(5);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen[seen.length - 1]).toBe(1);
  });

  it('gives the same mesh with and without skipping lattice blocks far from the surface', () => {
    for (const name of ['squishyBall', 'noodle', 'octopus']) {
      const s = buildShapeSdf(name);
      const spacing = latticeSpacing(s, Math.round(0.7 * findShape(name).defaultResolution));
      const fast = stuffIsosurface({ sdf: s.sdf, bounds: s.bounds, spacing });
      const full = stuffIsosurface({ sdf: s.sdf, bounds: s.bounds, spacing, skipFarBlocks: false });
      expect(fast.tets.length / 4).toBeGreaterThan(2000);
      expect(fast.tets).toEqual(full.tets);
      expect(fast.positions).toEqual(full.positions);
    }
  });

  it('rejects an SDF that returns NaN, naming the point', () => {
    const sdf: Sdf = (x, y, z) => (x > 0.2 ? NaN : Math.hypot(x, y, z) - 0.5);
    expect(() => stuffIsosurface({ ...ball(0.5), sdf, spacing: 0.1 })).toThrow(/SDF returned NaN at \(0\.2\d*/);
  });

  it('rejects empty bounds and non-positive spacing with a clear message', () => {
    const { sdf } = ball(0.5);
    expect(() => stuffIsosurface({ sdf, bounds: { min: [0, 0, 0], max: [1, 0, 1] }, spacing: 0.1 })).toThrow(/empty bounds on axis y/);
    expect(() => stuffIsosurface({ ...ball(0.5), spacing: 0 })).toThrow(/spacing 0 must be positive/);
  });
});
