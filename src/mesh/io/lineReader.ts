/**
 * Line-oriented reading shared by the text mesh formats: 1-based line numbers, comment
 * stripping, strict number parsing, and a bound on header counts (so a corrupted header can
 * never make a loader allocate more than the text could possibly describe).
 */
import { MeshParseError } from '../errors';

export class LineReader {
  /** 1-based number of the line last returned by next(); 0 before the first. */
  line = 0;
  private pos = 0;

  constructor(
    readonly text: string,
    readonly file: string,
    private readonly comment: string | null = '#',
  ) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  /** Tokens of the next line that has any (blank and comment-only lines are skipped), or null at the end. */
  next(): string[] | null {
    const text = this.text;
    while (this.pos < text.length) {
      let end = text.indexOf('\n', this.pos);
      if (end < 0) end = text.length;
      let raw = text.slice(this.pos, end);
      this.pos = end + 1;
      this.line++;
      if (this.comment !== null) {
        const c = raw.indexOf(this.comment);
        if (c >= 0) raw = raw.slice(0, c);
      }
      const trimmed = raw.trim();
      if (trimmed.length > 0) return trimmed.split(/\s+/);
    }
    return null;
  }

  /** The next line as it is (blank lines included), or null at the end. */
  rawNext(): string | null {
    if (this.pos >= this.text.length) return null;
    let end = this.text.indexOf('\n', this.pos);
    if (end < 0) end = this.text.length;
    const raw = this.text.slice(this.pos, end);
    this.pos = end + 1;
    this.line++;
    return raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  }

  /** Like next(), but a missing line is a truncated file. */
  require(what: string): string[] {
    const tokens = this.next();
    if (tokens === null) this.fail(`unexpected end of file: expected ${what}`, this.line + 1);
    return tokens;
  }

  fail(problem: string, line: number = this.line): never {
    throw new MeshParseError(this.file, line, problem);
  }

  /** A finite real number. Number() (not parseFloat) so that "1.5abc" is rejected. */
  real(token: string | undefined, what: string): number {
    if (token === undefined) this.fail(`missing ${what}`);
    const x = Number(token);
    if (!Number.isFinite(x) || token.trim() === '') this.fail(`${what} is not a finite number: "${clip(token)}"`);
    return x;
  }

  /** A non-negative integer below 2^32 (indices, counts). */
  uint(token: string | undefined, what: string): number {
    if (token === undefined) this.fail(`missing ${what}`);
    if (!/^[+]?\d+$/.test(token)) {
      if (/^-\d+$/.test(token)) this.fail(`${what} is negative: ${token}`);
      this.fail(`${what} is not a non-negative integer: "${clip(token)}"`);
    }
    const x = Number(token);
    if (x > 0xfffffffe) this.fail(`${what} is too large: ${clip(token)}`);
    return x;
  }

  /** A signed integer (e.g. Gmsh entity tags). */
  int(token: string | undefined, what: string): number {
    if (token === undefined) this.fail(`missing ${what}`);
    if (!/^[+-]?\d+$/.test(token)) this.fail(`${what} is not an integer: "${clip(token)}"`);
    const x = Number(token);
    if (!Number.isSafeInteger(x)) this.fail(`${what} is too large: ${clip(token)}`);
    return x;
  }

  /**
   * A count read from a header, checked against what the rest of the text could hold: each
   * record takes at least `minCharsPerRecord` characters, so a larger count is a corrupt header.
   */
  count(token: string | undefined, what: string, minCharsPerRecord: number): number {
    const n = this.uint(token, what);
    const remaining = this.text.length - this.pos;
    if (n * minCharsPerRecord > remaining + 1) {
      this.fail(`${what} is ${n}, but only ${remaining} characters follow: the header count is wrong or the file is truncated`);
    }
    return n;
  }
}

/**
 * Whitespace-separated tokens across line breaks (legacy VTK lets numbers wrap freely), with
 * the line of the token last returned.
 */
export class TokenStream {
  private tokens: string[] = [];
  private index = 0;
  line = 0;

  constructor(readonly reader: LineReader) {}

  /** The next token, or null at the end of the text. */
  peek(): string | null {
    while (this.index >= this.tokens.length) {
      const t = this.reader.next();
      if (t === null) return null;
      this.tokens = t;
      this.index = 0;
    }
    return this.tokens[this.index];
  }

  next(what: string): string {
    const tok = this.peek();
    if (tok === null) this.reader.fail(`unexpected end of file: expected ${what}`, this.reader.line + 1);
    this.index++;
    this.line = this.reader.line;
    return tok;
  }

  fail(problem: string): never {
    this.reader.fail(problem, this.line || this.reader.line);
  }
}

function clip(token: string): string {
  return token.length > 32 ? `${token.slice(0, 32)}...` : token;
}

/** Growable typed buffers for formats without a count header (.t). */
export class GrowableF32 {
  data = new Float32Array(1024);
  length = 0;
  push3(x: number, y: number, z: number): void {
    if (this.length + 3 > this.data.length) this.grow();
    this.data[this.length++] = x;
    this.data[this.length++] = y;
    this.data[this.length++] = z;
  }
  private grow(): void {
    const next = new Float32Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
  toArray(): Float32Array {
    return this.data.slice(0, this.length);
  }
}

export class GrowableU32 {
  data = new Uint32Array(1024);
  length = 0;
  push(x: number): void {
    if (this.length === this.data.length) {
      const next = new Uint32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = x;
  }
  toArray(): Uint32Array {
    return this.data.slice(0, this.length);
  }
}
