// Encrypted POST bodies (spec §7). The client wraps a random 32-character AES key with this
// server's RSA public key (OAEP, SHA-256) and encrypts the JSON body with AES-256-ECB/PKCS#7;
// the body arrives as "base64(wrappedKey).base64(ciphertext)". Here it is unwrapped before schema
// validation, refused when stale or seen before (bounded by the freshness window), and handed on.
import { createDecipheriv, createHash, generateKeyPairSync, privateDecrypt, constants, type KeyObject, createPrivateKey, createPublicKey } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { requestTimeField } from '../../src/api/contract/paths.ts';
import { AppError, badRequest } from '../lib/errors.ts';

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

export function decryptBody(raw: string, privateKey: KeyObject): Record<string, unknown> {
  if (!bodyPattern.test(raw)) {
    throw badRequest('body_not_encrypted', 'The request body must be encrypted.');
  }
  const [wrappedKey, ciphertext] = raw.split('.');
  let plaintext: string;
  try {
    const key = privateDecrypt(
      { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      Buffer.from(wrappedKey, 'base64'));
    if (key.length !== 32) throw undecryptable();
    const decipher = createDecipheriv('aes-256-ecb', key, null);
    plaintext = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
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
  return value as Record<string, unknown>;
}

/** Remembers body digests for the freshness window, so a replayed body is refused. */
export interface ReplayGuard { firstSeen(digest: string, ttlMs: number): Promise<boolean> }

export function memoryReplayGuard(entriesMax: number, now: () => number = Date.now): ReplayGuard {
  const seen = new Map<string, number>();
  return {
    async firstSeen(digest, ttlMs) {
      const nowMs = now();
      if (seen.size >= entriesMax) {
        for (const [key, expiresMs] of seen) if (expiresMs <= nowMs) seen.delete(key);
        // Still full means more fresh requests than the cache holds: refuse rather than forget.
        if (seen.size >= entriesMax) throw new AppError(429, 'rate_limited', 'The server is busy, please try again.');
      }
      const expiresMs = seen.get(digest);
      if (expiresMs !== undefined && expiresMs > nowMs) return false;
      seen.set(digest, nowMs + ttlMs);
      return true;
    },
  };
}

export function redisReplayGuard(redis: Redis): ReplayGuard {
  return {
    async firstSeen(digest, ttlMs) {
      return (await redis.set(`bourse:replay:${digest}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    },
  };
}

export interface EncryptionOptions {
  keys: ServerKeys;
  replayGuard: ReplayGuard;
  freshnessMs: number;
  now: () => number;
}

export function registerEncryptedBodies(app: FastifyInstance, options: EncryptionOptions) {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => {
    // Every POST body is encrypted, even an empty object: an empty body would skip the freshness
    // and replay checks.
    const raw = (body as string).trim();
    openBody(raw, options).then((value) => done(null, value), (error: Error) => done(error, undefined));
  });
}

async function openBody(raw: string, options: EncryptionOptions) {
  const value = decryptBody(raw, options.keys.privateKey);
  const sentMs = value[requestTimeField];
  const nowMs = options.now();
  if (typeof sentMs !== 'number' || Math.abs(nowMs - sentMs) > options.freshnessMs) {
    throw badRequest('request_stale', 'The request has expired. Please check your device clock and try again.');
  }
  const digest = createHash('sha256').update(raw).digest('base64url');
  if (!(await options.replayGuard.firstSeen(digest, 2 * options.freshnessMs))) {
    throw badRequest('request_replayed', 'This request was already received.');
  }
  delete value[requestTimeField];
  return value;
}
