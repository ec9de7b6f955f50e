import { describe, expect, it } from 'vitest';
import { buildSceneSurface } from '../../../src/app/render/sceneSurface';

/** Two objects: a unit right tet, and a right tet of legs 2 shifted along x. */
function twoTets() {
  const restPositions = new Float64Array([
    0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1,
    5, 0, 0, 7, 0, 0, 5, 2, 0, 5, 0, 2,
  ]);
  // Object 1 listed first in the tets: the surface still groups triangles by object.
  const tets = new Uint32Array([4, 5, 6, 7, 0, 1, 2, 3]);
  return { vertexCount: 8, tets, objectVertexOffsets: new Uint32Array([0, 4, 8]), vertexObject: new Uint32Array([0, 0, 0, 0, 1, 1, 1, 1]), restPositions };
}

describe('scene surface', () => {
  it('groups boundary triangles by object, each naming only its own vertices', () => {
    const s = buildSceneSurface(twoTets());
    expect([...s.objectTriangleOffsets]).toEqual([0, 4, 8]);
    for (let o = 0; o < 2; o++) {
      for (let t = s.objectTriangleOffsets[o]; t < s.objectTriangleOffsets[o + 1]; t++) {
        for (let k = 0; k < 3; k++) expect(Math.floor(s.triangles[3 * t + k] / 4)).toBe(o);
      }
    }
  });

  it('winds triangles outward (normal points away from the tet centroid)', () => {
    const m = twoTets();
    const s = buildSceneSurface(m);
    const p = m.restPositions;
    for (let t = 0; t < 8; t++) {
      const [a, b, c] = [0, 1, 2].map((k) => s.triangles[3 * t + k]);
      const base = 4 * Math.floor(a / 4);
      const centroid = [0, 1, 2].map((k) => (p[3 * base + k] + p[3 * (base + 1) + k] + p[3 * (base + 2) + k] + p[3 * (base + 3) + k]) / 4);
      const u = [0, 1, 2].map((k) => p[3 * b + k] - p[3 * a + k]);
      const w = [0, 1, 2].map((k) => p[3 * c + k] - p[3 * a + k]);
      const n = [u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]];
      const out = [0, 1, 2].map((k) => p[3 * a + k] - centroid[k]);
      expect(n[0] * out[0] + n[1] * out[1] + n[2] * out[2]).toBeGreaterThan(0);
    }
  });

  it('lists each vertex with its 3 incident triangles, and the mean edge length', () => {
    const s = buildSceneSurface(twoTets());
    expect([...s.boundaryVertices]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (let i = 0; i < 8; i++) {
      const list = [...s.vertexTriangles.subarray(s.vertexTriangleOffsets[i], s.vertexTriangleOffsets[i + 1])];
      expect(list.length).toBe(3);
      for (const t of list) expect([...s.triangles.subarray(3 * t, 3 * t + 3)]).toContain(i);
    }
    // Edges: 1,1,1,sqrt2 x3 for the first tet, twice that for the second.
    const expected = (3 * (3 + 3 * Math.SQRT2)) / 12;
    expect(s.meanEdgeLength).toBeCloseTo(expected, 12);
  });

  it('rejects offsets that do not cover the vertices', () => {
    const m = { ...twoTets(), objectVertexOffsets: new Uint32Array([0, 4, 7]) };
    expect(() => buildSceneSurface(m)).toThrow(/ends at 7, the model has 8 vertices/);
  });
});
