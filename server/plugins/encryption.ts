// Encrypted POST bodies (spec §7). The client wraps a random 32-character AES key with this
// server's RSA public key (OAEP, SHA-256) and encrypts the JSON body with AES-256-ECB/PKCS#7;
// the body arrives as "base64(wrappedKey).base64(ciphertext)". Here it is unwrapped before schema
// validation, refused when its optional `_ts` is stale or when its key was seen before (the replay
// store, in the database), and handed on without `_ts`.
import { createDecipheriv, generateKeyPairSync, privateDecrypt, constants, type KeyObject, createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { requestTimeField } from '../../src/api/contract/paths.ts';
import { badRequest } from '../lib/errors.ts';
import type { ReplayStore } from '../lib/replayStore.ts';
import type { RateLimiter } from '../lib/rateLimiter.ts';
import { assertSafeText } from '../lib/textGuard.ts';

export interface ServerKeys { privateKey: KeyObject; publicKeyPem: string }

/** Loads the RSA key pair from `<dataDir>/keys`, creating it on first start. */
export function loadOrCreateKeys(dataDir: string): ServerKeys {
  const dir = path.join(dataDir, 'keys');
  const privatePath = path.join(dir, 'rsa-private.pem');
  if (!fs.existsSync(privatePath)) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const pair = createKeys();
    fs.writeFileSync(privatePath, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    return pair;
  }
  const privateKey = createPrivateKey(fs.readFileSync(privatePath));
  return { privateKey, publicKeyPem: publicPem(privateKey) };
}

export function createKeys(): ServerKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { privateKey, publicKeyPem: publicPem(privateKey) };
}

const publicPem = (privateKey: KeyObject) =>
  createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString();

const bodyPattern = /^[A-Za-z0-9+/]+={0,2}\.[A-Za-z0-9+/]+={0,2}$/;
const undecryptable = () => badRequest('body_undecryptable',
  'The request could not be decrypted. Please reload the page and try again.');

/**
 * Decodes standard base64 and insists on its one canonical spelling: node's decoder ignores the
 * unused low bits before "=" padding (and padding itself), so several texts decode to the same
 * bytes; only the text that re-encodes to itself is accepted.
 */
function canonicalBase64(text: string): Buffer {
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) {
    throw badRequest('body_not_encrypted', 'The request body must be two parts of canonical, padded base64.');
  }
  return bytes;
}

export interface OpenedBody {
  /** The 32 bytes of the AES key the client drew for this request: unique per request. */
  aesKey: Buffer;
  value: Record<string, unknown>;
}

export function decryptBody(raw: string, privateKey: KeyObject): OpenedBody {
  if (!bodyPattern.test(raw)) {
    throw badRequest('body_not_encrypted', 'The request body must be encrypted.');
  }
  const [wrappedText, ciphertextText] = raw.split('.');
  const wrappedKey = canonicalBase64(wrappedText);
  const ciphertext = canonicalBase64(ciphertextText);
  let aesKey: Buffer;
  let plaintext: string;
  try {
    aesKey = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, wrappedKey);
    if (aesKey.length !== 32) throw undecryptable();
    const decipher = createDecipheriv('aes-256-ecb', aesKey, null);
    plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw undecryptable();
  }
  let value: unknown;
  try {
    value = JSON.parse(plaintext);
  } catch {
    throw undecryptable();
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw undecryptable();
  return { aesKey, value: value as Record<string, unknown> };
}

export interface EncryptionOptions {
  keys: ServerKeys;
  replayStore: ReplayStore;
  /** Counts bodies per caller address before any RSA work or replay-store write. */
  limiter: RateLimiter;
  bodiesPerIpPerMinute: number;
  /** How far `_ts`, when a body carries it, may be from the server's time. */
  freshnessMs: number;
  /** How long a body without `_ts` is remembered (at least 24 h): its replay is refused meanwhile. */
  replayWindowMs: number;
  now: () => number;
}

export function registerEncryptedBodies(app: FastifyInstance, options: EncryptionOptions) {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (request, body, done) => {
    // Every POST body is encrypted, even an empty object: an empty body would skip the replay check.
    const raw = (body as string).trim();
    // Limited per address first: decryption costs an RSA operation and every accepted body a row
    // in the replay store, which one address must not be able to fill for everyone.
    options.limiter.hit(`body-ip:${request.ip}`, options.bodiesPerIpPerMinute, 60_000)
      .then(() => openBody(raw, options))
      .then((value) => done(null, value), (error: Error) => done(error, undefined));
  });
}

/**
 * Decrypts, checks `_ts` when present, and claims the body's key in the replay store. A body with
 * `_ts` can only be fresh within the freshness window, so its key is kept for twice the window; a
 * body without it (a client written from the spec alone) is kept for the replay window.
 */
async function openBody(raw: string, options: EncryptionOptions) {
  const { aesKey, value } = decryptBody(raw, options.keys.privateKey);
  assertSafeText(value, 'body');
  const nowMs = options.now();
  let keepMs = options.replayWindowMs;
  if (requestTimeField in value) {
    const sentMs = value[requestTimeField];
    if (typeof sentMs !== 'number' || Math.abs(nowMs - sentMs) > options.freshnessMs) {
      throw badRequest('request_stale', 'The request has expired. Please check your device clock and try again.');
    }
    keepMs = 2 * options.freshnessMs;
    delete value[requestTimeField];
  }
  if (!(await options.replayStore.claim(aesKey, nowMs + keepMs))) {
    throw badRequest('request_replayed', 'This request was already received.');
  }
  return value;
}
