// Who may frame what (issue 18): the back office's page answers `frame-ancestors 'none'` (and
// X-Frame-Options DENY), so not even a page of the app's own origin can lay it under its own,
// while the app's pages keep `frame-ancestors 'self'`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/lib/config.ts';
import { createKeys } from '../../server/plugins/encryption.ts';
import { precompress } from '../../scripts/precompress.ts';
import { forEachDatabase } from './helpers.ts';

const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body>${'<p>text</p>'.repeat(200)}</body></html>`;

/** The value of one CSP directive, as the answer states it. */
function directive(policy: unknown, name: string): string | undefined {
  return String(policy).split(';').map((part) => part.trim()).find((part) => part.startsWith(`${name} `))?.slice(name.length + 1);
}

forEachDatabase((server) => {
  describe('GET /admin.html and the app pages', () => {
    let app: FastifyInstance;
    let webRoot: string;

    beforeAll(async () => {
      webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'bourse-frame-'));
      fs.writeFileSync(path.join(webRoot, 'index.html'), page('Bourse'));
      fs.writeFileSync(path.join(webRoot, 'admin.html'), page('Back office'));
      await precompress(webRoot);
      const config = { ...loadConfig({}), dataDir: server.dataDir, webRoot };
      ({ app } = await buildApp({ config, database: server.database, keys: createKeys(), logger: false }));
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      fs.rmSync(webRoot, { recursive: true, force: true });
    });

    const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

    it('answers the back office with frame-ancestors \'none\' and X-Frame-Options DENY, compressed or not', async () => {
      for (const url of ['/admin.html', '/admin.html?from=login', '/admin%2Ehtml']) {
        for (const acceptEncoding of ['br', 'identity']) {
          const reply = await get(url, { 'accept-encoding': acceptEncoding });
          expect(reply.statusCode, url).toBe(200);
          expect(reply.headers['content-type']).toMatch(/^text\/html/);
          expect(directive(reply.headers['content-security-policy'], 'frame-ancestors'), url).toBe("'none'");
          expect(reply.headers['x-frame-options'], url).toBe('DENY');
          // The rest of the policy is the app's.
          expect(directive(reply.headers['content-security-policy'], 'script-src')).toBe("'self'");
        }
      }
    });

    it('keeps frame-ancestors \'self\' on the app\'s pages, its deep links and the API', async () => {
      for (const url of ['/', '/index.html', '/some/deep/link', '/api/public/getServerTime']) {
        const reply = await get(url);
        expect(reply.statusCode, url).toBe(200);
        expect(directive(reply.headers['content-security-policy'], 'frame-ancestors'), url).toBe("'self'");
        expect(reply.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      }
    });
  });
}, { databases: 'embedded' });
