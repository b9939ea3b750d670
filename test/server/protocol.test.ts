// The wire protocol every route shares: encrypted POST bodies (fresh, never replayed, refused
// clearly when tampered or sent in the clear) and the envelope of every answer.
import { createCipheriv, generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectRefused, forEachDatabase, TestServer, type Account } from './helpers.ts';
import { encryptBody, importServerKey } from '../../src/api/crypto.ts';
import { apiPrefix, paths, requestTimeField } from '../../src/api/contract/paths.ts';

const envelopeKeys = ['code', 'message', 'result', 'success', 'timestamp'];

/** Builds a body by hand: `keyText` wrapped with `wrapKey`, `plaintext` under AES-256-ECB with `aesKey`. */
async function handmadeBody(wrapKey: CryptoKey, keyText: string, plaintext: string, aesKey = keyText) {
  const wrapped = Buffer.from(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, wrapKey, new TextEncoder().encode(keyText)));
  const cipher = createCipheriv('aes-256-ecb', Buffer.from(aesKey), null);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${wrapped.toString('base64')}.${ciphertext.toString('base64')}`;
}

/** The same bytes in another base64 spelling: `bit` set in the unused low bits before "=". */
function respell(base64: string, bit: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const at = base64.replace(/=+$/, '').length - 1;
  const value = alphabet.indexOf(base64[at]) ^ bit;
  return `${base64.slice(0, at)}${alphabet[value]}${base64.slice(at + 1)}`;
}

function flipByte(base64: string, index: number): string {
  const bytes = Buffer.from(base64, 'base64');
  bytes[(index + bytes.length) % bytes.length] ^= 0x5a;
  return bytes.toString('base64');
}

forEachDatabase((server) => {
  let account: Account;
  beforeAll(async () => { account = await server.registerByEmail(); });

  /** What must stay as it was after a refused login: the number of sessions and of users. */
  async function snapshot() {
    return { users: await server.count('users'), sessions: await server.count('sessions') };
  }


  describe('POST bodies (encrypted, spec §7)', () => {
    it('accepts a body encrypted as the client does it and answers in the envelope', async () => {
      const reply = await server.post(paths.login, { account: account.account, password: account.password });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ success: true, code: 200, message: 'OK', result: { token: expect.any(String) } });
    });

    it('refuses a replayed body with request_replayed and opens no second session', async () => {
      const body = await server.encrypt({ account: account.account, password: account.password });
      expect((await server.postRaw(paths.login, body)).status).toBe(200);
      const before = await snapshot();
      const replay = await server.postRaw(paths.login, body);
      expectRefused(replay, 400, 'request_replayed');
      const fromElsewhere = await server.postRaw(paths.login, body, { ip: '198.51.100.7' });
      expectRefused(fromElsewhere, 400, 'request_replayed');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a replayed registration, leaving the account as the first request made it', async () => {
      const email = server.uniqueEmail();
      expect((await server.requestEmailCode(email, 'register')).status).toBe(200);
      const body = await server.encrypt({ accountType: 'email', account: email, password: 'First1password', code: server.latestCode(email) });
      expect((await server.postRaw(paths.register, body)).status).toBe(200);
      const before = await snapshot();
      expectRefused(await server.postRaw(paths.register, body), 400, 'request_replayed');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a body replayed after the freshness window as stale', async () => {
      const body = await server.encrypt({ account: account.account, password: account.password });
      expect((await server.postRaw(paths.login, body)).status).toBe(200);
      server.clock.advance(server.limits.requestFreshnessMs + 1);
      const before = await snapshot();
      expectRefused(await server.postRaw(paths.login, body), 400, 'request_stale');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a body whose _ts is older than the freshness window with request_stale', async () => {
      const before = await snapshot();
      const sentMs = server.clock.now().getTime() - server.limits.requestFreshnessMs - 1;
      const reply = await server.post(paths.login, { account: account.account, password: account.password }, { ts: sentMs });
      expectRefused(reply, 400, 'request_stale');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a body whose _ts is ahead of the server by more than the window', async () => {
      const sentMs = server.clock.now().getTime() + server.limits.requestFreshnessMs + 1;
      const reply = await server.post(paths.login, { account: account.account, password: account.password }, { ts: sentMs });
      expectRefused(reply, 400, 'request_stale');
    });

    it('accepts a body whose _ts is exactly at the edge of the window', async () => {
      const sentMs = server.clock.now().getTime() - server.limits.requestFreshnessMs;
      const reply = await server.post(paths.login, { account: account.account, password: account.password }, { ts: sentMs });
      expect(reply.status).toBe(200);
    });

    it('accepts a body without _ts, as a client written from the spec alone sends it', async () => {
      const reply = await server.post(paths.login, { account: account.account, password: account.password }, { ts: null });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ success: true, code: 200, result: { token: expect.any(String) } });
    });

    it('refuses a body without _ts replayed a day later, and after a restart, opening no second session', async () => {
      const body = await server.encrypt({ account: account.account, password: account.password }, null);
      expect((await server.postRaw(paths.login, body)).status).toBe(200);
      const before = await snapshot();
      server.clock.advance(server.limits.replayWindowMs - 60_000);
      expectRefused(await server.postRaw(paths.login, body), 400, 'request_replayed');
      await server.restartApp();
      expectRefused(await server.postRaw(paths.login, body), 400, 'request_replayed');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a body with _ts replayed after a restart', async () => {
      const body = await server.encrypt({ account: account.account, password: account.password });
      expect((await server.postRaw(paths.login, body)).status).toBe(200);
      await server.restartApp();
      const before = await snapshot();
      expectRefused(await server.postRaw(paths.login, body), 400, 'request_replayed');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses the same bytes spelt in another base64 text (unused low bits before the padding)', async () => {
      const body = await server.encrypt({ account: account.account, password: account.password }, null);
      expect((await server.postRaw(paths.login, body)).status).toBe(200);
      const before = await snapshot();
      const [wrappedKey, ciphertext] = body.split('.');
      // 256 bytes of wrapped key end in "=": the character before it carries two unused bits.
      expect(wrappedKey.endsWith('=')).toBe(true);
      for (const bit of [1, 2, 3]) {
        const respelt = respell(wrappedKey, bit);
        expect(Buffer.from(respelt, 'base64')).toEqual(Buffer.from(wrappedKey, 'base64'));
        expectRefused(await server.postRaw(paths.login, `${respelt}.${ciphertext}`), 400, 'body_not_encrypted');
      }
      // Without padding the bytes are the same too: refused, never a second session.
      expectRefused(await server.postRaw(paths.login, `${wrappedKey.replace(/=+$/, '')}.${ciphertext}`), 400, 'body_not_encrypted');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a second, different body under a key already used as a replay', async () => {
      const keyText = 'ABCDEFGHJKMNPQRSTWXYZabcdefhijk2';
      const login = JSON.stringify({ account: account.account, password: account.password });
      expect((await server.postRaw(paths.login, await handmadeBody(server.serverKey, keyText, login))).status).toBe(200);
      const before = await snapshot();
      // A fresh RSA wrapping (OAEP is randomised) of the same key, with other blocks after it.
      const other = JSON.stringify({ password: account.password, account: account.account });
      expectRefused(await server.postRaw(paths.login, await handmadeBody(server.serverKey, keyText, other)), 400, 'request_replayed');
      expect(await snapshot()).toEqual(before);
    });

    it('remembers a body with _ts for twice the freshness window, one without for the replay window, then prunes', async () => {
      const start = await server.count('request_replay_keys');
      await server.post(paths.login, { account: account.account, password: account.password });
      await server.post(paths.login, { account: account.account, password: account.password }, { ts: null });
      expect(await server.count('request_replay_keys')).toBe(start + 2);
      server.clock.advance(2 * server.limits.requestFreshnessMs + 1);
      const afterFreshness = await server.count('request_replay_keys');
      await server.services.replayStore.prune();
      expect(await server.count('request_replay_keys')).toBeLessThan(afterFreshness);
      server.clock.advance(server.limits.replayWindowMs);
      await server.services.replayStore.prune();
      expect(await server.count('request_replay_keys')).toBe(0);
    });

    it('refuses a body whose _ts is not a number with request_stale', async () => {
      const now = String(server.clock.now().getTime());
      const reply = await server.post(paths.login, { account: account.account, password: account.password, [requestTimeField]: now }, { ts: null });
      expectRefused(reply, 400, 'request_stale');
    });

    it('refuses plain JSON with body_not_encrypted and changes nothing', async () => {
      const before = await snapshot();
      const plain = JSON.stringify({ account: account.account, password: account.password, _ts: server.clock.now().getTime() });
      expectRefused(await server.postRaw(paths.login, plain), 400, 'body_not_encrypted');
      const asText = await server.postRaw(paths.login, plain, { headers: { 'content-type': 'text/plain' } });
      expectRefused(asText, 400, 'body_not_encrypted');
      expectRefused(await server.postRaw(paths.login, 'not base64!.at all'), 400, 'body_not_encrypted');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a ciphertext cut short with body_undecryptable, never a 5xx', async () => {
      const body = await server.encrypt({ account: account.account, password: account.password });
      const [wrappedKey, ciphertext] = body.split('.');
      const cut = Buffer.from(ciphertext, 'base64').subarray(0, -5).toString('base64');
      const before = await snapshot();
      expectRefused(await server.postRaw(paths.login, `${wrappedKey}.${cut}`), 400, 'body_undecryptable');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a ciphertext whose last block was altered with body_undecryptable', async () => {
      const body = await server.encrypt({ account: account.account, password: account.password });
      const [wrappedKey, ciphertext] = body.split('.');
      const before = await snapshot();
      // Altering the last block spoils the padding or the closing brace: either way not a JSON object.
      for (const index of [-1, -8, -16]) {
        const reply = await server.postRaw(paths.login, `${wrappedKey}.${flipByte(ciphertext, index)}`);
        expectRefused(reply, 400, 'body_undecryptable');
      }
      expect(await snapshot()).toEqual(before);
    });

    it('refuses an altered wrapped key with body_undecryptable', async () => {
      const body = await server.encrypt({ account: account.account, password: account.password });
      const [wrappedKey, ciphertext] = body.split('.');
      const before = await snapshot();
      for (const index of [0, 100, -1]) {
        const reply = await server.postRaw(paths.login, `${flipByte(wrappedKey, index)}.${ciphertext}`);
        expectRefused(reply, 400, 'body_undecryptable');
      }
      const truncated = Buffer.from(wrappedKey, 'base64').subarray(1).toString('base64');
      expectRefused(await server.postRaw(paths.login, `${truncated}.${ciphertext}`), 400, 'body_undecryptable');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a body encrypted for another server key with body_undecryptable', async () => {
      const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const otherKey = await importServerKey(other.publicKey.export({ type: 'spki', format: 'pem' }).toString());
      const body = await encryptBody({ account: account.account, password: account.password, _ts: server.clock.now().getTime() }, otherKey);
      expectRefused(await server.postRaw(paths.login, body), 400, 'body_undecryptable');
    });

    it('refuses a wrapped key that is not 32 characters long with body_undecryptable', async () => {
      const plaintext = JSON.stringify({ account: account.account, password: account.password, _ts: server.clock.now().getTime() });
      const body = await handmadeBody(server.serverKey, 'ABCDEFGHJKMNPQRS', plaintext, 'ABCDEFGHJKMNPQRSABCDEFGHJKMNPQRS');
      expectRefused(await server.postRaw(paths.login, body), 400, 'body_undecryptable');
    });

    it('refuses a body that decrypts to something other than a JSON object with body_undecryptable', async () => {
      const keyText = 'ABCDEFGHJKMNPQRSTWXYZabcdefhijkm';
      for (const plaintext of ['not json', '[1,2,3]', '"text"', 'null', '42']) {
        const reply = await server.postRaw(paths.login, await handmadeBody(server.serverKey, keyText, plaintext));
        expectRefused(reply, 400, 'body_undecryptable');
      }
    });

    it('refuses a body over the size limit with 413 in the envelope', async () => {
      const reply = await server.postRaw(paths.login, `${'A'.repeat(300 * 1024)}.AAAA`);
      expect(reply.status).toBe(413);
      expect(reply.body).toMatchObject({ success: false, code: 413 });
    });

    it('refuses a POST without a JSON content type with 415 in the envelope', async () => {
      const body = await server.encrypt({ account: account.account, password: account.password });
      const reply = await server.postRaw(paths.login, body, { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(reply.status).toBe(415);
      expect(reply.body).toMatchObject({ success: false, code: 415, result: { error: 'invalid_request' } });
    });

    it('works the same over real HTTP', async () => {
      const address = await server.app.listen({ port: 0, host: '127.0.0.1' });
      const login = await fetch(`${address}${apiPrefix}${paths.login}`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: await server.encrypt({ account: account.account, password: account.password }),
      });
      expect(login.status).toBe(200);
      const { result } = await login.json() as { result: { token: string } };
      const info = await fetch(`${address}${apiPrefix}${paths.myUserInfo}`, { headers: { 'X-Access-Token': result.token } });
      expect(info.status).toBe(200);
      expect(await info.json()).toMatchObject({ success: true, result: { account: account.email } });
    });
  });

  describe('the envelope { success, message, code, result, timestamp }', () => {
    it('wraps a success with code 200 and exactly those fields', async () => {
      const reply = await server.get(paths.serverTime);
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.body).sort()).toEqual(envelopeKeys);
      expect(reply.body).toMatchObject({ success: true, code: 200, message: 'OK' });
      // The server's (injected) clock, not the machine's.
      expect(reply.body.timestamp).toBe(server.clock.now().getTime());
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
    });

    it('wraps a failure with the HTTP status as code, a message and result.error', async () => {
      const reply = await server.post(paths.login, { account: account.account, password: 'Wrong1password' });
      expect(Object.keys(reply.body).sort()).toEqual(envelopeKeys);
      expectRefused(reply, 400, 'credentials_invalid');
      expect(reply.body.timestamp).toBe(server.clock.now().getTime());
    });

    it('answers an unknown /api path with a 404 envelope, whatever the method', async () => {
      expectRefused(await server.get('/no/such/path'), 404, 'not_found');
      expectRefused(await server.post('/no/such/path', { a: 1 }), 404, 'not_found');
      const wrongMethod = await server.get(paths.login);
      expectRefused(wrongMethod, 404, 'not_found');
    });

    it('answers an unknown path outside /api with a 404 envelope when no web build is served', async () => {
      const response = await server.app.inject({ method: 'GET', url: '/some/page' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 404, result: { error: 'not_found' } });
    });
  });

  describe('failures on our side', () => {
    it('answer 500 with a generic message and no internals', async () => {
      // A server of its own whose database has gone away: every query fails.
      const broken = new TestServer(server.kind);
      await broken.start();
      try {
        await broken.closeDatabase();
        const reply = await broken.get(paths.myUserInfo, {}, { token: 'x'.repeat(43) });
        expect(reply.status).toBe(500);
        expect(reply.body).toMatchObject({
          success: false, code: 500, message: 'Something went wrong on our side. Please try again.',
          result: { error: 'internal_error' },
        });
        expect(JSON.stringify(reply.body)).not.toMatch(/stack|\.ts:\d+|pglite|postgres|select/i);
      } finally {
        await broken.stop();
      }
    });
  });
}, { databases: 'embedded' });
