/**
 * The states a scene really reaches, as CCD's broad-phase job sees them (bench/ccdJobLatency.ts,
 * bench/meanPathBoxes.ts): a registry scene (`--scene`, `--copies`, `--mesh FILE` and `--speed V`
 * where the scene takes them, as the runner reads them) on the float64 CPU reference,
 * its CCD topology, the GPU engine's base margin (max(2 delta, CCD_BASE_MARGIN_RATIO x mean boundary
 * edge), as the GPU engine sets it), the frames listed by `--frames`, and each state as the job's
 * vec4 positions and velocities.
 */
import { readMeshFile } from '../src/runner/meshFile';
import { readSceneMeshes } from '../src/runner/sceneSetup';
import { findScene } from '../src/scenes/registry';
import { CpuSolver } from '../src/sim/cpuSolver';
import { buildSceneMesh } from '../src/collision/sceneMesh';
import { ccdTopologyOf } from '../src/collision/ccd/broadPhase';
import { CCD_BASE_MARGIN_RATIO } from '../src/collision/ccd/laterRounds';
import { meanBoundaryEdge, modelContactOffset } from '../src/collision/contactOffset';

/** `--name value` of the command line, or undefined. */
export function argOf(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

export function ccdSceneStates(args: readonly string[], defaultFrames: string) {
  const frames = (argOf(args, 'frames') ?? defaultFrames).split(',').map(Number);
  if (!frames.every((f) => Number.isInteger(f) && f >= 1)) throw new RangeError(`--frames: frame numbers >= 1, comma-separated, got ${argOf(args, 'frames')}`);
  const scene = findScene(argOf(args, 'scene') ?? 'octopus-box');
  const copies = argOf(args, 'copies'), speed = argOf(args, 'speed');
  for (const [flag, value] of [['copies', copies], ['speed', speed], ['mesh', argOf(args, 'mesh')]] as const) {
    if (value !== undefined && !scene.accepts.includes(flag)) throw new RangeError(`--${flag}: scene ${scene.name} does not take it`);
  }
  if (copies !== undefined && !(Number.isInteger(Number(copies)) && Number(copies) >= 1)) throw new RangeError(`--copies: an integer >= 1, got ${copies}`);
  if (speed !== undefined && !(Number(speed) > 0 && Number.isFinite(Number(speed)))) throw new RangeError(`--speed: a speed > 0 in m/s, got ${speed}`);
  // --mesh, else the scene's own mesh file (head-on, shoot: read from the project root, as the runner does).
  const meshFile = argOf(args, 'mesh') ?? (scene.accepts.includes('mesh') ? scene.defaultMeshFile : undefined);
  const fileMesh = meshFile !== undefined ? readMeshFile(meshFile) : undefined;
  for (const w of fileMesh?.warnings ?? []) console.error(`warning: ${w}`);
  const setup = scene.build({
    meshes: readSceneMeshes(scene),
    ...(fileMesh !== undefined ? { mesh: fileMesh } : {}),
    ...(copies !== undefined ? { copies: Number(copies) } : {}),
    ...(speed !== undefined ? { speed: Number(speed) } : {}),
  });
  const solver = new CpuSolver(setup);
  const model = setup.model;
  const p = solver.params;
  const mesh = buildSceneMesh(model);
  const n = model.vertexCount;
  const margin = Math.max(2 * modelContactOffset(model, p.contactOffset), CCD_BASE_MARGIN_RATIO * meanBoundaryEdge(model));
  const positions = new Float32Array(4 * n), velocities = new Float32Array(4 * n);
  /** The solver's state now as the job's vec4 positions and velocities (the same two arrays each call). */
  const state = (): { positions: Float32Array; velocities: Float32Array } => {
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) {
        positions[4 * i + k] = solver.x[3 * i + k];
        velocities[4 * i + k] = solver.v[3 * i + k];
      }
    }
    return { positions, velocities };
  };
  return { frames, scene, solver, model, p, mesh, topo: ccdTopologyOf(mesh), n, margin, state };
}
