// Identity photos for the conformance suite, written by hand on node:zlib: a PNG of one colour,
// and what a PNG shows (size and first pixel), to compare a photo the server re-encoded.
import zlib from 'node:zlib';

const pngSignature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG of one colour (8-bit RGB, no filter), so front and back are different, valid images. */
export function plainPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4); length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0); header.writeUInt32BE(height, 4); header[8] = 8; header[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([pngSignature, chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/**
 * Width, height and the first pixel's colour of a PNG (8-bit RGB or RGBA). The server re-encodes
 * uploads (dropping metadata), so a photo is compared by what it shows. The first pixel needs no
 * unfiltering: every PNG filter predicts 0 for it.
 */
export function pngLook(bytes: Buffer): { width: number; height: number; firstPixel: number[] } {
  if (!bytes.subarray(0, 8).equals(pngSignature)) throw new Error('not a PNG');
  let header: Buffer | undefined;
  const data: Buffer[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') header = body;
    if (type === 'IDAT') data.push(body);
    at += 12 + length;
  }
  if (!header || header[8] !== 8 || ![2, 6].includes(header[9])) throw new Error('not an 8-bit RGB or RGBA PNG');
  const pixels = zlib.inflateSync(Buffer.concat(data));
  return { width: header!.readUInt32BE(0), height: header!.readUInt32BE(4), firstPixel: [...pixels.subarray(1, 4)] };
}
