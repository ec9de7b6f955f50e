/**
 * The statistics readout (#mesh-stats). The figures are also written as data-* attributes
 * (data-vertices, data-tets, data-triangles, data-min-dihedral, data-max-dihedral, data-ms,
 * data-source) so tests read numbers, not formatted text.
 */
import type { MeshStats } from '../workers/meshWorkerApi';

const integer = new Intl.NumberFormat('en-US');

export class StatsPanel {
  private readonly root: HTMLElement;

  constructor() {
    const el = document.getElementById('mesh-stats');
    if (!el) throw new Error('index.html is missing the element #mesh-stats');
    this.root = el;
  }

  show(stats: MeshStats): void {
    const d = this.root.dataset;
    d.vertices = String(stats.vertices);
    d.tets = String(stats.tets);
    d.triangles = String(stats.boundaryTriangles);
    d.minDihedral = stats.minDihedralDeg.toFixed(2);
    d.maxDihedral = stats.maxDihedralDeg.toFixed(2);
    d.ms = stats.milliseconds.toFixed(1);
    d.source = stats.source;
    d.state = 'ready';
    this.root.textContent = [
      stats.source,
      `vertices            ${integer.format(stats.vertices)}`,
      `tets                ${integer.format(stats.tets)}`,
      `boundary triangles  ${integer.format(stats.boundaryTriangles)}`,
      `dihedral angles     ${stats.minDihedralDeg.toFixed(1)}° – ${stats.maxDihedralDeg.toFixed(1)}°`,
      `built in            ${stats.milliseconds.toFixed(0)} ms`,
    ].join('\n');
  }
}
