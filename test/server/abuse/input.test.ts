// Hostile input through the shared mechanisms every route inherits: the text check (NUL, control
// characters, bidirectional overrides), bounded time parameters and messages, answers in the
// envelope for what Fastify and Node refuse before routing, the per-address limit in front of
// decryption and the replay store, TRUST_PROXY, HSTS, and what the log may say.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectRefused, forEachDatabase } from '../helpers.ts';
import { paths } from '../../../src/api/contract/paths.ts';
import { parseTrustProxy } from '../../../server/lib/config.ts';
import { logSerializers, redactText } from '../../../server/lib/redact.ts';
import { findUnsafeText } from '../../../server/lib/textGuard.ts';

/** Sends raw bytes over HTTP/1.1 and resolves with everything the server wrote before closing. */
function rawHttp(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => { answer += chunk.toString(); });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => { socket.destroy(); reject(new Error('no answer')); });
  });
}

const envelopeOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: number; result: { error: string } };

describe('the text check', () => {
  it('finds NUL, other controls, C1 controls, lone surrogates and bidi overrides, in values and keys', () => {
    for (const bad of ['a\u0000b', 'a\u0007', '\u007f', 'x\u0085', 'name\u202Egnp', '\u2066x', '\uD800', 'a\uDC00b']) {
      expect(findUnsafeText({ field: bad })).toBe('field');
    }
    expect(findUnsafeText({ 'k\u0000': 'v' })).toBe('k\u0000');
    expect(findUnsafeText({ nested: { list: ['ok', 'b\u0000'] } })).toBe('nested.list.1');
  });

  it('lets ordinary text through: tabs and new lines, every script, emoji (surrogate pairs)', () => {
    expect(findUnsafeText({ a: 'line one\nline two\ttab\r', b: 'Zoë 김 山田 สวัสดี مرحبا', c: '📈 BTC' })).toBeUndefined();
  });
});

describe('what the log may say', () => {
  it('masks e-mail addresses, phone numbers and the values bound to a failed query', () => {
    const text = redactText('Failed query: select * from users where email = $1\nparams: alice@example.com,15551234567');
    expect(text).not.toMatch(/alice|5551234567/);
    expect(redactText('no user alice@example.com at +8613800138000')).toBe('no user [email] at [digits]');
  });

  it('logs a request by its path only, never its query string', () => {
    const logged = logSerializers.req({ method: 'GET', url: '/api/app/getEmailCaptcha?email=alice%40example.com', ip: '10.0.0.1' } as never);
    expect(logged).toEqual({ method: 'GET', url: '/api/app/getEmailCaptcha', remoteAddress: '10.0.0.1' });
  });
});

describe('TRUST_PROXY', () => {
  it('takes a hop count or a list of proxies, and refuses "true" (every hop trusted)', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('10.0.0.1, 192.168.0.0/16')).toEqual(['10.0.0.1', '192.168.0.0/16']);
    expect(() => parseTrustProxy('true')).toThrow(/hop count/);
  });
});

forEachDatabase((server) => {
  describe('text no database can store, in any field of any route', () => {
    it('refuses NUL in bodies and query strings with 400 invalid_request, creating and sending nothing', async () => {
      server.freshIp();
      const users = await server.count('users');
      const codes = await server.count('verification_codes');
      const email = server.uniqueEmail();
      const attempts = [
        server.post(paths.login, { account: `a\u0000${email}`, password: 'Secret123pass' }),
        server.post(paths.register, { accountType: 'email', account: email, password: 'Secret123\u0000pass', code: '123456' }),
        server.post(paths.emailLogin, { email: `${email}\u0000`, code: '123456' }),
        server.get(paths.emailCaptcha, { email: `${email}\u0000`, type: 'register' }),
        server.get(paths.checkAccount, { account: `x\u0000${email}` }),
      ];
      for (const reply of await Promise.all(attempts)) expectRefused(reply, 400, 'invalid_request');
      expect(await server.count('users')).toBe(users);
      expect(await server.count('verification_codes')).toBe(codes);
    });

    it('refuses a right-to-left override or NUL in personal data and keeps the saved data', async () => {
      const account = await server.registerByEmail();
      const saved = await server.post(paths.updatePersonalData, { surname: 'Smith' }, { token: account.token });
      expect(saved.status).toBe(200);
      for (const surname of ['Smi\u202Eht', 'Smi\u0000th']) {
        expectRefused(await server.post(paths.updatePersonalData, { surname }, { token: account.token }), 400, 'invalid_request');
      }
      const info = await server.get(paths.myUserInfo, {}, { token: account.token });
      expect(info.body.result.surname).toBe('Smith');
    });

    it('refuses a candle end time beyond any date with 400, not a 500', async () => {
      const reply = await server.get(paths.kline, { symbol: 'BTCUSDT', period: '1m', endTime: '8640000000000001' });
      expectRefused(reply, 400, 'invalid_request');
      // parseInt would read these as 1; a number in a query string must be plain digits.
      const queries: Array<Record<string, string>> = [{ limit: '1e9' }, { limit: '1.5' }, { endTime: '1e400' }, { endTime: 'true' }, { limit: '12abc' }];
      for (const query of queries) {
        expectRefused(await server.get(paths.kline, { symbol: 'BTCUSDT', period: '1m', ...query }), 400, 'invalid_request');
      }
    });

    it('does not echo a 50 kB unknown field back in its message', async () => {
      const account = await server.registerByEmail();
      const reply = await server.post(paths.updatePersonalData, { ['k'.repeat(50_000)]: 'v', surname: 'Lee' }, { token: account.token });
      expectRefused(reply, 400, 'invalid_request');
      expect(reply.body.message.length).toBeLessThan(300);
    });
  });

  describe('answers in the envelope for what is refused before any route', () => {
    it('answers /API/… in another case with the envelope, not the web page', async () => {
      const webRoot = path.join(server.dataDir, 'no-web');
      fs.mkdirSync(webRoot, { recursive: true });
      fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>app</title>');
      try {
        await server.restartApp();
        const page = await server.app.inject({ method: 'GET', url: '/some/page' });
        expect(page.headers['content-type']).toMatch(/text\/html/);
        const upper = await server.app.inject({ method: 'GET', url: '/API/public/getServerTime' });
        expect(upper.statusCode).toBe(404);
        expect(upper.json()).toMatchObject({ success: false, code: 404, result: { error: 'not_found' } });
      } finally {
        fs.rmSync(webRoot, { recursive: true, force: true });
        await server.restartApp();
      }
    });

    it('answers a malformed URL and oversized headers in the envelope over real HTTP', async () => {
      await server.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = server.app.server.address() as net.AddressInfo;
      try {
        const badUrl = await server.app.inject({ method: 'GET', url: '/api/public/%E0%A4%A' });
        expect(badUrl.statusCode).toBeGreaterThanOrEqual(400);
        expect(badUrl.statusCode).toBeLessThan(500);
        expect(badUrl.json()).toMatchObject({ success: false });
        const huge = await rawHttp(port, `GET /api/public/getServerTime HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
        expect(huge).toMatch(/^HTTP\/1\.1 431/);
        expect(envelopeOf(huge)).toMatchObject({ code: 431, result: { error: 'invalid_request' } });
        const upgrade = await rawHttp(port, 'GET /api/public/getServerTime HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n'
          + 'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
        expect(upgrade).toMatch(/^HTTP\/1\.1 400/);
        expect(envelopeOf(upgrade)).toMatchObject({ code: 400, result: { error: 'invalid_request' } });
        const garbage = await rawHttp(port, 'NOT A REQUEST\r\n\r\n');
        expect(garbage).toMatch(/^HTTP\/1\.1 400/);
        expect(envelopeOf(garbage)).toMatchObject({ code: 400 });
      } finally {
        await server.restartApp();
      }
    });

    it('sends no Strict-Transport-Security over plain HTTP', async () => {
      const reply = await server.get(paths.serverTime);
      expect(reply.headers['strict-transport-security']).toBeUndefined();
    });
  });
}, { databases: 'embedded' });

forEachDatabase((server) => {
  describe('the per-address limit in front of decryption and the replay store', () => {
    it('refuses an address over its limit with 429 before storing its bodies; the next hop is not the client', async () => {
      const limit = server.limits.encryptedBodiesPerIpPerMinute;
      const rows = await server.count('request_replay_keys');
      // Behind one trusted proxy the client is the last X-Forwarded-For entry, whatever it forged first.
      const via = (forged: string, client: string) => ({ headers: { 'x-forwarded-for': `${forged}, ${client}` } });
      for (let i = 0; i < limit; i += 1) {
        const reply = await server.post(paths.logout, {}, via(`198.51.100.${i}`, '203.0.113.9'));
        expectRefused(reply, 401, 'unauthorized');
      }
      expect(await server.count('request_replay_keys')).toBe(rows + limit);
      const over = await server.post(paths.logout, {}, via('198.51.100.250', '203.0.113.9'));
      expectRefused(over, 429, 'rate_limited');
      expect(over.headers['retry-after']).toBeDefined();
      expect(await server.count('request_replay_keys')).toBe(rows + limit);
      // Another client behind the same proxy is unaffected.
      expectRefused(await server.post(paths.logout, {}, via('203.0.113.9', '203.0.113.10')), 401, 'unauthorized');
    });
  });
}, { databases: 'embedded', limits: { encryptedBodiesPerIpPerMinute: 5 }, trustProxy: '1' });
