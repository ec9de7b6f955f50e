/**
 * Projection of a frame's time on a reference GPU (issue 11, "A report that projects to real
 * hardware"): bytes moved / memory bandwidth + dispatches x per-dispatch cost + the serial rounds
 * inside dispatches (a partitioned cell's local colours, src/sim/traffic.ts extraRounds) x a
 * round's latency. A first-order model: it assumes the kernels stream at the spec bandwidth and
 * ignores other compute, latency and the CPU's share (CCD broad phase in workers, readbacks); the
 * constants below carry their sources, printed with the report.
 */

export interface ReferenceGpu {
  name: string;
  /** Memory bandwidth (bytes per second) from the vendor's spec sheet. */
  bandwidth: number;
  source: string;
}

export interface DispatchCost {
  name: string;
  /** Seconds per dependent dispatch (pipeline drain), low and high. */
  low: number;
  high: number;
  source: string;
}

export const REFERENCE_GPUS: readonly ReferenceGpu[] = [
  {
    name: 'RTX 3080 Ti',
    bandwidth: 912e9,
    source: "the authors' GPU (paper 000 section 5: AMD Ryzen 5950X, NVIDIA RTX 3080 Ti); NVIDIA spec: 384-bit GDDR6X at 19 Gbps = 912 GB/s",
  },
  { name: 'RTX 4060', bandwidth: 272e9, source: 'a mainstream desktop GPU; NVIDIA spec: 128-bit GDDR6 at 17 Gbps = 272 GB/s' },
  { name: 'Apple M2', bandwidth: 100e9, source: 'a laptop GPU for the Metal figures; Apple M2 spec: 100 GB/s unified memory bandwidth' },
];

export const DISPATCH_COSTS: readonly DispatchCost[] = [
  { name: 'native wgpu', low: 2e-6, high: 2e-6, source: 'issue 11: about 2 us per dependent dispatch measured in native wgpu' },
  { name: 'browser Vulkan', low: 24e-6, high: 36e-6, source: 'issue 11: 24-36 us per dispatch in browser measurements on Vulkan' },
  { name: 'browser Metal', low: 32e-6, high: 71e-6, source: 'issue 11: 32-71 us per dispatch in browser measurements on Metal' },
];

/**
 * One serial round inside a dispatch: a workgroup's storage barrier after the round's dependent
 * loads and its element's solve (lib/cellSweep.wgsl). The same on every reference GPU here for
 * want of a measurement on each (a round is bound by memory latency and one thread's ALU, which
 * vary far less between these GPUs than bandwidth), and the same in a browser (no API call).
 */
export const ROUND_LATENCY = {
  seconds: 2.35e-6,
  source:
    'measured on an NVIDIA H100 (Dawn on native Vulkan, 2026-11-26): the octopus drop, 9,707 tets, partitioned order, material 12.3-12.45 ms a frame of GPU time for 60 iterations x 88 rounds (docs/benchmarks.md "Solve orders on an H100"; with PartitionOptions.balance valence, fuller rounds: 8.56 ms for 60 x 50, 2.9 us)',
};

/** Projected frame time (ms), low and high: bytes / bandwidth + dispatches x cost + extra serial rounds x ROUND_LATENCY. */
export function projectFrameMs(bytes: number, dispatches: number, gpu: ReferenceGpu, cost: DispatchCost, extraRounds = 0): { low: number; high: number; memoryMs: number; roundsMs: number } {
  const memoryMs = (1000 * bytes) / gpu.bandwidth;
  const roundsMs = 1000 * extraRounds * ROUND_LATENCY.seconds;
  return { low: memoryMs + roundsMs + 1000 * dispatches * cost.low, high: memoryMs + roundsMs + 1000 * dispatches * cost.high, memoryMs, roundsMs };
}

/** The pairs the report prints: every NVIDIA GPU with native and browser Vulkan costs, the Apple GPU with Metal. */
export const PROJECTIONS: readonly { gpu: ReferenceGpu; cost: DispatchCost }[] = [
  { gpu: REFERENCE_GPUS[0]!, cost: DISPATCH_COSTS[0]! },
  { gpu: REFERENCE_GPUS[0]!, cost: DISPATCH_COSTS[1]! },
  { gpu: REFERENCE_GPUS[1]!, cost: DISPATCH_COSTS[0]! },
  { gpu: REFERENCE_GPUS[1]!, cost: DISPATCH_COSTS[1]! },
  { gpu: REFERENCE_GPUS[2]!, cost: DISPATCH_COSTS[2]! },
];
