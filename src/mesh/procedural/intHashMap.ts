/**
 * Open-addressing hash map from non-negative int32 keys to int32 values, in two typed arrays
 * (no string keys, no per-entry objects), so that millions of lattice edges fit in memory.
 */
export class IntHashMap {
  private keys: Int32Array;
  private values: Int32Array;
  private mask: number;
  private count = 0;

  constructor(expected = 1024) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.keys = new Int32Array(cap).fill(-1);
    this.values = new Int32Array(cap);
    this.mask = cap - 1;
  }

  get size(): number {
    return this.count;
  }

  private slotOf(key: number): number {
    // Murmur3 finaliser: lattice edge keys are dense and structured, so mix them well.
    let h = Math.imul(key ^ (key >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) & this.mask;
  }

  /** The value for key, or -1 when absent. */
  get(key: number): number {
    let s = this.slotOf(key);
    for (;;) {
      const k = this.keys[s];
      if (k === key) return this.values[s];
      if (k < 0) return -1;
      s = (s + 1) & this.mask;
    }
  }

  set(key: number, value: number): void {
    if (key < 0 || key > 0x7fffffff || !Number.isInteger(key)) throw new Error(`IntHashMap: key ${key} is not a non-negative int32`);
    if ((this.count + 1) * 2 > this.keys.length) this.grow();
    let s = this.slotOf(key);
    for (;;) {
      const k = this.keys[s];
      if (k === key) {
        this.values[s] = value;
        return;
      }
      if (k < 0) {
        this.keys[s] = key;
        this.values[s] = value;
        this.count++;
        return;
      }
      s = (s + 1) & this.mask;
    }
  }

  private grow(): void {
    const oldKeys = this.keys, oldValues = this.values;
    this.keys = new Int32Array(oldKeys.length * 2).fill(-1);
    this.values = new Int32Array(oldKeys.length * 2);
    this.mask = this.keys.length - 1;
    this.count = 0;
    for (let i = 0; i < oldKeys.length; i++) if (oldKeys[i] >= 0) this.set(oldKeys[i], oldValues[i]);
  }
}
