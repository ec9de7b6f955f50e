/**
 * Mesh generation speed: isosurface stuffing of every catalog shape at its default resolution
 * and of two shapes at about one million tets. Prints a table (median of several runs at the
 * default size, median of 3 at the large size) with the time split into the stuffing, the
 * manifold repair and the quality pass. On a shared machine, compare figures from one run.
 *
 *   node scripts/run-ts.mjs bench/generate.ts [--runs N] [--large-only] [--no-large]
 */
import { buildShapeSdf, latticeSpacing, shapeCatalog } from '../src/mesh/procedural/catalog';
import { stuffIsosurface } from '../src/mesh/procedural/isosurfaceStuffing';
import { repairManifold } from '../src/mesh/procedural/manifoldRepair';
import { tetQuality } from '../src/mesh/procedural/quality';
import { checkBenchArgs } from './cli';

checkBenchArgs(process.argv.slice(2), {
  usage: 'node scripts/run-ts.mjs bench/generate.ts [--runs N] [--large-only] [--no-large]',
  values: ['--runs'],
  switches: ['--large-only', '--no-large'],
});

const args = process.argv.slice(2);
const runsArg = args.indexOf('--runs');
const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : 5;
const largeOnly = args.includes('--large-only');
const noLarge = args.includes('--no-large');

interface Row {
  shape: string;
  resolution: number;
  tets: number;
  vertices: number;
  stuffMs: number;
  repairMs: number;
  qualityMs: number;
  totalMs: number;
  minDih: number;
  maxDih: number;
  removed: number;
}

function measure(name: string, resolution: number): Row {
  const s = buildShapeSdf(name);
  const t0 = performance.now();
  const stuffed = stuffIsosurface({ sdf: s.sdf, bounds: s.bounds, spacing: latticeSpacing(s, resolution) });
  const t1 = performance.now();
  const fixed = repairManifold(stuffed.positions, stuffed.tets);
  const t2 = performance.now();
  const q = tetQuality(fixed.positions, fixed.tets);
  const t3 = performance.now();
  return {
    shape: name,
    resolution,
    tets: fixed.tets.length / 4,
    vertices: fixed.positions.length / 3,
    stuffMs: t1 - t0,
    repairMs: t2 - t1,
    qualityMs: t3 - t2,
    totalMs: t3 - t0,
    minDih: q.minDihedralDeg,
    maxDih: q.maxDihedralDeg,
    removed: fixed.removedTets,
  };
}

function median(name: string, resolution: number, n: number): Row {
  const rows = Array.from({ length: n }, () => measure(name, resolution));
  rows.sort((a, b) => a.totalMs - b.totalMs);
  return rows[Math.floor(n / 2)];
}

function print(rows: Row[]): void {
  const head = ['shape', 'res', 'tets', 'verts', 'stuff ms', 'repair ms', 'quality ms', 'total ms', 'tets/s', 'dihedral deg', 'repaired'];
  const body = rows.map((r) => [
    r.shape,
    String(r.resolution),
    String(r.tets),
    String(r.vertices),
    r.stuffMs.toFixed(0),
    r.repairMs.toFixed(0),
    r.qualityMs.toFixed(0),
    r.totalMs.toFixed(0),
    ((r.tets / r.totalMs) * 1000).toExponential(2),
    `${r.minDih.toFixed(1)}-${r.maxDih.toFixed(1)}`,
    String(r.removed),
  ]);
  console.log(`| ${head.join(' | ')} |`);
  console.log(`|${head.map(() => '---').join('|')}|`);
  for (const b of body) console.log(`| ${b.join(' | ')} |`);
}

if (!largeOnly) {
  // Warm up the JIT once so the first shape is not penalised.
  measure('sphere', 14);
  console.log(`\nDefault resolutions (median of ${runs} runs):\n`);
  print(shapeCatalog.map((s) => median(s.name, s.defaultResolution, runs)));
}
if (!noLarge) {
  console.log('\nLarge meshes (median of 3 runs):\n');
  const large: Row[] = [];
  for (const [name, res] of [['squishyBall', 112], ['sphere', 56]] as const) {
    // Resident memory right after the first run (GC may run any time: a rough figure).
    const before = process.memoryUsage().rss;
    const rows = [measure(name, res)];
    const grew = (process.memoryUsage().rss - before) / 2 ** 20;
    console.log(`  ${name} at ${res}: resident memory ${grew >= 0 ? '+' : ''}${grew.toFixed(0)} MiB after the first run`);
    rows.push(measure(name, res), measure(name, res));
    rows.sort((a, b) => a.totalMs - b.totalMs);
    large.push(rows[1]);
  }
  print(large);
}
console.log(`\nnode ${process.version}, ${process.platform} ${process.arch}`);
