// A software WebAuthn authenticator for the tests, built from node:crypto alone (no import from src/
// or server/, no WebAuthn library): ES256 keys, CBOR by hand, attestation "none". It answers the
// options a server hands out the way a browser would (navigator.credentials.create / get, as JSON
// with base64url fields, like @simplewebauthn/browser), and can be told to misbehave: another
// origin, a stale counter, a wrong key.
import crypto from 'node:crypto';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => crypto.createHash('sha256').update(data).digest();

// ── minimal CBOR (RFC 8949): unsigned and negative integers, byte and text strings, maps ──
type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) return Buffer.from([(major << 5) | 25, value >> 8, value & 0xff]);
  const out = Buffer.alloc(5);
  out[0] = (major << 5) | 26;
  out.writeUInt32BE(value, 1);
  return out;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

const flags = { up: 0x01, uv: 0x04, be: 0x08, bs: 0x10, at: 0x40 };

export interface SoftCredential {
  id: Buffer;
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string };
}
interface RequestOptions { challenge: string; rpId?: string }

export interface Misbehaviour {
  /** The origin the "browser" reports in clientDataJSON (default: the authenticator's). */
  origin?: string;
  /** Sign with this counter instead of the next one. */
  counter?: number;
  /** The challenge to sign instead of the server's. */
  challenge?: string;
  /** Leave out user verification. */
  noUserVerification?: boolean;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(readonly origin: string) {}

  get rpId() { return new URL(this.origin).hostname; }

  /** navigator.credentials.create(): a new ES256 credential, attestation "none". */
  create(options: CreationOptions, misbehave: Misbehaviour = {}) {
    const rpId = options.rp.id ?? this.rpId;
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const credential: SoftCredential = {
      id: crypto.randomBytes(32), privateKey, publicKey, rpId, userHandle: options.user.id, counter: 0,
    };
    const cose = cbor(new Map<Cbor, Cbor>([
      [1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')],
    ]));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      this.#authDataHead(rpId, flags.up | (misbehave.noUserVerification ? 0 : flags.uv) | flags.at, credential.counter),
      Buffer.alloc(16), idLength, credential.id, cose,
    ]);
    const clientDataJSON = this.#clientData('webauthn.create', misbehave.challenge ?? options.challenge, misbehave.origin);
    const attestationObject = cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    this.credentials.push(credential);
    return {
      id: b64url(credential.id), rawId: b64url(credential.id), type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'],
      },
      clientExtensionResults: {}, authenticatorAttachment: 'platform' as const,
    };
  }

  /** navigator.credentials.get() with discoverable credentials: signs with `credential` (default: the newest). */
  get(options: RequestOptions, credential = this.credentials[this.credentials.length - 1], misbehave: Misbehaviour = {}) {
    if (!credential) throw new Error('the soft authenticator holds no credential');
    const counter = misbehave.counter ?? (credential.counter += 1);
    const authData = this.#authDataHead(options.rpId ?? credential.rpId,
      flags.up | (misbehave.noUserVerification ? 0 : flags.uv), counter);
    const clientDataJSON = this.#clientData('webauthn.get', misbehave.challenge ?? options.challenge, misbehave.origin);
    const signature = crypto.sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id), rawId: b64url(credential.id), type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {}, authenticatorAttachment: 'platform' as const,
    };
  }

  /** A copy of `credential` signing with another key: what a forged assertion looks like. */
  impostor(credential: SoftCredential): SoftCredential {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    return { ...credential, privateKey, publicKey };
  }

  #authDataHead(rpId: string, flagBits: number, counter: number) {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([sha256(rpId), Buffer.from([flagBits]), count]);
  }

  #clientData(type: string, challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}
