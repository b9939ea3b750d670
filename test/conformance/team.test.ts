// Conformance: team invitation (issue 23) through a spec-only client. The calls are exercised from
// their names and the field names of the wire contract (src/api/contract/team.ts: read, not
// imported). Nothing from src/ or server/ is imported: node:crypto, fetch and the conformance
// helpers only.
//
// The journey: an inviter reads GET /marketing/myTeam (code, link, QR content, an empty team),
// makes a short link, and a friend resolves it with GET /set/appShortLink/use (the visit counted)
// and registers with the code it carries; the friend deposits (the demo operator approves), and
// the inviter's team shows one member at level 1, new today, deposited. Refusals: an unknown
// short code, binding one's own code, binding a second inviter, binding a member of one's own
// team. The operator reads the rates and runs the team-commission job.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from './server.ts';
import { SpecClient } from './specClient.ts';
import { demoOperatorToken } from './adminClient.ts';
import { plainPng } from './pngImage.ts';
import { expectError, expectSuccess } from './expectAnswer.ts';
import { registerByEmail } from './accounts.ts';


interface TeamLevel { level: number; members: number; newToday: number; deposited: number; ratePercent: string; income: Array<{ asset: string; amount: string }> }
interface MyTeam {
  inviteCode: string; inviteLink: string; qrCodeContent: string; shortLink?: string; teamSize: number; teamIncome: string;
  subordinateLevels: number; newToday: number; depositedCount: number; levels: TeamLevel[]; hasInviter: boolean;
}
interface ShortLink { code: string; url: string; target: string; visits: number }
interface ShortLinkUse { code: string; target: string; url: string; inviteCode?: string; visits: number }
interface Page<T> { records: T[]; total: number; size: number; current: number; pages: number }

let server: RunningServer;
let client: SpecClient;
let operatorToken: string;

const register = (tag: string, inviteCode?: string) => registerByEmail(client, server.dataDir, tag, 'Team2026conf', inviteCode);

const team = async (token: string) => expectSuccess(await client.get<MyTeam>('/marketing/myTeam', {}, token));

beforeAll(async () => {
  server = await startServer();
  client = new SpecClient(server.baseUrl);
  operatorToken = await demoOperatorToken(client);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('team invitation', () => {
  it('invites a friend through a short link; the team counts them, new today and deposited', async () => {
    const inviter = await register('inviter');
    const empty = await team(inviter);
    expect(empty).toMatchObject({ teamSize: 0, newToday: 0, depositedCount: 0, subordinateLevels: 3, teamIncome: '0.000000' });
    expect(empty.inviteCode).toMatch(/^[A-Za-z0-9]{4,12}$/);
    expect(empty.inviteLink).toContain(`inviteCode=${empty.inviteCode}`);
    expect(empty.qrCodeContent).toBe(empty.inviteLink);
    expect(empty.levels.map((level) => level.level)).toEqual([1, 2, 3]);

    const link = expectSuccess(await client.get<ShortLink>('/marketing/myTeam/shortLink', {}, inviter));
    const used = expectSuccess(await client.get<ShortLinkUse>('/set/appShortLink/use', { code: link.code }));
    expect(used).toMatchObject({ code: link.code, inviteCode: empty.inviteCode, visits: link.visits + 1 });

    const friend = await register('friend', used.inviteCode);
    const proof = expectSuccess(await client.upload(friend, plainPng(8, 8, [10, 200, 10]), 'deposit_proof')).id;
    const applied = expectSuccess(await client.post<{ id: string }>('/finance/appRecharge/apply',
      { currency: 'USDT', network: 'TRC20', amount: '100', proofFileId: proof }, friend));
    expectSuccess(await client.post(`/admin/recharges/${applied.id}/approve`, {}, operatorToken));

    const grown = await team(inviter);
    expect(grown).toMatchObject({ teamSize: 1, newToday: 1, depositedCount: 1, shortLink: link.url });
    expect(grown.levels[0]).toMatchObject({ level: 1, members: 1, newToday: 1, deposited: 1 });
    expect((await team(friend)).hasInviter).toBe(true);

    // Refusals, and the binding left as it was.
    expectError(await client.get('/set/appShortLink/use', { code: 'NoSuchCode9' }), 404, 'short_link_not_found');
    expectError(await client.post('/marketing/myTeam/bindInviter', { inviteCode: empty.inviteCode }, inviter), 400, 'invite_self');
    expectError(await client.post('/marketing/myTeam/bindInviter', { inviteCode: (await team(friend)).inviteCode }, inviter), 400, 'invite_cycle');
    const other = await register('other');
    expectError(await client.post('/marketing/myTeam/bindInviter', { inviteCode: (await team(other)).inviteCode }, friend), 409, 'inviter_bound');
    expect((await team(other)).teamSize).toBe(0);

    const statements = expectSuccess(await client.get<Page<unknown>>('/marketing/myTeam/income', { pageNo: 1, pageSize: 10 }, inviter));
    expect(statements).toMatchObject({ records: [], total: 0, current: 1 });
  }, 120_000);

  it('the operator reads the rates per level and runs the team-commission job', async () => {
    const rates = expectSuccess(await client.get<Array<{ level: number; ratePercent: string }>>('/admin/team/rates', {}, operatorToken));
    expect(rates.map((rate) => rate.level)).toEqual([1, 2, 3]);
    const run = expectSuccess(await client.post<{ name: string; state: string }>('/admin/jobs/team-commission/run', {}, operatorToken));
    expect(run).toMatchObject({ name: 'team-commission', state: 'done' });
    expect((await client.get('/admin/team/rates')).status).toBe(401);
  });
});
