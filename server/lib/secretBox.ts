// Secrets at rest (issue 11): TOTP secrets and identity documents are sealed with AES-256-GCM
// under a key derived (HKDF-SHA-256) from the server's pepper for one purpose, so a copy of the
// database or of the upload directory alone reveals nothing. A sealed value carries its own random
// 96-bit nonce and tag; opening checks the tag and the purpose (as associated data).
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const version = 1;

function keyFor(pepper: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', pepper, Buffer.alloc(0), `bourse secret box: ${purpose}`, 32));
}

/** version (1 byte) ‖ nonce (12) ‖ tag (16) ‖ ciphertext. */
export function sealBytes(pepper: Buffer, purpose: string, plain: Uint8Array): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(pepper, purpose), nonce);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([version]), nonce, cipher.getAuthTag(), body]);
}

/** The plain bytes; throws when the box was altered or sealed for another purpose or key. */
export function openBytes(pepper: Buffer, purpose: string, sealed: Uint8Array): Buffer {
  const box = Buffer.from(sealed);
  if (box.length < 29 || box[0] !== version) throw new Error('secret box: unknown format');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(pepper, purpose), box.subarray(1, 13));
  decipher.setAAD(Buffer.from(purpose));
  decipher.setAuthTag(box.subarray(13, 29));
  return Buffer.concat([decipher.update(box.subarray(29)), decipher.final()]);
}

export const sealText = (pepper: Buffer, purpose: string, text: string) =>
  sealBytes(pepper, purpose, Buffer.from(text, 'utf8')).toString('base64url');

export const openText = (pepper: Buffer, purpose: string, sealed: string) =>
  openBytes(pepper, purpose, Buffer.from(sealed, 'base64url')).toString('utf8');
