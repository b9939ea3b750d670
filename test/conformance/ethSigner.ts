// An Ethereum wallet for the conformance suite, from node:crypto alone (no import from src/ or
// server/, no Ethereum library): what a wallet does for Sign-In with Ethereum (EIP-4361).
//   keccak256   the original Keccak-f[1600] sponge (rate 136 bytes, padding 0x01…0x80). It is not
//               node:crypto's sha3-256, which pads with 0x06.
//   address     the last 20 bytes of keccak256 of the uncompressed public key (x ‖ y), written
//               with the EIP-55 mixed-case checksum.
//   personalSign  EIP-191: keccak256("\x19Ethereum Signed Message:\n" + byte length + message),
//               signed with secp256k1 ECDSA over bigint (k from RFC 6979, low s), answered as
//               0x r ‖ s ‖ v with v = 27 + the recovery id, as wallets answer personal_sign.
// Readable rather than fast: affine points and bigint arithmetic, a few signatures per test.
import crypto from 'node:crypto';

// ── Keccak-256 ──

const laneMask = (1n << 64n) - 1n;
const rotateLeft = (lane: bigint, by: number) => (by === 0 ? lane : ((lane << BigInt(by)) | (lane >> BigInt(64 - by))) & laneMask);

/** ρ offsets of lane (x, y), at index x + 5y. */
const rotationOffsets = [
  0, 1, 62, 28, 27,
  36, 44, 6, 55, 20,
  3, 10, 43, 25, 39,
  41, 45, 15, 21, 8,
  18, 2, 61, 56, 14,
];

/** ι round constants. */
const roundConstants = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n,
  0x000000000000808bn, 0x0000000080000001n, 0x8000000080008081n, 0x8000000000008009n,
  0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n,
  0x8000000000008002n, 0x8000000000000080n, 0x000000000000800an, 0x800000008000000an,
  0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
];

/** Keccak-f[1600] on 25 lanes, lane (x, y) at index x + 5y, in place. */
function keccakF1600(state: bigint[]) {
  for (const roundConstant of roundConstants) {
    // θ: each lane takes the parity of two neighbouring columns.
    const column = [0, 1, 2, 3, 4].map((x) => state[x] ^ state[x + 5] ^ state[x + 10] ^ state[x + 15] ^ state[x + 20]);
    for (let x = 0; x < 5; x += 1) {
      const d = column[(x + 4) % 5] ^ rotateLeft(column[(x + 1) % 5], 1);
      for (let y = 0; y < 5; y += 1) state[x + 5 * y] ^= d;
    }
    // ρ and π: rotate each lane and move (x, y) to (y, 2x + 3y).
    const moved = new Array<bigint>(25);
    for (let x = 0; x < 5; x += 1) {
      for (let y = 0; y < 5; y += 1) moved[y + 5 * ((2 * x + 3 * y) % 5)] = rotateLeft(state[x + 5 * y], rotationOffsets[x + 5 * y]);
    }
    // χ: each lane mixes with the next two of its row.
    for (let x = 0; x < 5; x += 1) {
      for (let y = 0; y < 5; y += 1) {
        state[x + 5 * y] = moved[x + 5 * y] ^ (~moved[(x + 1) % 5 + 5 * y] & laneMask & moved[(x + 2) % 5 + 5 * y]);
      }
    }
    // ι
    state[0] ^= roundConstant;
  }
}

/** Keccak-256 (as Ethereum uses it) of bytes or UTF-8 text. */
export function keccak256(data: Uint8Array | string): Buffer {
  const rate = 136;
  const input = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  // Padding pad10*1 with Keccak's domain byte 0x01 (SHA-3 would use 0x06).
  const padded = Buffer.alloc((Math.floor(input.length / rate) + 1) * rate);
  input.copy(padded);
  padded[input.length] ^= 0x01;
  padded[padded.length - 1] ^= 0x80;
  const state = new Array<bigint>(25).fill(0n);
  for (let block = 0; block < padded.length; block += rate) {
    for (let lane = 0; lane < rate / 8; lane += 1) state[lane] ^= padded.readBigUInt64LE(block + lane * 8);
    keccakF1600(state);
  }
  const out = Buffer.alloc(32);
  for (let lane = 0; lane < 4; lane += 1) out.writeBigUInt64LE(state[lane], lane * 8);
  return out;
}

// ── secp256k1 ──

const p = 2n ** 256n - 2n ** 32n - 977n;
const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const G: Point = {
  x: 0x79be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798n,
  y: 0x483ada7726a3c4655da4fbfc0e1108a8fd17b448a68554199c47d08ffb10d4b8n,
};
interface Point { x: bigint; y: bigint }

const mod = (value: bigint, modulus: bigint) => ((value % modulus) + modulus) % modulus;
/** The inverse of `value` modulo a prime, by the extended Euclidean algorithm. */
function invert(value: bigint, modulus: bigint): bigint {
  let [low, high] = [mod(value, modulus), modulus];
  let [lowCoefficient, highCoefficient] = [1n, 0n];
  while (low > 1n) {
    const quotient = high / low;
    [low, high] = [high - quotient * low, low];
    [lowCoefficient, highCoefficient] = [highCoefficient - quotient * lowCoefficient, lowCoefficient];
  }
  return mod(lowCoefficient, modulus);
}

/** Affine point addition on y² = x³ + 7 (null is the point at infinity). */
function add(a: Point | null, b: Point | null): Point | null {
  if (!a) return b;
  if (!b) return a;
  if (a.x === b.x && mod(a.y + b.y, p) === 0n) return null;
  const slope = a.x === b.x
    ? mod(3n * a.x * a.x * invert(2n * a.y, p), p)
    : mod((b.y - a.y) * invert(b.x - a.x, p), p);
  const x = mod(slope * slope - a.x - b.x, p);
  return { x, y: mod(slope * (a.x - x) - a.y, p) };
}

/** k·point by double-and-add. */
function multiply(k: bigint, point: Point): Point {
  let result: Point | null = null;
  let addend: Point | null = point;
  for (let rest = k; rest > 0n; rest >>= 1n) {
    if (rest & 1n) result = add(result, addend);
    addend = add(addend, addend);
  }
  if (!result) throw new Error('the point at infinity');
  return result;
}

const toBytes32 = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
const fromBytes = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);

/** RFC 6979 §3.2: the deterministic nonce for `privateKey` and the 32-byte `digest` (HMAC-SHA-256). */
function deterministicK(privateKey: bigint, digest: Buffer): bigint {
  const hmac = (key: Buffer, ...parts: Buffer[]) => crypto.createHmac('sha256', key).update(Buffer.concat(parts)).digest();
  const x = toBytes32(privateKey);
  const h = toBytes32(mod(fromBytes(digest), n));
  let v = Buffer.alloc(32, 0x01);
  let k = Buffer.alloc(32, 0x00);
  k = hmac(k, v, Buffer.from([0x00]), x, h);
  v = hmac(k, v);
  k = hmac(k, v, Buffer.from([0x01]), x, h);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    const candidate = fromBytes(v);
    if (candidate >= 1n && candidate < n) return candidate;
    k = hmac(k, v, Buffer.from([0x00]));
    v = hmac(k, v);
  }
}

/** ECDSA over secp256k1 of a 32-byte digest: r, s (low), and the recovery id of R. */
function signDigest(privateKey: bigint, digest: Buffer): { r: bigint; s: bigint; recovery: number } {
  const z = fromBytes(digest);
  const k = deterministicK(privateKey, digest);
  const R = multiply(k, G);
  const r = mod(R.x, n);
  let s = mod(invert(k, n) * (z + r * privateKey), n);
  let recovery = Number(R.y & 1n) | (R.x >= n ? 2 : 0);
  if (s > n / 2n) {
    // Low s (EIP-2): the same signature with −s, whose R has the other y.
    s = n - s;
    recovery ^= 1;
  }
  return { r, s, recovery };
}

// ── the wallet ──

/** EIP-55: a hex address with the letters of nibbles ≥ 8 (of keccak256 of the lower-case hex) upper-cased. */
export function checksumAddress(address: string): string {
  const hex = address.toLowerCase().replace(/^0x/, '');
  const hash = keccak256(hex).toString('hex');
  return `0x${[...hex].map((char, index) => (parseInt(hash[index], 16) >= 8 ? char.toUpperCase() : char)).join('')}`;
}

/** EIP-191 version 0x45: the digest personal_sign signs. */
export const personalMessageDigest = (message: string) => {
  const bytes = Buffer.from(message, 'utf8');
  return keccak256(Buffer.concat([Buffer.from(`\x19Ethereum Signed Message:\n${bytes.length}`, 'utf8'), bytes]));
};

export class EthWallet {
  readonly privateKey: bigint;
  /** The EIP-55 address. */
  readonly address: string;

  /** A wallet of `privateKey` (hex or bigint), or a fresh random one. */
  constructor(privateKey?: bigint | string) {
    let key = typeof privateKey === 'string' ? BigInt(privateKey) : privateKey;
    while (key === undefined || key <= 0n || key >= n) key = fromBytes(crypto.randomBytes(32));
    this.privateKey = key;
    const publicKey = multiply(key, G);
    const hash = keccak256(Buffer.concat([toBytes32(publicKey.x), toBytes32(publicKey.y)]));
    this.address = checksumAddress(`0x${hash.subarray(12).toString('hex')}`);
  }

  /** personal_sign of `message`: "0x" + r ‖ s ‖ v, 65 bytes in hex. */
  personalSign(message: string): string {
    const { r, s, recovery } = signDigest(this.privateKey, personalMessageDigest(message));
    return `0x${toBytes32(r).toString('hex')}${toBytes32(s).toString('hex')}${(27 + recovery).toString(16)}`;
  }
}

/** The fields of an EIP-4361 message. */
export interface SiweFields {
  domain: string; address: string; statement?: string; uri: string; version: string; chainId: number;
  nonce: string; issuedAt: string; expirationTime?: string;
}

/** The EIP-4361 message text, as a wallet shows and signs it. */
export function siweMessage(fields: SiweFields): string {
  return [
    `${fields.domain} wants you to sign in with your Ethereum account:`,
    fields.address,
    '',
    ...(fields.statement ? [fields.statement, ''] : []),
    `URI: ${fields.uri}`,
    `Version: ${fields.version}`,
    `Chain ID: ${fields.chainId}`,
    `Nonce: ${fields.nonce}`,
    `Issued At: ${fields.issuedAt}`,
    ...(fields.expirationTime ? [`Expiration Time: ${fields.expirationTime}`] : []),
  ].join('\n');
}
