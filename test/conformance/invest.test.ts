// Conformance: investment products, loans and VIP levels (issue 22) through a spec-only client.
// Every call named by the issue is exercised from its name and the field names of the wire
// contracts (src/api/contract/products.ts, loans.ts, levels.ts: read, not imported). Nothing from
// src/ or server/ is imported: node:crypto, fetch and the conformance helpers only.
//
// The journey: a user verifies their identity (products and credit need it) and deposits 5 000
// USDT (the demo operator approves); the operator creates one product of each type and funds
// their reserves; the user buys by debit (the same clientOrderId twice is one order and one
// debit; with another amount, a 409) and a mining machine, reads their orders and statistics; the
// accrual job runs twice the same day (the second answers the first); the user reads the loan
// offers and their limit, reads and signs the agreement (a PNG uploaded as loan_signature), is
// rejected with a reason, applies again, is approved, repays part and then the rest; VIP levels
// list the thresholds and the caller's level. Refusals are checked with their stable codes, and that nothing moved.
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCode, startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, tokenOf, type Answer } from './specClient.ts';
import { approvedByReviewer, demoOperatorToken } from './adminClient.ts';
import { plainPng } from './pngImage.ts';
import { describeAnswer, expectSuccess } from './expectAnswer.ts';

interface Page<T> { records: T[]; total: number; size: number; current: number; pages: number }
interface Product {
  id: string; type: string; name: string; asset: string; payoutAsset: string; status: string; days: number; dailyRate: string;
  minLevel: number; minAmount: string; maxAmount: string; sold: string; coverage: string; reserve: string; owed: string;
  returnSource: string; machine?: Record<string, unknown>; unitPrice?: string; target?: string;
}
interface ProductOrder {
  id: string; productId: string; productType: string; clientOrderId: string; asset: string; amount: string; quantity: number;
  status: string; accumulatedIncome: string; todayIncome: string; owed: string; remainingDays: number;
}
interface OrderStat { running: number; ended: number; totals: Array<{ asset: string; hosted: string; todayIncome: string; accumulatedIncome: string }> }
interface ReserveFunding { id: string; productId: string; asset: string; amount: string; status: string; approvalsRequired: number }
interface JobRun { name: string; day: string; state: string; replayed: boolean; result: Record<string, string | number> }
interface LoanSetting { id: string; type: string; asset: string; dailyRate: string; minDays: number; maxDays: number; minAmount: string; maxAmount: string; enabled: boolean }
interface LoanInfo { kycLevel: number; vipLevel: number; creditLimit: string; creditUsed: string; creditAvailable: string; activeLoans: number; pendingLoans: number }
interface Loan {
  id: string; type: string; settingId: string; clientOrderId: string; asset: string; amount: string; days: number; status: string;
  rejectReason?: string; totalInterest: string; interest: string; repaid: string; owed: string; termsHash: string;
}
interface Levels {
  levels: Array<{ level: number; name: string; minAssets: string; creditLimit: string; productsUnlocked: number }>;
  my?: { level: number; highestLevel: number; assets: string; checkedAt: number; toNext?: string };
}

/**
 * A drawn signature: a white 120×40 PNG (8-bit RGB) with a dark stroke across it, written by hand
 * on node:zlib like pngImage.ts (a one-colour image is a blank signature, which is refused).
 */
function signaturePng(width = 120, height = 40): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4); length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4); crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0); header.writeUInt32BE(height, 4); header[8] = 8; header[9] = 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y += 1) {
    const row = Buffer.alloc(1 + width * 3, 255);
    row[0] = 0;
    for (let x = 0; x < width; x += 1) {
      // A wave from left to right, two pixels thick.
      const curve = Math.round(height / 2 + (height / 3) * Math.sin(x / 9));
      if (Math.abs(curve - y) <= 1) row.fill(20, 1 + x * 3, 4 + x * 3);
    }
    rows.push(row);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

let server: RunningServer;
let client: SpecClient;
let operatorToken: string;
let buyer: string;
let stranger: string;

function expectError(answer: Answer, status: number, error: string) {
  expect({ status: answer.status, error: errorOf(answer) }, describeAnswer(answer)).toEqual({ status, error });
}

const clientOrderId = (prefix: string) => `${prefix}-${crypto.randomBytes(6).toString('hex')}`;
/** A decimal amount string → units of 10^-scale, for comparisons without floats. */
function units(amount: string, scale = 6): bigint {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?$/.exec(amount);
  if (!match) throw new Error(`not an amount: ${amount}`);
  const fraction = (match[3] ?? '').padEnd(scale, '0').slice(0, scale);
  const value = BigInt(match[2] + fraction);
  return match[1] === '-' ? -value : value;
}

async function register(tag: string): Promise<string> {
  const email = `conf-${tag}-${crypto.randomBytes(5).toString('hex')}@example.test`;
  expect(isSuccess(await client.emailCaptcha(email, 'register'))).toBe(true);
  const registered = await client.register({
    accountType: 'email', account: email, password: 'Invest2026conf', code: await readCode(server.dataDir, email, 'email'),
  });
  const token = tokenOf(registered);
  expect(token, describeAnswer(registered)).toEqual(expect.any(String));
  return token!;
}

/** Basic identity verification, approved by the demo operator (products and credit loans need it). */
async function verifyIdentity(token: string) {
  const front = expectSuccess(await client.upload(token, plainPng(40, 25, [220, 210, 190]), 'identity')).id;
  const back = expectSuccess(await client.upload(token, plainPng(40, 25, [40, 60, 120]), 'identity')).id;
  const applied = expectSuccess(await client.post<{ id: string }>('/auth/appAuth/applyKYC',
    { surname: 'Lovelace', firstName: 'Ada', idType: 'id_card', idNumber: 'ID-20261127', frontFileId: front, backFileId: back }, token));
  expectSuccess(await client.post(`/admin/kyc/${applied.id}/approve`, {}, operatorToken));
}

/** A deposit of `amount` USDT on TRC20, approved by the demo operator (one approval below 10 000). */
async function deposit(token: string, amount: string) {
  const proof = expectSuccess(await client.upload(token, plainPng(8, 8, [10, 200, 10]), 'deposit_proof')).id;
  const applied = expectSuccess(await client.post<{ id: string }>('/finance/appRecharge/apply',
    { currency: 'USDT', network: 'TRC20', amount, proofFileId: proof }, token));
  expectSuccess(await client.post(`/admin/recharges/${applied.id}/approve`, {}, operatorToken));
}

async function spot(token: string, currency = 'USDT'): Promise<string> {
  const balances = expectSuccess(await client.get<Array<{ currency: string; available: string }>>('/finance/appWallet/queryUserBalance', {}, token));
  return balances.find((balance) => balance.currency === currency)?.available ?? '0';
}

async function product(id: string): Promise<Product> {
  return expectSuccess(await client.get<Product>('/prod/appProductInfo/queryById', { id }));
}

const created: Partial<Record<'arbitrage' | 'quant' | 'mining' | 'bond', Product>> = {};
let arbitrageOrder: ProductOrder | undefined;
let minerOrder: ProductOrder | undefined;

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  operatorToken = await demoOperatorToken(client);
  buyer = await register('invest');
  stranger = await register('stranger');
  await verifyIdentity(buyer);
  await deposit(buyer, '5000');
});

afterAll(async () => {
  await server?.stop();
});

describe('products (/prod/appProductInfo/*, /prod/appProductOrder/*, /admin/products)', () => {
  it('an operator creates one product of each type (POST /admin/products)', async () => {
    const closesAt = (await client.serverTime()) + 7 * 86_400_000;
    const bodies = {
      arbitrage: { type: 'arbitrage', name: 'Conformance arbitrage', asset: 'USDT', days: 7, dailyRate: '0.5', firstDayRule: 'full', minAmount: '10', maxAmount: '1000' },
      quant: { type: 'quant', name: 'Conformance quant', asset: 'USDT', days: 14, dailyRate: '0.3', minLevel: 5, minAmount: '10', maxAmount: '1000' },
      mining: {
        type: 'mining', name: 'Conformance miner', asset: 'USDT', payoutAsset: 'BTC', days: 30, minAmount: '1', maxAmount: '100000',
        unitPrice: '100', machine: {
          manufacturer: 'Bitmain', hashrateThs: '200', powerW: 3500, size: '400x195x290 mm', weightKg: '16.1',
          temperature: '0-40 °C', humidity: '10-90 %', network: 'BTC',
        },
      },
      bond: { type: 'bond', name: 'Conformance bond', asset: 'USDT', days: 30, dailyRate: '0.05', minAmount: '10', maxAmount: '1000', target: '100000', closesAt },
    } as const;
    for (const [type, body] of Object.entries(bodies) as Array<[keyof typeof bodies, (typeof bodies)[keyof typeof bodies]]>) {
      // Created as a draft; on sale once a second operator approves (ours, issue 38).
      const answer = await client.post<Product & { pendingChange?: { id: string } }>('/admin/products', body, operatorToken);
      const draft = expectSuccess(answer);
      expect(draft, `${type}: ${describeAnswer(answer)}`).toMatchObject({ id: expect.stringMatching(/^[1-9][0-9]*$/), type, asset: 'USDT', status: 'draft',
        pendingChange: { status: 'pending' } });
      const made = await approvedByReviewer(client, draft);
      expect(made).toMatchObject({ id: draft.id, status: 'open' });
      created[type] = made;
    }
    expect(created.mining!.payoutAsset).toBe('BTC');
    // A user cannot create one; an unknown type is refused.
    expect((await client.post('/admin/products', bodies.arbitrage, buyer)).status).toBe(401);
    expect((await client.post('/admin/products', { ...bodies.arbitrage, type: 'ponzi' }, operatorToken)).status).toBe(400);
  });

  it('funds reserves (POST /admin/products/:id/reserve {amount}): done at once below the two-operator threshold', async () => {
    const funded = expectSuccess(await client.post<ReserveFunding>(`/admin/products/${created.arbitrage!.id}/reserve`, { amount: '10' }, operatorToken));
    expect(funded).toMatchObject({ productId: created.arbitrage!.id, asset: 'USDT', amount: '10.000000', status: 'done' });
    expectSuccess(await client.post(`/admin/products/${created.quant!.id}/reserve`, { amount: '100' }, operatorToken));
    expectSuccess(await client.post(`/admin/products/${created.bond!.id}/reserve`, { amount: '100' }, operatorToken));
    const mining = expectSuccess(await client.post<ReserveFunding>(`/admin/products/${created.mining!.id}/reserve`, { amount: '0.01' }, operatorToken));
    expect(mining).toMatchObject({ asset: 'BTC', status: 'done' });
    expect((await product(created.arbitrage!.id)).reserve).toBe('10.000000');
    expectError(await client.post(`/admin/products/${created.arbitrage!.id}/reserve`, { amount: '-5' }, operatorToken), 400, 'amount_negative');
    expectError(await client.post('/admin/products/999999999/reserve', { amount: '5' }, operatorToken), 404, 'product_not_found');
  });

  it('lists products by type and answers one by id, with coverage and where the return comes from (public)', async () => {
    const page = expectSuccess(await client.get<Page<Product>>('/prod/appProductInfo/list', { type: 'arbitrage', pageNo: 1, pageSize: 100 }));
    expect(page.records.every((row) => row.type === 'arbitrage')).toBe(true);
    expect(page.records.map((row) => row.id)).toContain(created.arbitrage!.id);
    const detail = await product(created.arbitrage!.id);
    expect(detail).toMatchObject({ id: created.arbitrage!.id, type: 'arbitrage', dailyRate: '0.5', days: 7, returnSource: 'reserve_fixed_rate', coverage: '∞' });
    expect((await product(created.mining!.id)).machine).toMatchObject({ manufacturer: 'Bitmain', powerW: 3500 });
    expectError(await client.get('/prod/appProductInfo/queryById', { id: '999999999' }), 404, 'product_not_found');
  });

  it('buys by debit (POST /prod/appProductOrder/debitBuy): the same clientOrderId twice is one order and one debit', async () => {
    const before = units(await spot(buyer));
    const body = { productId: created.arbitrage!.id, amount: '100', clientOrderId: clientOrderId('buy') };
    const first = expectSuccess(await client.post<ProductOrder>('/prod/appProductOrder/debitBuy', body, buyer));
    expect(first).toMatchObject({ productId: created.arbitrage!.id, productType: 'arbitrage', clientOrderId: body.clientOrderId, amount: '100.000000' });
    const again = expectSuccess(await client.post<ProductOrder>('/prod/appProductOrder/debitBuy', body, buyer));
    expect(again.id).toBe(first.id);
    // The same clientOrderId with another amount is refused (issue 38 #10), as a contract open's is.
    expectError(await client.post('/prod/appProductOrder/debitBuy', { ...body, amount: '150' }, buyer), 409, 'client_order_id_reused');
    expect(units(await spot(buyer))).toBe(before - units('100'));
    arbitrageOrder = first;
    // Reserve 10 covers 3.5 owed on 100 for 7 days at 0.5 %; 200 more would owe 7 more: sold out, nothing moves.
    const detail = await product(created.arbitrage!.id);
    expect(units(detail.owed)).toBe(units('3.5'));
    expect(Number(detail.coverage)).toBeGreaterThanOrEqual(100);
    expectError(await client.post('/prod/appProductOrder/debitBuy',
      { productId: created.arbitrage!.id, amount: '200', clientOrderId: clientOrderId('over') }, buyer), 409, 'product_sold_out');
    expect(units(await spot(buyer))).toBe(before - units('100'));
  });

  it('refuses bad purchases with their codes, and nothing moves', async () => {
    const before = await spot(buyer);
    const buy = (productId: string, amount: string, token = buyer) =>
      client.post('/prod/appProductOrder/debitBuy', { productId, amount, clientOrderId: clientOrderId('bad') }, token);
    expectError(await buy(created.quant!.id, '100'), 403, 'product_level_required');
    expectError(await buy(created.arbitrage!.id, '5'), 400, 'product_amount_out_of_range');
    expectError(await buy(created.arbitrage!.id, '10.1234567'), 400, 'amount_too_many_decimals');
    expectError(await buy(created.mining!.id, '100'), 400, 'product_wrong_kind');
    expectError(await buy('999999999', '100'), 404, 'product_not_found');
    expectError(await buy(created.arbitrage!.id, '20', stranger), 403, 'product_kyc_required');
    expect((await client.post('/prod/appProductOrder/debitBuy', { productId: created.arbitrage!.id, amount: '20' }, buyer)).status).toBe(400);
    expect(await spot(buyer)).toBe(before);
  });

  it('rents a mining machine (POST /prod/appProductOrder/minerBuy), the same clientOrderId twice being one order', async () => {
    const before = units(await spot(buyer));
    const body = { productId: created.mining!.id, quantity: 1, clientOrderId: clientOrderId('miner') };
    const first = expectSuccess(await client.post<ProductOrder>('/prod/appProductOrder/minerBuy', body, buyer));
    expect(first).toMatchObject({ productId: created.mining!.id, productType: 'mining', quantity: 1 });
    const again = expectSuccess(await client.post<ProductOrder>('/prod/appProductOrder/minerBuy', body, buyer));
    expect(again.id).toBe(first.id);
    expect(units(await spot(buyer))).toBe(before - units('100'));
    minerOrder = first;
    expectError(await client.post('/prod/appProductOrder/minerBuy',
      { productId: created.arbitrage!.id, quantity: 1, clientOrderId: clientOrderId('kind') }, buyer), 400, 'product_wrong_kind');
  });

  it('lists the caller\'s orders (GET listMy) and their statistics (GET orderStat); another user sees none of them', async () => {
    const mine = expectSuccess(await client.get<Page<ProductOrder>>('/prod/appProductOrder/listMy', { pageNo: 1, pageSize: 100 }, buyer));
    const ids = mine.records.map((order) => order.id);
    expect(ids).toEqual(expect.arrayContaining([arbitrageOrder!.id, minerOrder!.id]));
    expect(ids.filter((id) => id === arbitrageOrder!.id)).toHaveLength(1);
    const onlyMining = expectSuccess(await client.get<Page<ProductOrder>>('/prod/appProductOrder/listMy', { type: 'mining' }, buyer));
    expect(onlyMining.records.map((order) => order.productType)).toEqual(['mining']);
    const theirs = expectSuccess(await client.get<Page<ProductOrder>>('/prod/appProductOrder/listMy', {}, stranger));
    expect(theirs.records).toEqual([]);
    const stat = expectSuccess(await client.get<OrderStat>('/prod/appProductOrder/orderStat', {}, buyer));
    expect(stat.running + stat.ended).toBeGreaterThanOrEqual(1);
    expect(stat.totals.find((total) => total.asset === 'USDT')).toBeDefined();
    expect((await client.get('/prod/appProductOrder/listMy')).status).toBe(401);
  });

  it('runs the accrual job (POST /admin/jobs/product-accrual/run) twice the same day: the second answers the first, nothing is paid twice', async () => {
    const first = expectSuccess(await client.post<JobRun>('/admin/jobs/product-accrual/run', {}, operatorToken));
    expect(first).toMatchObject({ name: 'product-accrual', state: 'done' });
    const afterFirst = await spot(buyer);
    const ordersAfterFirst = expectSuccess(await client.get<Page<ProductOrder>>('/prod/appProductOrder/listMy', { pageSize: 100 }, buyer));
    if (!first.replayed) {
      // Bought today under the 'full' first-day rule: today earns 0.5 % of 100, paid from the reserve.
      const order = ordersAfterFirst.records.find((row) => row.id === arbitrageOrder!.id)!;
      expect(order).toMatchObject({ todayIncome: '0.500000', accumulatedIncome: '0.500000' });
      expect(units((await product(created.arbitrage!.id)).reserve)).toBe(units('9.5'));
    }
    const second = expectSuccess(await client.post<JobRun>('/admin/jobs/product-accrual/run', {}, operatorToken));
    expect(second).toMatchObject({ name: 'product-accrual', day: first.day, state: 'done', replayed: true, result: first.result });
    expect(await spot(buyer)).toBe(afterFirst);
    const ordersAfterSecond = expectSuccess(await client.get<Page<ProductOrder>>('/prod/appProductOrder/listMy', { pageSize: 100 }, buyer));
    expect(ordersAfterSecond.records.map((order) => [order.id, order.accumulatedIncome]))
      .toEqual(ordersAfterFirst.records.map((order) => [order.id, order.accumulatedIncome]));
    expectError(await client.post('/admin/jobs/no-such-job/run', {}, operatorToken), 404, 'job_unknown');
    expect((await client.post('/admin/jobs/product-accrual/run', {}, buyer)).status).toBe(401);
  });
});

describe('loans (/prod/appLoanSet/list, /prod/appLoanOrder/*, /admin/loans)', () => {
  let credit: LoanSetting;

  async function agreement(amount: string, days: number) {
    const answer = expectSuccess(await client.get<{ terms: string; termsHash: string }>('/prod/appLoanOrder/agreement',
      { settingId: credit.id, amount, days }, buyer));
    expect(answer.terms.length).toBeGreaterThan(20);
    // The hash the user signs is the SHA-256 of the terms they read.
    expect(answer.termsHash).toBe(crypto.createHash('sha256').update(answer.terms, 'utf8').digest('hex'));
    return answer;
  }

  async function signature(token = buyer) {
    return expectSuccess(await client.upload(token, signaturePng(), 'loan_signature', 'image/png', 'signature.png')).id;
  }

  it('lists the loan offers (GET /prod/appLoanSet/list) and the caller\'s limit (GET myLoanInfo)', async () => {
    const settings = expectSuccess(await client.get<LoanSetting[]>('/prod/appLoanSet/list'));
    const found = settings.find((setting) => setting.type === 'credit' && setting.enabled);
    expect(found, JSON.stringify(settings)).toBeDefined();
    credit = found!;
    const info = expectSuccess(await client.get<LoanInfo>('/prod/appLoanOrder/myLoanInfo', {}, buyer));
    expect(info).toMatchObject({ kycLevel: 1, activeLoans: 0, pendingLoans: 0 });
    expect(units(info.creditLimit)).toBeGreaterThan(0n);
    expect((await client.get('/prod/appLoanOrder/myLoanInfo')).status).toBe(401);
  });

  it('applies with a signed agreement (GET agreement, upload loan_signature, POST creditApply); refusals move nothing', async () => {
    const days = credit.minDays;
    const terms = await agreement('100', days);
    const signatureFileId = await signature();
    const body = { settingId: credit.id, amount: '100', days, signatureFileId, termsHash: terms.termsHash, clientOrderId: clientOrderId('loan') };
    const before = await spot(buyer);
    expectError(await client.post('/prod/appLoanOrder/creditApply', { ...body, termsHash: '0'.repeat(64) }, buyer), 409, 'loan_terms_changed');
    expectError(await client.post('/prod/appLoanOrder/creditApply', { ...body, signatureFileId: await signature(stranger) }, buyer), 400, 'signature_invalid');
    // A blank pad and a 2 × 1 image hold no ink over a real area; an image past 1600 × 800 is no pad's signature (issue 38).
    const blank = expectSuccess(await client.upload(buyer, plainPng(120, 40, [255, 255, 255]), 'loan_signature', 'image/png', 'blank.png')).id;
    expectError(await client.post('/prod/appLoanOrder/creditApply', { ...body, signatureFileId: blank }, buyer), 400, 'signature_empty');
    const dot = expectSuccess(await client.upload(buyer, signaturePng(2, 1), 'loan_signature', 'image/png', 'dot.png')).id;
    expectError(await client.post('/prod/appLoanOrder/creditApply', { ...body, signatureFileId: dot }, buyer), 400, 'signature_empty');
    expectError(await client.upload(buyer, signaturePng(2000, 100), 'loan_signature', 'image/png', 'huge.png'), 400, 'signature_too_large');
    const info = expectSuccess(await client.get<LoanInfo>('/prod/appLoanOrder/myLoanInfo', {}, buyer));
    const tooMuch = (units(info.creditAvailable) / 1_000_000n + 1n).toString();
    if (units(tooMuch) <= units(credit.maxAmount)) {
      const overTerms = await agreement(tooMuch, days);
      expectError(await client.post('/prod/appLoanOrder/creditApply',
        { ...body, amount: tooMuch, termsHash: overTerms.termsHash, clientOrderId: clientOrderId('over') }, buyer), 400, 'loan_over_limit');
    }
    const aboveMax = (units(credit.maxAmount) / 1_000_000n + 1n).toString();
    expectError(await client.post('/prod/appLoanOrder/creditApply',
      { ...body, amount: aboveMax, clientOrderId: clientOrderId('max') }, buyer), 400, 'loan_amount_out_of_range');
    expect(await spot(buyer)).toBe(before);

    const applied = expectSuccess(await client.post<Loan>('/prod/appLoanOrder/creditApply', body, buyer));
    expect(applied).toMatchObject({ type: 'credit', status: 'pending', amount: '100.000000', days, termsHash: terms.termsHash });
    const again = expectSuccess(await client.post<Loan>('/prod/appLoanOrder/creditApply', body, buyer));
    expect(again.id).toBe(applied.id);
    expect(await spot(buyer)).toBe(before);

    // The operator finds it pending and rejects it with a reason the user reads.
    const pending = expectSuccess(await client.get<Page<Loan>>('/admin/loans', { status: 'pending', pageSize: 100 }, operatorToken));
    expect(pending.records.map((loan) => loan.id)).toContain(applied.id);
    expectError(await client.post(`/admin/loans/${applied.id}/reject`, {}, operatorToken), 400, 'invalid_request');
    const rejected = expectSuccess(await client.post<Loan>(`/admin/loans/${applied.id}/reject`, { reason: 'Please sign with your full name.' }, operatorToken));
    expect(rejected).toMatchObject({ status: 'rejected', rejectReason: 'Please sign with your full name.' });
    expectError(await client.post(`/admin/loans/${applied.id}/approve`, {}, operatorToken), 409, 'loan_decided');
    expect(await spot(buyer)).toBe(before);
  });

  it('applies again, is approved (funds arrive), repays part, refuses more than owed, then repays the rest (POST repay {id, amount?})', async () => {
    const days = credit.minDays;
    const terms = await agreement('100', days);
    const body = { settingId: credit.id, amount: '100', days, signatureFileId: await signature(), termsHash: terms.termsHash, clientOrderId: clientOrderId('loan2') };
    const applied = expectSuccess(await client.post<Loan>('/prod/appLoanOrder/creditApply', body, buyer));
    const before = units(await spot(buyer));
    const approved = expectSuccess(await client.post<Loan>(`/admin/loans/${applied.id}/approve`, {}, operatorToken));
    expect(approved).toMatchObject({ id: applied.id, status: 'active' });
    expect(units(await spot(buyer))).toBe(before + units('100'));

    expectError(await client.post('/prod/appLoanOrder/repay', { id: applied.id, amount: '10' }, stranger), 404, 'loan_not_found');
    const part = expectSuccess(await client.post<Loan>('/prod/appLoanOrder/repay', { id: applied.id, amount: '10' }, buyer));
    expect(part).toMatchObject({ status: 'active', repaid: '10.000000' });
    expect(units(await spot(buyer))).toBe(before + units('90'));
    expectError(await client.post('/prod/appLoanOrder/repay', { id: applied.id, amount: '100000' }, buyer), 400, 'repay_exceeds_owed');
    expect(units(await spot(buyer))).toBe(before + units('90'));
    const owed = units(part.owed);
    const done = expectSuccess(await client.post<Loan>('/prod/appLoanOrder/repay', { id: applied.id }, buyer));
    expect(done).toMatchObject({ status: 'repaid', owed: '0.000000' });
    expect(units(await spot(buyer))).toBe(before + units('90') - owed);
    expectError(await client.post('/prod/appLoanOrder/repay', { id: applied.id }, buyer), 409, 'loan_not_active');
  });
});

describe('VIP levels (/user/appLevels/list)', () => {
  it('lists the thresholds to anyone, and the caller\'s level and assets when logged in', async () => {
    const open = expectSuccess(await client.get<Levels>('/user/appLevels/list'));
    expect(open.levels.length).toBeGreaterThanOrEqual(2);
    expect(open.levels[0]).toMatchObject({ level: 0, minAssets: expect.stringMatching(/^0(\.0+)?$/) });
    const thresholds = open.levels.map((level) => units(level.minAssets));
    expect(thresholds).toEqual([...thresholds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    for (const level of open.levels) expect(Number.isInteger(level.productsUnlocked)).toBe(true);
    expect(open.my).toBeUndefined();

    const mine = expectSuccess(await client.get<Levels>('/user/appLevels/list', {}, buyer));
    expect(mine.my).toMatchObject({ level: expect.any(Number), highestLevel: expect.any(Number), assets: expect.any(String) });
    // About 5 000 USDT deposited: at least the level whose threshold is 1 000.
    const reached = open.levels.filter((level) => units(level.minAssets) <= units(mine.my!.assets)).map((level) => level.level);
    expect(mine.my!.level).toBe(Math.max(...reached));
    expect(mine.my!.highestLevel).toBeGreaterThanOrEqual(mine.my!.level);
    const newcomer = expectSuccess(await client.get<Levels>('/user/appLevels/list', {}, stranger));
    expect(newcomer.my).toMatchObject({ level: 0, assets: expect.stringMatching(/^0(\.0+)?$/) });
  });

  it('runs the vip-levels job (POST /admin/jobs/vip-levels/run) once a day', async () => {
    const first = expectSuccess(await client.post<JobRun>('/admin/jobs/vip-levels/run', {}, operatorToken));
    expect(first).toMatchObject({ name: 'vip-levels', state: 'done' });
    expect(first.result).toMatchObject({ users: expect.any(Number), raised: expect.any(Number), lowered: expect.any(Number) });
    const second = expectSuccess(await client.post<JobRun>('/admin/jobs/vip-levels/run', {}, operatorToken));
    expect(second).toMatchObject({ day: first.day, replayed: true, result: first.result });
  });
});
