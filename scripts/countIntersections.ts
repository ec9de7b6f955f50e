/**
 * Counts intersections in the runner's VTK frames (npm run sim -- ... --dump DIR) with the
 * brute-force counter of tests/support/intersectionCounter.ts, which shares no code with the
 * simulator's detection: boundary vertices strictly inside a tet of another object, or of their
 * own object and not incident to them, and the deepest such vertex.
 *
 *   node scripts/run-ts.mjs scripts/countIntersections.ts DIR [--json]
 *
 * Prints one line per frame file (frame, self, inter, deepest in mesh units), then a summary line
 * (the frames ending with a vertex inside another object, and inside its own); --json prints JSON.
 * Each line also gives the boundary vertices on a surface triangle that passes through another
 * (tests/support/surfaceCrossings.ts, self / inter): the surface crossing itself, which the vertex
 * count misses where an edge cuts through a part with both its ends outside.
 * A self hit through a face of the vertex's own tet (that tet turned inside out: an element
 * inversion, not a collision) is counted, and the line says how many of the self hits are such.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkBenchArgs } from '../bench/cli';
import { parseVtk } from '../src/mesh/io/vtk';
import { countIntersections } from '../tests/support/intersectionCounter';
import { countSurfaceCrossings } from '../tests/support/surfaceCrossings';

const USAGE = 'node scripts/run-ts.mjs scripts/countIntersections.ts DIR [--json]';
const argv = process.argv.slice(2);
checkBenchArgs(argv, { usage: USAGE, switches: ['--json'], positional: 1 });
const dir = argv.find((a) => !a.startsWith('--'));
const json = argv.includes('--json');
if (!dir) {
  console.error(`usage: ${USAGE}`);
  process.exit(2);
}
let files: string[];
try {
  files = readdirSync(dir).filter((f) => /^frame_\d+\.vtk$/.test(f)).sort();
} catch (e) {
  console.error(`countIntersections: cannot read ${dir}: ${(e as Error).message}`);
  process.exit(2);
}
if (files.length === 0) {
  console.error(`countIntersections: no frame_NNNNNN.vtk files in ${dir}`);
  process.exit(2);
}
const rows: { frame: number; self: number; selfThroughOwnTet: number; inter: number; deepest: number; selfCrossing: number; interCrossing: number }[] = [];
for (const f of files) {
  const mesh = parseVtk(readFileSync(join(dir, f), 'utf8'), f);
  const object = mesh.cellData.object;
  if (!object) {
    console.error(`countIntersections: ${f} has no cell array "object" (write it with the runner's --dump)`);
    process.exit(2);
  }
  const input = { positions: Float64Array.from(mesh.positions), tets: mesh.tets, tetObject: Uint32Array.from(object) };
  const c = countIntersections(input, { depth: true });
  const crossing = countSurfaceCrossings(input);
  const row = { frame: Number(f.slice(6, 12)), self: c.self, selfThroughOwnTet: c.selfThroughOwnTet, inter: c.inter, deepest: c.maxDepth, selfCrossing: crossing.selfVertices, interCrossing: crossing.interVertices };
  rows.push(row);
  const through = row.selfThroughOwnTet > 0 ? ` (${row.selfThroughOwnTet} through a face of its own tet: that tet inverted)` : '';
  if (!json) console.log(`${f}: self ${row.self}${through}, inter ${row.inter}, deepest ${row.deepest.toExponential(2)}; on crossing surface triangles: self ${row.selfCrossing}, inter ${row.interCrossing}`);
}
if (json) console.log(JSON.stringify(rows));
else console.log(summaryLine(rows));

/**
 * What a run's check reads off the lines above in one line: the frames that end with a boundary
 * vertex inside another object (issue 19's "none at the end of any frame"), those with a self hit
 * that is not an inverted own tet, and those whose surfaces cross with no vertex inside.
 */
function summaryLine(all: typeof rows): string {
  const list = (picked: typeof rows, count: (r: (typeof rows)[number]) => number): string =>
    picked.length === 0 ? 'none' : picked.map((r) => `${r.frame} (${count(r)})`).join(', ');
  const inter = all.filter((r) => r.inter > 0);
  const selfHits = (r: (typeof rows)[number]): number => r.self - r.selfThroughOwnTet;
  const self = all.filter((r) => selfHits(r) > 0);
  const crossingOnly = all.filter((r) => r.inter === 0 && selfHits(r) === 0 && r.selfCrossing + r.interCrossing > 0);
  const deepest = all.reduce((d, r) => Math.max(d, r.deepest), 0);
  return `${all.length} frames; ending with a vertex inside another object: ${list(inter, (r) => r.inter)}; ` +
    `with a vertex inside its own object (not through an inverted own tet): ${list(self, selfHits)}; ` +
    `surfaces crossing with no such vertex: ${crossingOnly.length} frames; deepest ${deepest.toExponential(2)}`;
}
