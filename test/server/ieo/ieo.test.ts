// IEO token offerings through the real protocol (issue 23): an operator creates a project (a new
// token asset, the seed's hash public at once), users apply inside the window (refusals: before
// it opens, above the cap, twice, after it closes), the operator closes (the list and its hash
// published) and reveals (the seed, the winners: the draw recomputed here from what is public),
// and the listing credits the paid winners through a payout job, once.
// Issue 38: applying needs basic verification, takes one application per verified person (a
// second account verified with the same document is refused), and holds the cost of every lot
// applied for (a balance short of it is refused); the draw pays the won lots from the hold and
// releases the rest, so no allocation lapses; a reveal stopped before its holds were settled is
// finished by the next call, paying nobody twice.
// Every refusal leaves every balance and row as it was; the ledger balances at the end.
import { describe, expect, test } from 'vitest';
import { sql } from 'drizzle-orm';
import { ieoAdminPaths, ieoPaths } from '../../../src/api/contract/ieo.ts';
import { drawWinners, listHashOf, seedHashOf, verifyDraw } from '../../../src/api/ieoDraw.ts';
import { holdsOpen, revealIeo, settleHolds } from '../../../server/domain/programs/ieo/ieo.ts';
import { expectOk, expectRefused, forEachDatabase, type Reply, type TestServer } from '../helpers.ts';
import { admin, balance, buyer, expectLedgerSound, type Admin, type Buyer } from '../products/productHelpers.ts';
import { applyBasic, approve, reviewer } from '../identity/kycHelpers.ts';

const hourMs = 3_600_000;
const usdt = (whole: number) => BigInt(whole) * 1_000_000n;

async function snapshot(server: TestServer) {
  const [row] = await server.query<{ accounts: string; transfers: number; applications: string; projects: string }>(sql`select
    (select string_agg(id || ':' || debits_posted || ':' || credits_posted || ':' || debits_pending || ':' || credits_pending, ',' order by id)
      from ledger_accounts) as accounts,
    (select count(*)::int from ledger_transfers) as transfers,
    (select string_agg(id || ':' || status || ':' || lots || ':' || won_lots || ':' || held_amount, ',' order by id) from ieo_applications) as applications,
    (select string_agg(id || ':' || status, ',' order by id) from ieo_projects) as projects`);
  return row;
}

/** What ieo_proceeds holds in USDT over all its shards and offerings. */
async function proceeds(server: TestServer): Promise<bigint> {
  const [row] = await server.query<{ total: string }>(sql`select coalesce(sum(credits_posted - debits_posted), 0)::text as total
    from ledger_accounts where kind = 'ieo_proceeds' and asset = 'USDT'`);
  return BigInt(row.total);
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
  /** USDT available and frozen (held) as the user's wallet shows them. */
  const wallet = async (user: Buyer) => {
    const rows = expectOk(await server.get('/finance/appWallet/queryUserBalance', {}, { token: user.token })).body.result;
    const usdtRow = rows.find((row: { currency: string }) => row.currency === 'USDT');
    return { available: usdtRow.available as string, frozen: usdtRow.frozen as string };
  };
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
    test('apply (verified, held), close, reveal (won lots paid from the hold, the rest released), verify and list, with every refusal moving nothing', async () => {
      boss = await admin(server);
      const code = token();
      const id = expectOk(await server.post(ieoAdminPaths.projects, project(code), { token: boss.token })).body.result.id as string;
      const [ann, cat, dan] = [await buyer(server, '200'), await buyer(server, '60'), await buyer(server, '200')];
      const eve = await buyer(server, '200', false);
      // bob and his second account, verified by an operator with one passport (typed another way, as another type).
      const reviewing = await reviewer(server);
      const [bob, bobTwo] = [await buyer(server, '200', false), await buyer(server, '200', false)];
      for (const [who, idNumber, idType] of [[bob, 'P-778 899', 'passport'], [bobTwo, 'p778899', 'id_card']] as const) {
        const kyc = expectOk(await applyBasic(server, who.token, { idNumber, idType })).body.result.id as string;
        expectOk(await approve(server, reviewing, kyc));
      }

      await expectNothingMoved(server, () => apply(ann, id, 1), 409, 'ieo_not_issuing');
      await later();
      await expectNothingMoved(server, () => apply(ann, id, 5), 400, 'ieo_lots_over_cap');
      await expectNothingMoved(server, () => apply(ann, '999999999', 1), 404, 'ieo_not_found');
      await expectNothingMoved(server, () => apply(eve, id, 1), 403, 'verification_required');
      await expectNothingMoved(server, () => apply(cat, id, 2), 400, 'balance_insufficient'); // 100 USDT held, 60 on hand
      const annApplication = expectOk(await apply(ann, id, 4)).body.result;
      expect(annApplication).toMatchObject({ projectId: id, lots: 4, quantity: '400.00000000', appliedAmount: '200.000000', heldAmount: '200.000000', status: 'applied', wonLots: 0 });
      expect(await wallet(ann)).toEqual({ available: '0.000000', frozen: '200.000000' });
      expectOk(await apply(bob, id, 3));
      await expectNothingMoved(server, () => apply(bobTwo, id, 1), 409, 'ieo_person_applied_already');
      expectOk(await apply(cat, id, 1));
      expect(await wallet(cat)).toEqual({ available: '10.000000', frozen: '50.000000' });
      await expectNothingMoved(server, () => apply(ann, id, 1), 409, 'ieo_applied_already');
      await expectNothingMoved(server, () => pay(ann, id), 409, 'ieo_not_won');

      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.close, id), 409, 'ieo_wrong_state');
      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.reveal, id), 409, 'ieo_wrong_state');
      await later();
      await expectNothingMoved(server, () => apply(dan, id, 1), 409, 'ieo_not_issuing');
      const closed = expectOk(await adminPost(ieoAdminPaths.close, id)).body.result;
      expect(closed).toMatchObject({ status: 'closed', held: '400.000000' });
      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.close, id), 409, 'ieo_wrong_state');
      const published = expectOk(await server.get(ieoPaths.draw, { id })).body.result;
      const ids = [annApplication.id, ...(await server.query<{ id: string }>(sql`select id::text from ieo_applications where project_id = ${BigInt(id)} and user_id <> ${ann.userId} order by id`)).map((row) => row.id)];
      expect(published).toMatchObject({ status: 'closed', applications: 3, totalLots: 8, listHash: closed.listHash, supplyLots: 5 });
      expect(published.seed).toBeUndefined();
      expect(published.list).toBe(`${ids[0]}:4\n${ids[1]}:3\n${ids[2]}:1\n`);
      expect(listHashOf(published.list)).toBe(published.listHash);

      const proceedsBefore = await proceeds(server);
      const revealed = expectOk(await adminPost(ieoAdminPaths.reveal, id)).body.result;
      expect(revealed).toMatchObject({ status: 'drawn', held: '0.000000', wonLots: 5, paidLots: 5, lapsedLots: 0, proceeds: '250.000000' });
      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.reveal, id), 409, 'ieo_wrong_state');
      const draw = expectOk(await server.get(ieoPaths.draw, { id })).body.result;
      expect(seedHashOf(draw.seed)).toBe(draw.seedHash);
      expect(draw.list).toBe(published.list);
      expect(draw.winners).toEqual(drawWinners(draw.seed, draw.list, 5));
      expect(verifyDraw(draw)).toMatchObject({ seedMatches: true, listMatches: true, winnersDiffer: [] });
      expect(draw.winners.reduce((sum: number, winner: { won: number }) => sum + winner.won, 0)).toBe(5);
      // The held money paid exactly the won lots: 5 × 50 USDT, whoever won them.
      expect(await proceeds(server) - proceedsBefore).toBe(usdt(250));

      const records = async (user: Buyer) => expectOk(await server.get(ieoPaths.myApplications, {}, { token: user.token })).body.result.records;
      const won = new Map<string, number>(draw.winners.map((winner: { id: string; won: number }) => [winner.id, winner.won]));
      const people = [[ann, ids[0], 200], [bob, ids[1], 200], [cat, ids[2], 60]] as const;
      for (const [user, applicationId, start] of people) {
        const lots = won.get(applicationId) ?? 0;
        const [record] = await records(user);
        expect(record).toMatchObject({ id: applicationId, wonLots: lots, amount: `${lots * 50}.000000`, heldAmount: '0.000000',
          status: lots > 0 ? 'paid' : 'lost', ...(lots > 0 ? { winningPrice: '0.500000', paidAt: expect.any(Number) } : {}) });
        expect(await wallet(user)).toEqual({ available: `${start - 50 * lots}.000000`, frozen: '0.000000' });
        await expectNothingMoved(server, () => pay(user, id), 409, lots > 0 ? 'ieo_paid_already' : 'ieo_not_won');
      }
      await expectNothingMoved(server, () => pay(dan, id), 409, 'ieo_not_won');
      const mine = expectOk(await server.get(ieoPaths.listMy, {}, { token: bob.token })).body.result.records;
      expect(mine.map((record: { id: string }) => record.id)).toEqual([id]);
      expect(mine[0].my.id).toBe(ids[1]);

      await later();
      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.list, id), 409, 'ieo_wrong_state');
      await later();
      const listed = expectOk(await adminPost(ieoAdminPaths.list, id)).body.result;
      expect(listed).toMatchObject({ status: 'listed', paidLots: 5, lapsedLots: 0 });
      expect(listed.allocation).toMatchObject({ state: 'done', targets: won.size, refused: 0 });
      for (const [user, applicationId] of people) {
        const lots = won.get(applicationId) ?? 0;
        expect(await balance(server, user.userId, 'spot', code)).toBe(BigInt(lots) * 100n * 10n ** 8n);
        const [record] = await records(user);
        expect(record.status).toBe(lots === 0 ? 'lost' : 'completed');
      }
      // A second listing call resumes nothing and credits nobody twice.
      const before = await snapshot(server);
      expectOk(await adminPost(ieoAdminPaths.list, id));
      expect((await snapshot(server)).transfers).toBe(before.transfers);
      const actions = (await server.query<{ action: string }>(sql`select action from audit_log where target_type = 'ieo_project' and target_id = ${id} order by id`))
        .map((row) => row.action);
      expect(actions).toEqual(['ieo.create', 'ieo.close', 'ieo.reveal', 'ieo.settle', 'ieo.list', 'ieo.list']);
      await expectLedgerSound(server);
    });

    test('undersubscribed: every applicant wins every lot applied for, paid from the hold', async () => {
      boss = await admin(server);
      const id = expectOk(await server.post(ieoAdminPaths.projects, project(token(), { supplyLots: 100 }), { token: boss.token })).body.result.id as string;
      const user = await buyer(server, '150');
      await later();
      expectOk(await apply(user, id, 3));
      await later();
      expectOk(await adminPost(ieoAdminPaths.close, id));
      expectOk(await adminPost(ieoAdminPaths.reveal, id));
      const draw = expectOk(await server.get(ieoPaths.draw, { id })).body.result;
      expect(draw.winners).toEqual([{ id: expect.any(String), lots: 3, won: 3 }]);
      expect(await wallet(user)).toEqual({ available: '0.000000', frozen: '0.000000' });
      const [record] = expectOk(await server.get(ieoPaths.myApplications, {}, { token: user.token })).body.result.records;
      expect(record).toMatchObject({ status: 'paid', wonLots: 3, amount: '150.000000' });
    });

    test('a reveal stopped before its holds were settled: a winner\'s pay call and the next reveal call finish it, once', async () => {
      boss = await admin(server);
      const id = expectOk(await server.post(ieoAdminPaths.projects, project(token(), { supplyLots: 3, perUserMaxLots: 2 }), { token: boss.token })).body.result.id as string;
      const users = [await buyer(server, '100'), await buyer(server, '100'), await buyer(server, '100')];
      await later();
      for (const user of users) expectOk(await apply(user, id, 2));
      await later();
      expectOk(await adminPost(ieoAdminPaths.close, id));
      // The draw committed, then the process died: every hold still open.
      await server.db.transaction((tx) => revealIeo(tx, BigInt(id), server.clock.now()));
      expect(await holdsOpen(server.db, BigInt(id))).toBe(true);
      const draw = expectOk(await server.get(ieoPaths.draw, { id })).body.result;
      const wonOf = new Map<string, number>(draw.winners.map((winner: { id: string; won: number }) => [winner.id, winner.won]));
      const applicationOf = async (user: Buyer) => (await server.query<{ id: string }>(sql`select id::text from ieo_applications where project_id = ${BigInt(id)} and user_id = ${user.userId}`))[0].id;
      const withIds = await Promise.all(users.map(async (user) => [user, await applicationOf(user)] as const));
      const [first, firstApplication] = withIds.find(([, applicationId]) => wonOf.has(applicationId))!;
      const paid = expectOk(await pay(first, id)).body.result;
      expect(paid).toMatchObject({ status: 'paid', heldAmount: '0.000000', amount: `${wonOf.get(firstApplication)! * 50}.000000` });
      const resumed = expectOk(await adminPost(ieoAdminPaths.reveal, id)).body.result;
      expect(resumed).toMatchObject({ status: 'drawn', held: '0.000000', paidLots: 3, proceeds: '150.000000' });
      expect(await holdsOpen(server.db, BigInt(id))).toBe(false);
      for (const user of users) {
        const lots = wonOf.get(await applicationOf(user)) ?? 0;
        expect(await wallet(user)).toEqual({ available: `${100 - 50 * lots}.000000`, frozen: '0.000000' });
      }
      const before = await snapshot(server);
      expect(await settleHolds(server.db, BigInt(id), server.clock)).toEqual({ paid: 0, released: 0 });
      await expectNothingMoved(server, () => adminPost(ieoAdminPaths.reveal, id), 409, 'ieo_wrong_state');
      expect(await snapshot(server)).toEqual(before);
      await expectLedgerSound(server);
    });
  });
});
