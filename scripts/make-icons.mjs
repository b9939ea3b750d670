// Draws the app icons (a rising candlestick chart on the brand blue) as PNGs without any image
// library: pixels are computed here and written with zlib. Run: node scripts/make-icons.mjs
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
};
function png(size, pixel) {
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x += 1) {
      const [r, g, b, a] = pixel(x / size, y / size);
      raw.set([r, g, b, a], y * (size * 4 + 1) + 1 + x * 4);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; header[9] = 6; header[10] = 0; header[11] = 0; header[12] = 0;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const blue = [11, 61, 145, 255];
const white = [255, 255, 255, 255];
const green = [88, 214, 141, 255];
const clear = [0, 0, 0, 0];
// Candles in a unit square: [x centre, body top, body bottom, wick top, wick bottom, colour].
const candles = [[0.3, 0.55, 0.72, 0.48, 0.8, white], [0.5, 0.4, 0.62, 0.32, 0.7, white], [0.7, 0.24, 0.48, 0.16, 0.56, green]];

function artwork(u, v, scale) {
  // Map into the centred safe area of size `scale`.
  const x = 0.5 + (u - 0.5) / scale;
  const y = 0.5 + (v - 0.5) / scale;
  for (const [cx, top, bottom, wickTop, wickBottom, colour] of candles) {
    if (Math.abs(x - cx) < 0.065 && y >= top && y <= bottom) return colour;
    if (Math.abs(x - cx) < 0.015 && y >= wickTop && y <= wickBottom) return colour;
  }
  return undefined;
}

function rounded(u, v, radius) {
  const dx = Math.max(radius - u, 0, u - (1 - radius));
  const dy = Math.max(radius - v, 0, v - (1 - radius));
  return dx * dx + dy * dy <= radius * radius;
}

const icon = (u, v) => (rounded(u, v, 0.2) ? artwork(u, v, 1) ?? blue : clear);
const maskable = (u, v) => artwork(u, v, 0.8) ?? blue;

writeFileSync('public/icons/icon-192.png', png(192, icon));
writeFileSync('public/icons/icon-512.png', png(512, icon));
writeFileSync('public/icons/maskable-512.png', png(512, maskable));
writeFileSync('public/icons/apple-touch-icon.png', png(180, maskable));
writeFileSync('public/favicon.svg', `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<rect width="100" height="100" rx="20" fill="#0b3d91"/>
${candles.map(([cx, top, bottom, wickTop, wickBottom, colour]) => {
    const fill = colour === green ? '#58d68d' : '#ffffff';
    return `<rect x="${cx * 100 - 1.5}" y="${wickTop * 100}" width="3" height="${(wickBottom - wickTop) * 100}" fill="${fill}"/>
<rect x="${cx * 100 - 6.5}" y="${top * 100}" width="13" height="${(bottom - top) * 100}" rx="1.5" fill="${fill}"/>`;
  }).join('\n')}
</svg>
`);
console.log('icons written');
