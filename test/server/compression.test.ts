// Compression on the wire (DESIGN §5): the built PWA's files go out as the `.br`/`.gz` siblings the
// build wrote, chosen by Accept-Encoding and marked with Content-Encoding and Vary; large JSON
// answers are compressed on the fly, small ones and clients that accept nothing get them as is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/lib/config.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { compressionThresholdBytes } from '../../server/plugins/web.ts';
import { MarketEngine, seededSimulator, simulatorSource } from '../../server/domain/core/market/engine.ts';
import { symbolByCode } from '../../server/domain/core/market/symbols.ts';
import { apiPrefix, paths } from '../../src/api/contract/paths.ts';
import { precompress } from '../../scripts/precompress.ts';
import { forEachDatabase } from './helpers.ts';

const script = `export const greeting = ${JSON.stringify('hello, compressed world '.repeat(200))};\n`;
const page = `<!doctype html><html><head><title>Bourse</title></head><body>${'<p>text</p>'.repeat(100)}</body></html>`;
const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201c2a9a0a80000000049454e44ae426082', 'hex');

forEachDatabase((server) => {
  describe('the built PWA', () => {
    let app: FastifyInstance;
    let webRoot: string;

    beforeAll(async () => {
      webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-web-'));
      fs.mkdirSync(path.join(webRoot, 'assets'));
      fs.writeFileSync(path.join(webRoot, 'index.html'), page);
      fs.writeFileSync(path.join(webRoot, 'assets', 'main-AbC123.js'), script);
      fs.writeFileSync(path.join(webRoot, 'icon.png'), png);
      fs.mkdirSync(path.join(webRoot, '.vite'));
      fs.writeFileSync(path.join(webRoot, '.vite', 'manifest.json'), '{"secret":"build bookkeeping"}');
      await precompress(webRoot);
      const config = { ...loadConfig({}), dataDir: server.dataDir, webRoot };
      ({ app } = await buildApp({ config, database: server.database, keys: createKeys(), logger: false }));
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      fs.rmSync(webRoot, { recursive: true, force: true });
    });

    const get = (url: string, acceptEncoding?: string) => app.inject({
      method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });

    it('the build wrote brotli and gzip siblings of text files only', () => {
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(webRoot, 'assets', 'main-AbC123.js.br'))).toString()).toBe(script);
      expect(zlib.gunzipSync(fs.readFileSync(path.join(webRoot, 'assets', 'main-AbC123.js.gz'))).toString()).toBe(script);
      expect(fs.existsSync(path.join(webRoot, 'index.html.br'))).toBe(true);
      expect(fs.existsSync(path.join(webRoot, 'icon.png.br'))).toBe(false);
    });

    it('sends an asset brotli-compressed when the client accepts br, with Vary and the original type', async () => {
      const reply = await get('/assets/main-AbC123.js', 'gzip, deflate, br');
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-encoding']).toBe('br');
      expect(reply.headers.vary).toMatch(/accept-encoding/i);
      expect(reply.headers['content-type']).toMatch(/javascript/);
      expect(reply.headers['cache-control']).toContain('immutable');
      expect(reply.rawPayload.length).toBeLessThan(script.length / 5);
      expect(zlib.brotliDecompressSync(reply.rawPayload).toString()).toBe(script);
    });

    it('sends gzip to a client that accepts only gzip', async () => {
      const reply = await get('/assets/main-AbC123.js', 'gzip');
      expect(reply.headers['content-encoding']).toBe('gzip');
      expect(reply.headers.vary).toMatch(/accept-encoding/i);
      expect(zlib.gunzipSync(reply.rawPayload).toString()).toBe(script);
    });

    it('sends the file as is (identity) to a client that accepts no encoding, still with Vary', async () => {
      for (const acceptEncoding of [undefined, 'identity']) {
        const reply = await get('/assets/main-AbC123.js', acceptEncoding);
        expect(reply.statusCode).toBe(200);
        expect(reply.headers['content-encoding']).toBeUndefined();
        expect(reply.headers.vary).toMatch(/accept-encoding/i);
        expect(reply.payload).toBe(script);
      }
    });

    it('sends the entry page compressed, at / and as the fallback of unknown paths', async () => {
      for (const url of ['/', '/index.html', '/some/deep/link']) {
        const reply = await get(url, 'br, gzip');
        expect(reply.statusCode).toBe(200);
        expect(reply.headers['content-encoding']).toBe('br');
        expect(reply.headers['content-type']).toMatch(/text\/html/);
        expect(reply.headers['cache-control']).toBe('no-cache');
        expect(zlib.brotliDecompressSync(reply.rawPayload).toString()).toBe(page);
      }
    });

    it('never serves the build manifest under /.vite/', async () => {
      const reply = await get('/.vite/manifest.json', 'br, gzip');
      expect(reply.body).not.toContain('build bookkeeping');
      expect(zlib.brotliDecompressSync(reply.rawPayload).toString()).not.toContain('build bookkeeping');
    });

    it('sends images as they are', async () => {
      const reply = await get('/icon.png', 'br, gzip');
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-encoding']).toBeUndefined();
      expect(reply.rawPayload.equals(png)).toBe(true);
    });
  });

  describe('API answers', () => {
    beforeAll(async () => {
      const specs = ['BTCUSDT', 'ETHUSDT', 'EURUSD', 'XAUUSD'].map((symbol) => symbolByCode.get(symbol)!);
      const engine = new MarketEngine({
        db: server.db, clock: server.clock, bus: server.marketBus, source: simulatorSource(seededSimulator('compression-test'), specs),
        seed: 'compression-test', tickIntervalMs: 1000, tickRetentionMs: 3_600_000, specs,
      });
      await engine.init();
      server.clock.advance(1000);
      await engine.tickOnce(server.clock.now().getTime());
    });

    const get = (url: string, acceptEncoding?: string) => server.app.inject({
      method: 'GET', url: `${apiPrefix}${url}`, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
    });
    const candles = `${paths.kline}?symbol=BTCUSDT&period=1m&limit=300`;

    it('compresses a large JSON answer (300 candles) with brotli or gzip, as the client accepts', async () => {
      const plain = await get(candles);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.payload.length).toBeGreaterThan(compressionThresholdBytes);

      const br = await get(candles, 'gzip, deflate, br');
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['content-type']).toMatch(/application\/json/);
      expect(br.rawPayload.length).toBeLessThan(plain.payload.length / 2);
      const envelope = JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString());
      expect(envelope).toMatchObject({ success: true, code: 200 });
      expect(envelope.result.candles).toHaveLength(300);

      const gzip = await get(candles, 'gzip');
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString()).result.candles).toHaveLength(300);
    });

    it('sends a small answer as it is', async () => {
      const reply = await get(paths.serverTime, 'br, gzip');
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-encoding']).toBeUndefined();
      expect(reply.payload.length).toBeLessThan(compressionThresholdBytes);
      expect(JSON.parse(reply.payload)).toMatchObject({ success: true, code: 200 });
    });
  });
}, { databases: 'embedded' });
