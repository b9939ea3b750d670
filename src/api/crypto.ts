// The client half of the encrypted POST body (spec §7): a random 32-character key over an
// alphabet without look-alike characters, wrapped with the server's RSA key (OAEP, SHA-256,
// WebCrypto), and the JSON body (nulls dropped) under AES-256-ECB with PKCS#7. Browsers have no
// AES-ECB in WebCrypto, so the block cipher comes from @noble/ciphers.
import { ecb } from '@noble/ciphers/aes.js';

/** Letters and digits without 0/O, 1/l/I, 9/g/q, u/v and other pairs people confuse. */
export const keyAlphabet = 'ABCDEFGHJKMNPQRSTWXYZabcdefhijkmnprstwxyz2345678';
export const requestKeyLength = 32;

/** A uniformly random key: bytes at or above the largest multiple of the alphabet size are redrawn. */
export function randomRequestKey(length = requestKeyLength, random: Crypto = globalThis.crypto): string {
  const limit = 256 - (256 % keyAlphabet.length);
  let key = '';
  while (key.length < length) {
    for (const byte of random.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && key.length < length) key += keyAlphabet[byte % keyAlphabet.length];
    }
  }
  return key;
}

/** Drops null and undefined fields, recursively, as the wire format asks. */
export function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value)
      .filter(([, field]) => field !== null && field !== undefined)
      .map(([name, field]) => [name, dropNulls(field)]));
  }
  return value;
}

function pemToDer(pem: string): Uint8Array<ArrayBuffer> {
  const base64 = pem.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, '');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

export function importServerKey(pem: string, subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<CryptoKey> {
  return subtle.importKey('spki', pemToDer(pem), { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function aesEcbEncrypt(keyText: string, plaintext: string): Uint8Array {
  const encoder = new TextEncoder();
  return ecb(encoder.encode(keyText)).encrypt(encoder.encode(plaintext));
}

/** Returns the body as sent: base64(RSA-OAEP(key)) + "." + base64(AES-256-ECB(json)). */
export async function encryptBody(body: unknown, serverKey: CryptoKey, options: {
  subtle?: SubtleCrypto; random?: Crypto; keyText?: string;
} = {}): Promise<string> {
  const subtle = options.subtle ?? globalThis.crypto.subtle;
  const keyText = options.keyText ?? randomRequestKey(requestKeyLength, options.random);
  const wrappedKey = new Uint8Array(await subtle.encrypt({ name: 'RSA-OAEP' }, serverKey, new TextEncoder().encode(keyText)));
  const ciphertext = aesEcbEncrypt(keyText, JSON.stringify(dropNulls(body) ?? {}));
  return `${toBase64(wrappedKey)}.${toBase64(ciphertext)}`;
}
