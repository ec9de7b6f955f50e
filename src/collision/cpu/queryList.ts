/**
 * The CPU twin of the GPU query list (spec "Query list"): one entry per DCD hit, structure of
 * arrays, float64 points. Source word as on the GPU: bits 0..28 the vertex id / boundary edge
 * index / tet id, bits 29..30 the kind, bit 31 the euclidean bit.
 */

export const KIND_VERTEX = 0;
export const KIND_EDGE = 1;
export const KIND_CENTROID = 2;
export const KIND_SHIFT = 29;
export const SOURCE_INDEX_MASK = (1 << KIND_SHIFT) - 1;
export const EUCLIDEAN_BIT = 0x80000000;

export function encodeSource(index: number, kind: number, euclidean: boolean): number {
  if (index > SOURCE_INDEX_MASK) throw new RangeError(`query source index ${index} does not fit in 29 bits`);
  return ((index | (kind << KIND_SHIFT)) >>> 0) + (euclidean ? EUCLIDEAN_BIT : 0);
}
export const sourceIndex = (s: number): number => s & SOURCE_INDEX_MASK;
export const sourceKind = (s: number): number => (s >>> KIND_SHIFT) & 3;
export const sourceEuclidean = (s: number): boolean => s >= EUCLIDEAN_BIT;

/** Hit counter slots: 2 kind + (1 for inter-object), the order of CollisionFrameCounters.dcdHits. */
export const HIT_SLOTS = 6;

export class CpuQueryList {
  count = 0;
  px: Float64Array = new Float64Array(64);
  py: Float64Array = new Float64Array(64);
  pz: Float64Array = new Float64Array(64);
  tet: Int32Array = new Int32Array(64);
  exclude: Int32Array = new Int32Array(64);
  exclude2: Int32Array = new Int32Array(64);
  source: Uint32Array = new Uint32Array(64);
  param: Float64Array = new Float64Array(64);
  /** Hits this detection pass by slot (vertex self, vertex inter, edge self, ...). */
  readonly hits = new Int32Array(HIT_SLOTS);

  clear(): void {
    this.count = 0;
    this.hits.fill(0);
  }

  push(px: number, py: number, pz: number, tet: number, exclude: number, exclude2: number, kind: number, index: number, inter: boolean, euclidean: boolean, param: number): void {
    if (this.count === this.px.length) this.grow();
    const i = this.count++;
    this.px[i] = px;
    this.py[i] = py;
    this.pz[i] = pz;
    this.tet[i] = tet;
    this.exclude[i] = exclude;
    this.exclude2[i] = exclude2;
    this.source[i] = encodeSource(index, kind, inter && euclidean);
    this.param[i] = param;
    this.hits[2 * kind + (inter ? 1 : 0)]++;
  }

  private grow(): void {
    const n = 2 * this.px.length;
    const f = (a: Float64Array): Float64Array => { const b = new Float64Array(n); b.set(a); return b; };
    const g = (a: Int32Array): Int32Array => { const b = new Int32Array(n); b.set(a); return b; };
    this.px = f(this.px);
    this.py = f(this.py);
    this.pz = f(this.pz);
    this.param = f(this.param);
    this.tet = g(this.tet);
    this.exclude = g(this.exclude);
    this.exclude2 = g(this.exclude2);
    const s = new Uint32Array(n);
    s.set(this.source);
    this.source = s;
  }
}
