// Conformance: trading competitions (issue 23) through a spec-only client. The calls are named by
// the issue (GET /marketing/competition/list, POST /marketing/competition/join {id, clientOrderId},
// POST /marketing/competition/exit {id}; ours: /marketing/competition/detail and /mine; admin POST
// /admin/competitions) and the field names by src/api/contract/competitions.ts (read, not
// imported). Nothing from src/ or server/ is imported: node:crypto, fetch and the helpers only.
//
// The journey: an operator creates a competition running now; a user deposits 500 USDT; the list
// (public, spec §4 status 1) shows it; the user joins twice with one clientOrderId (one entry, one
// debit of the entry funds), is refused a second entry, an unknown id and a malformed body; the
// asset centre shows the funds as frozen by competition; the detail ranks the user; exiting
// answers status -3 and brings everything back; exiting again is refused; the settle job runs.
// Then the end instant (issue 38): a competition ending seconds from now, a contract opened in it
// (POST /trade/appTradePositions/create with competitionId); once the server's time passes the end,
// the owner's close (POST /trade/appTradePositions/close/{id}) is refused, and the engine closes
// the position at the end tick (receipt reason competition_end, its exit tick at or before the end).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { errorOf, isSuccess, SpecClient } from './specClient.ts';
import { demoOperatorToken } from './adminClient.ts';
import { describeAnswer, expectError, expectSuccess } from './expectAnswer.ts';
import { depositUsdt, registerByEmail } from './accounts.ts';


interface Page<T> { records: T[]; total: number; size: number; current: number; pages: number }
interface Competition {
  id: string; name: string; status: number; state?: string; asset: string; entryAmount: string; symbols: string[];
  startTime: number; endTime: number; participants: number; maxParticipants: number; prizes: Array<{ fromRank: number; toRank: number; amount: string }>;
  joined?: boolean;
}
interface Entry { id: string; competitionId: string; status: number; state?: string; entryAmount: string; equity: string; returnRate: string; rank: number | null; reward: string; clientOrderId: string }
interface Tick { id: string; price: string; time: number }
interface Position { id: string; status: string; receipt: { reason: string; exitTick: Tick } | null }
interface Detail extends Competition { ranking: Array<{ rank: number; name: string; returnRate: string; mine?: boolean }>; formula: string; myEntry?: Entry | null }

let server: RunningServer;
let client: SpecClient;
let operatorToken: string;
let user: string;
let competition: Competition;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const register = (tag: string) => registerByEmail(client, server.dataDir, tag, 'Compete2026conf');

const deposit = (token: string, amount: string) => depositUsdt(client, token, operatorToken, amount);

async function usdtAvailable(token: string): Promise<string | undefined> {
  const balances = expectSuccess(await client.get<Array<{ currency: string; available: string }>>('/finance/appWallet/queryUserBalance', {}, token));
  return balances.find((row) => row.currency === 'USDT')?.available;
}

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  operatorToken = await demoOperatorToken(client);
  user = await register('compete');
  await deposit(user, '500');
}, 120_000);

afterAll(async () => { await server?.stop(); });

describe('trading competitions', () => {
  it('an operator creates a competition (POST /admin/competitions); a user may not', async () => {
    const now = await client.serverTime();
    const body = {
      name: 'Conformance cup', entryAmount: '100', symbols: ['BTCUSDT'], startTime: now - 60_000, endTime: now + 3_600_000,
      maxParticipants: 10, prizes: [{ fromRank: 1, toRank: 1, amount: '10' }],
    };
    expect((await client.post('/admin/competitions', body, user)).status).toBe(401);
    expect((await client.post('/admin/competitions', { ...body, prizes: 'lots' }, operatorToken)).status).toBe(400);
    competition = expectSuccess(await client.post<Competition>('/admin/competitions', body, operatorToken));
    expect(competition).toMatchObject({ name: 'Conformance cup', status: 1, entryAmount: '100.000000', participants: 0 });
  });

  it('lists it publicly with spec status 1 (GET /marketing/competition/list)', async () => {
    const page = expectSuccess(await client.get<Page<Competition>>('/marketing/competition/list', { status: 1 }));
    const row = page.records.find((each) => each.id === competition.id);
    expect(row).toMatchObject({ status: 1, symbols: ['BTCUSDT'] });
    expect(row!.joined).toBeUndefined();
  });

  it('joins once per clientOrderId (POST /marketing/competition/join {id, clientOrderId}) and refuses the rest', async () => {
    const before = await usdtAvailable(user);
    expect(before).toBe('500.000000');
    const clientOrderId = `join-${crypto.randomBytes(6).toString('hex')}`;
    const first = expectSuccess(await client.post<Entry>('/marketing/competition/join', { id: competition.id, clientOrderId }, user));
    const again = expectSuccess(await client.post<Entry>('/marketing/competition/join', { id: competition.id, clientOrderId }, user));
    expect(again.id).toBe(first.id);
    expect(first).toMatchObject({ competitionId: competition.id, status: 1, entryAmount: '100.000000', clientOrderId });
    expect(await usdtAvailable(user)).toBe('400.000000');
    expectError(await client.post('/marketing/competition/join', { id: competition.id, clientOrderId: `join-${crypto.randomBytes(6).toString('hex')}` }, user), 409, 'competition_joined_already');
    expectError(await client.post('/marketing/competition/join', { id: '987654321', clientOrderId: `join-${crypto.randomBytes(6).toString('hex')}` }, user), 404, 'competition_not_found');
    expect((await client.post('/marketing/competition/join', { id: competition.id }, user)).status).toBe(400);
    expect((await client.post('/marketing/competition/join', { id: competition.id, clientOrderId: 'x-123456789' })).status).toBe(401);
    expect(await usdtAvailable(user)).toBe('400.000000');
    const assets = expectSuccess(await client.get<{ byKind: Record<string, string> }>('/finance/appWallet/queryUserAssets', {}, user));
    expect(assets.byKind.competition).toBe('100.000000');
  });

  it('ranks the entrant in the detail and lists the entry (detail, mine)', async () => {
    const detail = expectSuccess(await client.get<Detail>('/marketing/competition/detail', { id: competition.id }, user));
    expect(detail.ranking[0]).toMatchObject({ rank: 1, returnRate: '0.0000', mine: true });
    expect(detail.formula).toMatch(/rate of return/);
    expect(detail.myEntry).toMatchObject({ status: 1, rank: 1 });
    const mine = expectSuccess(await client.get<Page<Entry>>('/marketing/competition/mine', {}, user));
    expect(mine.records[0]).toMatchObject({ competitionId: competition.id, status: 1 });
    const listed = expectSuccess(await client.get<Page<Competition>>('/marketing/competition/list', {}, user));
    expect(listed.records.find((each) => each.id === competition.id)).toMatchObject({ joined: true, participants: 1 });
  });

  it('exits early with status -3 and everything back (POST /marketing/competition/exit {id})', async () => {
    const exited = expectSuccess(await client.post<Entry>('/marketing/competition/exit', { id: competition.id }, user));
    expect(exited).toMatchObject({ status: -3, rank: null, reward: '0.000000', equity: '100.000000' });
    expect(await usdtAvailable(user)).toBe('500.000000');
    expectError(await client.post('/marketing/competition/exit', { id: competition.id }, user), 409, 'competition_not_joined');
  });

  it('runs the settle job (POST /admin/jobs/competition-settle/run)', async () => {
    const run = await client.post<{ name: string; state: string }>('/admin/jobs/competition-settle/run', {}, operatorToken);
    expect(isSuccess(run), describeAnswer(run)).toBe(true);
  });
  it('closes a competition position at the end tick on its own; the owner\'s close after the end is refused', async () => {
    const trader = await register('compete-end');
    await deposit(trader, '300');
    const now = await client.serverTime();
    const sprint = expectSuccess(await client.post<Competition>('/admin/competitions', {
      name: 'Conformance sprint', entryAmount: '100', symbols: ['BTCUSDT'], startTime: now - 60_000, endTime: now + 8_000,
      prizes: [{ fromRank: 1, toRank: 1, amount: '1' }],
    }, operatorToken));
    expectSuccess(await client.post('/marketing/competition/join', { id: sprint.id, clientOrderId: `join-${crypto.randomBytes(6).toString('hex')}` }, trader));
    const position = expectSuccess(await client.post<Position>('/trade/appTradePositions/create', {
      symbol: 'BTCUSDT', direction: 'long', leverage: 10, margin: '50', competitionId: sprint.id,
      clientOrderId: `conf-cmp-${crypto.randomBytes(4).toString('hex')}`,
    }, trader));
    // Wait (for the server's clock, 30 s at most) until the end has passed.
    for (let attempt = 0; attempt < 150 && await client.serverTime() <= sprint.endTime; attempt += 1) await pause(200);
    const close = await client.post(`/trade/appTradePositions/close/${position.id}`, {}, trader);
    // Refused either way: the end's to close (before the engine's next tick), or closed by it already.
    expect(close.status, describeAnswer(close)).toBe(409);
    expect(['position_competition_ended', 'position_closed']).toContain(errorOf(close));
    let closed: Position | undefined;
    for (let attempt = 0; attempt < 150 && !closed; attempt += 1) {
      const page = expectSuccess(await client.get<Page<Position>>('/trade/appTradePositions/listMy', { status: 'closed' }, trader));
      closed = page.records.find((each) => each.id === position.id);
      if (!closed) await pause(200);
    }
    expect(closed?.receipt?.reason).toBe('competition_end');
    expect(closed!.receipt!.exitTick.time).toBeLessThanOrEqual(sprint.endTime);
    const assets = expectSuccess(await client.get<{ byKind: Record<string, string> }>('/finance/appWallet/queryUserAssets', {}, trader));
    expect(Number(assets.byKind.competition ?? '0')).toBe(0);
  }, 60_000);
});
