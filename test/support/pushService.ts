// A push service for the tests (RFC 8030), over https with the committed test certificate
// (test/fixtures/push-server.pem, signed by test/fixtures/push-ca.pem, which the test processes
// trust through NODE_EXTRA_CA_CERTS: test/support/suite.ts and vitest.config.ts set it). Each
// request is checked as a real push service would: the VAPID JWT (RFC 8292: ES256 signed with
// the key in `k`, `aud` the endpoint's origin, `exp` in the future and within a day), the TTL
// header, and the body decrypted as RFC 8291 says with the subscription's own private key and
// auth secret, made here with node:crypto's ECDH like a browser makes them. Nothing of web-push
// is used on this side.
import https from 'node:https';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import type { AddressInfo } from 'node:net';

const fixtures = path.resolve(import.meta.dirname, '../fixtures');
export const pushCaFile = path.join(fixtures, 'push-ca.pem');

/**
 * What NODE_EXTRA_CA_CERTS should name for the test processes: the test CA, joined to the bundle
 * already named there (a machine may need its own, a proxy's say) in a file of both under the
 * temporary directory. Node reads the variable once at start, so the processes started with it
 * trust the push service.
 */
export function pushTestCaBundle(existing: string | undefined): string {
  if (!existing || path.resolve(existing) === pushCaFile) return pushCaFile;
  const ours = fs.readFileSync(pushCaFile, 'utf8');
  let theirs: string;
  try {
    theirs = fs.readFileSync(existing, 'utf8');
  } catch {
    return pushCaFile;
  }
  if (theirs.includes(ours.trim())) return existing;
  const both = `${theirs.trimEnd()}\n${ours}`;
  const file = path.join(os.tmpdir(), `bourse-push-ca-${createHash('sha256').update(both).digest('hex').slice(0, 16)}.pem`);
  if (!fs.existsSync(file)) {
    const temporary = `${file}.${process.pid}`;
    fs.writeFileSync(temporary, both);
    fs.renameSync(temporary, file);
  }
  return file;
}

export interface TestSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted payload, parsed as JSON when it is JSON. */
  payload: any;
  text: string;
  ttl: number;
  urgency: string | undefined;
  claims: { aud: string; exp: number; sub: string };
  /** The VAPID public key the request was signed with (`k`). */
  vapidKey: string;
}

interface Held { ecdh: ECDH; auth: Buffer; publicKey: Buffer }

const b64u = (buffer: Buffer) => buffer.toString('base64url');

/** Decrypts an aes128gcm body (RFC 8188 framing, RFC 8291 keys). Throws on any mismatch. */
export function decryptAes128gcm(body: Buffer, ecdh: ECDH, auth: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  const senderPublic = body.subarray(21, 21 + idLength);
  if (idLength !== 65 || senderPublic[0] !== 4) throw new Error('keyid is not the sender\'s uncompressed P-256 key');
  const receiverPublic = ecdh.getPublicKey();
  const shared = ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), receiverPublic, senderPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const baseNonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const records = body.subarray(21 + idLength);
  if (recordSize < 18) throw new Error('record size too small');
  const plain: Buffer[] = [];
  for (let offset = 0, seq = 0; offset < records.length; offset += recordSize, seq += 1) {
    const record = records.subarray(offset, offset + recordSize);
    const nonce = Buffer.from(baseNonce);
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8); // seq < 2^32 here
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end -= 1;
    const last = offset + recordSize >= records.length;
    if (padded[end] !== (last ? 2 : 1)) throw new Error('bad padding delimiter');
    plain.push(padded.subarray(0, end));
  }
  return Buffer.concat(plain);
}

/** Checks a VAPID Authorization header (`vapid t=<jwt>, k=<key>`) for an origin; answers the claims and key. */
export function verifyVapid(header: string | undefined, origin: string, nowSeconds: number) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`no VAPID authorization: ${header}`);
  const [, token, key] = match;
  const [headerPart, claimsPart, signaturePart] = token.split('.');
  const jwtHeader = JSON.parse(Buffer.from(headerPart, 'base64url').toString()) as { alg: string; typ?: string };
  if (jwtHeader.alg !== 'ES256') throw new Error(`JWT alg ${jwtHeader.alg}`);
  const point = Buffer.from(key, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const publicKey = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) }, format: 'jwk',
  });
  const signed = verify('sha256', Buffer.from(`${headerPart}.${claimsPart}`), { key: publicKey, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signaturePart, 'base64url'));
  if (!signed) throw new Error('VAPID signature does not verify');
  const claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud} is not ${origin}`);
  if (!(claims.exp > nowSeconds && claims.exp <= nowSeconds + 24 * 3600)) throw new Error(`exp ${claims.exp} out of range`);
  if (!/^(mailto:|https:)/.test(claims.sub)) throw new Error(`sub ${claims.sub}`);
  return { claims, key };
}

export interface PushServiceOptions {
  /** Check and decrypt one request in this many (1: all); the rest are only counted (the fan-out bench). */
  checkEvery?: number;
  /** The VAPID key every request must be signed with, when known. */
  expectedKey?: string;
}

export class TestPushService {
  readonly received: ReceivedPush[] = [];
  /** Requests that failed a check: a test expects none. */
  readonly errors: string[] = [];
  /** Requests answered 201, checked or not. */
  accepted = 0;
  readonly #held = new Map<string, Held>();
  readonly #answers = new Map<string, number>();
  readonly #waiters = new Set<() => void>();
  #counter = 0;
  expectedKey: string | undefined;

  private constructor(private readonly server: https.Server, readonly origin: string, private readonly options: PushServiceOptions) {
    this.expectedKey = options.expectedKey;
  }

  static async start(options: PushServiceOptions = {}, host = '127.0.0.1'): Promise<TestPushService> {
    const server = https.createServer({
      key: fs.readFileSync(path.join(fixtures, 'push-server-key.pem')), cert: fs.readFileSync(path.join(fixtures, 'push-server.pem')),
      keepAliveTimeout: 30_000,
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    const origin = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const service = new TestPushService(server, origin, options);
    server.on('request', (request, response) => service.#handle(request, response));
    return service;
  }

  /** A browser's subscription: a fresh endpoint and a fresh P-256 key pair and auth secret. */
  subscription(): TestSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    return this.#register(ecdh, auth);
  }

  /** Many subscriptions sharing one key pair (the bench: only the endpoints differ). */
  subscriptions(count: number): TestSubscription[] {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    return Array.from({ length: count }, () => this.#register(ecdh, auth));
  }

  #register(ecdh: ECDH, auth: Buffer): TestSubscription {
    this.#counter += 1;
    const id = `s${this.#counter}${randomBytes(4).toString('hex')}`;
    this.#held.set(id, { ecdh, auth, publicKey: ecdh.getPublicKey() });
    return { id, endpoint: `${this.origin}/push/${id}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
  }

  /** Answers this status to every later push for the subscription (410: gone). */
  answer(subscriptionId: string, status: number) {
    this.#answers.set(subscriptionId, status);
  }

  pushesTo(subscriptionId: string): ReceivedPush[] {
    return this.received.filter((push) => push.subscriptionId === subscriptionId);
  }

  /** Resolves when `condition` holds, checked after each request (no time limit: the test's own applies). */
  until(condition: () => boolean): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (!condition()) return;
        this.#waiters.delete(check);
        resolve();
      };
      this.#waiters.add(check);
    });
  }

  #notify() {
    for (const waiter of [...this.#waiters]) waiter();
  }

  #handle(request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, error?: string) => {
        if (error) this.errors.push(error);
        response.statusCode = status;
        response.end();
        this.#notify();
      };
      const match = /^\/push\/([A-Za-z0-9]+)$/.exec(request.url ?? '');
      const held = match ? this.#held.get(match[1]) : undefined;
      if (!match || !held) return answer(404);
      const id = match[1];
      const status = this.#answers.get(id);
      if (status !== undefined) return answer(status);
      if (request.method !== 'POST') return answer(405, `method ${request.method}`);
      this.accepted += 1;
      const every = this.options.checkEvery ?? 1;
      if (every > 1 && this.accepted % every !== 0) return answer(201);
      try {
        const { claims, key } = verifyVapid(request.headers.authorization, this.origin, Math.floor(Date.now() / 1000));
        if (this.expectedKey && key !== this.expectedKey) throw new Error('signed with another VAPID key');
        if (request.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${request.headers['content-encoding']}`);
        const ttl = Number(request.headers.ttl);
        if (!Number.isInteger(ttl) || ttl < 0) throw new Error(`TTL ${request.headers.ttl}`);
        const text = decryptAes128gcm(Buffer.concat(chunks), held.ecdh, held.auth).toString('utf8');
        let payload: unknown = text;
        try {
          payload = JSON.parse(text);
        } catch { /* a text payload */ }
        this.received.push({
          subscriptionId: id, payload, text, ttl, urgency: request.headers.urgency as string | undefined, claims, vapidKey: key,
        });
        return answer(201);
      } catch (error) {
        this.accepted -= 1;
        return answer(400, `${id}: ${(error as Error).message}`);
      }
    });
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
