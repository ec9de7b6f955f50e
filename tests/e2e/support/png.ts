/**
 * A minimal PNG decoder (8-bit greyscale, RGB, RGBA, grey+alpha; non-interlaced), enough for
 * Chromium's screenshots. Uses node:zlib for the deflate stream; no packages.
 * Reference: the PNG specification (chunks, filter types 0-4, Paeth predictor).
 */
import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, rows top to bottom. */
  rgba: Uint8Array;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

export function decodePng(file: Uint8Array): DecodedPng {
  for (let i = 0; i < 8; i++) if (file[i] !== SIGNATURE[i]) throw new Error('decodePng: not a PNG (bad signature)');
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  let width = 0;
  let height = 0;
  let bitDepth = 0;
  let colorType = -1;
  let interlace = 0;
  const idat: Uint8Array[] = [];
  let offset = 8;
  while (offset + 8 <= file.length) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...file.subarray(offset + 4, offset + 8));
    const data = file.subarray(offset + 8, offset + 8 + length);
    if (data.length !== length) throw new Error(`decodePng: chunk ${type} truncated`);
    if (type === 'IHDR') {
      width = view.getUint32(offset + 8);
      height = view.getUint32(offset + 12);
      bitDepth = file[offset + 16]!;
      colorType = file[offset + 17]!;
      interlace = file[offset + 20]!;
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length; // length, type, data, CRC
  }
  const channels = CHANNELS[colorType];
  if (bitDepth !== 8 || channels === undefined) {
    throw new Error(`decodePng: unsupported PNG (bit depth ${bitDepth}, colour type ${colorType})`);
  }
  if (interlace !== 0) throw new Error('decodePng: interlaced PNG not supported');
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length < height * (stride + 1)) throw new Error('decodePng: image data shorter than the header says');

  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[row + x - channels]! : 0;
      const b = y > 0 ? pixels[prev + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[prev + x - channels]! : 0;
      let predictor: number;
      switch (filter) {
        case 0: predictor = 0; break;
        case 1: predictor = a; break;
        case 2: predictor = b; break;
        case 3: predictor = (a + b) >> 1; break;
        case 4: predictor = paeth(a, b, c); break;
        default: throw new Error(`decodePng: bad filter type ${filter} on row ${y}`);
      }
      pixels[row + x] = (src[x]! + predictor) & 0xff;
    }
  }

  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const s = i * channels;
    if (channels >= 3) {
      rgba[i * 4] = pixels[s]!;
      rgba[i * 4 + 1] = pixels[s + 1]!;
      rgba[i * 4 + 2] = pixels[s + 2]!;
      rgba[i * 4 + 3] = channels === 4 ? pixels[s + 3]! : 255;
    } else {
      rgba[i * 4] = rgba[i * 4 + 1] = rgba[i * 4 + 2] = pixels[s]!;
      rgba[i * 4 + 3] = channels === 2 ? pixels[s + 1]! : 255;
    }
  }
  return { width, height, rgba };
}
