// Conformance: proof of liabilities through a spec-only client. A fresh user is funded by a real
// deposit the demo operator approves, the operator publishes a root, and the user verifies their
// leaf and path with a verifier written here from the documented byte layout alone (README, "Proof
// of liabilities", and the comment of src/api/contract/liabilities.ts, read, not imported), on
// node:crypto's SHA-256. Nothing from src/ is imported: if this passes, the format is documented.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { isSuccess, SpecClient, tokenOf } from './specClient.ts';
import { AdminClient, base32Decode, totp, demoOperator } from './adminClient.ts';
import { expectSuccess } from './expectAnswer.ts';

const tinyPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

interface Total { currency: string; scale: number; total: string }
interface Root { id: string; time: number; root: string; leafCount: number; totals: Total[]; trigger: string }
interface Proof {
  userId: string; index: number; salt: string; leafId: string;
  balances: Array<{ currency: string; amount: string }>;
  path: Array<{ hash: string; sums: string[] }>;
}
interface ProofAnswer { root: Root | null; proof: Proof | null; absence?: string | null }
interface Page<T> { records: T[]; total: number; size: number; current: number; pages: number }

// ─── The verifier, from the documentation ────────────────────────────────────────────────────
const sha256 = (...parts: Buffer[]) => crypto.createHash('sha256').update(Buffer.concat(parts)).digest();
const ascii = (text: string) => Buffer.from(text, 'ascii');

/** An amount with exactly `scale` decimals → atomic units; anything else (a sign, an exponent) is refused. */
function atomic(amount: string, scale: number): bigint {
  const match = /^([0-9]+)(?:\.([0-9]+))?$/.exec(amount);
  if (!match || (match[2] ?? '').length !== scale) throw new Error(`not an amount of scale ${scale}: ${amount}`);
  return BigInt(match[1] + (match[2] ?? ''));
}

/** 16 bytes unsigned big-endian. */
function u128(value: bigint): Buffer {
  if (value < 0n || value >= 1n << 128n) throw new Error('outside u128');
  return Buffer.from(value.toString(16).padStart(32, '0'), 'hex');
}

function verify(root: Root, proof: Proof, userId: string): boolean {
  try {
    if (proof.userId !== userId) return false;
    const scales = root.totals.map((total) => total.scale);
    if (proof.balances.map((balance) => balance.currency).join() !== root.totals.map((total) => total.currency).join()) return false;
    const salt = Buffer.from(proof.salt, 'hex');
    const leafId = sha256(ascii('BPOL-USER'), salt, ascii(userId));
    if (leafId.toString('hex') !== proof.leafId) return false;
    let sums = proof.balances.map((balance, i) => atomic(balance.amount, scales[i]));
    let hash = sha256(ascii('BPOL-LEAF'), salt, leafId, ...sums.map(u128));
    let position = proof.index;
    for (const step of proof.path) {
      const siblingSums = step.sums.map((sum, i) => atomic(sum, scales[i]));
      const sibling = Buffer.from(step.hash, 'hex');
      const [left, leftSums, right, rightSums] = position % 2 === 0
        ? [hash, sums, sibling, siblingSums] : [sibling, siblingSums, hash, sums];
      hash = sha256(ascii('BPOL-NODE'), left, ...leftSums.map(u128), right, ...rightSums.map(u128));
      sums = sums.map((sum, i) => sum + siblingSums[i]);
      position = Math.floor(position / 2);
    }
    if (position !== 0) return false;
    const totals = root.totals.map((total) => atomic(total.total, total.scale));
    if (totals.some((total, i) => total !== sums[i])) return false;
    const assetBytes = root.totals.flatMap((total) => [Buffer.from([total.currency.length]), ascii(total.currency), Buffer.from([total.scale])]);
    const count = Buffer.alloc(2);
    count.writeUInt16BE(root.totals.length);
    return sha256(ascii('BPOL-ROOT'), count, ...assetBytes, hash, ...totals.map(u128)).toString('hex') === root.root;
  } catch {
    return false;
  }
}

// ─── The journey ─────────────────────────────────────────────────────────────────────────────
let server: RunningServer;
let client: SpecClient;
let admin: AdminClient;
let token: string;
let userId: string;
let operatorToken: string;


async function upload(bytes: Buffer): Promise<string> {
  return expectSuccess(await client.upload(token, bytes, 'deposit_proof', 'image/png', 'proof.png')).id;
}

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  admin = new AdminClient(client);
  const email = `conf-liab-${crypto.randomBytes(5).toString('hex')}@example.test`;
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const registered = await client.register({
    accountType: 'email', account: email, password: 'Liab2026conf', code: await readCode(server.dataDir, email, 'email'),
  });
  token = tokenOf(registered)!;
  userId = expectSuccess(await client.get<{ id: string }>('/user/appUser/getMyUserInfo', {}, token)).id;
  operatorToken = tokenOf(await admin.login(demoOperator.email, demoOperator.password,
    totp(base32Decode(demoOperator.totpSecret), await client.serverTime())))!;
  expect(operatorToken).toEqual(expect.any(String));
});

afterAll(async () => {
  await server?.stop();
});

describe('proof of liabilities', () => {
  it('a user who joined after the latest publication is not in it yet', async () => {
    const answer = expectSuccess(await client.get<ProofAnswer>('/finance/appWallet/liabilityProof', {}, token));
    // The leading instance published at start-up (the daily publication); this user came later.
    expect(answer.root).not.toBeNull();
    expect(answer.proof).toBeNull();
    expect(answer.absence).toBe('account_newer');
  });

  it('after a deposit and a publication, the user verifies their balance into the published root', async () => {
    const fileId = await upload(tinyPng);
    const applied = expectSuccess(await client.post<{ id: string }>('/finance/appRecharge/apply', {
      currency: 'USDT', network: 'TRC20', amount: '100', proofFileId: fileId,
    }, token));
    expectSuccess(await client.post(`/admin/recharges/${applied.id}/approve`, {}, operatorToken));

    const published = expectSuccess(await client.post<Root>('/admin/liabilities/publish', {}, operatorToken));
    expect(published).toMatchObject({ trigger: 'operator', root: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const answer = expectSuccess(await client.get<ProofAnswer>('/finance/appWallet/liabilityProof', {}, token));
    expect(answer.root).toEqual(published);
    const proof = answer.proof!;
    expect(proof.balances.find((balance) => balance.currency === 'USDT')?.amount).toBe('100.000000');
    expect(verify(answer.root!, proof, userId)).toBe(true);
    // The tree is padded with zero leaves to a power of two (at least 16): leafCount is that size,
    // not the number of users, and every path climbs the full height of it.
    const leafCount = answer.root!.leafCount;
    expect(leafCount).toBeGreaterThanOrEqual(16);
    expect(Number.isInteger(Math.log2(leafCount))).toBe(true);
    expect(proof.path).toHaveLength(Math.log2(leafCount));
    expect(proof.index).toBeLessThan(leafCount);

    // The verifier can fail: a changed balance, salt, sibling, sum, or someone else's id does not verify.
    const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
    const usdt = proof.balances.findIndex((balance) => balance.currency === 'USDT');
    expect(verify(answer.root!, { ...proof, balances: proof.balances.map((b, i) => (i === usdt ? { ...b, amount: '1000.000000' } : b)) }, userId)).toBe(false);
    expect(verify(answer.root!, { ...proof, salt: flip(proof.salt) }, userId)).toBe(false);
    expect(verify(answer.root!, proof, `${userId}0`)).toBe(false);
    if (proof.path.length > 0) {
      expect(verify(answer.root!, { ...proof, path: [{ ...proof.path[0], hash: flip(proof.path[0].hash) }, ...proof.path.slice(1)] }, userId)).toBe(false);
      const sums = proof.path[0].sums.map((sum, i) => (i === usdt ? (atomic(sum, 6) + 1n).toString().padStart(7, '0').replace(/(\d{6})$/, '.$1') : sum));
      expect(verify(answer.root!, { ...proof, path: [{ ...proof.path[0], sums }, ...proof.path.slice(1)] }, userId)).toBe(false);
    }
  });

  it('lists the published roots, newest first, to users and operators', async () => {
    const forUser = expectSuccess(await client.get<Page<Root>>('/finance/appWallet/liabilityRoots', { pageNo: 1, pageSize: 10 }, token));
    const forOperator = expectSuccess(await client.get<Page<Root>>('/admin/liabilities', { pageNo: 1, pageSize: 10 }, operatorToken));
    expect(forUser.records).toEqual(forOperator.records);
    expect(forUser.total).toBeGreaterThanOrEqual(2);
    expect(forUser.records.map((root) => root.time)).toEqual([...forUser.records.map((root) => root.time)].sort((a, b) => b - a));
    expect(forUser.records.some((root) => root.trigger === 'daily')).toBe(true);
  });

  it('refuses publication to a user token and to no token', async () => {
    expect((await client.post('/admin/liabilities/publish', {}, token)).status).toBe(401);
    expect((await client.post('/admin/liabilities/publish', {})).status).toBe(401);
    expect((await client.get('/finance/appWallet/liabilityProof')).status).toBe(401);
  });
});
