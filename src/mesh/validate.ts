/**
 * Per-element validation of raw tet arrays: shapes, finite coordinates, index ranges,
 * repeated vertices, degenerate and inverted tets. Topological checks (faces shared by more
 * than two tets, non-manifold boundary) live in faceTopology.ts / boundaryTopology.ts.
 */
import { MeshValidationError, listIds } from './errors';
import type { MeshIssue, TetMeshArrays } from './types';

/**
 * A tet is degenerate when |6V| <= DEGENERATE_RELATIVE * (longest edge)^3. Relative, because
 * the shared meshes range from 1 cm to 20 units: an absolute threshold (the authors' code used
 * |6V| < 1e-5) rejects most tets of small meshes and none of big ones.
 */
export const DEGENERATE_RELATIVE = 1e-12;

/** Where a mesh came from, so that messages can name the file and the line of an element. */
export interface MeshSourceInfo {
  /** File name (or a description such as "procedural box"). */
  source?: string;
  /** 1-based line of each vertex / tet in the source file, when a loader knows it. */
  vertexLines?: Uint32Array;
  tetLines?: Uint32Array;
}

export function describeTet(id: number, info: MeshSourceInfo): string {
  const line = info.tetLines?.[id];
  return line ? `${id} (line ${line})` : String(id);
}

export function describeVertex(id: number, info: MeshSourceInfo): string {
  const line = info.vertexLines?.[id];
  return line ? `${id} (line ${line})` : String(id);
}

/** Builds the issue list and throws when any kind of problem was found. */
export class IssueCollector {
  private readonly parts: string[] = [];
  readonly issues: MeshIssue[] = [];

  constructor(private readonly info: MeshSourceInfo) {}

  /** Records one kind of problem for many elements; `kind` reads "3 tets ... : <ids>". */
  addTets(ids: number[], problem: string): void {
    if (ids.length === 0) return;
    const noun = ids.length === 1 ? 'tet' : 'tets';
    this.parts.push(`${ids.length} ${noun} ${problem}: ${listIds(ids, (id) => describeTet(id, this.info))}`);
    for (const id of ids) this.issues.push(this.issue(`tet ${problem}`, id, this.info.tetLines));
  }

  addVertices(ids: number[], problem: string): void {
    if (ids.length === 0) return;
    const noun = ids.length === 1 ? 'vertex' : 'vertices';
    this.parts.push(`${ids.length} ${noun} ${problem}: ${listIds(ids, (id) => describeVertex(id, this.info))}`);
    for (const id of ids) this.issues.push(this.issue(`vertex ${problem}`, id, this.info.vertexLines));
  }

  addMessage(message: string): void {
    this.parts.push(message);
    this.issues.push({ message });
  }

  throwIfAny(): void {
    if (this.parts.length === 0) return;
    throw new MeshValidationError(this.parts.join('; '), this.issues, this.info.source);
  }

  private issue(message: string, element: number, lines: Uint32Array | undefined): MeshIssue {
    const line = lines?.[element];
    return line ? { message, element, line } : { message, element };
  }
}

/** Array shapes, finite coordinates, index range, repeated vertex within a tet. */
export function validateStructure(arrays: TetMeshArrays, info: MeshSourceInfo): void {
  const { positions, tets } = arrays;
  const out = new IssueCollector(info);
  if (positions.length % 3 !== 0) out.addMessage(`positions length ${positions.length} is not a multiple of 3`);
  if (tets.length % 4 !== 0) out.addMessage(`tets length ${tets.length} is not a multiple of 4`);
  if (tets.length < 4) out.addMessage('the mesh has no tets');
  out.throwIfAny();

  const vertexCount = positions.length / 3;
  const tetCount = tets.length / 4;
  const nonFinite: number[] = [];
  for (let v = 0; v < vertexCount; v++) {
    if (!Number.isFinite(positions[3 * v]) || !Number.isFinite(positions[3 * v + 1]) || !Number.isFinite(positions[3 * v + 2])) {
      nonFinite.push(v);
    }
  }
  out.addVertices(nonFinite, 'with a NaN or infinite coordinate');

  const outOfRange: number[] = [];
  const repeated: number[] = [];
  for (let t = 0; t < tetCount; t++) {
    const a = tets[4 * t], b = tets[4 * t + 1], c = tets[4 * t + 2], d = tets[4 * t + 3];
    if (a >= vertexCount || b >= vertexCount || c >= vertexCount || d >= vertexCount) {
      outOfRange.push(t);
    } else if (a === b || a === c || a === d || b === c || b === d || c === d) {
      repeated.push(t);
    }
  }
  out.addTets(outOfRange, `with a vertex index out of range (the mesh has ${vertexCount} vertices)`);
  out.addTets(repeated, 'using the same vertex twice');
  out.throwIfAny();
}

/** 6 x signed volume of every tet, det[b-a, c-a, d-a], in float64. */
export function signedVolumes6(positions: Float32Array, tets: Uint32Array): Float64Array {
  const tetCount = tets.length / 4;
  const out = new Float64Array(tetCount);
  for (let t = 0; t < tetCount; t++) {
    const a = 3 * tets[4 * t], b = 3 * tets[4 * t + 1], c = 3 * tets[4 * t + 2], d = 3 * tets[4 * t + 3];
    const ax = positions[a], ay = positions[a + 1], az = positions[a + 2];
    const ux = positions[b] - ax, uy = positions[b + 1] - ay, uz = positions[b + 2] - az;
    const vx = positions[c] - ax, vy = positions[c + 1] - ay, vz = positions[c + 2] - az;
    const wx = positions[d] - ax, wy = positions[d + 1] - ay, wz = positions[d + 2] - az;
    out[t] = ux * (vy * wz - vz * wy) - uy * (vx * wz - vz * wx) + uz * (vx * wy - vy * wx);
  }
  return out;
}

function longestEdgeSquared(positions: Float32Array, tets: Uint32Array, t: number): number {
  let best = 0;
  for (let i = 0; i < 4; i++) {
    const p = 3 * tets[4 * t + i];
    for (let j = i + 1; j < 4; j++) {
      const q = 3 * tets[4 * t + j];
      const dx = positions[p] - positions[q], dy = positions[p + 1] - positions[q + 1], dz = positions[p + 2] - positions[q + 2];
      const l2 = dx * dx + dy * dy + dz * dz;
      if (l2 > best) best = l2;
    }
  }
  return best;
}

export interface OrientationResult {
  /** The input tets, or a flipped copy when every tet was inverted. */
  tets: Uint32Array;
  /** 6 x volume per tet, positive. */
  volumes6: Float64Array;
  flipped: boolean;
}

/**
 * Rejects degenerate tets; flips a consistently inverted mesh (all volumes negative, e.g. a
 * file written with the opposite convention) by swapping local vertices 2 and 3 of every tet;
 * rejects mixed orientation, which no single convention can fix.
 */
export function validateOrientation(arrays: TetMeshArrays, info: MeshSourceInfo): OrientationResult {
  const { positions } = arrays;
  let tets = arrays.tets;
  const volumes6 = signedVolumes6(positions, tets);
  const tetCount = volumes6.length;
  const degenerate: number[] = [];
  const negative: number[] = [];
  for (let t = 0; t < tetCount; t++) {
    const v = volumes6[t];
    const l2 = longestEdgeSquared(positions, tets, t);
    if (Math.abs(v) <= DEGENERATE_RELATIVE * l2 * Math.sqrt(l2)) degenerate.push(t);
    else if (v < 0) negative.push(t);
  }
  const out = new IssueCollector(info);
  out.addTets(degenerate, `degenerate (|6V| <= ${DEGENERATE_RELATIVE} x longest edge^3)`);
  const positiveCount = tetCount - degenerate.length - negative.length;
  if (negative.length > 0 && positiveCount > 0) {
    out.addTets(negative, `inverted (negative volume) while ${positiveCount} are positive: mixed orientation`);
  }
  out.throwIfAny();

  const flipped = negative.length > 0;
  if (flipped) {
    tets = tets.slice();
    for (let t = 0; t < tetCount; t++) {
      const tmp = tets[4 * t + 2];
      tets[4 * t + 2] = tets[4 * t + 3];
      tets[4 * t + 3] = tmp;
      volumes6[t] = -volumes6[t];
    }
  }
  return { tets, volumes6, flipped };
}
