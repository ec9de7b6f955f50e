/**
 * Materials set per object (src/sim/model.ts setObjectMaterials, the runner's --young/--poisson/
 * --density and the page's links): each object's mass is its density times its rest volume (the
 * light-vertex floor moves mass between vertices, never between objects); setting several at once
 * gives the model that setting them one at a time gives; a bad change is refused naming the
 * object and leaves the model as it was.
 */
import { describe, expect, it } from 'vitest';
import { cubeStack } from '../../../src/scenes/cubeStack';
import { setObjectMaterial, setObjectMaterials, type Model } from '../../../src/sim/model';

const build = (): Model => cubeStack.build({ copies: 3, resolution: 2 }).model;

/** Each object's mass from the inverse masses (no handles in the stack). */
function objectMasses(model: Model): number[] {
  const mass = new Array<number>(model.objectNames.length).fill(0);
  for (let v = 0; v < model.vertexCount; v++) mass[model.vertexObject[v]] += 1 / model.invMass[v];
  return mass;
}

/** Each object's rest volume, from its tets' corners (the model's own restVolume is not used). */
function objectVolumes(model: Model): number[] {
  const volume = new Array<number>(model.objectNames.length).fill(0);
  const p = (v: number, k: number) => model.restPositions[3 * v + k];
  for (let t = 0; t < model.tetCount; t++) {
    const [a, b, c, d] = [0, 1, 2, 3].map((k) => model.tets[4 * t + k]);
    const e = [0, 1, 2].map((k) => [p(b, k) - p(a, k), p(c, k) - p(a, k), p(d, k) - p(a, k)]);
    const det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
    volume[model.tetObject[t]] += Math.abs(det) / 6;
  }
  return volume;
}

describe('materials set per object', () => {
  const materials = [
    { youngsModulus: 2e5, poissonRatio: 0.3, density: 500 },
    { youngsModulus: 7e6, poissonRatio: 0.45, density: 1200 },
    { youngsModulus: 1e4, poissonRatio: 0.1, density: 3000 },
  ];

  it('each object weighs its density times its rest volume, and all at once equals one at a time', () => {
    const batch = build();
    setObjectMaterials(batch, materials.map((m, o) => [o, m] as const));
    const volumes = objectVolumes(batch);
    objectMasses(batch).forEach((m, o) => expect(Math.abs(m / (materials[o].density * volumes[o]) - 1), `object ${o}`).toBeLessThan(1e-12));
    const single = build();
    materials.forEach((m, o) => setObjectMaterial(single, o, m));
    expect(Array.from(batch.invMass)).toEqual(Array.from(single.invMass));
    expect(Array.from(batch.tetConstants)).toEqual(Array.from(single.tetConstants));
    expect(batch.materials).toEqual(materials);
  });

  it('a bad change is refused naming the object, and no material or mass changes', () => {
    const model = build();
    const before = { materials: structuredClone(model.materials), invMass: model.invMass.slice() };
    expect(() => setObjectMaterials(model, [[0, materials[0]], [2, { ...materials[2], density: 0 }]])).toThrow(`object 2 (${model.objectNames[2]}): density must be positive, got 0`);
    expect(() => setObjectMaterials(model, [[0, materials[0]], [3, materials[1]]])).toThrow('no object 3');
    expect(model.materials).toEqual(before.materials);
    expect(Array.from(model.invMass)).toEqual(Array.from(before.invMass));
  });
});
