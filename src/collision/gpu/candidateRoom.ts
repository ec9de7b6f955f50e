/**
 * How many CCD candidate pairs one GPU buffer can hold on a device.
 *
 * Why: the broad phase's pairs grow with the swept boxes, which span |v| x the job's horizon. Two
 * inflated octopi meeting at 30 m/s each reach a vertex at 106 m/s, every box spans a body, and the
 * frame's list asked for a 1.88 GB `ccd.candidates` buffer, over SwiftShader's 1 GiB
 * `maxBufferSize`: WebGPU refused the whole frame (docs/collisions.md "Candidates over the
 * device's buffer limit"). A browser binds at most `maxStorageBufferBindingSize` (128 MiB unless
 * the adapter offers more), about 13 M pairs on a GPU. So the stage sizes its buffers within the
 * device's limits and leaves out, and counts, what does not fit.
 */

/**
 * The near list's room as a share of the candidates' room (pairs; ccdNarrow.wgsl markForLaterRounds):
 * 2 more bytes a pair of that room on the 8 of the pair itself. On the 4-octopus box the detecting
 * round lists 35-37 % of the candidates while the octopi fall (their own near neighbours) and 3-18 %
 * once they land (docs/collisions.md "The later rounds' near list"); the room is at least half the
 * candidates. Past it the later rounds scan every candidate, as before the list.
 */
export const NEAR_LIST_SHARE = 1 / 2;

/**
 * The layout of `ccd.candidates` for a room of `pairs`: the pairs (2 words each), then the near
 * list for the later rounds (1 word a pair of NEAR_LIST_SHARE of the room), then, with `sweepList`
 * (CcdStage.substepBoxes), the sweep's list of the pairs left to solve (1 word a pair).
 */
export function candidateLayout(pairs: number, sweepList: boolean): { nearRoom: number; solveRoom: number; bytes: number } {
  const nearRoom = Math.floor(NEAR_LIST_SHARE * pairs);
  const solveRoom = sweepList ? pairs : 0;
  return { nearRoom, solveRoom, bytes: 8 * pairs + 4 * nearRoom + 4 * solveRoom };
}

/** The largest room (pairs) whose `ccd.candidates` buffer fits in `bytes`. */
export function candidateRoomWithin(bytes: number, sweepList: boolean): number {
  if (!(bytes >= 0)) throw new RangeError(`candidateRoomWithin: bytes must be a number >= 0, got ${bytes}`);
  let pairs = Math.floor(bytes / (8 + 4 * NEAR_LIST_SHARE + (sweepList ? 4 : 0)));
  // The near list's floor can leave a byte or two either way of the estimate.
  while (pairs > 0 && candidateLayout(pairs, sweepList).bytes > bytes) pairs--;
  while (candidateLayout(pairs + 1, sweepList).bytes <= bytes) pairs++;
  return pairs;
}

/**
 * How many of a frame's vertex-face and edge-edge pairs go to the GPU within a room of `room`
 * pairs: all of them when they fit; otherwise each list keeps the same share, its first pairs.
 */
export function keptCandidates(vertexFace: number, edgeEdge: number, room: number): { vertexFace: number; edgeEdge: number; leftOut: number } {
  const wanted = vertexFace + edgeEdge;
  if (wanted <= room) return { vertexFace, edgeEdge, leftOut: 0 };
  const vf = Math.min(vertexFace, Math.floor((vertexFace * room) / wanted));
  const ee = Math.min(edgeEdge, room - vf);
  return { vertexFace: vf, edgeEdge: ee, leftOut: wanted - vf - ee };
}
