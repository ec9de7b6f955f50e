/**
 * Framing without a browser: frameBox puts the camera where every corner of the box projects
 * inside the uncovered part of the view (with its margin), and one corner touches that edge, so
 * the box is as large as it can be. Truth: each corner projected by hand through a pinhole
 * camera (the camera basis, the depth along the view direction, x / depth against tan(half fov)).
 */
import { describe, expect, it } from 'vitest';
import { cameraBasis, frameBox, type Vec3 } from '../../../src/app/render/framing';
import { rng } from '../../support/random';

function project(p: Vec3, position: Vec3, target: Vec3): { x: number; y: number; depth: number } {
  const { u, v, w } = cameraBasis([position[0] - target[0], position[1] - target[1], position[2] - target[2]]);
  const d: Vec3 = [p[0] - position[0], p[1] - position[1], p[2] - position[2]];
  const depth = -(d[0] * w[0] + d[1] * w[1] + d[2] * w[2]);
  return { x: (d[0] * u[0] + d[1] * u[1] + d[2] * u[2]) / depth, y: (d[0] * v[0] + d[1] * v[1] + d[2] * v[2]) / depth, depth };
}

describe('frameBox', () => {
  it('every corner inside the view with the margin, one on its edge, for random boxes, directions and aspects', () => {
    const random = rng(11);
    for (let trial = 0; trial < 200; trial++) {
      const min: Vec3 = [random() * 10 - 5, random() * 10 - 5, random() * 10 - 5];
      // Boxes from flat (a ground-level mesh) to tall (a standing noodle).
      const max: Vec3 = [min[0] + 0.01 + random() * 4, min[1] + 0.01 + random() * 8, min[2] + 0.01 + random() * 4];
      const direction: Vec3 = [random() * 2 - 1, 0.1 + random(), random() * 2 - 1];
      const fovYDeg = 20 + random() * 60;
      const aspect = 0.4 + random() * 2.5;
      const margin = 0.1;
      const f = frameBox({ min, max, direction, fovYDeg, aspect, margin });
      const tanY = Math.tan((fovYDeg * Math.PI) / 360);
      const tanX = tanY * aspect;
      let worst = 0;
      for (let c = 0; c < 8; c++) {
        const p: Vec3 = [c & 1 ? max[0] : min[0], c & 2 ? max[1] : min[1], c & 4 ? max[2] : min[2]];
        const q = project(p, f.position, f.target);
        expect(q.depth, `trial ${trial}: corner behind the camera`).toBeGreaterThan(0);
        const used = Math.max(Math.abs(q.x) / tanX, Math.abs(q.y) / tanY);
        expect(used, `trial ${trial} corner ${c}`).toBeLessThanOrEqual((1 - margin) * (1 + 1e-9));
        worst = Math.max(worst, used);
      }
      // Tight: a corner touches the margin (unless the camera had to stay out of the box's sphere).
      if (f.distance > 1.05 * f.radius * (1 + 1e-9)) expect(worst, `trial ${trial}`).toBeCloseTo(1 - margin, 9);
    }
  });

  it('refuses empty boxes and impossible views, naming them', () => {
    expect(() => frameBox({ min: [0, 0, 0], max: [-1, 1, 1], direction: [0, 0, 1], fovYDeg: 40, aspect: 1 })).toThrow(/empty/);
    expect(() => frameBox({ min: [0, 0, 0], max: [1, 1, 1], direction: [0, 0, 1], fovYDeg: 180, aspect: 1 })).toThrow(/fovYDeg/);
    expect(() => frameBox({ min: [0, 0, 0], max: [1, 1, 1], direction: [0, 0, 0], fovYDeg: 40, aspect: 1 })).toThrow(/zero direction/);
  });
});
