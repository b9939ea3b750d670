// Conformance: the encrypted-body protocol seen from outside. Replays (also re-spelled, and across
// a restart) and tampered bodies are refused with a 4xx and a stable result.error, never a 5xx and
// never a session; the optional `_ts` extension refuses stale bodies.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, sealText, SpecClient, tokenOf, type Answer } from './specClient.ts';
import { describeAnswer } from './expectAnswer.ts';

let server: RunningServer;
let client: SpecClient;

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
});

afterAll(async () => {
  await server?.stop();
});

const demo = { account: 'demo@bourse.local', password: 'Demo2026pass' };
const loginPath = '/app/login';

function expectToken(answer: Answer): string {
  expect(isSuccess(answer), describeAnswer(answer)).toBe(true);
  const token = tokenOf(answer);
  expect(token, describeAnswer(answer)).toEqual(expect.any(String));
  return token!;
}

/** A refusal for something the caller did: 4xx, an envelope with a message and result.error, no token. */
function expectRefused(answer: Answer, ...allowedErrors: string[]) {
  expect(answer.status, describeAnswer(answer)).toBeGreaterThanOrEqual(400);
  expect(answer.status, describeAnswer(answer)).toBeLessThan(500);
  expect(answer.envelope?.success, describeAnswer(answer)).toBe(false);
  expect(answer.envelope?.message).toEqual(expect.any(String));
  expect(answer.envelope?.message.length).toBeGreaterThan(0);
  const error = errorOf(answer);
  expect(error, describeAnswer(answer)).toEqual(expect.any(String));
  if (allowedErrors.length > 0) expect(allowedErrors, describeAnswer(answer)).toContain(error);
  expect(tokenOf(answer), describeAnswer(answer)).toBeUndefined();
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * Another spelling of the same bytes: the base64 character just before the '=' padding carries
 * unused low bits, which a decoder ignores; flipping the lowest one gives a non-canonical encoding.
 */
function respell(part: string): string {
  const padAt = part.indexOf('=');
  if (padAt < 1) throw new Error('the part has no padding, so no spare bits to flip');
  const index = base64Alphabet.indexOf(part[padAt - 1]);
  const respelled = `${part.slice(0, padAt - 1)}${base64Alphabet[index ^ 1]}${part.slice(padAt)}`;
  expect(Buffer.from(respelled, 'base64').equals(Buffer.from(part, 'base64'))).toBe(true);
  expect(respelled).not.toBe(part);
  return respelled;
}

describe('POST /api/app/login: replayed bodies', () => {
  it('refuses the exact same body text sent twice with request_replayed and no second token', async () => {
    const body = await client.seal(demo);
    expectToken(await client.postRaw(loginPath, body));
    const replay = await client.postRaw(loginPath, body);
    expectRefused(replay, 'request_replayed');
  });

  it('refuses a non-canonical base64 spelling of the wrapped key sent after the original', async () => {
    const body = await client.seal(demo);
    const [wrappedKey, ciphertext] = body.split('.');
    const respelled = `${respell(wrappedKey)}.${ciphertext}`;
    expectToken(await client.postRaw(loginPath, body));
    expectRefused(await client.postRaw(loginPath, respelled));
  });

  it('accepts only one of two identical bodies sent at the same time', async () => {
    const body = await client.seal(demo);
    const answers = await Promise.all([client.postRaw(loginPath, body), client.postRaw(loginPath, body)]);
    expect(answers.filter((answer) => tokenOf(answer) !== undefined), answers.map(describeAnswer).join('\n')).toHaveLength(1);
    expectRefused(answers.find((answer) => tokenOf(answer) === undefined)!, 'request_replayed');
  });

  it('still refuses a replayed body after the server restarts on the same data directory', async () => {
    const body = await client.seal(demo);
    expectToken(await client.postRaw(loginPath, body));
    await server.restart();
    expectRefused(await client.postRaw(loginPath, body), 'request_replayed');
    // The restarted server still serves fresh bodies.
    expectToken(await client.post(loginPath, demo));
  }, 240_000);
});

describe('POST /api/app/login: tampered bodies', () => {
  const cases: Array<[string, (pem: string) => string]> = [
    ['a flipped byte in the ciphertext', (pem) => {
      const [wrappedKey, ciphertext] = sealText(pem, JSON.stringify(demo)).split('.');
      const bytes = Buffer.from(ciphertext, 'base64');
      bytes[Math.floor(bytes.length / 2)] ^= 0x5a;
      return `${wrappedKey}.${bytes.toString('base64')}`;
    }],
    ['a flipped byte in the wrapped key', (pem) => {
      const [wrappedKey, ciphertext] = sealText(pem, JSON.stringify(demo)).split('.');
      const bytes = Buffer.from(wrappedKey, 'base64');
      bytes[Math.floor(bytes.length / 2)] ^= 0x5a;
      return `${bytes.toString('base64')}.${ciphertext}`;
    }],
    ['a body truncated inside the ciphertext', (pem) => {
      const body = sealText(pem, JSON.stringify(demo)).replace(/=+$/, '');
      return body.slice(0, body.length - 7);
    }],
    ['a body cut inside the wrapped key', (pem) => sealText(pem, JSON.stringify(demo)).slice(0, 120)],
    ['a body padded with extra characters', (pem) => `${sealText(pem, JSON.stringify(demo))}AAAAAAAA`],
    ['a body with a third dotted part', (pem) => `${sealText(pem, JSON.stringify(demo))}.AAAA`],
    ['plain JSON, not encrypted', () => JSON.stringify(demo)],
    ['encrypted text that is not JSON', (pem) => sealText(pem, 'account=demo@bourse.local&password=Demo2026pass')],
    ['encrypted JSON that is not an object', (pem) => sealText(pem, JSON.stringify([demo]))],
    ['a key wrapped with some other RSA key', () => {
      const { publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
      return sealText(publicKey.export({ type: 'spki', format: 'pem' }).toString(), JSON.stringify(demo));
    }],
    ['a request key of the wrong length', (pem) => {
      const key = 'ABCDEFGHJKMNPQRS';
      const wrapped = crypto.publicEncrypt(
        { key: pem, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(key));
      const cipher = crypto.createCipheriv('aes-128-ecb', Buffer.from(key), null);
      const ciphertext = Buffer.concat([cipher.update(JSON.stringify(demo)), cipher.final()]);
      return `${wrapped.toString('base64')}.${ciphertext.toString('base64')}`;
    }],
    ['an empty body', () => ''],
  ];

  it.each(cases)('refuses %s with a 4xx, a clear result.error and no session', async (_name, tamper) => {
    const answer = await client.postRaw(loginPath, tamper(await client.publicKey()));
    expectRefused(answer, 'body_not_encrypted', 'body_undecryptable', 'invalid_request');
  });

  it('still answers after the tampered bodies', async () => {
    expectToken(await client.post(loginPath, demo));
  });
});

describe('POST /api/app/login: the optional _ts extension', () => {
  it('refuses a body whose _ts is ten minutes behind server time with request_stale', async () => {
    const serverTime = await client.serverTime();
    expectRefused(await client.post(loginPath, { ...demo, _ts: serverTime - 10 * 60_000 }), 'request_stale');
  });

  it('accepts a body whose _ts is the current server time', async () => {
    const serverTime = await client.serverTime();
    expectToken(await client.post(loginPath, { ...demo, _ts: serverTime }));
  });

  it('refuses a fresh-_ts body sent again, as is or re-spelled', async () => {
    const body = await client.seal({ ...demo, _ts: await client.serverTime() });
    const [wrappedKey, ciphertext] = body.split('.');
    expectToken(await client.postRaw(loginPath, body));
    expectRefused(await client.postRaw(loginPath, body), 'request_replayed');
    expectRefused(await client.postRaw(loginPath, `${respell(wrappedKey)}.${ciphertext}`));
  });
});
