// Uploads: typed by magic bytes, size and pixel limits, images re-encoded without their metadata,
// stored under random names, read back only by their owner, with headers that stop sniffing.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { walletPaths } from '../../../src/api/contract/wallet.ts';
import { uploadPixelsMax } from '../../../server/domain/uploads.ts';
import { expectOk, expectRefused, forEachDatabase } from '../helpers.ts';
import {
  getRaw, pdfDocument, photoWithExif, pngImage, secretPlace, upload, webpImage,
} from './walletHelpers.ts';

const fileUrl = (id: string) => walletPaths.uploadedFile.replace(':id', id);

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

    it('refuses an image of more pixels than the limit before decoding it', async () => {
      const { token } = await server.registerByEmail();
      // A PNG of one colour compresses to little, so only the pixel limit can catch it.
      const side = Math.ceil(Math.sqrt(uploadPixelsMax)) + 16;
      const huge = await sharp({ create: { width: side, height: side, channels: 3, background: '#000' } })
        .png({ compressionLevel: 9 }).toBuffer();
      expect(huge.length).toBeLessThan(8 * 1024 * 1024);
      expectRefused(await upload(server, token, { bytes: huge }), 400, 'file_too_many_pixels');
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
});
