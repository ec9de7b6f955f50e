/**
 * GPU device acquisition for the browser (navigator.gpu) and for Node (the `webgpu`
 * package, Dawn). One place for both so the simulation core runs unchanged in either.
 */

export interface GpuContext {
  device: GPUDevice;
  adapter: GPUAdapter;
  /** Features actually enabled on the device (e.g. 'timestamp-query'). */
  features: ReadonlySet<string>;
  /** Where the device came from, for messages and benchmark records. */
  backend: 'browser' | 'node';
  description: string;
}

/**
 * Adapters that emulate a GPU on the CPU (SwiftShader, llvmpipe, WARP, a browser's fallback
 * adapter): the page picks small scenes there, and the solver keeps plans whose cost on a CPU
 * differs from a GPU's (FinalizeStage.warmStartNextSubstep).
 */
export function isSoftwareAdapter(gpu: GpuContext): boolean {
  const info = gpu.adapter.info as (GPUAdapterInfo & { isFallbackAdapter?: boolean }) | undefined;
  return info?.isFallbackAdapter === true || /swiftshader|llvmpipe|software|warp/i.test(gpu.description);
}

export class GpuUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GpuUnavailableError';
  }
}

/**
 * A frame the device rejected: a kernel that does not compile on it, a binding past one of its
 * limits. WebGPU raises no exception for these; the pipeline and the command buffer that records
 * it are invalid and the frame's work is dropped, its readback stale. Pipelines are built when a
 * frame first records them (lazyPipelines.ts), so this shows during a run. A problem of this
 * device and driver, not of the scene (the runner exits 3, as without an adapter).
 */
export class GpuRejectedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GpuRejectedError';
  }
}

const NODE_INSTALL_HINT =
  'No WebGPU adapter found. In Node the `webgpu` package (Dawn) needs a Vulkan driver: ' +
  'install Debian packages `chromium` and `libvulkan1` and run with ' +
  'VK_ICD_FILENAMES=/usr/lib/chromium/vk_swiftshader_icd.json (npm test sets it), or use a real GPU driver.';

/**
 * Every GPU object handed out stays referenced here for the life of the process. In Node,
 * Dawn's `GPU` owns the native instance, and its event pump (AsyncRunner -> ProcessEvents)
 * keeps a raw pointer to it: once the JS object is garbage collected, the next pump touches
 * freed memory and the process dies at random (SIGSEGV, "futex facility returned an
 * unexpected error code", std::system_error) or deadlocks. Observed with webgpu 0.6.2; a
 * strong reference removes it.
 */
const liveGpus = new Set<GPU>();

/**
 * Dawn's GPU object must outlive every device made from it: when the garbage collector frees
 * it, Dawn shuts down under the live device and the process aborts. Kept here for the process.
 */
let nodeGpuInstance: GPU | undefined;

/**
 * On a machine without a display session (a server, CI), loading the Vulkan driver prints
 * "error: XDG_RUNTIME_DIR is invalid or not set in the environment." twice: its window-system
 * part looks for a Wayland socket there. Compute needs no display, so that line is noise that reads
 * as a failure in every run's output. Such a process gets a private, empty runtime folder
 * (mode 0700, removed at exit) before Dawn loads; a set XDG_RUNTIME_DIR is left alone.
 */
async function giveHeadlessProcessRuntimeDir(): Promise<void> {
  const proc = (globalThis as { process?: NodeJS.Process }).process;
  if (!proc?.versions?.node || proc.env.XDG_RUNTIME_DIR) return;
  // By names the browser bundle never resolves, as 'webgpu' below.
  const [fsName, osName, pathName] = ['node:fs', 'node:os', 'node:path'];
  const fs = (await import(/* @vite-ignore */ fsName)) as typeof import('node:fs');
  const os = (await import(/* @vite-ignore */ osName)) as typeof import('node:os');
  const path = (await import(/* @vite-ignore */ pathName)) as typeof import('node:path');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'softbody-runtime-'));
  proc.env.XDG_RUNTIME_DIR = dir;
  proc.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
}

/** The robustness nodeGpuInstance was made with (Dawn takes its toggles once, at the instance). */
let nodeGpuRobust = true;

async function nodeGpu(robust: boolean): Promise<GPU> {
  if (nodeGpuInstance) {
    if (robust !== nodeGpuRobust) throw new Error(`acquireGpu: this process's Dawn instance was made with robustness ${nodeGpuRobust ? 'on' : 'off'}; a device with it ${robust ? 'on' : 'off'} needs another process`);
    return nodeGpuInstance;
  }
  await giveHeadlessProcessRuntimeDir();
  // Imported lazily and by a name the browser bundle never resolves.
  const moduleName = 'webgpu';
  const dawn = (await import(/* @vite-ignore */ moduleName)) as {
    create: (flags: string[]) => GPU;
    globals: Record<string, unknown>;
  };
  // Dawn's enums (GPUBufferUsage, GPUShaderStage, ...) become globals as in a browser.
  for (const [key, value] of Object.entries(dawn.globals)) {
    if (!(key in globalThis)) (globalThis as Record<string, unknown>)[key] = value;
  }
  // Dawn quantizes timestamp queries by default (a browser's guard against timing attacks), to
  // 2^16 ns: a short pass then reads 0 or 65.5 us. The benchmarks' per-phase GPU times need the
  // real ones; Node runs no untrusted content.
  const flags = ['disable-dawn-features=timestamp_quantization'];
  if (!robust) flags.push('enable-dawn-features=disable_robustness');
  nodeGpuInstance = dawn.create(flags);
  nodeGpuRobust = robust;
  return nodeGpuInstance;
}

/**
 * Storage buffers per kernel the solver needs: its widest kernels (contacts.solve, ccd.narrow,
 * xpbd.finalizeDampPredict, xpbd.neoHookeanColliders, and detection's with the BVH refit inside) bind 10. WebGPU's default
 * is 8; browsers offer 10 or more where the platform has them (Chrome on Metal: 10).
 */
export const SOLVER_STORAGE_BUFFERS = 10;

/**
 * Requests the largest storage-buffer limits the adapter offers: the solver binds many arrays.
 * `maxStorageBuffers` caps the storage buffers per kernel (a device like Chrome's on Metal, 10).
 */
function wantedLimits(adapter: GPUAdapter, maxStorageBuffers = Infinity): Record<string, number> {
  const l = adapter.limits;
  return {
    maxStorageBuffersPerShaderStage: Math.min(l.maxStorageBuffersPerShaderStage, maxStorageBuffers),
    maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
    maxBufferSize: l.maxBufferSize,
    maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
    maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
    maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
    maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
  };
}

export interface AcquireOptions {
  /** Called once if the device is lost after acquisition (not when destroyed on purpose). */
  onLost?: (reason: string) => void;
  powerPreference?: GPUPowerPreference;
  /**
   * At most this many storage buffers per kernel, where the adapter offers more (tests and
   * benchmarks of a smaller device: WebGPU validation then rejects a kernel that binds more, and
   * the solver picks the plans that fit, e.g. detectionRefitsOn). Below WebGPU's default (8) the
   * device gets the default.
   */
  maxStorageBuffersPerShaderStage?: number;
  /**
   * Node only (a browser always keeps it): false makes Dawn compile the kernels without robust
   * buffer access, the clamp it puts on every storage access so that an index out of bounds stays
   * inside the buffer. Every kernel here checks its own indices, so the results are the same; an
   * access out of bounds is then a fault or garbage a test sees instead of a clamped read. The GPU
   * tests take it: on SwiftShader two of their files ran in 51 s instead of 62 (tests/support/gpu.ts).
   * Default true. One Dawn instance per process: every call in a process must ask the same.
   */
  robustness?: boolean;
}

export async function acquireGpu(options: AcquireOptions = {}): Promise<GpuContext> {
  const inBrowser = typeof navigator !== 'undefined' && 'gpu' in navigator && typeof window !== 'undefined';
  let gpu: GPU | undefined;
  if (inBrowser) gpu = navigator.gpu;
  else if (typeof process !== 'undefined' && process.versions?.node) gpu = await nodeGpu(options.robustness ?? true);
  if (!gpu) {
    throw new GpuUnavailableError(
      'This browser has no WebGPU. The simulator needs Chrome or Edge 113+, or a recent Firefox or Safari with WebGPU enabled.',
    );
  }
  liveGpus.add(gpu);
  const adapter = await gpu.requestAdapter({ powerPreference: options.powerPreference ?? 'high-performance' });
  if (!adapter) {
    throw new GpuUnavailableError(
      inBrowser
        ? 'WebGPU is present but no GPU adapter is available (blocked driver or disabled hardware acceleration).'
        : NODE_INSTALL_HINT,
    );
  }
  const offered = adapter.limits.maxStorageBuffersPerShaderStage;
  const cap = options.maxStorageBuffersPerShaderStage ?? Infinity;
  if (cap < SOLVER_STORAGE_BUFFERS) throw new RangeError(`acquireGpu: maxStorageBuffersPerShaderStage ${cap} is below the ${SOLVER_STORAGE_BUFFERS} the solver's kernels bind`);
  if (offered < SOLVER_STORAGE_BUFFERS) {
    throw new GpuUnavailableError(
      `This GPU allows ${offered} storage buffers per compute kernel; the simulator's kernels bind up to ${SOLVER_STORAGE_BUFFERS} (the contact solve, CCD's narrow phase, the fused finalize).`,
    );
  }
  const optional: GPUFeatureName[] = ['timestamp-query'];
  const requiredFeatures = optional.filter((f) => adapter.features.has(f));
  const device = await adapter.requestDevice({ requiredFeatures, requiredLimits: wantedLimits(adapter, options.maxStorageBuffersPerShaderStage) });
  device.lost.then((info) => {
    if (info.reason !== 'destroyed') options.onLost?.(info.message || String(info.reason));
  });
  const info = adapter.info as GPUAdapterInfo | undefined;
  const description = [info?.vendor, info?.architecture, info?.device, info?.description].filter(Boolean).join(' ') || 'unknown adapter';
  return {
    device,
    adapter,
    features: new Set(requiredFeatures),
    backend: inBrowser ? 'browser' : 'node',
    description,
  };
}
