// Proof of liabilities through the real app: an operator publishes (audited, operators only), every
// user's proof verifies against the published root, the totals are the sum of the users' counted
// balances (spot, frozen, position, product; never loans, never demo), a proof shows nothing of
// another user but sibling hashes and sums, roots are kept and listed, and the daily publication
// runs once per UTC day on the leading instance only.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { liabilityAdminPaths, liabilityPaths, type LiabilityProofResult, type LiabilityRoot } from '../../../src/api/contract/liabilities.ts';
import { paddedLeafCount, paddedLeafCountMin, verifyLiabilityProof } from '../../../src/api/contract/liabilityTree.ts';
import { openAccounts, systemShard, type UserAccountKind } from '../../../server/domain/kernel/ledger/accounts.ts';
import { postTransfers } from '../../../server/domain/kernel/ledger/transfers.ts';
import { dailyLiabilityPublisher, type Timer } from '../../../server/domain/core/wallet/liabilities.ts';
import { expectOk, forEachDatabase, type TestServer } from '../helpers.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { expectLedgerSound, userIdOf } from './walletHelpers.ts';

let transferCounter = 0;

/** Moves `amount` atomic units from deposit clearing to one of the user's accounts (demo in the demo ledger). */
async function credit(server: TestServer, userId: bigint, asset: string, kind: UserAccountKind, amount: bigint) {
  const ledger = kind === 'demo' ? 'demo' : 'real';
  const id = `liab-test-${process.pid}-${transferCounter += 1}`;
  if (kind === 'loan') {
    // A loan: the user's loan account is debited (what they owe) and their spot credited.
    const [loan, spot] = await openAccounts(server.db, [
      { ledger, asset, kind: 'loan', ownerUserId: userId }, { ledger, asset, kind: 'spot', ownerUserId: userId },
    ]);
    const result = await postTransfers(server.db, [{ id, debitAccountId: loan, creditAccountId: spot, amountAtomic: amount, kind: 'correction', reference: `test:${id}` }], server.clock);
    expect(result.ok).toBe(true);
    return;
  }
  const [clearing, account] = await openAccounts(server.db, [
    { ledger, asset, kind: ledger === 'demo' ? 'house' : 'deposit_clearing', shard: systemShard('tests') },
    { ledger, asset, kind, ownerUserId: userId },
  ]);
  const result = await postTransfers(server.db, [{ id, debitAccountId: clearing, creditAccountId: account, amountAtomic: amount, kind: 'correction', reference: `test:${id}` }], server.clock);
  expect(result.ok).toBe(true);
}

async function proofOf(server: TestServer, token: string): Promise<LiabilityProofResult> {
  return expectOk(await server.get(liabilityPaths.proof, {}, { token })).body.result as LiabilityProofResult;
}

/** The counted balances of every user, per asset, straight from the ledger (atomic units). */
async function countedTotals(server: TestServer) {
  const rows = await server.query<{ asset: string; total: string }>(sql`select asset, sum(credits_posted - debits_posted)::text as total
    from ledger_accounts where ledger = 1 and owner_user_id is not null and kind in ('spot', 'frozen', 'position_margin', 'product_holdings')
    group by asset`);
  return new Map(rows.map((row) => [row.asset, BigInt(row.total)]));
}

const atomicOf = (amount: string) => BigInt(amount.replace('.', ''));

forEachDatabase((server) => {
  describe('publication and proofs', () => {
    it('answers "nothing published" before the first root, and tells an account opened after a root why it has no proof', async () => {
      const alice = await server.registerByEmail();
      expect(await proofOf(server, alice.token)).toEqual({ root: null, proof: null });
      expect(expectOk(await server.get(liabilityPaths.roots, {}, { token: alice.token })).body.result.total).toBe(0);
      const opToken = await operatorLogin(server, await createOperator(server, 'finance'));
      const published = expectOk(await server.post(liabilityAdminPaths.publish, {}, { token: opToken })).body.result as LiabilityRoot;
      // An account opened after the publication is not in it, and the answer says why.
      server.clock.advance(1_000);
      const late = await server.registerByEmail();
      expect(await proofOf(server, late.token)).toEqual({ root: published, proof: null, absence: 'account_newer' });
      expect((await proofOf(server, alice.token)).proof).not.toBeNull();
      expect((await server.get(liabilityPaths.proof)).status).toBe(401);
    });

    it('publishes on an operator\'s request (audited); each user\'s proof verifies and the totals are the counted balances', async () => {
      const alice = await server.registerByEmail();
      const bob = await server.registerByEmail();
      const carol = await server.registerByEmail();
      const aliceId = await userIdOf(server, alice.email!);
      const bobId = await userIdOf(server, bob.email!);
      const carolId = await userIdOf(server, carol.email!);
      await credit(server, aliceId, 'USDT', 'spot', 1_500_000n);
      await credit(server, aliceId, 'USDT', 'frozen', 250_000n);
      await credit(server, aliceId, 'BTC', 'position_margin', 12_345n);
      await credit(server, bobId, 'USDT', 'product_holdings', 7_000_000n);
      await credit(server, bobId, 'ETH', 'spot', 10n ** 18n);
      // Carol's loan is not counted (but the spot it credited is), and demo money never is.
      await credit(server, carolId, 'USDT', 'loan', 40_000_000n);
      await credit(server, carolId, 'USDT', 'demo', 99_000_000n);

      const operator = await createOperator(server, 'finance');
      const opToken = await operatorLogin(server, operator);
      const published = expectOk(await server.post(liabilityAdminPaths.publish, {}, { token: opToken })).body.result as LiabilityRoot;
      expect(published.trigger).toBe('operator');
      expect(published.time).toBe(server.clock.now().getTime());
      const counted = await countedTotals(server);
      for (const total of published.totals) expect(atomicOf(total.total)).toBe(counted.get(total.currency) ?? 0n);
      expect(published.totals.map((total) => total.currency)).toEqual([...published.totals.map((total) => total.currency)].sort());
      // The leaf count is the user count padded to a power of two: it does not reveal the users.
      const userCount = await server.count('users');
      expect(published.leafCount).toBe(paddedLeafCount(userCount));
      expect(published.leafCount).toBeGreaterThan(userCount);

      for (const [account, id, expected] of [
        [alice, aliceId, { USDT: '1.750000', BTC: '0.00012345', ETH: '0.000000000000000000' }],
        [bob, bobId, { USDT: '7.000000', BTC: '0.00000000', ETH: '1.000000000000000000' }],
        [carol, carolId, { USDT: '40.000000', BTC: '0.00000000', ETH: '0.000000000000000000' }],
      ] as const) {
        const answer = await proofOf(server, account.token);
        expect(answer.root).toEqual(published);
        expect(answer.proof!.userId).toBe(id.toString());
        expect(verifyLiabilityProof(answer.root!, answer.proof!, id.toString())).toMatchObject({ ok: true });
        const balances = Object.fromEntries(answer.proof!.balances.map((balance) => [balance.currency, balance.amount]));
        expect(balances).toMatchObject(expected);
      }

      const [audit] = await server.query<{ action: string; email: string; target_id: string }>(sql`select a.action, o.email, a.target_id
        from audit_log a join operators o on o.id = a.operator_id where a.action = 'liabilities.publish' order by a.id desc limit 1`);
      expect(audit).toEqual({ action: 'liabilities.publish', email: operator.email, target_id: published.id });
      await expectLedgerSound(server);
    });

    it('reveals nothing of another user in a proof: only the user\'s own leaf, sibling hashes and sums', async () => {
      const alice = await server.registerByEmail();
      const bob = await server.registerByEmail();
      await credit(server, await userIdOf(server, bob.email!), 'USDT', 'spot', 3_141_592n);
      const opToken = await operatorLogin(server, await createOperator(server, 'admin'));
      const published = expectOk(await server.post(liabilityAdminPaths.publish, {}, { token: opToken })).body.result as LiabilityRoot;
      const answer = await proofOf(server, alice.token);
      expect(Object.keys(answer.proof!).sort()).toEqual(['balances', 'index', 'leafId', 'path', 'salt', 'userId']);
      for (const step of answer.proof!.path) expect(Object.keys(step).sort()).toEqual(['hash', 'sums']);
      const others = await server.query<{ user_id: string; salt: string; leaf_id: string }>(sql`select user_id::text, salt, leaf_id
        from liability_leaves where root_id = ${BigInt(published.id)} and user_id <> ${await userIdOf(server, alice.email!)}`);
      expect(others.length).toBeGreaterThan(0);
      const text = JSON.stringify(answer);
      for (const other of others) {
        expect(text).not.toContain(other.salt);
        expect(text).not.toContain(other.leaf_id);
        expect(text).not.toContain(`"userId":"${other.user_id}"`);
      }
      expect(text).not.toContain('@');
      // Salts are fresh for every publication: the same balances never hash alike twice.
      const again = expectOk(await server.post(liabilityAdminPaths.publish, {}, { token: opToken })).body.result as LiabilityRoot;
      const second = await proofOf(server, alice.token);
      expect(second.root!.id).toBe(again.id);
      expect(second.proof!.salt).not.toBe(answer.proof!.salt);
      expect(second.root!.root).not.toBe(published.root);
    });

    it('pads the tree to a power of two with zero leaves, shuffled in, so the leaf count does not change with each new user', async () => {
      const opToken = await operatorLogin(server, await createOperator(server, 'finance'));
      const publish = async () => expectOk(await server.post(liabilityAdminPaths.publish, {}, { token: opToken })).body.result as LiabilityRoot;
      const users = async () => (await server.query<{ users: number }>(sql`select count(*)::int as users from users where not is_guest`))[0].users;
      // Enough users that the tree is past its minimum size, then one more: the published count stays.
      while (await users() < paddedLeafCountMin + 1) await server.registerByEmail();
      const before = await publish();
      const newcomer = await server.registerByEmail();
      server.clock.advance(1_000);
      const after = await publish();
      const userCount = await users();
      expect(after.leafCount).toBe(paddedLeafCount(userCount));
      expect(before.leafCount).toBe(after.leafCount);
      expect(Number.isInteger(Math.log2(after.leafCount))).toBe(true);

      // Every bottom position holds a node; users' leaves are kept only for users, the rest are padding.
      const [stored] = await server.query<{ nodes: number; leaves: number; zero: number }>(sql`select
          (select count(*)::int from liability_nodes where root_id = ${BigInt(after.id)} and level = 0) as nodes,
          (select count(*)::int from liability_leaves where root_id = ${BigInt(after.id)}) as leaves,
          (select count(*)::int from liability_nodes n where n.root_id = ${BigInt(after.id)} and n.level = 0
             and not exists (select 1 from liability_leaves l where l.root_id = n.root_id and l.position = n.position)
             and n.sums::text !~ '[1-9]') as zero`);
      expect(stored).toEqual({ nodes: after.leafCount, leaves: userCount, zero: after.leafCount - userCount });
      // Padding leaves do not sit at the end: the users' positions spread over the whole level.
      const [spread] = await server.query<{ last: number }>(sql`select max(position)::int as last from liability_leaves where root_id = ${BigInt(after.id)}`);
      expect(spread.last).toBeGreaterThanOrEqual(userCount);

      const answer = await proofOf(server, newcomer.token);
      expect(answer.proof!.path).toHaveLength(Math.log2(after.leafCount));
      expect(verifyLiabilityProof(answer.root!, answer.proof!, answer.proof!.userId)).toMatchObject({ ok: true });
    });

    it('keeps and lists the published roots, newest first, to users and operators', async () => {
      const alice = await server.registerByEmail();
      const opToken = await operatorLogin(server, await createOperator(server, 'finance'));
      const before = expectOk(await server.get(liabilityAdminPaths.list, { pageSize: '100' }, { token: opToken })).body.result;
      server.clock.advance(60_000);
      const published = expectOk(await server.post(liabilityAdminPaths.publish, {}, { token: opToken })).body.result as LiabilityRoot;
      const after = expectOk(await server.get(liabilityAdminPaths.list, { pageSize: '100' }, { token: opToken })).body.result;
      expect(after.total).toBe(before.total + 1);
      expect(after.records[0]).toEqual(published);
      expect(after.records.slice(1)).toEqual(before.records);
      expect(Object.keys(after)).toEqual(expect.arrayContaining(['records', 'total', 'size', 'current', 'pages']));
      const forUser = expectOk(await server.get(liabilityPaths.roots, { pageNo: '1', pageSize: '1' }, { token: alice.token })).body.result;
      expect(forUser.records).toEqual([published]);
      expect(forUser.pages).toBe(after.total);
    });

    it('lets only finance and admin operators publish or list; a user token opens neither', async () => {
      const alice = await server.registerByEmail();
      const count = async () => (await server.query<{ n: number }>(sql`select count(*)::int as n from liability_roots`))[0].n;
      const rootsBefore = await count();
      expect((await server.post(liabilityAdminPaths.publish, {}, { token: alice.token })).status).toBe(401);
      expect((await server.get(liabilityAdminPaths.list, {}, { token: alice.token })).status).toBe(401);
      expect((await server.post(liabilityAdminPaths.publish, {})).status).toBe(401);
      expect(await count()).toBe(rootsBefore);
      const opToken = await operatorLogin(server, await createOperator(server, 'finance'));
      expect((await server.post(liabilityAdminPaths.publish, { extra: 1 }, { token: opToken })).status).toBe(400);
      expect(await count()).toBe(rootsBefore);
      // The operator's own session does not open the user's proof.
      expect((await server.get(liabilityPaths.proof, {}, { token: opToken })).status).toBe(401);
    });
  });

  describe('the daily publication', () => {
    /** A timer the test fires by hand. */
    function manualTimer() {
      const callbacks = new Map<number, () => void>();
      let next = 0;
      const timer: Timer = {
        setInterval: (callback) => { next += 1; callbacks.set(next, callback); return next; },
        clearInterval: (handle) => { callbacks.delete(handle as number); },
      };
      return { timer, fire: () => { for (const callback of callbacks.values()) callback(); }, size: () => callbacks.size };
    }

    const dailyCount = async () => (await server.query<{ n: number }>(sql`select count(*)::int as n from liability_roots where trigger = 'daily'`))[0].n;

    it('publishes once per UTC day, only while this instance leads', async () => {
      // A fresh day, so the earlier tests' publications do not count for it.
      server.clock.advance(86_400_000);
      let leading = false;
      const published: LiabilityRoot[] = [];
      const { timer, fire, size } = manualTimer();
      const publisher = dailyLiabilityPublisher({
        db: server.db, clock: server.clock, isLeading: () => leading, timer, onPublished: (root) => published.push(root),
        onError: (error) => { throw error; },
      });
      const start = await dailyCount();
      publisher.start();
      expect(size()).toBe(1);
      expect(await publisher.check()).toBeNull();
      fire();
      expect(await publisher.check()).toBeNull();
      expect(await dailyCount()).toBe(start);

      leading = true;
      const first = await publisher.check();
      expect(first).toMatchObject({ trigger: 'daily' });
      expect(await publisher.check()).toBeNull();
      fire();
      await publisher.check();
      server.clock.advance(6 * 3_600_000);
      expect(await publisher.check()).toBeNull();
      expect(await dailyCount()).toBe(start + 1);

      // The next UTC day gets its own.
      server.clock.advance(24 * 3_600_000);
      fire();
      const second = await publisher.check();
      expect(second ?? published[published.length - 1]).toMatchObject({ trigger: 'daily' });
      expect(await dailyCount()).toBe(start + 2);
      expect(published.map((root) => root.id)).toEqual([first!.id, (second ?? published[1]).id]);

      await publisher.stop();
      expect(size()).toBe(0);
    });

    it('does not publish a second daily root for a day even when two leaders race (unique per day)', async () => {
      server.clock.advance(86_400_000);
      const start = await dailyCount();
      const make = () => dailyLiabilityPublisher({ db: server.db, clock: server.clock, isLeading: () => true, timer: manualTimer().timer });
      const results = await Promise.all([make().check(), make().check(), make().check()]);
      expect(results.filter((root) => root !== null)).toHaveLength(1);
      expect(await dailyCount()).toBe(start + 1);
    });

    it('counts an operator\'s publication earlier that day as the day\'s', async () => {
      server.clock.advance(86_400_000);
      const opToken = await operatorLogin(server, await createOperator(server, 'admin'));
      expectOk(await server.post(liabilityAdminPaths.publish, {}, { token: opToken }));
      const publisher = dailyLiabilityPublisher({ db: server.db, clock: server.clock, isLeading: () => true, timer: manualTimer().timer });
      expect(await publisher.check()).toBeNull();
    });
  });
});
