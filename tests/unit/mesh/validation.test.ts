import { describe, expect, it } from 'vitest';
import { readSharedMesh } from '../../support/sharedMeshes';
import { MeshValidationError } from '../../../src/mesh/errors';
import { parseGaiaT } from '../../../src/mesh/io/gaiaT';
import { buildTetMesh } from '../../../src/mesh/tetMesh';
import type { TetMeshArrays } from '../../../src/mesh/types';
import { enclosedVolume, surfaceFacts, totalVolume } from './meshChecks';

function arrays(points: number[][], tets: number[][]): TetMeshArrays {
  return { positions: new Float32Array(points.flat()), tets: new Uint32Array(tets.flat()) };
}

/** The error thrown by build, for message and issue checks. */
function failure(a: TetMeshArrays, options = {}): MeshValidationError {
  try {
    buildTetMesh(a, options);
  } catch (e) {
    expect(e).toBeInstanceOf(MeshValidationError);
    return e as MeshValidationError;
  }
  throw new Error('expected buildTetMesh to throw');
}

const O = [0, 0, 0], X = [1, 0, 0], Y = [0, 1, 0], Z = [0, 0, 1], BELOW = [0.2, 0.2, -1], ABOVE2 = [0.3, 0.3, 2];

describe('validation errors name the elements', () => {
  it('NaN / infinite coordinates: vertex ids', () => {
    const e = failure(arrays([O, X, [NaN, 0, 0], Z, [0, Infinity, 1]], [[0, 1, 3, 2]]), { source: 'nan.t' });
    expect(e.message).toBe('nan.t: 2 vertices with a NaN or infinite coordinate: 2, 4');
    expect(e.issues.map((i) => i.element)).toEqual([2, 4]);
  });

  it('index out of range and repeated vertex: tet ids', () => {
    const e = failure(arrays([O, X, Y, Z], [[0, 1, 2, 3], [0, 1, 2, 9], [0, 1, 1, 3]]));
    expect(e.message).toContain('1 tet with a vertex index out of range (the mesh has 4 vertices): 1');
    expect(e.message).toContain('1 tet using the same vertex twice: 2');
  });

  it('degenerate tets are found with a threshold relative to the tet size', () => {
    const flat = arrays([O, X, Y, [0.5, 0.5, 0], Z], [[0, 1, 2, 4], [0, 1, 2, 3]]);
    expect(failure(flat).message).toMatch(/^1 tet degenerate .*: 1$/);
    // The same shapes scaled to 1e-3 and 1e4: a small but healthy tet passes at any scale.
    for (const s of [1e-3, 1e4]) {
      const scaled = arrays([O, X, Y, Z].map((p) => p.map((c) => c * s)), [[0, 1, 2, 3]]);
      expect(buildTetMesh(scaled).mesh.restVolumes[0]).toBeCloseTo(s ** 3 / 6, 10);
      const flatScaled = arrays([O, X, Y, [0.5, 0.5, 0]].map((p) => p.map((c) => c * s)), [[0, 1, 2, 3]]);
      expect(failure(flatScaled).message).toContain('degenerate');
    }
  });

  it('a face shared by three tets is non-manifold', () => {
    const e = failure(arrays([O, X, Y, Z, BELOW, ABOVE2], [[0, 1, 2, 3], [0, 2, 1, 4], [0, 1, 2, 5]]));
    expect(e.message).toContain('3 tets having a face shared by more than two tets (non-manifold): 0, 1, 2');
  });

  it('two tets on the same side of a shared face overlap', () => {
    const e = failure(arrays([O, X, Y, Z, ABOVE2], [[0, 1, 2, 3], [0, 1, 2, 4]]));
    expect(e.message).toContain('2 tets on the same side of a shared face (overlapping or duplicated tets): 0, 1');
  });

  it('two tets touching along an edge only make a non-manifold boundary', () => {
    // Tet B is tet A mirrored through the edge 0-1 (x axis) so they share just that edge.
    const e = failure(arrays([O, X, Y, Z, [0, -1, 0], [0, 0, -1]], [[0, 1, 2, 3], [0, 1, 4, 5]]));
    expect(e.message).toContain('1 boundary edges shared by more than two boundary triangles (non-manifold boundary): 0-1 (tets');
  });

  it('mixed orientation lists the inverted tets', () => {
    const e = failure(arrays([O, X, Y, Z, BELOW], [[0, 1, 2, 3], [0, 1, 2, 4]]));
    expect(e.message).toBe('1 tet inverted (negative volume) while 1 are positive: mixed orientation: 1');
  });

  it('long id lists are cut after 10 with a count', () => {
    const points = [O, X, Y, Z];
    const tets = Array.from({ length: 25 }, () => [0, 1, 2, 7]);
    expect(failure(arrays(points, tets)).message).toContain('25 tets with a vertex index out of range (the mesh has 4 vertices): 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 15 more');
  });

  it('messages from a loaded file carry the file and line', () => {
    const text = 'Vertex 0 0 0 0\nVertex 1 1 0 0\nVertex 2 0 1 0\nVertex 3 1 1 0\nVertex 4 0 0 1\nTet 0 0 1 2 4\nTet 1 0 1 2 3\n';
    const loaded = parseGaiaT(text, 'flat.t');
    const e = failure(loaded, loaded);
    expect(e.message).toMatch(/^flat\.t: 1 tet degenerate .*: 1 \(line 7\)$/);
    expect(e.issues[0]).toMatchObject({ element: 1, line: 7 });
  });

  it('shape errors and empty meshes', () => {
    expect(failure({ positions: new Float32Array(4), tets: new Uint32Array(4) }).message).toContain('positions length 4 is not a multiple of 3');
    expect(failure({ positions: new Float32Array(12), tets: new Uint32Array(0) }).message).toContain('the mesh has no tets');
  });
});

describe('repairs with warnings', () => {
  it('unused vertices are dropped and tets reindexed', () => {
    const { mesh, warnings } = buildTetMesh(arrays([[9, 9, 9], O, X, [8, 8, 8], Y, Z], [[1, 2, 4, 5]]));
    expect(warnings).toEqual([{ message: 'dropped 2 vertices used by no tet: 0, 3' }]);
    expect(Array.from(mesh.tets)).toEqual([0, 1, 2, 3]);
    expect(Array.from(mesh.positions)).toEqual([O, X, Y, Z].flat());
  });

  it('a consistently inverted real mesh is flipped: same surface, reversed input orientation', () => {
    const src = parseGaiaT(readSharedMesh('Cuboid.t'), 'Cuboid.t');
    const inverted = src.tets.slice();
    for (let t = 0; t < inverted.length / 4; t++) [inverted[4 * t], inverted[4 * t + 1]] = [inverted[4 * t + 1], inverted[4 * t]];
    const { mesh, warnings } = buildTetMesh({ positions: src.positions, tets: inverted });
    expect(warnings.map((w) => w.message)).toEqual(['every tet was inverted (negative volume); flipped all 2136 tets (swapped local vertices 2 and 3)']);
    const reference = buildTetMesh(src).mesh;
    expect(totalVolume(mesh)).toBeCloseTo(totalVolume(reference), 9);
    const s = surfaceFacts(mesh.boundaryTriangles);
    expect(s.closedOriented).toBe(true);
    expect(enclosedVolume(mesh.positions, mesh.boundaryTriangles)).toBeCloseTo(totalVolume(reference), 6);
    for (let t = 0; t < mesh.tetCount; t++) expect(mesh.restVolumes[t]).toBeGreaterThan(0);
  });

  it('two tets sharing only a vertex: accepted, with a warning naming the pinched vertex', () => {
    const { mesh, warnings } = buildTetMesh(arrays([O, X, Y, Z, [-1, 0, 0], [0, -1, 0], [0, 0, -1]], [[0, 1, 2, 3], [0, 4, 6, 5]]));
    expect(warnings).toEqual([{ message: '1 boundary vertices where the surface touches itself (more than one triangle fan): 0' }]);
    expect(mesh.boundaryTriangles.length).toBe(24);
  });

  it('objectIds: a vertex shared by two objects is an error; length must match', () => {
    const a = arrays([O, X, Y, Z, BELOW], [[0, 1, 2, 3], [0, 2, 1, 4]]);
    expect(failure(a, { objectIds: new Uint32Array([0, 1]) }).message).toBe('3 vertices shared by tets of different objects: 0, 1, 2');
    expect(failure(a, { objectIds: new Uint32Array([0]) }).message).toContain('objectIds has 1 entries but the mesh has 2 tets');
  });
});
