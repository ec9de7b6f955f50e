/**
 * bench/peers hands our meshes to Rapier (npm @dimforge/rapier3d-compat) as particles, cells and
 * an outward boundary. Checked against truths that share no code with the conversion:
 *  - the surface's vertices are the boundary vertices found by the independent counter's own
 *    face counting (tests/support/intersectionCounter.ts);
 *  - divergence theorem: the volume the outward surface encloses, sum a . (b x c) / 6, equals
 *    the sum of the tets' volumes (a wrong winding gives the negative, a missing face a gap);
 *  - closed and consistently wound: every directed surface edge appears once, its reverse once;
 *  - Rapier itself, given the converted pile, reports the same particle, cell and boundary
 *    counts, masses summing to ours, and (its own measure) the same enclosed volume.
 */
import RAPIER from '@dimforge/rapier3d-compat';
import { describe, expect, it } from 'vitest';
import { buildRapierScene } from '../../../bench/peers/rapierScene';
import { outwardSurface } from '../../../bench/peers/surface';
import { buildModel } from '../../../src/sim/model';
import { defaultParams } from '../../../src/contract/params';
import { countedBoundaryVertices } from '../../support/intersectionCounter';
import { loadSharedTetArrays } from '../../support/sharedMeshes';

function tetVolume(p: ArrayLike<number>, tets: ArrayLike<number>): number {
  let sum = 0;
  for (let t = 0; t < tets.length / 4; t++) {
    const [a, b, c, d] = [0, 1, 2, 3].map((k) => tets[4 * t + k]);
    const u = [0, 1, 2].map((k) => p[3 * b + k] - p[3 * a + k]);
    const v = [0, 1, 2].map((k) => p[3 * c + k] - p[3 * a + k]);
    const w = [0, 1, 2].map((k) => p[3 * d + k] - p[3 * a + k]);
    sum += (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6;
  }
  return sum;
}

function enclosedVolume(p: ArrayLike<number>, tris: ArrayLike<number>): number {
  let sum = 0;
  for (let f = 0; f < tris.length / 3; f++) {
    const [a, b, c] = [0, 1, 2].map((k) => [p[3 * tris[3 * f + k]], p[3 * tris[3 * f + k] + 1], p[3 * tris[3 * f + k] + 2]]);
    sum += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
  }
  return sum;
}

describe('outwardSurface (bench/peers): the boundary handed to Rapier', () => {
  const mesh = loadSharedTetArrays('octopus_2KFaces.t');
  const tris = outwardSurface(mesh.tets);

  it('covers exactly the counter’s boundary vertices', () => {
    const fromSurface = [...new Set(tris)].sort((a, b) => a - b);
    expect(fromSurface).toEqual([...countedBoundaryVertices(mesh.tets, mesh.positions.length / 3)]);
  });

  it('encloses the tets’ volume (outward winding, no gap)', () => {
    const v = tetVolume(mesh.positions, mesh.tets);
    expect(v).toBeGreaterThan(0);
    expect(enclosedVolume(mesh.positions, tris)).toBeCloseTo(v, 6);
  });

  it('is closed and consistently wound', () => {
    const directed = new Map<string, number>();
    for (let f = 0; f < tris.length / 3; f++) {
      for (let k = 0; k < 3; k++) {
        const key = `${tris[3 * f + k]}>${tris[3 * f + ((k + 1) % 3)]}`;
        directed.set(key, (directed.get(key) ?? 0) + 1);
      }
    }
    for (const [key, n] of directed) {
      expect(n, key).toBe(1);
      const [a, b] = key.split('>');
      expect(directed.get(`${b}>${a}`), key).toBe(1);
    }
  });

  it('takes ids local to an object that starts at `first`', () => {
    const shifted = Uint32Array.from(mesh.tets, (v) => v + 100);
    expect([...outwardSurface(shifted, 100)]).toEqual([...tris]);
    expect(() => outwardSurface(shifted, 101)).toThrow(/before the object's first/);
  });

  it('Rapier builds the same particles, cells, masses, boundary and volume', async () => {
    await RAPIER.init();
    const material = { youngsModulus: 2e5, poissonRatio: 0.4, density: 1000 };
    const lifted = Float64Array.from(mesh.positions, (x, i) => (i % 3 === 1 ? x + 2 : x));
    const model = buildModel([
      { name: 'a', positions: mesh.positions, tets: mesh.tets, material },
      { name: 'b', positions: lifted, tets: mesh.tets, material },
    ]);
    const setup = { model, colliders: [{ kind: 'plane' as const, normal: [0, 1, 0] as const, offset: 0 }], handles: [], params: defaultParams({ substeps: 4, iterations: 2 }) };
    const scene = buildRapierScene(RAPIER, setup);
    const volume = tetVolume(mesh.positions, mesh.tets);
    let massSum = 0;
    for (let v = 0; v < model.vertexCount; v++) massSum += 1 / model.invMass[v];
    let rapierMass = 0;
    for (const body of scene.bodies) {
      expect(body.numParticles()).toBe(mesh.positions.length / 3);
      expect(body.numCells()).toBe(mesh.tets.length / 4);
      expect(body.boundary().length).toBe(tris.length);
      expect(body.restVolume()).toBeCloseTo(volume, 4);
      rapierMass += body.mass();
    }
    expect(rapierMass / massSum).toBeCloseTo(1, 5);
    const x = new Float64Array(3 * model.vertexCount);
    scene.readPositions(x);
    for (let i = 0; i < x.length; i++) expect(Math.abs(x[i] - model.restPositions[i])).toBeLessThan(1e-5);
    scene.world.free();
  });
});
