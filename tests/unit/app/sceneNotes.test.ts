/**
 * What the page says about its scenes: every registry scene's note in the page has none of the
 * runner's flags and no "Default: ..." counts (the size line gives the size), and the first-load
 * defaults chosen by the adapter say the counts the generator really makes.
 * Truths: the registry's own descriptions; generateShape's tet counts.
 */
import { describe, expect, it } from 'vitest';
import { GPU_MESH_SCENE, meshSceneDefaults, SMALL_MESH_SCENE } from '../../../src/app/scene/adapterDefaults';
import { pageDescription, sizeLine, smallDefaultReason } from '../../../src/app/sceneNotes';
import { pageScenes } from '../../../src/app/scenePanel';
import { generateShape } from '../../../src/mesh/procedural/catalog';
import { findScene } from '../../../src/scenes/registry';

describe('scene notes', () => {
  it('every scene of the menu: a description without runner flags or default counts, and a size line', () => {
    for (const { name } of pageScenes().filter((s) => s.name !== 'mesh')) {
      const def = findScene(name);
      const text = pageDescription(def.description);
      expect(text, name).not.toMatch(/--|\bDefault\b/);
      expect(text.length, `${name}: "${text}"`).toBeGreaterThan(30);
      // Sentences end with a full stop and are separated by a space (never run together).
      expect(text, name).toMatch(/\.$/);
      expect(text, name).not.toMatch(/\.[A-Z]/);
      expect(sizeLine(def.size!, def.size!.small).startsWith(`Size: ${def.size!.label} ${def.size!.small} (default ${def.size!.default}; `), name).toBe(true);
    }
  });

  it('keeps what the page has and drops only what the runner has', () => {
    expect(pageDescription('Copies of the shared octopus (1184 vertices, 4069 tets each; --copies N, default 4) dropped into an open box. Default: 4736 vertices, 16276 tets.')).toBe(
      'Copies of the shared octopus (1184 vertices, 4069 tets each) dropped into an open box.',
    );
    expect(pageDescription('A noodle falls; from frame 90 (or --self-collision-from F) recovery is on. --resolution (default 110).')).toBe('A noodle falls; from frame 90 recovery is on.');
    expect(pageDescription('Cubes dropped on the ground plane: --copies N (default 4), --resolution (default 5).')).toBe('Cubes dropped on the ground plane.');
  });

  it('says why a small size was chosen only where it was', () => {
    expect(smallDefaultReason(false, false)).toBeUndefined();
    expect(smallDefaultReason(true, false)).toMatch(/software GPU adapter/);
    expect(smallDefaultReason(false, true)).toMatch(/CPU reference engine/);
  });
});

describe('first-load defaults by adapter', () => {
  it('small on a software adapter or the CPU engine, the interactive default on a GPU', () => {
    expect(meshSceneDefaults(true)).toBe(SMALL_MESH_SCENE);
    expect(meshSceneDefaults(false)).toBe(GPU_MESH_SCENE);
    expect(SMALL_MESH_SCENE.params.substeps! * SMALL_MESH_SCENE.params.iterations!).toBeLessThan(20 * 3);
  });

  it('the small default\'s note gives the tets the generator makes at its resolution', () => {
    const small = generateShape(SMALL_MESH_SCENE.shape, {}, SMALL_MESH_SCENE.resolution);
    expect(SMALL_MESH_SCENE.note).toContain(`resolution ${SMALL_MESH_SCENE.resolution} (${small.stats.tetCount.toLocaleString('en')} tets)`);
    expect(small.stats.tetCount).toBeLessThan(10_000);
    expect(GPU_MESH_SCENE.note).toContain(`resolution ${GPU_MESH_SCENE.resolution}`);
    expect(SMALL_MESH_SCENE.note).toContain(`on a GPU: resolution ${GPU_MESH_SCENE.resolution}`);
  });
});
