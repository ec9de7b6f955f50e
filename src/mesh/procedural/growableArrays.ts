/** Append-only typed arrays that double their capacity: output of unknown size without boxing. */
export class GrowableFloat64 {
  data: Float64Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Float64Array(Math.max(capacity, 16));
  }
  push3(a: number, b: number, c: number): void {
    if (this.length + 3 > this.data.length) this.reserve(this.length + 3);
    this.data[this.length++] = a;
    this.data[this.length++] = b;
    this.data[this.length++] = c;
  }
  push(a: number): void {
    if (this.length + 1 > this.data.length) this.reserve(this.length + 1);
    this.data[this.length++] = a;
  }
  private reserve(n: number): void {
    let cap = this.data.length;
    while (cap < n) cap *= 2;
    const next = new Float64Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

export class GrowableInt32 {
  data: Int32Array;
  length = 0;
  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(capacity, 16));
  }
  push(a: number): void {
    if (this.length + 1 > this.data.length) this.reserve(this.length + 1);
    this.data[this.length++] = a;
  }
  push4(a: number, b: number, c: number, d: number): void {
    if (this.length + 4 > this.data.length) this.reserve(this.length + 4);
    const x = this.data;
    x[this.length] = a;
    x[this.length + 1] = b;
    x[this.length + 2] = c;
    x[this.length + 3] = d;
    this.length += 4;
  }
  private reserve(n: number): void {
    let cap = this.data.length;
    while (cap < n) cap *= 2;
    const next = new Int32Array(cap);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}
