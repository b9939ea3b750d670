// Conformance: a spec-only client reads the currencies and a rate, its balances and assets, the
// deposit address, uploads a proof as multipart (unencrypted, spec §7) and applies for a deposit,
// then finds it in its records. Field names the spec does not show were read (not imported) from
// src/api/contract/wallet.ts. The server runs as installed, with the demo's seeded addresses.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenHeader, tokenOf } from './specClient.ts';
import { describeAnswer, expectSuccess } from './expectAnswer.ts';
import { demoOperatorToken } from './adminClient.ts';

let server: RunningServer;
let client: SpecClient;
let token: string;

/** A 1×1 PNG, as a camera roll would never make but every decoder reads. */
const tinyPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** The 1×1 PNG with its header saying `width` × `height`: a few bytes that declare many pixels. */
function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.from(tinyPng.subarray(16, 29));
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([Buffer.from('IHDR', 'latin1'), header])));
  return Buffer.concat([tinyPng.subarray(0, 16), header, crc, tinyPng.subarray(33)]);
}

/** POST /api/sys/common/upload as the wallet test's user. */
const upload = (bytes: Buffer, purpose: string, type = 'image/png') => client.upload(token, bytes, purpose, type, 'proof.png');

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  const email = `conf-wallet-${crypto.randomBytes(5).toString('hex')}@example.test`;
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const code = await readCode(server.dataDir, email, 'email');
  const registered = await client.register({ accountType: 'email', account: email, password: 'Wallet2026conf', code });
  token = tokenOf(registered)!;
  expect(token, describeAnswer(registered)).toEqual(expect.any(String));
});

afterAll(async () => {
  await server?.stop();
});

describe('wallet calls of spec §7', () => {
  it('GET /set/appCurrencySet/getCurrencyList and getRateByCurrency', async () => {
    const list = expectSuccess(await client.get<Array<{ currency: string; scale: number; networks: Array<{ network: string; depositMin: string }> }>>(
      '/set/appCurrencySet/getCurrencyList'));
    const usdt = list.find((currency) => currency.currency === 'USDT');
    expect(usdt?.scale).toBe(6);
    expect(usdt?.networks.map((network) => network.network)).toContain('TRC20');
    const rate = expectSuccess(await client.get<{ rate: string; source: string }>('/set/appCurrencySet/getRateByCurrency', { currency: 'USDT' }));
    expect(rate).toMatchObject({ rate: '1', source: 'par' });
    expect(errorOf(await client.get('/set/appCurrencySet/getRateByCurrency', { currency: 'NOPE' }))).toBe('currency_unknown');
  });

  it('GET /finance/appWallet/queryUserBalance, queryUserAssets and /finance/appBalanceLog/list', async () => {
    const balances = expectSuccess(await client.get<Array<{ currency: string; available: string; frozen: string }>>(
      '/finance/appWallet/queryUserBalance', {}, token));
    expect(balances.find((row) => row.currency === 'USDT')).toMatchObject({ available: '0.000000', frozen: '0.000000' });
    const assets = expectSuccess(await client.get<{ totalUsdt: string; byKind: Record<string, string> }>(
      '/finance/appWallet/queryUserAssets', {}, token));
    expect(assets.totalUsdt).toBe('0.000000');
    // The spec's kinds, and the server's optional extensions (pledge collateral, competition funds), which a reader may ignore.
    expect(Object.keys(assets.byKind).filter((kind) => kind !== 'collateral' && kind !== 'competition').sort()).toEqual(['demo', 'frozen', 'loan', 'position', 'product', 'spot']);
    const log = expectSuccess(await client.get('/finance/appBalanceLog/list', { pageNo: 1, pageSize: 10 }, token));
    expect(log).toEqual({ records: [], total: 0, size: 10, current: 1, pages: 0 });
    expect((await client.get('/finance/appWallet/queryUserBalance')).status).toBe(401);
  });

  it('uploads a proof, applies for a deposit to the address getAddr gives, and finds it under review in listMy', async () => {
    const address = expectSuccess(await client.get<{ address: string; depositMin: string }>(
      '/finance/rechargeAddr/getAddr', { currency: 'USDT', network: 'TRC20' }, token));
    expect(address.address.length).toBeGreaterThan(20);
    const uploaded = expectSuccess(await upload(tinyPng, 'deposit_proof'));
    expect(uploaded.id).toMatch(/^[0-9a-f]{32}$/);
    const file = await fetch(new URL(uploaded.url, server.baseUrl), { headers: { [tokenHeader]: token } });
    expect(file.status).toBe(200);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(errorOf(await upload(Buffer.from('not an image at all'), 'deposit_proof', 'image/png'))).toBe('file_type_unsupported');
    // The server takes at most 40 megapixels and refuses more from the header, before decoding.
    expect(errorOf(await upload(pngDeclaring(8000, 5001), 'deposit_proof'))).toBe('file_too_many_pixels');

    const applied = expectSuccess(await client.post<{ id: string; status: number; amount: string }>('/finance/appRecharge/apply', {
      currency: 'USDT', network: 'TRC20', amount: '25.5', proofFileId: uploaded.id,
    }, token));
    expect(applied).toMatchObject({ status: 0, amount: '25.500000' });
    expect(errorOf(await client.post('/finance/appRecharge/apply', {
      currency: 'USDT', network: 'TRC20', amount: '1e2', proofFileId: uploaded.id,
    }, token))).toBe('amount_exponent');
    const mine = expectSuccess(await client.get<{ records: Array<{ id: string; status: number; reason: string | null }>; total: number }>(
      '/finance/appRecharge/listMy', { pageNo: 1, pageSize: 10 }, token));
    expect(mine.total).toBe(1);
    expect(mine.records[0]).toMatchObject({ id: applied.id, status: 0, reason: null });
  });

  it('ours (issue 19): GET /finance/appBalanceLog/events folds the ledger into business events; the spec list is unchanged', async () => {
    const empty = expectSuccess(await client.get('/finance/appBalanceLog/events', { pageNo: 1, pageSize: 10 }, token));
    expect(empty).toEqual({ records: [], total: 0, size: 10, current: 1, pages: 0 });
    const mine = expectSuccess(await client.get<{ records: Array<{ id: string }> }>('/finance/appRecharge/listMy', { pageNo: 1, pageSize: 10 }, token));
    const operator = await demoOperatorToken(client);
    expectSuccess(await client.post(`/admin/recharges/${mine.records[0].id}/approve`, {}, operator));

    const log = expectSuccess(await client.get<{ records: Array<Record<string, unknown>>; total: number }>(
      '/finance/appBalanceLog/list', { pageNo: 1, pageSize: 10 }, token));
    expect(log.total).toBe(1);
    expect(log.records[0]).toMatchObject({ type: 'deposit', currency: 'USDT', account: 'spot', amount: '25.500000', balanceAfter: '25.500000' });
    const events = expectSuccess(await client.get<{ records: Array<Record<string, unknown>>; total: number }>(
      '/finance/appBalanceLog/events', { pageNo: 1, pageSize: 10 }, token));
    expect(events.total).toBe(1);
    expect(events.records[0]).toMatchObject({
      reference: log.records[0].reference, type: 'deposit', currency: 'USDT', state: 'done', amount: '25.500000', held: '0.000000',
      balanceAfter: '25.500000', time: log.records[0].time, entryCount: 1,
    });
    expect((await client.get('/finance/appBalanceLog/events')).status).toBe(401);
  });
});
