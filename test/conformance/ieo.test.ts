// Conformance: IEO token offerings with a provable lottery (issue 23) through a spec-only client.
// The calls and fields are the spec's (§7 /prod/appProdIoe/listMy, /prod/appOrderIoe/listMy,
// /prod/appOrderIoe/apply, /prod/appOrderIoe/pay) and the (/prod/appProdIoe/list,
// /prod/appProdIoe/draw, /admin/ieo, /admin/ieo/:id/close, /admin/ieo/:id/reveal); the lottery is
// re-implemented below from docs/fairness.md alone, with node:crypto. Nothing from src/ or
// server/ is imported.
//
// The journey: the demo operator creates an offering (a new token, 4 lots on offer, at most 3 a
// person, a window of a few seconds); the commitment (seedHash) is public at once. Three users
// apply for 3, 2 and 2 lots (above the cap and a second application are refused); the window
// closes, the operator closes it: the published list is checked line by line and by its hash;
// the operator reveals: SHA-256(seed) = seedHash, and the winners recomputed here equal the
// published ones and the users' records. A winner who deposited pays wonLots × lotSize × price;
// paying twice, a loser paying and a winner without funds are refused and nothing moves.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient, type Answer } from './specClient.ts';
import { demoOperatorToken } from './adminClient.ts';
import { describeAnswer, expectError, expectSuccess } from './expectAnswer.ts';
import { depositUsdt, registerByEmail } from './accounts.ts';


interface Page<T> { records: T[]; total: number }
interface Application { id: string; projectId: string; name: string; lots: number; quantity: string; wonLots: number; amount: string; status: string; estimatedPrice: string; winningPrice?: string }
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

async function spot(token: string, currency = 'USDT'): Promise<string> {
  const balances = expectSuccess(await client.get<Array<{ currency: string; available: string }>>('/finance/appWallet/queryUserBalance', {}, token));
  return balances.find((balance) => balance.currency === currency)?.available ?? '0';
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
  it('applies, closes, reveals, recomputes the draw from docs/fairness.md and pays', async () => {
    const users = [await register('ieo-a'), await register('ieo-b'), await register('ieo-c')];
    await deposit(users[0], '500');
    await deposit(users[1], '500');
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
    const lots = [3, 2, 2];
    const applications: Application[] = [];
    for (const [index, user] of users.entries()) {
      applications.push(expectSuccess(await client.post<Application>('/prod/appOrderIoe/apply', { id: created.id, lots: lots[index] }, user)));
    }
    expect(applications[0]).toMatchObject({ projectId: created.id, lots: 3, quantity: '300.000000', status: 'applied', name: 'Conformance offering' });
    expectError(await client.post('/prod/appOrderIoe/apply', { id: created.id, lots: 1 }, users[0]), 409, 'ieo_applied_already');
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

    // Each user's record agrees with the draw; a winner with funds pays, once.
    const wonBy = new Map(recomputed.map((winner) => [winner.id, winner.won]));
    for (const [index, user] of users.entries()) {
      const records = expectSuccess(await client.get<Page<Application>>('/prod/appOrderIoe/listMy', { pageNo: 1, pageSize: 10 }, user)).records;
      const won = wonBy.get(applications[index].id) ?? 0;
      expect(records[0]).toMatchObject({ id: applications[index].id, wonLots: won, status: won > 0 ? 'won' : 'lost', amount: `${won * 25}.000000`, winningPrice: '0.250000' });
      if (won === 0) {
        expectError(await client.post('/prod/appOrderIoe/pay', { id: created.id }, user), 409, 'ieo_not_won');
      } else if (index === 2) {
        expectError(await client.post('/prod/appOrderIoe/pay', { id: created.id }, user), 400, 'balance_insufficient');
        expect(await spot(user)).toBe('0.000000');
      } else {
        const paid = expectSuccess(await client.post<Application>('/prod/appOrderIoe/pay', { id: created.id }, user));
        expect(paid).toMatchObject({ status: 'paid', wonLots: won });
        expect(await spot(user)).toBe(`${500 - won * 25}.000000`);
        expectError(await client.post('/prod/appOrderIoe/pay', { id: created.id }, user), 409, 'ieo_paid_already');
        expect(await spot(user)).toBe(`${500 - won * 25}.000000`);
      }
    }
    expectError(await client.post(`/admin/ieo/${created.id}/reveal`, {}, operatorToken), 409, 'ieo_wrong_state');
  }, 120_000);
});
