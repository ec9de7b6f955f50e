/**
 * Every scene of the registry as built at its smallest and default sizes (issue 10): the
 * counts each description states and defaultCounts hold at the default size; every tet
 * positively oriented (signed volume computed here); every object one connected piece
 * (union-find over shared tet vertices, written here) so the smallest size has not cut a
 * tentacle or a tail off; handles and colliders consistent (checkSetup, every collider
 * encoded at two times); sizes outside the range, or off the step, refused by the scene and
 * by the runner's --size with the range in the message; an explicit resolution or copies
 * wins over the size; a scene that needs a shared mesh names its key and file without it.
 */
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRunArgs, UsageError, type RunOptions } from '../../../src/runner/args';
import { readMeshFile } from '../../../src/runner/meshFile';
import { buildScene, checkSceneFlags } from '../../../src/runner/sceneSetup';
import { findScene, scenes } from '../../../src/scenes/registry';
import type { SceneDefinition, SceneMesh, SceneOptions } from '../../../src/scenes/types';
import { COLLIDER_STRIDE, encodeCollider } from '../../../src/sim/colliders';
import type { Model } from '../../../src/sim/model';
import { checkSetup } from '../../../src/sim/setup';
import { sharedMeshPath } from '../../support/sharedMeshes';

const meshCache = new Map<string, SceneMesh>();
function shared(file: string): SceneMesh {
  const name = basename(file);
  if (!meshCache.has(name)) meshCache.set(name, readMeshFile(sharedMeshPath(name)));
  return meshCache.get(name)!;
}

/** What the runner would hand the scene: its shared meshes, and its default mesh file (Cube.t where it takes any). */
function inputs(scene: SceneDefinition): SceneOptions {
  const meshes: Record<string, SceneMesh> = {};
  for (const [key, file] of Object.entries(scene.meshFiles ?? {})) meshes[key] = shared(file);
  const mesh = scene.accepts.includes('mesh') ? shared(scene.defaultMeshFile ?? 'Cube.t') : undefined;
  return { meshes, mesh };
}

function minSignedVolume(m: Model): number {
  const x = m.restPositions;
  let min = Infinity;
  for (let t = 0; t < m.tetCount; t++) {
    const p = [0, 1, 2, 3].map((i) => 3 * m.tets[4 * t + i]);
    const e = [1, 2, 3].map((i) => [x[p[i]] - x[p[0]], x[p[i] + 1] - x[p[0] + 1], x[p[i] + 2] - x[p[0] + 2]]);
    const det = e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) - e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) + e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0]);
    min = Math.min(min, det / 6);
  }
  return min;
}

/** Connected pieces of each object (vertices joined by shared tets; vertices in no tet count as pieces). */
function piecesPerObject(m: Model): number[] {
  const parent = new Int32Array(m.vertexCount).map((_, i) => i);
  const root = (v: number): number => {
    while (parent[v] !== v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (let t = 0; t < m.tetCount; t++) for (let i = 1; i < 4; i++) parent[root(m.tets[4 * t + i])] = root(m.tets[4 * t]);
  const out: number[] = [];
  for (let o = 0; o < m.objectNames.length; o++) {
    const roots = new Set<number>();
    for (let v = m.objectVertexOffsets[o]; v < m.objectVertexOffsets[o + 1]; v++) roots.add(root(v));
    out.push(roots.size);
  }
  return out;
}

function options(...argv: string[]): RunOptions {
  const c = parseRunArgs(argv);
  if (c.kind !== 'run') throw new Error('expected a run');
  return c.options;
}

const sized = scenes.filter((s) => s.size);
const PAPER_SCENES = [
  'octopus-box', 'octopus-pile', 'noodle-bowl', 'noodle-recovery', 'squishy-squeeze', 'squishy-head-on', 'squishy-recovery',
  'squishy-bowl', 'beam-twist', 'rods-twist', 'rod-knot', 'cube-on-cuboid', 'mesh-pile',
];

describe('scene sizes', () => {
  it('every paper scene is registered with a size whose values are ordered, on the step and take the option the scene reads', () => {
    for (const name of PAPER_SCENES) expect(findScene(name).size, name).toBeDefined();
    for (const s of sized) {
      const z = s.size!;
      expect(s.accepts, s.name).toContain(z.option);
      expect(z.min <= z.small && z.small <= z.default && z.default <= z.max, `${s.name} ${JSON.stringify(z)}`).toBe(true);
      expect(z.min <= z.paper && z.paper <= z.max, s.name).toBe(true);
      for (const v of [z.min, z.max, z.small, z.default, z.paper]) expect(Number.isInteger(v) && (v - z.min) % z.step === 0, `${s.name} ${v}`).toBe(true);
      expect(z.label.length > 0 && z.note.length > 0, s.name).toBe(true);
    }
    // Scenes without a size are those whose size is the mesh they are given.
    expect(scenes.filter((s) => !s.size).map((s) => s.name).sort()).toEqual(['drop', 'head-on', 'shoot']);
  });

  for (const s of sized) {
    it(`${s.name}: builds at its smallest and default sizes (counts, orientation, one piece per object, setup consistent)`, () => {
      const z = s.size!;
      for (const size of [z.min, z.default]) {
        const setup = s.build({ ...inputs(s), size });
        const m = setup.model;
        expect(m.tetCount, `${s.name} size ${size}`).toBeGreaterThan(0);
        expect(minSignedVolume(m), `${s.name} size ${size}`).toBeGreaterThan(0);
        expect(piecesPerObject(m), `${s.name} size ${size}`).toEqual(m.objectNames.map(() => 1));
        expect(() => checkSetup(setup)).not.toThrow();
        const enc = new Float64Array(COLLIDER_STRIDE);
        for (const c of setup.colliders) for (const t of [0, 5]) expect(() => encodeCollider(c, t, enc, 0)).not.toThrow();
        // Every handle id a vertex uses has a script, and every script is used.
        const used = new Set(Array.from(m.handleOfVertex).filter((h) => h >= 0));
        expect(used.size, s.name).toBe(setup.handles.length);
        if (size === z.default && s.defaultCounts) {
          expect({ vertices: m.vertexCount, tets: m.tetCount }, s.name).toEqual(s.defaultCounts);
          expect(s.description, s.name).toContain(`${m.vertexCount} vertices, ${m.tetCount} tets`);
        }
      }
    });
  }

  it('the paper scenes state their default counts (all but mesh-pile, whose counts are its mesh\'s), each under the interactive budget', () => {
    for (const name of PAPER_SCENES) {
      const s = findScene(name);
      if (name === 'mesh-pile') continue;
      expect(s.defaultCounts, name).toBeDefined();
      expect(s.defaultCounts!.tets, name).toBeLessThanOrEqual(20000);
    }
  });

  it('cheap scenes build at their largest size too', () => {
    for (const name of ['cube-stack', 'mesh-pile', 'cube-on-cuboid']) {
      const s = findScene(name);
      const m = s.build({ ...inputs(s), size: s.size!.max }).model;
      expect(m.objectNames.length, name).toBeGreaterThanOrEqual(s.size!.max);
      expect(minSignedVolume(m), name).toBeGreaterThan(0);
    }
  });

  it('a size outside the range or off the step is refused, by the scene and by the runner, with the range', () => {
    for (const s of sized) {
      const z = s.size!;
      for (const bad of [z.min - 1, z.max + 1, z.min + 0.5]) {
        expect(() => s.build({ ...inputs(s), size: bad }), `${s.name} ${bad}`).toThrow(new RegExp(`size ${bad} of scene ${s.name} .* \\[${z.min}, ${z.max}\\]`));
      }
    }
    const squeeze = findScene('squishy-squeeze');
    const { max } = squeeze.size!;
    expect(() => checkSceneFlags(squeeze, options('--scene', 'squishy-squeeze', '--size', String(max + 1)))).toThrow(UsageError);
    expect(() => checkSceneFlags(squeeze, options('--scene', 'squishy-squeeze', '--size', String(max + 1)))).toThrow(`--size ${max + 1}: size ${max + 1} of scene squishy-squeeze`);
    expect(() => checkSceneFlags(findScene('drop'), options('--scene', 'drop', '--mesh', 'a.t', '--size', '3'))).toThrow(/scene drop has no size/);
    expect(() => parseRunArgs(['--scene', 'cube-stack', '--size', '0'])).toThrow(/--size must be an integer >= 1/);
  });

  it('the runner\'s --size reaches the scene; an explicit --copies or --resolution wins', () => {
    expect(buildScene(findScene('cube-stack'), options('--scene', 'cube-stack', '--size', '3'), undefined).model.objectNames).toHaveLength(3);
    expect(buildScene(findScene('cube-stack'), options('--scene', 'cube-stack', '--size', '3', '--copies', '2'), undefined).model.objectNames).toHaveLength(2);
    const beam = findScene('cantilever');
    const bySize = buildScene(beam, options('--scene', 'cantilever', '--size', '16'), undefined).model.tetCount;
    expect(bySize).toBe(beam.build({ resolution: 16 }).model.tetCount);
    expect(beam.build({ size: 16, resolution: 40 }).model.tetCount).toBe(beam.defaultCounts!.tets);
  });

  it('scenes with shared meshes name them and fail clearly without them; the runner reads them from the project root', () => {
    for (const s of scenes.filter((x) => x.meshFiles)) {
      for (const [key, file] of Object.entries(s.meshFiles!)) {
        expect(() => s.build({}), s.name).toThrow(`scene ${s.name} needs the mesh "${Object.keys(s.meshFiles!)[0]}"`);
        expect(file.startsWith('../shared/meshes/'), `${s.name} ${key}`).toBe(true);
      }
    }
    const box = findScene('octopus-box');
    expect(buildScene(box, options('--scene', 'octopus-box', '--size', '1'), undefined).model.tetCount).toBe(4069);
  });

  it("octopus-box runs paper 000 Table 1's step for Fig. 9: h = 3.3e-3 s x 5 iterations at 60 fps (5 substeps)", () => {
    const p = buildScene(findScene('octopus-box'), options('--scene', 'octopus-box', '--size', '1'), undefined).params;
    expect(p.dt).toBeCloseTo(1 / 60, 12);
    expect(p.dt / p.substeps).toBeCloseTo(3.3e-3, 4);
    expect(p.iterations).toBe(5);
  });
});
