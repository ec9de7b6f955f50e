import { describe, expect, it } from 'vitest';
import { CpuDetector } from '../../../src/collision/cpu/detectCpu';
import { CpuQueryList } from '../../../src/collision/cpu/queryList';
import { outwardBoundary, windingNumber } from '../../support/windingNumber';
import { foldedCubeAndProbes, sceneOf } from './scenes';

/**
 * Hybrid's Pin marks in another body's fold (docs/collisions.md "Pin marks in folds"): a point is
 * Pin at a substep's start only when it is inside the other body's surface. The truth is the
 * winding number of that surface (tests/support/windingNumber.ts, solid angles; no code shared with
 * src/), and a brute-force point-in-tet test written here. The scene: a cube whose top centre
 * vertex is pushed through its centre (tets inside out), a probe tet in the pit (outside the cube,
 * its first corner inside a positive tet of it), a probe tet inside the cube. Alg. 5 as written
 * (CpuDetector.pinInFolds) marks the pit's corner Pin: the check can fail.
 */
function strictlyInPositiveTet(x: Float64Array, tets: Uint32Array, object: Uint32Array, o: number, p: number[]): boolean {
  const vol = (q: number[][]) => {
    const u = [0, 1, 2].map((k) => q[1][k] - q[0][k]), v = [0, 1, 2].map((k) => q[2][k] - q[0][k]), w = [0, 1, 2].map((k) => q[3][k] - q[0][k]);
    return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
  };
  for (let t = 0; t < tets.length / 4; t++) {
    if (object[t] !== o) continue;
    const c = [0, 1, 2, 3].map((j) => [0, 1, 2].map((k) => x[3 * tets[4 * t + j] + k]));
    if (!(vol(c) > 0)) continue;
    if ([0, 1, 2, 3].every((j) => vol(c.map((q, i) => (i === j ? p : q))) > 0)) return true;
  }
  return false;
}

describe('Pin marks in folds (hybrid, Alg. 5 line 1)', () => {
  it("a point is Pin only inside the other body's surface: not in a fold outside it, as Alg. 5 as written marks it", () => {
    const { rest, x } = foldedCubeAndProbes();
    const scene = sceneOf(rest);
    const m = scene.mesh;
    const cubeTets = rest[0].tets;
    const surface = outwardBoundary(cubeTets, rest[0].positions);
    const mark = (pinInFolds: boolean) => {
      const detector = new CpuDetector(m);
      detector.pinInFolds = pinInFolds;
      const pin = new Uint8Array(m.vertexCount + m.boundaryEdges.length / 2);
      const pinned = detector.markPenetrating(x, { selfCollision: true, recovery: false, euclidean: false }, pin, new CpuQueryList());
      return { pin, pinned, inFold: detector.pinInFoldCount, inverted: detector.volume6.filter((v) => v < 0).length };
    };
    const folds = mark(false), plain = mark(true);
    const cubeVertices = rest[0].positions.length / 3;
    const pitCorner = cubeVertices, insideCorner = cubeVertices + 4;
    const at = (v: number) => [x[3 * v], x[3 * v + 1], x[3 * v + 2]];
    // The scene is what it claims: tets inside out, the pit's corner outside the surface yet in a positive tet.
    expect(folds.inverted).toBeGreaterThan(0);
    expect(Math.abs(windingNumber(surface, x, at(pitCorner)))).toBeLessThan(1e-9);
    expect(strictlyInPositiveTet(x, m.tets, m.tetObject, 0, at(pitCorner))).toBe(true);
    expect(Math.abs(windingNumber(surface, x, at(insideCorner)) - 1)).toBeLessThan(1e-9);
    const rows: string[] = [];
    for (let v = cubeVertices; v < m.vertexCount; v++) {
      const w = windingNumber(surface, x, at(v));
      rows.push(`vertex ${v}: winding ${w.toFixed(3)}, Pin ${folds.pin[v]} (as written ${plain.pin[v]})`);
      expect(folds.pin[v] !== 0, `vertex ${v} (winding ${w.toFixed(3)})`).toBe(Math.abs(w) > 0.5);
    }
    console.log(rows.join('\n'));
    expect(plain.pin[pitCorner]).not.toBe(0);
    // The points left Pout are counted (counters.pinInFold): the pit's 4 corners and its edges that a positive tet holds.
    expect(folds.inFold).toBe(plain.pinned - folds.pinned);
    expect(folds.inFold).toBeGreaterThanOrEqual(4);
    expect(plain.inFold).toBe(0);
  });
});
