// The client half of the encrypted body (src/api/crypto.ts) checked against two independent
// implementations: node:crypto (what the server decrypts with) and @peculiar/webcrypto, which
// has RSA-OAEP and AES-ECB of its own API and serves as the oracle the design names.
import { constants, createDecipheriv, createCipheriv, generateKeyPairSync, privateDecrypt, type KeyObject } from 'node:crypto';
import { Crypto as PeculiarCrypto } from '@peculiar/webcrypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  aesEcbEncrypt, dropNulls, encryptBody, importServerKey, keyAlphabet, randomRequestKey, requestKeyLength,
} from '../../src/api/crypto.ts';
import { decryptBody } from '../../server/plugins/encryption.ts';

const peculiar = new PeculiarCrypto();
const bodyShape = /^[A-Za-z0-9+/]+={0,2}\.[A-Za-z0-9+/]+={0,2}$/;

let privateKey: KeyObject;
let publicKeyPem: string;
let serverKey: CryptoKey;

beforeAll(() => {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  privateKey = pair.privateKey;
  publicKeyPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
});
beforeAll(async () => { serverKey = await importServerKey(publicKeyPem); });

function split(body: string) {
  const [wrappedKey, ciphertext] = body.split('.');
  return { wrappedKey: Buffer.from(wrappedKey, 'base64'), ciphertext: Buffer.from(ciphertext, 'base64') };
}

function nodeUnwrap(wrappedKey: Buffer): Buffer {
  return privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, wrappedKey);
}

function nodeAesDecrypt(key: Uint8Array, ciphertext: Uint8Array): string {
  const decipher = createDecipheriv('aes-256-ecb', key, null);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}

async function peculiarPrivateKey() {
  const der = new Uint8Array(privateKey.export({ type: 'pkcs8', format: 'der' }));
  return peculiar.subtle.importKey('pkcs8', der, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['decrypt']);
}

async function peculiarAesKey(keyBytes: Uint8Array<ArrayBuffer>, usage: 'encrypt' | 'decrypt') {
  return peculiar.subtle.importKey('raw', keyBytes, { name: 'AES-ECB' } as AlgorithmIdentifier, false, [usage]);
}

/** A deterministic stand-in for crypto.getRandomValues that replays the given bytes in a loop. */
function scriptedRandom(bytes: number[]): Crypto {
  let position = 0;
  return {
    getRandomValues<T extends ArrayBufferView | null>(array: T): T {
      const view = array as unknown as Uint8Array;
      for (let i = 0; i < view.length; i += 1) view[i] = bytes[position++ % bytes.length];
      return array;
    },
  } as Crypto;
}

describe('encryptBody (client body encryption)', () => {
  const body = { account: 'trader@example.com', password: 'Secret123pass', countryCode: null, nested: { a: 1, b: null } };

  it('sends base64(wrapped key).base64(ciphertext) with a 2048-bit RSA block', async () => {
    const sent = await encryptBody(body, serverKey);
    expect(sent).toMatch(bodyShape);
    const { wrappedKey, ciphertext } = split(sent);
    expect(wrappedKey.length).toBe(256);
    expect(ciphertext.length % 16).toBe(0);
  });

  it('is decrypted by node:crypto (RSA-OAEP SHA-256, then AES-256-ECB) to the JSON with nulls dropped', async () => {
    const sent = await encryptBody(body, serverKey);
    const { wrappedKey, ciphertext } = split(sent);
    const key = nodeUnwrap(wrappedKey);
    expect(key.length).toBe(requestKeyLength);
    expect([...key.toString('latin1')].every((char) => keyAlphabet.includes(char))).toBe(true);
    expect(JSON.parse(nodeAesDecrypt(key, ciphertext))).toEqual({
      account: 'trader@example.com', password: 'Secret123pass', nested: { a: 1 },
    });
  });

  it('is decrypted by @peculiar/webcrypto (RSA-OAEP and AES-ECB) to the same JSON', async () => {
    const sent = await encryptBody(body, serverKey);
    const { wrappedKey, ciphertext } = split(sent);
    const key = new Uint8Array(await peculiar.subtle.decrypt({ name: 'RSA-OAEP' }, await peculiarPrivateKey(), wrappedKey));
    const plaintext = await peculiar.subtle.decrypt({ name: 'AES-ECB' } as AlgorithmIdentifier,
      await peculiarAesKey(key, 'decrypt'), ciphertext);
    expect(JSON.parse(new TextDecoder().decode(plaintext))).toEqual(dropNulls(body));
  });

  it('is decrypted by the server to the same object', async () => {
    const sent = await encryptBody({ ...body, _ts: 1 }, serverKey);
    const opened = decryptBody(sent, privateKey);
    expect(opened.value).toEqual({ ...dropNulls(body) as object, _ts: 1 });
    expect(opened.aesKey).toHaveLength(32);
  });

  it('wraps with a key imported by @peculiar/webcrypto just as well (the SubtleCrypto is injectable)', async () => {
    const peculiarKey = await importServerKey(publicKeyPem, peculiar.subtle);
    const sent = await encryptBody(body, peculiarKey, { subtle: peculiar.subtle, keyText: 'A'.repeat(32) });
    const { wrappedKey, ciphertext } = split(sent);
    expect(nodeUnwrap(wrappedKey).toString('latin1')).toBe('A'.repeat(32));
    expect(JSON.parse(nodeAesDecrypt(Buffer.from('A'.repeat(32)), ciphertext))).toEqual(dropNulls(body));
  });

  it('uses a new key for every body, so the same body never encrypts the same way twice', async () => {
    const first = await encryptBody(body, serverKey);
    const second = await encryptBody(body, serverKey);
    expect(first).not.toBe(second);
    expect(split(first).ciphertext.equals(split(second).ciphertext)).toBe(false);
    expect(nodeUnwrap(split(first).wrappedKey).equals(nodeUnwrap(split(second).wrappedKey))).toBe(false);
  });

  it('sends an empty object for an empty or all-null body', async () => {
    const keyText = randomRequestKey();
    for (const value of [{}, { only: null }, undefined]) {
      const { ciphertext } = split(await encryptBody(value, serverKey, { keyText }));
      expect(nodeAesDecrypt(Buffer.from(keyText), ciphertext)).toBe('{}');
    }
  });
});

describe('aesEcbEncrypt (AES-256-ECB with PKCS#7)', () => {
  const keyText = 'ABCDEFGHJKMNPQRSTWXYZabcdefhijkm';
  // Lengths around the block size, including exact multiples (a whole padding block follows).
  const plaintexts = [0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 100].map((length) => 'x'.repeat(length))
    .concat(['{"name":"Ünïcödé ✓ 株式 🚀"}', '\u0000\u007f\u0080']);

  it('matches node:crypto block for block', () => {
    for (const plaintext of plaintexts) {
      const cipher = createCipheriv('aes-256-ecb', Buffer.from(keyText), null);
      const expected = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const actual = Buffer.from(aesEcbEncrypt(keyText, plaintext));
      expect(actual.length).toBe((Math.floor(Buffer.byteLength(plaintext) / 16) + 1) * 16);
      expect(actual.equals(expected)).toBe(true);
    }
  });

  it('matches @peculiar/webcrypto AES-ECB block for block', async () => {
    const key = await peculiarAesKey(new TextEncoder().encode(keyText), 'encrypt');
    for (const plaintext of plaintexts) {
      const expected = Buffer.from(await peculiar.subtle.encrypt({ name: 'AES-ECB' } as AlgorithmIdentifier, key,
        new TextEncoder().encode(plaintext)));
      expect(Buffer.from(aesEcbEncrypt(keyText, plaintext)).equals(expected)).toBe(true);
    }
  });

  it('encrypts equal blocks equally (it is ECB, as the wire format asks)', () => {
    const ciphertext = Buffer.from(aesEcbEncrypt(keyText, 'y'.repeat(32)));
    expect(ciphertext.subarray(0, 16).equals(ciphertext.subarray(16, 32))).toBe(true);
  });
});

describe('randomRequestKey (the 32-character request key)', () => {
  it('uses an alphabet of 48 distinct characters without look-alikes', () => {
    expect(new Set(keyAlphabet).size).toBe(keyAlphabet.length);
    expect(keyAlphabet.length).toBe(48);
    expect(keyAlphabet).toMatch(/^[A-Za-z0-9]+$/);
    for (const lookAlike of '0O1lIoq9guvLV') expect(keyAlphabet).not.toContain(lookAlike);
  });

  it('draws 32 characters from the alphabet', () => {
    for (let i = 0; i < 50; i += 1) {
      const key = randomRequestKey();
      expect(key).toHaveLength(requestKeyLength);
      expect([...key].every((char) => keyAlphabet.includes(char))).toBe(true);
    }
  });

  it('maps the 240 usable byte values onto the alphabet evenly, five bytes per character', () => {
    // 240 is the largest multiple of 48 below 256: bytes 240–255 are redrawn, the rest map evenly.
    const everyByte = Array.from({ length: 256 }, (_, byte) => byte);
    const key = randomRequestKey(240, scriptedRandom(everyByte));
    const counts = new Map<string, number>();
    for (const char of key) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(48);
    expect([...counts.values()].every((count) => count === 5)).toBe(true);
  });

  it('skips bytes at or above 240 instead of folding them onto the first characters', () => {
    const key = randomRequestKey(4, scriptedRandom([240, 255, 0, 250, 47, 48, 95]));
    expect(key).toBe(`${keyAlphabet[0]}${keyAlphabet[47]}${keyAlphabet[0]}${keyAlphabet[47]}`);
  });

  it('spreads characters evenly over many keys (chi-square well inside bounds)', () => {
    const counts = new Map<string, number>();
    const keys = 3000;
    for (let i = 0; i < keys; i += 1) for (const char of randomRequestKey()) counts.set(char, (counts.get(char) ?? 0) + 1);
    const expected = (keys * requestKeyLength) / keyAlphabet.length;
    let chiSquare = 0;
    for (const char of keyAlphabet) chiSquare += ((counts.get(char) ?? 0) - expected) ** 2 / expected;
    // 47 degrees of freedom: mean 47; 130 is beyond p = 1e-9, so this fails only for a real bias.
    expect(chiSquare).toBeLessThan(130);
    expect(counts.size).toBe(48);
  });
});

describe('dropNulls', () => {
  it('drops null and undefined fields at every depth, keeps falsy values and array positions', () => {
    expect(dropNulls({ a: null, b: undefined, c: 0, d: '', e: false, f: { g: null, h: [1, null, { i: null, j: 2 }] } }))
      .toEqual({ c: 0, d: '', e: false, f: { h: [1, null, { j: 2 }] } });
  });
});
