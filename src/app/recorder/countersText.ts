/**
 * The live readout's collision counter lines for one frame (paper 000 Table 1's collisions and
 * Q / Tr / Tet per query; overflows of the GPU's fixed-size buffers). The help overlay
 * (src/app/helpOverlay.ts) says what each counter means.
 */
import type { CcdFrameCounters } from '../../collision/counters';
import type { RecordedFrame } from '../../runner/reportDocument';

const f1 = (x: number): string => x.toFixed(1);

export function counterLines(f: RecordedFrame): string[] {
  const c = f.collisions;
  if (!c) return ['collisions: no counters this frame (collisions off, or an engine without them)'];
  const a = c.air;
  if (a) {
    return [
      `air mesh (paper 004): ${a.airTets} air tets for ${a.mesh.objectTets} object tets, ${a.colours} colours, ${a.passDispatches} dispatches a constraint pass; built in ${a.mesh.buildMs.toFixed(0)} ms`,
      `air tets inverted: ${a.inverted} found, ${a.invertedAfter} left after the passes (summed over substeps)`,
      a.optimizations > 0
        ? `air optimisation: ${a.edgeRemovals} edge removals, ${a.multiFaceRemovals} multi-face removals in ${a.optimizeMs.toFixed(1)} ms`
        : 'air optimisation: none installed this frame',
    ];
  }
  const h = c.dcdHits;
  const ccd = c.ccd.hitsVertexFace + c.ccd.hitsEdgeEdge;
  const q = c.spbQueries;
  return [
    `contacts (${c.mode}, ${c.penetration}): DCD ${c.contacts}, CCD ${ccd} (vertex-face ${c.ccd.hitsVertexFace}, edge-edge ${c.ccd.hitsEdgeEdge}${c.ccd.laterRoundHits > 0 ? `; ${c.ccd.laterRoundHits} added in later rounds` : ''})`,
    `DCD hits: vertex ${h.vertexSelf} self / ${h.vertexInter} inter, edge ${h.edgeSelf} / ${h.edgeInter}, centroid ${h.centroidSelf} / ${h.centroidInter}`,
    q > 0
      ? `per query (${q} queries): Q ${f1(c.bvhCandidates / q)}, Tr ${f1(c.traversals / q)}, Tet ${f1(c.tetsVisited / q)}`
      : 'per query: no shortest-path query this frame',
    `overflows: stack ${c.spbOverflows}, contacts dropped ${c.dropped}, hash entries dropped ${c.hashDropped}, CCD dropped ${c.ccd.dropped}, CCD pairs over the GPU's buffer ${c.ccd.candidatesLeftOut}, escaped boxes ${c.ccd.escaped} (tested at the end ${c.ccd.escapedTested}, inside ${c.ccd.escapedInside}, contacts dropped as pushing onward ${c.ccd.escapedRejected}); no path ${c.noPath}, skipped ${c.skipped}, far-side contacts dropped ${c.farSideDropped}, tets lifted to the inversion floor ${c.inversionFloorTets ?? 0}`,
    selfCullingLine(c.ccd),
  ];
}

/** Self-collision culling of the frame's CCD candidates (paper 002). */
function selfCullingLine(c: CcdFrameCounters): string {
  if (c.selfPairsBefore === 0) return 'self pairs: none this frame';
  return `self pairs: ${c.selfPairsBefore} -> ${c.selfPairsAfter} (${(100 * c.selfCulledFraction).toFixed(1)} % culled; cones ${c.selfConesMs.toFixed(1)} ms, traversal ${c.selfTraversalMs.toFixed(1)} ms, filter ${c.selfFilterMs.toFixed(1)} ms; deviation escapes ${c.selfDeviationEscapes})`;
}
