import { describe, expect, it } from 'vitest';
import { buildPageScene, MESH_SCENE_DEFAULTS, type PageSceneSource } from '../../../src/app/scene/pageScene';
import { SMALL_MESH_SCENE } from '../../../src/app/scene/adapterDefaults';
import { hexGridBox } from '../../../src/mesh/procedural/hexGridBox';

function meshSource(copies: number): Extract<PageSceneSource, { kind: 'mesh' }> {
  const box = hexGridBox([0.2, 0.1, 0.2], [2, 1, 2], [0, 0.05, 0]);
  return {
    kind: 'mesh',
    name: 'box',
    positions: Float32Array.from(box.positions),
    tets: box.tets,
    copies,
    defaults: { ...SMALL_MESH_SCENE.params },
  };
}

describe('the page mesh scene', () => {
  it('one copy or several: the mesh scene\'s damping and the adapter\'s budget, the user\'s parameters on top', () => {
    for (const copies of [1, 3]) {
      const source = meshSource(copies);
      const vertices = source.positions.length / 3;
      const scene = buildPageScene(source, { params: {}, materials: {} });
      const p = scene.setup.params;
      expect(scene.setup.model.objectNames.length, `copies ${copies}`).toBe(copies);
      expect(scene.setup.model.vertexCount, `copies ${copies}`).toBe(copies * vertices);
      expect(p.damping, `copies ${copies}`).toBe(MESH_SCENE_DEFAULTS.damping);
      expect(p.substeps, `copies ${copies}`).toBe(SMALL_MESH_SCENE.params.substeps);
      expect(p.iterations, `copies ${copies}`).toBe(SMALL_MESH_SCENE.params.iterations);
      const user = buildPageScene(source, { params: { damping: 7, substeps: 9 }, materials: {} }).setup.params;
      expect([user.damping, user.substeps, user.iterations], `copies ${copies}`).toEqual([7, 9, SMALL_MESH_SCENE.params.iterations]);
    }
    // Copies fall onto each other: the pile keeps its collisions on.
    const pile = buildPageScene(meshSource(3), { params: {}, materials: {} }).setup.params;
    expect([pile.collisions, pile.selfCollision]).toEqual([true, true]);
  });
});
