/**
 * Byte sizes of a WGSL module's bindings, read from its declarations (WGSL spec section 13.4,
 * "Memory layout": align and size of scalars, vectors, fixed arrays and structs). For the
 * memory-traffic model (traffic.ts): one element of `array<T>` is T's size; a struct whose last
 * member is a runtime array (the query list: a header then `array<Query>`) counts that array's
 * element; a uniform counts its whole struct.
 */

export type WgslAccess = 'uniform' | 'read' | 'read_write';

export interface WgslBinding {
  group: number;
  binding: number;
  name: string;
  access: WgslAccess;
  /** Bytes of one element (the element of the runtime array; the whole type otherwise). */
  elementBytes: number;
  /** The declared type, as written. */
  type: string;
}

interface Layout {
  align: number;
  size: number;
  /** Element of a trailing runtime array, when the type ends in one. */
  runtimeElement?: Layout;
}

const roundUp = (x: number, a: number): number => Math.ceil(x / a) * a;

/** Splits "a, b<c, d>, e" at top-level commas. */
function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = text.slice(start).trim();
  if (last) out.push(last);
  return out;
}

function stripComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');
}

/** The structs of a module: name -> member types, in order. */
function structsOf(code: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const re = /struct\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{([^}]*)\}/g;
  for (const m of code.matchAll(re)) {
    const members = splitTop(m[2]!.replace(/@[a-z_]+(\([^)]*\))?/g, ''))
      .filter((s) => s.includes(':'))
      .map((s) => s.slice(s.indexOf(':') + 1).trim());
    out.set(m[1]!, members);
  }
  return out;
}

function layoutOf(type: string, structs: Map<string, string[]>, where: string): Layout {
  const t = type.replace(/\s+/g, '');
  if (t === 'f32' || t === 'u32' || t === 'i32') return { align: 4, size: 4 };
  if (t === 'f16') return { align: 2, size: 2 };
  let m = /^atomic<(u32|i32)>$/.exec(t);
  if (m) return { align: 4, size: 4 };
  m = /^vec([234])<(f32|u32|i32)>$/.exec(t) ?? /^vec([234])([fiu])$/.exec(t);
  if (m) {
    const n = Number(m[1]);
    return { align: n === 2 ? 8 : 16, size: 4 * n };
  }
  m = /^mat([234])x([234])<f32>$/.exec(t) ?? /^mat([234])x([234])f$/.exec(t);
  if (m) {
    const col = layoutOf(`vec${m[2]}<f32>`, structs, where);
    return { align: col.align, size: Number(m[1]) * roundUp(col.size, col.align) };
  }
  m = /^array<(.+)>$/.exec(t);
  if (m) {
    const parts = splitTop(m[1]!);
    const el = layoutOf(parts[0]!, structs, where);
    const stride = roundUp(el.size, el.align);
    if (parts.length === 1) return { align: el.align, size: 0, runtimeElement: { align: el.align, size: stride } };
    const count = Number(parts[1]);
    if (!Number.isInteger(count) || count < 1) throw new Error(`${where}: array count "${parts[1]}" is not a literal integer`);
    return { align: el.align, size: count * stride };
  }
  const members = structs.get(t);
  if (!members) throw new Error(`${where}: unknown WGSL type "${type}"`);
  let offset = 0;
  let align = 1;
  let runtimeElement: Layout | undefined;
  members.forEach((mt, i) => {
    const l = layoutOf(mt, structs, where);
    if (l.runtimeElement && i !== members.length - 1) throw new Error(`${where}: runtime array not last in struct ${t}`);
    offset = roundUp(offset, l.align) + l.size;
    align = Math.max(align, l.align);
    runtimeElement ??= l.runtimeElement;
  });
  return { align, size: roundUp(offset, align), runtimeElement };
}

/** Byte size of a WGSL type whose structs are declared in `code` (a runtime array counts 0). */
export function wgslTypeBytes(code: string, type: string): number {
  return layoutOf(type, structsOf(stripComments(code)), 'wgslTypeBytes').size;
}

/**
 * Every `@group(g) @binding(b) var<...> name: T;` of `code` (includes already expanded), in
 * order of appearance. `label` names the module in errors.
 */
export function wgslBindings(code: string, label: string): WgslBinding[] {
  const src = stripComments(code);
  const structs = structsOf(src);
  const re = /@group\((\d+)\)\s*@binding\((\d+)\)\s*var\s*<\s*([a-z_]+)\s*(?:,\s*([a-z_]+)\s*)?>\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([^;]+);/g;
  const out: WgslBinding[] = [];
  for (const m of src.matchAll(re)) {
    const space = m[3]!;
    const access: WgslAccess = space === 'uniform' ? 'uniform' : m[4] === 'read_write' ? 'read_write' : 'read';
    const type = m[6]!.trim();
    const where = `${label}: binding ${m[5]}`;
    const l = layoutOf(type, structs, where);
    out.push({ group: Number(m[1]), binding: Number(m[2]), name: m[5]!, access, type, elementBytes: l.runtimeElement ? l.runtimeElement.size : l.size });
  }
  return out;
}
