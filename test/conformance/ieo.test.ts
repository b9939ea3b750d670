// Conformance: IEO token offerings with a provable lottery (issue 23) through a spec-only client.
// The calls and fields are the spec's (§7 /prod/appProdIoe/listMy, /prod/appOrderIoe/listMy,
// /prod/appOrderIoe/apply, /prod/appOrderIoe/pay) and the (/prod/appProdIoe/list,
// /prod/appProdIoe/draw, /admin/ieo, /admin/ieo/:id/close, /admin/ieo/:id/reveal); the lottery is
// re-implemented below from docs/fairness.md alone, with node:crypto. Nothing from src/ or
// server/ is imported.
//
// The journey: the demo operator creates an offering (a new token, 4 lots on offer, at most 3 a
// person, a window of a few seconds); the commitment (seedHash) is public at once. Applying needs
// basic verification (/auth/appAuth/applyKYC approved by the operator) and holds the cost of the
// lots from spot (issue 38): an unverified user, a second account verified with the same document
// and a user whose balance does not cover the hold are refused and nothing moves. Three users apply
// for 3, 2 and 1 lots (above the cap and a second application are refused), their cost shown as
// frozen; the window closes, the operator closes it: the published list is checked line by line
// and by its hash; the operator reveals: SHA-256(seed) = seedHash, and the winners recomputed here
// equal the published ones and the users' records. The held money pays the won lots at once
// (wonLots × lotSize × price; status paid) and the rest is released; paying again and a loser
// paying are refused and nothing moves.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, type Answer } from './specClient.ts';
import { demoOperatorToken } from './adminClient.ts';
import { describeAnswer, expectError, expectSuccess } from './expectAnswer.ts';
import { depositUsdt, registerByEmail } from './accounts.ts';
import { plainPng } from './pngImage.ts';


interface Page<T> { records: T[]; total: number }
interface Application { id: string; projectId: string; name: string; lots: number; quantity: string; wonLots: number; amount: string; status: string; estimatedPrice: string; winningPrice?: string; heldAmount?: string }
interface Project { id: string; name: string; token: string; status: string; estimatedPrice: string; lotSize: string; lotAmount: string; supplyLots: number; perUserMaxLots: number; seedHash: string; closesAt: number; my?: Application }
interface Draw { id: string; status: string; supplyLots: number; seedHash: string; seed?: string; list?: string; listHash?: string; winners?: Array<{ id: string; lots: number; won: number }> }

// ─── The lottery, from docs/fairness.md ──────────────────────────────────────────────────────────
const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest();

function fairnessDraw(seedHex: string, list: string, supplyLots: number): Array<{ id: string; lots: number; won: number }> {
  const applications = list === '' ? [] : list.slice(0, -1).split('\n').map((line) => {
    const [id, lots] = line.split(':');
    return { id, lots: Number(lots) };
  });
  const total = applications.reduce((sum, application) => sum + application.lots, 0);
  if (total <= supplyLots) return applications.map((application) => ({ ...application, won: application.lots }));
  const tickets: number[] = applications.flatMap((application, index) => Array<number>(application.lots).fill(index));
  const seed = Buffer.from(seedHex, 'hex');
  const listHash = sha256(Buffer.from(list, 'utf8'));
  let counter = 0;
  let words: number[] = [];
  const word = () => {
    if (words.length === 0) {
      const message = Buffer.alloc(36);
      listHash.copy(message);
      message.writeUInt32BE(counter++, 32);
      const block = crypto.createHmac('sha256', seed).update(message).digest();
      words = Array.from({ length: 8 }, (_, index) => block.readUInt32BE(index * 4));
    }
    return words.shift()!;
  };
  const uniform = (n: number) => {
    const limit = 2 ** 32 - (2 ** 32 % n);
    for (;;) {
      const w = word();
      if (w < limit) return w % n;
    }
  };
  for (let i = 0; i < supplyLots; i += 1) {
    const j = i + uniform(total - i);
    [tickets[i], tickets[j]] = [tickets[j], tickets[i]];
  }
  const won = new Map<number, number>();
  for (const ticket of tickets.slice(0, supplyLots)) won.set(ticket, (won.get(ticket) ?? 0) + 1);
  return applications.flatMap((application, index) => (won.has(index) ? [{ ...application, won: won.get(index)! }] : []));
}

// ─── The journey ─────────────────────────────────────────────────────────────────────────────────
let server: RunningServer;
let client: SpecClient;
let operatorToken: string;

const register = (tag: string) => registerByEmail(client, server.dataDir, tag, 'Ieo2026conform');

const deposit = (token: string, amount: string) => depositUsdt(client, token, operatorToken, amount);

async function wallet(token: string, currency = 'USDT'): Promise<{ available: string; frozen: string }> {
  const balances = expectSuccess(await client.get<Array<{ currency: string; available: string; frozen: string }>>('/finance/appWallet/queryUserBalance', {}, token));
  const row = balances.find((balance) => balance.currency === currency);
  return { available: row?.available ?? '0', frozen: row?.frozen ?? '0' };
}

/** Basic verification as the app does it (two identity photos, applyKYC), approved by the operator. */
async function verify(token: string, idNumber: string, idType = 'passport'): Promise<void> {
  const frontFileId = expectSuccess(await client.upload(token, plainPng(40, 25, [220, 210, 190]), 'identity')).id;
  const backFileId = expectSuccess(await client.upload(token, plainPng(40, 25, [40, 60, 120]), 'identity')).id;
  const applied = expectSuccess(await client.post<{ id: string }>('/auth/appAuth/applyKYC',
    { surname: 'Conform', firstName: 'Ieo', idType, idNumber, frontFileId, backFileId }, token));
  expectSuccess(await client.post(`/admin/kyc/${applied.id}/approve`, {}, operatorToken));
}

const sleep = (ms: number) => new Promise((resolve) => { setTimeout(resolve, ms); });

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  operatorToken = await demoOperatorToken(client);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('IEO with a provable lottery', () => {
  it('applies verified with the cost held, closes, reveals, recomputes the draw from docs/fairness.md and pays from the hold', async () => {
    const users = [await register('ieo-a'), await register('ieo-b'), await register('ieo-c')];
    const [unverified, sameDocument] = [await register('ieo-u'), await register('ieo-d')];
    const documents = users.map(() => `C${crypto.randomBytes(5).toString('hex').toUpperCase()}`);
    for (const [index, user] of users.entries()) await verify(user, documents[index]);
    // The first user's document, written with a dash and in lower case, on a second account.
    await verify(sameDocument, `${documents[0].slice(0, 4).toLowerCase()}-${documents[0].slice(4).toLowerCase()}`, 'id_card');
    await deposit(users[0], '500');
    await deposit(users[1], '500');
    await deposit(users[2], '40');
    await deposit(unverified, '500');
    await deposit(sameDocument, '500');
    const now = await client.serverTime();
    const token = `C${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
    const body = {
      token, tokenName: 'Conformance token', tokenScale: 6, name: 'Conformance offering', payAsset: 'USDT', price: '0.25', lotSize: '100',
      supplyLots: 4, perUserMaxLots: 3, opensAt: now, closesAt: now + 6_000, payDeadline: now + 120_000, listsAt: now + 180_000,
    };
    const created = expectSuccess(await client.post<Project>('/admin/ieo', body, operatorToken));
    expect(created).toMatchObject({ token, supplyLots: 4, perUserMaxLots: 3, lotAmount: '25.000000', estimatedPrice: '0.250000' });
    expect(created.seedHash).toMatch(/^[0-9a-f]{64}$/);
    expectError(await client.post('/admin/ieo', body, operatorToken), 409, 'ieo_token_exists');
    const listed = expectSuccess(await client.get<Page<Project>>('/prod/appProdIoe/list', { pageNo: 1, pageSize: 50 }));
    expect(listed.records.find((project) => project.id === created.id)).toMatchObject({ seedHash: created.seedHash, status: 'issuing' });

    expectError(await client.post('/prod/appOrderIoe/apply', { id: created.id, lots: 4 }, users[0]), 400, 'ieo_lots_over_cap');
    expectError(await client.post('/prod/appOrderIoe/apply', { id: created.id, lots: 1 }, unverified), 403, 'verification_required');
    expectError(await client.post('/prod/appOrderIoe/apply', { id: created.id, lots: 2 }, users[2]), 400, 'balance_insufficient');
    expect(await wallet(users[2])).toEqual({ available: '40.000000', frozen: '0.000000' });
    const lots = [3, 2, 1];
    const deposited = [500, 500, 40];
    const applications: Application[] = [];
    for (const [index, user] of users.entries()) {
      applications.push(expectSuccess(await client.post<Application>('/prod/appOrderIoe/apply', { id: created.id, lots: lots[index] }, user)));
      expect(await wallet(user)).toEqual({ available: `${deposited[index] - 25 * lots[index]}.000000`, frozen: `${25 * lots[index]}.000000` });
    }
    expect(applications[0]).toMatchObject({ projectId: created.id, lots: 3, quantity: '300.000000', status: 'applied', name: 'Conformance offering', heldAmount: '75.000000' });
    expectError(await client.post('/prod/appOrderIoe/apply', { id: created.id, lots: 1 }, users[0]), 409, 'ieo_applied_already');
    expectError(await client.post('/prod/appOrderIoe/apply', { id: created.id, lots: 1 }, sameDocument), 409, 'ieo_person_applied_already');
    expect(await wallet(sameDocument)).toEqual({ available: '500.000000', frozen: '0.000000' });
    expect(await wallet(unverified)).toEqual({ available: '500.000000', frozen: '0.000000' });
    expectError(await client.post('/prod/appOrderIoe/pay', { id: created.id }, users[0]), 409, 'ieo_not_won');
    const mine = expectSuccess(await client.get<Page<Project>>('/prod/appProdIoe/listMy', { pageNo: 1, pageSize: 10 }, users[1]));
    expect(mine.records.map((project) => project.my?.id)).toEqual([applications[1].id]);

    // The window closes; the operator closes the offering as soon as the server allows it.
    let closed: Answer<Project> | undefined;
    for (let attempt = 0; attempt < 60; attempt += 1) {
      closed = await client.post<Project>(`/admin/ieo/${created.id}/close`, {}, operatorToken);
      if (isSuccess(closed) || errorOf(closed) !== 'ieo_wrong_state') break;
      await sleep(500);
    }
    expect(closed && isSuccess(closed), closed && describeAnswer(closed)).toBe(true);
    expectError(await client.post('/prod/appOrderIoe/apply', { id: created.id, lots: 1 }, await register('ieo-late')), 409, 'ieo_not_issuing');
    const published = expectSuccess(await client.get<Draw>('/prod/appProdIoe/draw', { id: created.id }));
    const sortedIds = applications.map((application) => application.id).sort((a, b) => Number(a) - Number(b));
    const lotsOf = new Map(applications.map((application) => [application.id, application.lots]));
    expect(published.list).toBe(sortedIds.map((id) => `${id}:${lotsOf.get(id)}\n`).join(''));
    expect(published.listHash).toBe(sha256(published.list!).toString('hex'));
    expect(published.seed).toBeUndefined();

    expectSuccess(await client.post(`/admin/ieo/${created.id}/reveal`, {}, operatorToken));
    const draw = expectSuccess(await client.get<Draw>('/prod/appProdIoe/draw', { id: created.id }));
    expect(sha256(Buffer.from(draw.seed!, 'hex')).toString('hex')).toBe(created.seedHash);
    expect(draw.list).toBe(published.list);
    const recomputed = fairnessDraw(draw.seed!, draw.list!, 4);
    expect(draw.winners).toEqual(recomputed);
    expect(recomputed.reduce((sum, winner) => sum + winner.won, 0)).toBe(4);

    // Each user's record agrees with the draw; the hold paid the won lots and released the rest.
    const wonBy = new Map(recomputed.map((winner) => [winner.id, winner.won]));
    for (const [index, user] of users.entries()) {
      const records = expectSuccess(await client.get<Page<Application>>('/prod/appOrderIoe/listMy', { pageNo: 1, pageSize: 10 }, user)).records;
      const won = wonBy.get(applications[index].id) ?? 0;
      expect(records[0]).toMatchObject({ id: applications[index].id, wonLots: won, status: won > 0 ? 'paid' : 'lost', amount: `${won * 25}.000000`,
        winningPrice: '0.250000', heldAmount: '0.000000' });
      const left = { available: `${deposited[index] - won * 25}.000000`, frozen: '0.000000' };
      expect(await wallet(user)).toEqual(left);
      expectError(await client.post('/prod/appOrderIoe/pay', { id: created.id }, user), 409, won > 0 ? 'ieo_paid_already' : 'ieo_not_won');
      expect(await wallet(user)).toEqual(left);
    }
    expectError(await client.post(`/admin/ieo/${created.id}/reveal`, {}, operatorToken), 409, 'ieo_wrong_state');
  }, 120_000);
});
