// The client half of the encrypted POST body (spec §7). The server side is played here by
// node:crypto: RSA-OAEP (SHA-256) unwraps the key, AES-256-ECB decrypts the JSON.
import { createDecipheriv, webcrypto } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  dropNulls, encryptBody, importServerKey, keyAlphabet, randomRequestKey, requestKeyLength,
} from '../../src/api/crypto.ts';

const subtle = webcrypto.subtle as unknown as SubtleCrypto;
const base64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A stand-in for crypto.getRandomValues that hands out scripted bytes. */
function scriptedRandom(nextByte: () => number): Crypto {
  return {
    getRandomValues<T extends ArrayBufferView | null>(array: T): T {
      const bytes = array as unknown as Uint8Array;
      for (let i = 0; i < bytes.length; i += 1) bytes[i] = nextByte();
      return array;
    },
  } as Crypto;
}

describe('randomRequestKey', () => {
  it('is 32 characters of the key alphabet', () => {
    expect(requestKeyLength).toBe(32);
    for (let run = 0; run < 50; run += 1) {
      const key = randomRequestKey();
      expect(key).toHaveLength(32);
      for (const char of key) expect(keyAlphabet).toContain(char);
    }
  });

  it('uses an alphabet without look-alike characters or repeats', () => {
    for (const lookAlike of ['0', 'O', '1', 'l', 'I']) expect(keyAlphabet).not.toContain(lookAlike);
    expect(new Set(keyAlphabet).size).toBe(keyAlphabet.length);
    expect(keyAlphabet).toMatch(/^[A-Za-z0-9]+$/);
  });

  it('gives a different key each time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => randomRequestKey()));
    expect(keys.size).toBe(200);
  });

  it('draws every character about equally often', () => {
    const counts = new Map<string, number>([...keyAlphabet].map((char) => [char, 0]));
    const keys = 3000;
    for (let run = 0; run < keys; run += 1) for (const char of randomRequestKey()) counts.set(char, counts.get(char)! + 1);
    const expected = (keys * requestKeyLength) / keyAlphabet.length;
    const chiSquare = [...counts.values()].reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    // 47 degrees of freedom: the mean is 47 and values above 130 happen with odds below 1e-9.
    // A modulo bias over 256 byte values would give about 1000 here.
    expect(chiSquare).toBeLessThan(130);
    for (const count of counts.values()) expect(count).toBeGreaterThan(0);
  });

  it('redraws bytes that would make some characters more likely', () => {
    // Bytes 240..255 would map onto the first 16 characters a sixth time: they must be skipped.
    let next = 240;
    const random = scriptedRandom(() => {
      const byte = next;
      next = next === 255 ? 0 : next + 1;
      return byte;
    });
    expect(randomRequestKey(32, random)).toBe(keyAlphabet.slice(0, 32));
  });

  it('maps each accepted byte onto the alphabet', () => {
    let next = 0;
    const random = scriptedRandom(() => (next++ % 240));
    const key = randomRequestKey(240, random);
    const counts = new Map<string, number>();
    for (const char of key) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(keyAlphabet.length);
    expect(new Set(counts.values())).toEqual(new Set([240 / keyAlphabet.length]));
  });
});

describe('dropNulls', () => {
  it('drops null and undefined fields at every depth', () => {
    expect(dropNulls({ a: 1, b: null, c: undefined, d: { e: null, f: 'x', g: { h: undefined, i: 2 } } }))
      .toEqual({ a: 1, d: { f: 'x', g: { i: 2 } } });
    expect(dropNulls([{ a: null, b: 1 }, { c: { d: null } }])).toEqual([{ b: 1 }, { c: {} }]);
  });

  it('keeps 0, empty text and false', () => {
    expect(dropNulls({ zero: 0, empty: '', no: false, nested: { zero: 0, empty: '', no: false } }))
      .toEqual({ zero: 0, empty: '', no: false, nested: { zero: 0, empty: '', no: false } });
  });

  it('leaves plain values as they are', () => {
    expect(dropNulls('text')).toBe('text');
    expect(dropNulls(0)).toBe(0);
    expect(dropNulls(null)).toBeNull();
  });

  it('does not change its input', () => {
    const input = { a: null, b: { c: undefined } };
    dropNulls(input);
    expect(input).toEqual({ a: null, b: { c: undefined } });
  });
});

describe('encryptBody', () => {
  let keys: CryptoKeyPair;
  let serverKey: CryptoKey;

  beforeAll(async () => {
    keys = (await subtle.generateKey(
      { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true, ['encrypt', 'decrypt'],
    )) as CryptoKeyPair;
    // The app receives the key as PEM text from the server.
    const spki = Buffer.from(await subtle.exportKey('spki', keys.publicKey)).toString('base64');
    const pem = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)!.join('\n')}\n-----END PUBLIC KEY-----\n`;
    serverKey = await importServerKey(pem, subtle);
  });

  /** What the server does: unwrap the key, then decrypt the body with it. */
  async function open(sealed: string) {
    const [wrappedKey, ciphertext] = sealed.split('.');
    const keyText = new TextDecoder().decode(await subtle.decrypt({ name: 'RSA-OAEP' }, keys.privateKey, Buffer.from(wrappedKey, 'base64')));
    return { keyText, json: decryptAes(keyText, ciphertext) };
  }

  function decryptAes(keyText: string, ciphertext: string) {
    const decipher = createDecipheriv('aes-256-ecb', Buffer.from(keyText, 'utf8'), null);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }

  it('sends base64(RSA key).base64(AES body)', async () => {
    const sealed = await encryptBody({ username: 'ada' }, serverKey, { subtle });
    const parts = sealed.split('.');
    expect(parts).toHaveLength(2);
    for (const part of parts) expect(part).toMatch(base64);
    // A 2048-bit RSA block is 256 bytes.
    expect(Buffer.from(parts[0], 'base64')).toHaveLength(256);
  });

  it('encrypts the body with AES-256-ECB under the given key, nulls dropped', async () => {
    const keyText = 'ABCDEFGHJKMNPQRSTWXYZabcdefhijkm';
    const body = { username: 'ada', password: 'secret-1', inviteCode: null, remember: false, amount: 0 };
    const sealed = await encryptBody(body, serverKey, { subtle, keyText });
    const ciphertext = sealed.split('.')[1];
    expect(JSON.parse(decryptAes(keyText, ciphertext))).toEqual({ username: 'ada', password: 'secret-1', remember: false, amount: 0 });
    expect(Buffer.from(ciphertext, 'base64').length % 16).toBe(0);
  });

  it('lets the holder of the private key recover the random key and the body', async () => {
    const body = { name: '张三', note: 'ünïcödé ✓', list: [1, null, { x: null, y: 2 }] };
    const { keyText, json } = await open(await encryptBody(body, serverKey, { subtle }));
    expect(keyText).toHaveLength(32);
    for (const char of keyText) expect(keyAlphabet).toContain(char);
    expect(JSON.parse(json)).toEqual({ name: '张三', note: 'ünïcödé ✓', list: [1, null, { y: 2 }] });
  });

  it('sends an empty object for an empty body', async () => {
    expect((await open(await encryptBody(undefined, serverKey, { subtle }))).json).toBe('{}');
    expect((await open(await encryptBody(null, serverKey, { subtle }))).json).toBe('{}');
  });

  it('handles bodies longer than one block', async () => {
    const body = { text: 'x'.repeat(100_000) };
    const { json } = await open(await encryptBody(body, serverKey, { subtle }));
    expect(JSON.parse(json)).toEqual(body);
  });

  it('uses a fresh key for every body, so equal bodies look different on the wire', async () => {
    const first = await encryptBody({ a: 1 }, serverKey, { subtle });
    const second = await encryptBody({ a: 1 }, serverKey, { subtle });
    expect(first.split('.')[1]).not.toBe(second.split('.')[1]);
  });
});
