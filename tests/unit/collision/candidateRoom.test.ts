/**
 * The CCD candidates' room within a device's buffer limits (src/collision/gpu/candidateRoom.ts).
 * Truths: the buffer WebGPU refused in a real run (two inflated octopi head-on at 30 m/s on
 * SwiftShader asked for a 1,879,048,192-byte `ccd.candidates`, the room of 2^27 pairs with the
 * sweep's list, over the 1 GiB maxBufferSize), and the largest room within a limit found by
 * walking the layout's sizes, not by the function's formula.
 */
import { describe, expect, it } from 'vitest';
import { candidateLayout, candidateRoomWithin, keptCandidates } from '../../../src/collision/gpu/candidateRoom';
import { powerOfTwoAtMost, storageBufferLimit } from '../../../src/gpu/buffers';

const GIB = 2 ** 30;

describe('CCD candidates within the device buffer limit', () => {
  it('the layout of 2^27 pairs with the sweep list is the 1,879,048,192 bytes the refused frame asked for', () => {
    expect(candidateLayout(2 ** 27, true).bytes).toBe(1_879_048_192);
    expect(candidateLayout(2 ** 27, true).bytes).toBeGreaterThan(GIB);
  });

  it('the room within a limit is the largest whose buffer fits, with and without the sweep list', () => {
    for (const bytes of [0, 13, 14, 100, 4096 + 7, 128 * 2 ** 20, 256 * 2 ** 20, GIB, 2 ** 32]) {
      for (const sweep of [false, true]) {
        const room = candidateRoomWithin(bytes, sweep);
        expect(candidateLayout(room, sweep).bytes, `${bytes} bytes, sweep ${sweep}`).toBeLessThanOrEqual(bytes);
        expect(candidateLayout(room + 1, sweep).bytes, `${bytes} bytes, sweep ${sweep}`).toBeGreaterThan(bytes);
      }
    }
    // SwiftShader's 1 GiB: 76.7 M pairs with the sweep list (14 bytes a pair), 107.4 M without (10).
    expect(candidateRoomWithin(GIB, true)).toBe(76_695_844);
    expect(candidateRoomWithin(GIB, false)).toBe(107_374_182);
    expect(() => candidateRoomWithin(-1, false)).toThrow(/bytes/);
  });

  it('a buffer bound whole is limited by the smaller of maxBufferSize and maxStorageBufferBindingSize', () => {
    expect(storageBufferLimit({ maxBufferSize: GIB, maxStorageBufferBindingSize: 128 * 2 ** 20 })).toBe(128 * 2 ** 20);
    expect(storageBufferLimit({ maxBufferSize: GIB, maxStorageBufferBindingSize: 2 ** 32 })).toBe(GIB);
    expect([0.5, 1, 2, 3, 1023, 1024, 1025, 4_194_240].map(powerOfTwoAtMost)).toEqual([0, 1, 2, 2, 512, 1024, 1024, 2_097_152]);
  });

  it('pairs over the room: each list keeps its share, the room is full, and every pair is either kept or counted', () => {
    expect(keptCandidates(30, 70, 100)).toEqual({ vertexFace: 30, edgeEdge: 70, leftOut: 0 });
    expect(keptCandidates(30, 70, 1000)).toEqual({ vertexFace: 30, edgeEdge: 70, leftOut: 0 });
    for (const [vf, ee, room] of [[30, 70, 50], [1, 999, 10], [999, 1, 10], [0, 500, 7], [500, 0, 7], [12345, 67890, 4321], [5, 5, 0]]) {
      const k = keptCandidates(vf, ee, room);
      expect(k.vertexFace + k.edgeEdge).toBe(room);
      expect(k.vertexFace + k.edgeEdge + k.leftOut).toBe(vf + ee);
      expect(k.vertexFace).toBeLessThanOrEqual(vf);
      expect(k.edgeEdge).toBeLessThanOrEqual(ee);
      // Each list's share of the room within one pair of its share of the pairs.
      if (room > 0) expect(Math.abs(k.vertexFace / room - vf / (vf + ee))).toBeLessThanOrEqual(1 / room + 1e-12);
    }
  });
});
