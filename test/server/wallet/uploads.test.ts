// Uploads: typed by magic bytes, size and pixel limits, images re-encoded without their metadata
// (at most two at once per instance, the rest waiting in a bounded queue), stored under random
// names, read back only by their owner, with headers that stop sniffing.
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { count } from 'drizzle-orm';
import { uploads } from '../../../server/db/schema.ts';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import { decodeSlots, decodesAtOnceMax, decodesWaitingMax, uploadPixelsMax } from '../../../server/domain/kernel/uploads.ts';
import { expectOk, expectRefused, forEachDatabase, type Reply, type TestServer } from '../helpers.ts';
import {
  getRaw, pdfDocument, photoWithExif, pngImage, secretPlace, upload, webpImage,
} from './walletHelpers.ts';

const fileUrl = (id: string) => walletPaths.uploadedFile.replace(':id', id);

/** A PNG chunk: length, type, data and the CRC-32 of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * A PNG of a few hundred bytes whose header declares `width` × `height` grey pixels: the image
 * data holds one row only, so whoever decodes it spends the time of the whole declared size.
 */
function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, deflate, adaptive filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(width + 1))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Rows in uploads and files in DATA_DIR/uploads: what a refusal must leave as it was. */
async function storedUploads(server: TestServer) {
  const [row] = await server.db.select({ rows: count() }).from(uploads);
  const dir = path.join(server.dataDir, 'uploads');
  return { rows: row.rows, files: fs.existsSync(dir) ? fs.readdirSync(dir).length : 0 };
}

/** Holds every decode slot, as if other uploads were being decoded, until the answer is called. */
async function holdAllDecodeSlots() {
  for (let slot = 0; slot < decodesAtOnceMax; slot += 1) await decodeSlots.acquire();
  return () => { for (let slot = 0; slot < decodesAtOnceMax; slot += 1) decodeSlots.release(); };
}

forEachDatabase((server) => {
  describe('POST /sys/common/upload', () => {
    it('keeps a photo without its EXIF: no GPS, no camera, no artist, the pixels the same size', async () => {
      const { token } = await server.registerByEmail();
      const original = await photoWithExif(64, 48);
      expect((await sharp(original).metadata()).exif).toBeDefined();
      expect(original.includes(Buffer.from(secretPlace))).toBe(true);
      const answer = expectOk(await upload(server, token, { bytes: original }));
      const { id, url, contentType, size } = answer.body.result;
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(url).toBe(`/api/sys/common/file/${id}`);
      expect(contentType).toBe('image/jpeg');
      const stored = await getRaw(server, fileUrl(id), token);
      expect(stored.status).toBe(200);
      expect(stored.bytes.length).toBe(size);
      expect(stored.headers['content-type']).toBe('image/jpeg');
      expect(stored.headers['x-content-type-options']).toBe('nosniff');
      expect(stored.headers['content-disposition']).toBe(`inline; filename="deposit_proof-${id}.jpg"`);
      expect(stored.bytes.includes(Buffer.from(secretPlace))).toBe(false);
      expect(stored.bytes.includes(Buffer.from('PhoneMaker'))).toBe(false);
      const metadata = await sharp(stored.bytes).metadata();
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect([metadata.width, metadata.height]).toEqual([64, 48]);
    });

    it('takes PNG, WebP and PDF by their first bytes, whatever name and type the browser gives', async () => {
      const { token } = await server.registerByEmail();
      const cases: Array<[Buffer, string]> = [
        [await pngImage(), 'image/png'], [await webpImage(), 'image/webp'], [pdfDocument(), 'application/pdf'],
      ];
      for (const [bytes, type] of cases) {
        const answer = expectOk(await upload(server, token, { bytes, filename: 'x.gif', contentType: 'text/plain' }));
        expect(answer.body.result.contentType).toBe(type);
        const stored = await getRaw(server, fileUrl(answer.body.result.id), token);
        expect(stored.headers['content-type']).toBe(type);
        if (type === 'application/pdf') expect(String(stored.headers['content-disposition'])).toMatch(/^attachment;/);
      }
    });

    it('stores the bytes under a random name in DATA_DIR/uploads, never the name sent', async () => {
      const { token } = await server.registerByEmail();
      expectOk(await upload(server, token, { bytes: await pngImage(), filename: '../../evil.png' }));
      const names = fs.readdirSync(path.join(server.dataDir, 'uploads'));
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect(name).toMatch(/^[0-9a-f]{48}\.(jpg|png|webp|pdf)$/);
      expect(fs.existsSync(path.join(server.dataDir, 'evil.png'))).toBe(false);
    });

    it('refuses what is not a JPEG, PNG, WebP or PDF, even named .jpg', async () => {
      const { token } = await server.registerByEmail();
      const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
      const html = Buffer.from('<html><script>alert(1)</script></html>');
      for (const bytes of [gif, html, Buffer.from('just text')]) {
        expectRefused(await upload(server, token, { bytes, filename: 'photo.jpg', contentType: 'image/jpeg' }), 400, 'file_type_unsupported');
      }
    });

    it('refuses a JPEG header over garbage, and a PDF without its end', async () => {
      const { token } = await server.registerByEmail();
      const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
      expectRefused(await upload(server, token, { bytes: fake }), 400, 'file_type_unsupported');
      expectRefused(await upload(server, token, { bytes: Buffer.from('%PDF-1.4\n1 0 obj') }), 400, 'file_type_unsupported');
    });

    it('takes a phone-sized photo of several megabytes', async () => {
      const { token } = await server.registerByEmail();
      const photo = await sharp({ create: { width: 1800, height: 1400, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
        .jpeg({ quality: 100 }).toBuffer();
      expect(photo.length).toBeGreaterThan(2 * 1024 * 1024);
      const answer = expectOk(await upload(server, token, { bytes: photo }));
      const stored = await getRaw(server, fileUrl(answer.body.result.id), token);
      expect(await sharp(stored.bytes).metadata()).toMatchObject({ width: 1800, height: 1400, format: 'jpeg' });
    });

    it('refuses a file over 8 MB', async () => {
      const { token } = await server.registerByEmail();
      const big = Buffer.concat([await pngImage(), Buffer.alloc(8 * 1024 * 1024 + 1)]);
      expectRefused(await upload(server, token, { bytes: big }), 413, 'file_too_large');
    });

    it('refuses an image whose header declares more than 40 megapixels before decoding it, storing nothing', async () => {
      expect(uploadPixelsMax).toBe(40_000_000);
      const { token } = await server.registerByEmail();
      const declared = pngDeclaring(8000, 5001);
      expect(declared.length).toBeLessThan(16 * 1024);
      const before = await storedUploads(server);
      // Every decode slot is taken while it is sent: the refusal comes from the header alone.
      const releaseSlots = await holdAllDecodeSlots();
      try {
        const answer = await upload(server, token, { bytes: declared, filename: 'tiny.png', contentType: 'image/png' });
        expectRefused(answer, 400, 'file_too_many_pixels');
        expect(answer.body.message).toContain('40 megapixels');
        expect(decodeSlots.waiting).toBe(0);
      } finally {
        releaseSlots();
      }
      expect(await storedUploads(server)).toEqual(before);
    });

    it('decodes at most two uploads at once: a third waits its turn, and all three are stored', async () => {
      const { token } = await server.registerByEmail();
      const images = await Promise.all([pngImage(40, 30), pngImage(50, 30), pngImage(60, 30)]);
      const releaseSlots = await holdAllDecodeSlots();
      decodeSlots.resetPeak();
      let answers: Promise<Reply[]>;
      try {
        answers = Promise.all(images.map((bytes) => upload(server, token, { bytes })));
        // All three have passed the checks before decoding and wait for a slot.
        await vi.waitFor(() => expect(decodeSlots.waiting).toBe(3), { timeout: 30_000, interval: 10 });
      } finally {
        releaseSlots();
      }
      const widths: Array<number | undefined> = [];
      for (const answer of await answers) {
        const stored = await getRaw(server, fileUrl(expectOk(answer).body.result.id), token);
        widths.push((await sharp(stored.bytes).metadata()).width);
      }
      expect(widths).toEqual([40, 50, 60]);
      expect(decodeSlots.runningPeak).toBe(decodesAtOnceMax);
      expect(decodeSlots.running).toBe(0);
      expect(decodeSlots.waiting).toBe(0);
    });

    it('refuses an upload past twenty waiting for a decode with rate_limited, storing nothing for it', async () => {
      const { token } = await server.registerByEmail();
      const image = await pngImage();
      const before = await storedUploads(server);
      const releaseSlots = await holdAllDecodeSlots();
      let waiting: Promise<Reply[]>;
      try {
        waiting = Promise.all(Array.from({ length: decodesWaitingMax }, () => upload(server, token, { bytes: image })));
        await vi.waitFor(() => expect(decodeSlots.waiting).toBe(decodesWaitingMax), { timeout: 30_000, interval: 10 });
        const refused = await upload(server, token, { bytes: image });
        expectRefused(refused, 429, 'rate_limited');
        expect(refused.headers['retry-after']).toBe('1');
        expect(await storedUploads(server)).toEqual(before);
      } finally {
        releaseSlots();
      }
      for (const answer of await waiting) expectOk(answer);
      expect((await storedUploads(server)).rows).toBe(before.rows + decodesWaitingMax);
    });

    it('refuses a missing file, an empty one, a missing or unknown purpose, and no session', async () => {
      const { token } = await server.registerByEmail();
      expectRefused(await upload(server, token, undefined), 400, 'file_missing');
      expectRefused(await upload(server, token, { bytes: Buffer.alloc(0) }), 400, 'file_missing');
      expectRefused(await upload(server, token, { bytes: await pngImage() }, null), 400, 'invalid_request');
      expectRefused(await upload(server, token, { bytes: await pngImage() }, 'avatar'), 400, 'invalid_request');
      expectRefused(await upload(server, undefined, { bytes: await pngImage() }), 401, 'unauthorized');
    });

    it('does not take a JSON body on the upload path', async () => {
      const { token } = await server.registerByEmail();
      const answer = await server.post(walletPaths.upload, { purpose: 'deposit_proof' }, { token });
      expectRefused(answer, 400, 'file_missing');
    });
  });

  describe('GET /sys/common/file/{id}', () => {
    it('serves a file to its owner only: another user, no session and a made-up id get the same not found', async () => {
      const owner = await server.registerByEmail();
      const other = await server.registerByEmail();
      const { id } = expectOk(await upload(server, owner.token, { bytes: await pngImage() })).body.result;
      expect((await getRaw(server, fileUrl(id), owner.token)).status).toBe(200);
      const stranger = await server.get(fileUrl(id), {}, { token: other.token });
      expectRefused(stranger, 404, 'file_not_found');
      const madeUp = await server.get(fileUrl('0'.repeat(32)), {}, { token: other.token });
      expectRefused(madeUp, 404, 'file_not_found');
      expect(stranger.body.message).toBe(madeUp.body.message);
      expectRefused(await server.get(fileUrl('..%2F..%2Fkeys%2Fpepper'), {}, { token: owner.token }), 404, 'file_not_found');
      expectRefused(await server.get(fileUrl(id)), 401, 'unauthorized');
    });
  });
}, { databases: 'embedded' });
