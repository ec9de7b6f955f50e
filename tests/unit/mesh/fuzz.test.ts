/**
 * Corrupts real shared files (and .msh files written from one) with a seeded PRNG: truncation,
 * garbage tokens, huge header counts, negative indices, swapped/deleted/duplicated lines.
 * Every case must end in a MeshParseError, a MeshValidationError, or a mesh that passes the
 * independent checks; never another exception, a hang, or an unbounded allocation.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../../support/random';
import { readSharedMesh } from '../../support/sharedMeshes';
import { MeshParseError, MeshValidationError } from '../../../src/mesh/errors';
import { parseGaiaT } from '../../../src/mesh/io/gaiaT';
import { writeGmsh22, writeGmsh41 } from '../../../src/mesh/io/gmsh';
import { loadTetMesh, type MeshFileInput } from '../../../src/mesh/io/loadMeshFile';
import { surfaceFacts } from './meshChecks';

const GARBAGE = ['nan', 'NaN', '-1', '1e999', 'abc', '99999999999', '4294967295', '$Nodes', '$EndElements', '0x1F', '-0', '1.5', 'Tet', 'Vertex', 'CELLS', '#', '\n', '\t', '', '1e-400', '+7', '..'];
const HUGE = ['4294967295', '2147483648', '99999999999999', '1000000000', '123456789'];
const HEADER = /(^|\$Nodes\n|\$Elements\n|POINTS |CELLS |CELL_TYPES |OFFSETS )(\d+)/g;

type Rand = () => number;
const pick = <T,>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** Replace the integer token that starts at or after a random offset. */
function replaceIntegerToken(r: Rand, text: string, by: (old: string) => string): string {
  const re = /\d+/g;
  re.lastIndex = Math.floor(r() * text.length);
  const m = re.exec(text) ?? (re.lastIndex = 0, re.exec(text));
  if (!m) return text;
  return text.slice(0, m.index) + by(m[0]) + text.slice(m.index + m[0].length);
}

function mutate(r: Rand, text: string): { text: string; kind: string } {
  const kind = pick(r, ['truncate', 'garbage', 'hugeCount', 'negative', 'swapLines', 'deleteLine', 'duplicateLine', 'hugeToken']);
  switch (kind) {
    case 'truncate':
      return { kind, text: text.slice(0, Math.floor(r() * text.length)) };
    case 'garbage': {
      const at = Math.floor(r() * text.length);
      return { kind, text: `${text.slice(0, at)} ${pick(r, GARBAGE)} ${text.slice(at)}` };
    }
    case 'hugeCount': {
      const matches = [...text.matchAll(HEADER)];
      if (matches.length === 0) return { kind, text: replaceIntegerToken(r, text, () => pick(r, HUGE)) };
      const m = pick(r, matches);
      const start = m.index! + m[1].length;
      return { kind, text: text.slice(0, start) + pick(r, HUGE) + text.slice(start + m[2].length) };
    }
    case 'negative':
      return { kind, text: replaceIntegerToken(r, text, (old) => `-${old}`) };
    case 'hugeToken':
      return { kind, text: replaceIntegerToken(r, text, () => pick(r, HUGE)) };
    default: {
      const lines = text.split('\n');
      const i = Math.floor(r() * lines.length), j = Math.floor(r() * lines.length);
      if (kind === 'swapLines') [lines[i], lines[j]] = [lines[j], lines[i]];
      else if (kind === 'deleteLine') lines.splice(i, 1);
      else lines.splice(i, 0, lines[j]);
      return { kind, text: lines.join('\n') };
    }
  }
}

function sources(): MeshFileInput[][] {
  const beam = parseGaiaT(readSharedMesh('Beam.t'), 'Beam.t');
  return [
    [{ name: 'Beam_lowRes.t', text: readSharedMesh('Beam_lowRes.t') }],
    [{ name: 'GlassBox.t', text: readSharedMesh('GlassBox.t') }],
    [
      { name: 'octopus_2KFaces.1.node', text: readSharedMesh('octopus_2KFaces.1.node') },
      { name: 'octopus_2KFaces.1.ele', text: readSharedMesh('octopus_2KFaces.1.ele') },
    ],
    [{ name: 'octopus_2KFaces.1.vtk', text: readSharedMesh('octopus_2KFaces.1.vtk') }],
    [{ name: 'Beam22.msh', text: writeGmsh22(beam) }],
    [{ name: 'Beam41.msh', text: writeGmsh41(beam) }],
  ];
}

describe('fuzzing the loaders with corrupted real files', () => {
  it('400 corruptions: a MeshParseError, a MeshValidationError, or a valid mesh', () => {
    const r = rng(20231116);
    const bases = sources();
    const outcomes = { parse: 0, validation: 0, valid: 0 };
    const kinds = new Map<string, number>();
    let slowest = 0;
    for (let i = 0; i < 400; i++) {
      const files = bases[i % bases.length].map((f) => ({ ...f }));
      const mutations = 1 + Math.floor(r() * 3);
      const applied: string[] = [];
      for (let k = 0; k < mutations; k++) {
        const target = files[Math.floor(r() * files.length)];
        const m = mutate(r, target.text);
        target.text = m.text;
        applied.push(m.kind);
        kinds.set(m.kind, (kinds.get(m.kind) ?? 0) + 1);
      }
      const label = `case ${i} (${files.map((f) => f.name).join('+')}: ${applied.join(', ')})`;
      const start = performance.now();
      try {
        const { mesh } = loadTetMesh(files);
        outcomes.valid++;
        // Independent check of the accepted mesh: closed oriented boundary, finite positive volumes.
        expect(surfaceFacts(mesh.boundaryTriangles).closedOriented, label).toBe(true);
        for (let t = 0; t < mesh.tetCount; t++) expect(mesh.restVolumes[t] > 0 && Number.isFinite(mesh.restVolumes[t]), label).toBe(true);
        for (let k = 0; k < mesh.positions.length; k++) expect(Number.isFinite(mesh.positions[k]), label).toBe(true);
      } catch (e) {
        if (process.env.FUZZ_VERBOSE) console.log(label, (e as Error).message.slice(0, 200));
        if (e instanceof MeshParseError) {
          outcomes.parse++;
          expect(e.message.startsWith(e.file), label).toBe(true);
        } else if (e instanceof MeshValidationError) {
          outcomes.validation++;
          expect(e.issues.length, label).toBeGreaterThan(0);
        } else {
          throw new Error(`${label}: unexpected ${(e as Error).name}: ${(e as Error).message}`);
        }
      }
      slowest = Math.max(slowest, performance.now() - start);
    }
    // Every outcome and every mutation kind was exercised, so the test can fail each way.
    expect(outcomes.parse).toBeGreaterThan(50);
    expect(outcomes.validation).toBeGreaterThan(5);
    expect(outcomes.valid).toBeGreaterThan(5);
    expect(kinds.size).toBe(8);
    // A hang guard (runaway loops, giant allocations), not a speed measurement.
    expect(slowest).toBeLessThan(5000);
  });
});
