// IEO token offerings through the real protocol (issue 23): an operator creates a project (a new
// token asset, the seed's hash public at once), users apply inside the window (refusals: before
// it opens, above the cap, twice, after it closes), the operator closes (the list and its hash
// published) and reveals (the seed, the winners: the draw recomputed here from what is public),
// winners pay before the deadline (refusals: not won, twice, balance short, after the deadline),
// and the listing lapses the unpaid winner and credits the paid ones through a payout job, once.
// Every refusal leaves every balance and row as it was; the ledger balances at the end.
import { describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { ieoAdminPaths, ieoPaths } from '../../../src/api/contract/ieo.ts';
import { drawWinners, listHashOf, seedHashOf, verifyDraw } from '../../../src/api/ieoDraw.ts';
import { expectOk, expectRefused, forEachDatabase, type Reply, type TestServer } from '../helpers.ts';
import { admin, balance, buyer, expectLedgerSound, type Admin, type Buyer } from '../products/productHelpers.ts';

const hourMs = 3_600_000;
const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

async function snapshot(server: TestServer) {
  const [row] = await server.query<{ accounts: string; transfers: number; applications: string; projects: string }>(sql`select
    (select string_agg(id || ':' || debits_posted || ':' || credits_posted, ',' order by id) from ledger_accounts) as accounts,
    (select count(*)::int from ledger_transfers) as transfers,
    (select string_agg(id || ':' || status || ':' || lots || ':' || won_lots, ',' order by id) from ieo_applications) as applications,
    (select string_agg(id || ':' || status, ',' order by id) from ieo_projects) as projects`);
  return row;
}

async function expectNothingMoved(server: TestServer, action: () => Promise<Reply>, status: number, error: string) {
  const before = await snapshot(server);
  expectRefused(await action(), status, error);
  expect(await snapshot(server)).toEqual(before);
}

forEachDatabase((server) => {
  let boss: Admin;
  const token = () => server.unique('T').replace(/[^A-Z0-9]/gi, '').toUpperCase().slice(-10).padStart(4, 'X');

  const project = (code: string, fields: Record<string, unknown> = {}) => {
    const now = server.clock.now().getTime();
    return {
      token: code, tokenName: `${code} token`, tokenScale: 8, name: `${code} offering`, names: { 'zh-cn': `${code} 发行` }, payAsset: 'USDT',
      price: '0.5', lotSize: '100', supplyLots: 5, perUserMaxLots: 4, opensAt: now + hourMs, closesAt: now + 2 * hourMs,
      payDeadline: now + 3 * hourMs, listsAt: now + 4 * hourMs, ...fields,
    };
  };
  const apply = (user: Buyer, id: string, lots: number) => server.post(ieoPaths.apply, { id, lots }, { token: user.token });
  const pay = (user: Buyer, id: string) => server.post(ieoPaths.pay, { id }, { token: user.token });
  /** An hour later; back-office sessions end after an idle hour, so a fresh operator. */
  const later = async () => {
    server.clock.advance(hourMs);
    boss = await admin(server);
  };
  const adminPost = (path: string, id: string) => server.post(path.replace(':id', id), {}, { token: boss.token });

  test('create: a new token asset and a public commitment; an existing code, bad dates or an inexact lot cost are refused', async () => {
    boss = await admin(server);
    const code = token();
    const created = expectOk(await server.post(ieoAdminPaths.projects, project(code), { token: boss.token })).body.result;
    expect(created).toMatchObject({ token: code, status: 'upcoming', estimatedPrice: '0.500000', lotSize: '100.00000000', lotAmount: '50.000000',
      supplyLots: 5, perUserMaxLots: 4, seedRevealed: false, applicants: 0 });
    expect(created.seedHash).toMatch(/^[0-9a-f]{64}$/);
    const [asset] = await server.query<{ scale: number }>(sql`select scale from ledger_assets where code = ${code}`);
    expect(asset.scale).toBe(8);
    const [audit] = await server.query<{ action: string; after: { seed?: string } }>(sql`select action, after from audit_log
      where target_type = 'ieo_project' and target_id = ${created.id}`);
    expect(audit.action).toBe('ieo.create');
    expect(JSON.stringify(audit.after)).not.toContain((await server.query<{ seed: string }>(sql`select seed from ieo_projects where id = ${BigInt(created.id)}`))[0].seed);
    const listed = expectOk(await server.get(ieoPaths.list, { pageSize: '50', lang: 'zh-cn' })).body.result;
    expect(listed.records.find((record: { id: string }) => record.id === created.id)).toMatchObject({ name: `${code} 发行`, seedHash: created.seedHash });

    await expectNothingMoved(server, () => server.post(ieoAdminPaths.projects, project(code), { token: boss.token }), 409, 'ieo_token_exists');
    await expectNothingMoved(server, () => server.post(ieoAdminPaths.projects, project('USDT'), { token: boss.token }), 409, 'ieo_token_exists');
    const other = token();
    await expectNothingMoved(server, () => server.post(ieoAdminPaths.projects, project(other, { closesAt: server.clock.now().getTime() }), { token: boss.token }),
      400, 'ieo_dates_invalid');
    await expectNothingMoved(server, () => server.post(ieoAdminPaths.projects, project(other, { price: '0.0000001', lotSize: '1' }), { token: boss.token }),
      400, 'amount_too_many_decimals');
    await expectNothingMoved(server, () => server.post(ieoAdminPaths.projects, project(other, { tokenScale: 8, price: '0.000001', lotSize: '0.5' }), { token: boss.token }),
      400, 'ieo_lot_amount_inexact');
    const user = await buyer(server, '0', false);
    expectRefused(await server.post(ieoAdminPaths.projects, project(other), { token: user.token }), 401, 'unauthorized');
  });

  describe('the whole offering', () => {
    test('apply, close, reveal, verify, pay and list, with every refusal moving nothing', async () => {
      boss = await admin(server);
      const code = token();
      const id = expectOk(await server.post(ieoAdminPaths.projects, project(code), { token: boss.token })).body.result.id as string;
      const [ann, bob, cat, dan] = [await buyer(server, '200'), await buyer(server, '200'), await buyer(server, '10'), await buyer(server, '200')];

      await expectNothingMoved(server, () => apply(ann, id, 1), 409, 'ieo_not_issuing');
      await later();
      await expectNothingMoved(server, () => apply(ann, id, 5), 400, 'ieo_lots_over_cap');
      await expectNothingMoved(server, () => apply(ann, '999999999', 1), 404, 'ieo_not_found');
      const annApplication = expectOk(await apply(ann, id, 4)).body.result;
      expect(annApplication).toMatchObject({ projectId: id, lots: 4, quantity: '400.00000000', appliedAmount: '200.000000', status: 'applied', wonLots: 0 });
      expectOk(await apply(bob, id, 3));
      expectOk(await apply(cat, id, 2));
      await expectNothingMoved(server, () => apply(ann, id, 1), 409, 'ieo_applied_already');
      await expectNothingMoved(server, () => pay(ann, id), 409, 'ieo_not_won');
      expect(await balance(server, ann.userId)).toBe(usdt(200));

      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.close, id), 409, 'ieo_wrong_state');
      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.reveal, id), 409, 'ieo_wrong_state');
      await later();
      await expectNothingMoved(server, () => apply(dan, id, 1), 409, 'ieo_not_issuing');
      const closed = expectOk(await adminPost(ieoAdminPaths.close, id)).body.result;
      expect(closed.status).toBe('closed');
      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.close, id), 409, 'ieo_wrong_state');
      const published = expectOk(await server.get(ieoPaths.draw, { id })).body.result;
      const ids = [annApplication.id, ...(await server.query<{ id: string }>(sql`select id::text from ieo_applications where project_id = ${BigInt(id)} and user_id <> ${ann.userId} order by id`)).map((row) => row.id)];
      expect(published).toMatchObject({ status: 'closed', applications: 3, totalLots: 9, listHash: closed.listHash, supplyLots: 5 });
      expect(published.seed).toBeUndefined();
      expect(published.list).toBe(`${ids[0]}:4\n${ids[1]}:3\n${ids[2]}:2\n`);
      expect(listHashOf(published.list)).toBe(published.listHash);

      expectOk(await adminPost(ieoAdminPaths.reveal, id));
      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.reveal, id), 409, 'ieo_wrong_state');
      const draw = expectOk(await server.get(ieoPaths.draw, { id })).body.result;
      expect(seedHashOf(draw.seed)).toBe(draw.seedHash);
      expect(draw.list).toBe(published.list);
      expect(draw.winners).toEqual(drawWinners(draw.seed, draw.list, 5));
      expect(verifyDraw(draw)).toMatchObject({ seedMatches: true, listMatches: true, winnersDiffer: [] });
      expect(draw.winners.reduce((sum: number, winner: { won: number }) => sum + winner.won, 0)).toBe(5);

      const records = async (user: Buyer) => expectOk(await server.get(ieoPaths.myApplications, {}, { token: user.token })).body.result.records;
      const won = new Map<string, number>(draw.winners.map((winner: { id: string; won: number }) => [winner.id, winner.won]));
      const [annRecord] = await records(ann);
      expect(annRecord).toMatchObject({ id: ids[0], wonLots: won.get(ids[0]) ?? 0, winningPrice: '0.500000',
        amount: `${(won.get(ids[0]) ?? 0) * 50}.000000`, status: won.has(ids[0]) ? 'won' : 'lost' });
      const mine = expectOk(await server.get(ieoPaths.listMy, {}, { token: bob.token })).body.result.records;
      expect(mine.map((record: { id: string }) => record.id)).toEqual([id]);
      expect(mine[0].my.id).toBe(ids[1]);

      // Pay: the winners among ann and bob pay; cat (10 USDT) cannot cover a lot of 50; dan never applied.
      for (const [user, applicationId] of [[ann, ids[0]], [bob, ids[1]]] as const) {
        const lots = won.get(applicationId) ?? 0;
        if (lots === 0) {
          await expectNothingMoved(server, () => pay(user, id), 409, 'ieo_not_won');
          continue;
        }
        const paid = expectOk(await pay(user, id)).body.result;
        expect(paid).toMatchObject({ status: 'paid', wonLots: lots });
        expect(await balance(server, user.userId)).toBe(usdt(200 - 50 * lots));
        await expectNothingMoved(server, () => pay(user, id), 409, 'ieo_paid_already');
      }
      if (won.has(ids[2])) await expectNothingMoved(server, () => pay(cat, id), 400, 'balance_insufficient');
      else await expectNothingMoved(server, () => pay(cat, id), 409, 'ieo_not_won');
      await expectNothingMoved(server, () => pay(dan, id), 409, 'ieo_not_won');
      const [proceeds] = await server.query<{ total: string }>(sql`select coalesce(sum(credits_posted - debits_posted), 0)::text as total
        from ledger_accounts where kind = 'ieo_proceeds' and asset = 'USDT'`);
      expect(BigInt(proceeds.total)).toBeGreaterThanOrEqual(usdt(50 * ((won.get(ids[0]) ?? 0) + (won.get(ids[1]) ?? 0))));

      await later();
      if (won.has(ids[2])) await expectNothingMoved(server, () => pay(cat, id), 409, 'ieo_pay_deadline_passed');
      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.list, id), 409, 'ieo_wrong_state');
      await later();
      const listed = expectOk(await adminPost(ieoAdminPaths.list, id)).body.result;
      const paidLots = (won.get(ids[0]) ?? 0) + (won.get(ids[1]) ?? 0);
      expect(listed).toMatchObject({ status: 'listed', paidLots, lapsedLots: won.get(ids[2]) ?? 0 });
      expect(listed.allocation).toMatchObject({ state: 'done', targets: [ids[0], ids[1]].filter((applicationId) => won.has(applicationId)).length, refused: 0 });
      for (const [user, applicationId] of [[ann, ids[0]], [bob, ids[1]], [cat, ids[2]]] as const) {
        const lots = won.get(applicationId) ?? 0;
        const expected = user === cat ? 0n : BigInt(lots) * 100n * 10n ** 8n;
        expect(await balance(server, user.userId, 'spot', code)).toBe(expected);
        const [record] = await records(user);
        expect(record.status).toBe(lots === 0 ? 'lost' : user === cat ? 'lapsed' : 'completed');
      }
      // A second listing call resumes nothing and credits nobody twice.
      const before = await snapshot(server);
      expectOk(await adminPost(ieoAdminPaths.list, id));
      expect((await snapshot(server)).transfers).toBe(before.transfers);
      const assets = expectOk(await server.get('/finance/appWallet/queryUserBalance', {}, { token: ann.token })).body.result;
      if (won.has(ids[0])) expect(assets.find((row: { currency: string }) => row.currency === code)).toMatchObject({ available: `${won.get(ids[0])! * 100}.00000000` });
      const actions = (await server.query<{ action: string }>(sql`select action from audit_log where target_type = 'ieo_project' and target_id = ${id} order by id`))
        .map((row) => row.action);
      expect(actions).toEqual(['ieo.create', 'ieo.close', 'ieo.reveal', 'ieo.list', 'ieo.list']);
      await expectLedgerSound(server);
    });

    test('undersubscribed: every applicant wins every lot applied for', async () => {
      boss = await admin(server);
      const id = expectOk(await server.post(ieoAdminPaths.projects, project(token(), { supplyLots: 100 }), { token: boss.token })).body.result.id as string;
      const user = await buyer(server, '0');
      await later();
      expectOk(await apply(user, id, 3));
      await later();
      expectOk(await adminPost(ieoAdminPaths.close, id));
      expectOk(await adminPost(ieoAdminPaths.reveal, id));
      const draw = expectOk(await server.get(ieoPaths.draw, { id })).body.result;
      expect(draw.winners).toEqual([{ id: expect.any(String), lots: 3, won: 3 }]);
    });
  });
});
