// A synthetic photo of an identity card on a table, for the photo checks' unit tests
// (photoChecks.test.ts) and the verification journey in Chromium (test/e2e/kyc.test.ts), which
// encodes it as PNG with pngBytes. Pure: no DOM, no canvas.
import zlib from 'node:zlib';
import type { Pixels } from '../../src/features/identity/photoChecks.ts';

export interface DocumentOptions {
  width?: number;
  height?: number;
  /** Moves the card right (and down) by this many pixels. */
  shiftX?: number;
  shiftY?: number;
  /** Box blur radius applied (three passes) after drawing. */
  blur?: number;
  /** Multiplies every level (0.25 darkens, 1.8 burns out). */
  gain?: number;
  /** Multiplies the right part of the picture, left to right from 1 down to this. */
  shadow?: number;
  /** The table's level and the card's. */
  background?: number;
  card?: number;
}

/** A synthetic photo of an ID card on a table, RGBA. Deterministic (its noise is a fixed LCG). */
export function documentPhoto(options: DocumentOptions = {}): Pixels {
  const { width = 800, height = 600, shiftX = 0, shiftY = 0, blur = 0, gain = 1, shadow = 1, background = 70, card = 228 } = options;
  const grey = new Float32Array(width * height);
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed / 2147483648 - 0.5) * 8;
  };
  // The card: ID-1 proportions (85.6 × 54 mm), 70% of the frame's width, centred.
  const cardWidth = Math.round(width * 0.7);
  const cardHeight = Math.round(cardWidth / 1.586);
  const left = Math.round((width - cardWidth) / 2) + shiftX;
  const top = Math.round((height - cardHeight) / 2) + shiftY;
  const inCard = (x: number, y: number) => x >= left && x < left + cardWidth && y >= top && y < top + cardHeight;
  const ink = (x: number, y: number) => {
    const u = (x - left) / cardWidth;
    const v = (y - top) / cardHeight;
    // A photo block on the left.
    if (u > 0.06 && u < 0.32 && v > 0.2 && v < 0.8) return true;
    // Lines of "text": words of strokes on the right.
    const line = Math.floor((v - 0.2) / 0.1);
    if (u > 0.38 && u < 0.94 && v > 0.2 && v < 0.8 && line >= 0) {
      const inLine = (v - 0.2) / 0.1 - line;
      if (inLine > 0.55) return false;
      const px = Math.floor((x - left) / 3);
      const word = Math.floor((u - 0.38) / 0.09);
      if ((u - 0.38) / 0.09 - word > 0.8) return false;
      return (px + line + word) % 3 !== 0 || inLine < 0.12;
    }
    // A title bar.
    return u > 0.06 && u < 0.7 && v > 0.06 && v < 0.13;
  };
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let level = inCard(x, y) ? (ink(x, y) ? 40 : card) : background;
      level += noise();
      grey[y * width + x] = level;
    }
  }
  let pixels: Float32Array = grey;
  for (let pass = 0; pass < (blur > 0 ? 3 : 0); pass += 1) pixels = boxBlur(pixels, width, height, blur);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const light = gain * (shadow === 1 ? 1 : 1 - (1 - shadow) * Math.max(0, (x / width - 0.3) / 0.7));
      const value = pixels[y * width + x] * light;
      const at = (y * width + x) * 4;
      // A slightly warm tint, so the luminance weights matter.
      data[at] = value * 1.04;
      data[at + 1] = value;
      data[at + 2] = value * 0.94;
      data[at + 3] = 255;
    }
  }
  return { width, height, data };
}

function boxBlur(source: Float32Array, width: number, height: number, radius: number): Float32Array {
  const across = new Float32Array(source.length);
  const out = new Float32Array(source.length);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let total = 0;
      let n = 0;
      for (let d = -radius; d <= radius; d += 1) {
        const xx = x + d;
        if (xx >= 0 && xx < width) { total += source[y * width + xx]; n += 1; }
      }
      across[y * width + x] = total / n;
    }
  }
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      let total = 0;
      let n = 0;
      for (let d = -radius; d <= radius; d += 1) {
        const yy = y + d;
        if (yy >= 0 && yy < height) { total += across[yy * width + x]; n += 1; }
      }
      out[y * width + x] = total / n;
    }
  }
  return out;
}


const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The picture as a PNG file (8-bit RGBA, no filter). */
export function pngBytes(image: Pixels): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = 8;
  header[9] = 6;
  const rows = Buffer.alloc((image.width * 4 + 1) * image.height);
  for (let y = 0; y < image.height; y += 1) {
    rows[y * (image.width * 4 + 1)] = 0;
    Buffer.from(image.data.buffer, image.data.byteOffset + y * image.width * 4, image.width * 4).copy(rows, y * (image.width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0)),
  ]);
}
