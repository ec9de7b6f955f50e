/**
 * The runner's VTK frames: DIR/frame_NNNNNN.vtk (NNNNNN = frames completed, 0 = the start),
 * legacy ASCII UNSTRUCTURED_GRID with the current positions, tets as cell type 10 and a
 * cell array `object` with each tet's object id. ParaView opens the numbered series as one
 * animation; the project's VTK loader reads the files back.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeVtk } from '../mesh/io/vtk';
import type { Model } from '../sim/model';
import { UsageError } from './args';

export function vtkFrameName(frame: number): string {
  return `frame_${String(frame).padStart(6, '0')}.vtk`;
}

export class VtkDumper {
  private readonly objectIds: Int32Array;

  constructor(readonly dir: string, private readonly model: Model, private readonly title: string) {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (e) {
      throw new UsageError(`--dump ${dir}: cannot create the folder: ${(e as Error).message}`);
    }
    this.objectIds = Int32Array.from(model.tetObject);
  }

  /** Writes the state after `frame` frames (time in seconds); returns the file path. */
  write(frame: number, time: number, positions: Float32Array): string {
    const path = join(this.dir, vtkFrameName(frame));
    const text = writeVtk({ positions, tets: this.model.tets }, `${this.title} frame ${frame} time ${time}`, { object: this.objectIds });
    writeFileSync(path, text);
    return path;
  }
}
