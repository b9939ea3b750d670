// Internal messages written by real events (issue 21): a deposit approved or rejected, a
// withdrawal paid, rejected or failed, a KYC application decided — each through the back office's
// real route, the message in the event's transaction (once, with its dedupe key), and the user's
// app told after commit ('message' on the user channel).
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { contentPaths } from '../../../src/api/contract/content.ts';
import { walletAdminPaths } from '../../../src/api/contract/wallet.ts';
import { withdrawalAdminPaths } from '../../../src/api/contract/withdrawals.ts';
import type { UserEvent } from '../../../src/api/contract/market.ts';
import { userMessages } from '../../../server/db/schema.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';
import { applyBasic, approve as approveKyc, reject as rejectKyc, reviewer, type Reviewer } from '../identity/kycHelpers.ts';
import { applyDeposit, withDepositAddresses } from '../wallet/walletHelpers.ts';
import { apply as applyWithdrawal, userIdOf, withdrawer } from '../wallet/withdrawHelpers.ts';

const withId = (path: string, id: string) => path.replace(':id', id);

/** Events the user channel carried, per user id. */
function listen(server: TestServer) {
  const heard: Array<{ userId: bigint; event: UserEvent }> = [];
  const stop = server.services.userEvents.subscribe((userId, event) => heard.push({ userId, event }));
  return { heard, stop };
}

const messagesOf = (server: TestServer, userId: bigint) =>
  server.db.select().from(userMessages).where(eq(userMessages.userId, userId)).orderBy(userMessages.id);

forEachDatabase((server) => {
  let op: Reviewer;
  beforeAll(async () => {
    await withDepositAddresses(server);
    op = await reviewer(server);
  });

  describe('deposits', () => {
    it('an approved deposit writes "deposit credited" with its amount, once, and tells the app', async () => {
      const user = await server.registerByEmail();
      const userId = await userIdOf(server, user);
      const record = await applyDeposit(server, user.token, { amount: '150.25' });
      const { heard, stop } = listen(server);
      expectOk(await server.post(withId(walletAdminPaths.rechargeApprove, record.id), {}, { token: op.token }));
      stop();
      const messages = await messagesOf(server, userId);
      expect(messages).toHaveLength(1);
      expect(messages[0]).toMatchObject({
        kind: 'deposit_credited', category: 'money', route: '/chongzhitixianRecord', dedupeKey: `recharge:${record.id}:credited`,
        params: { id: record.id, amount: '150.250000', currency: 'USDT', network: 'TRC20' }, readAt: null,
      });
      expect(heard).toContainEqual({ userId, event: { kind: 'message', demo: false } });
      const page = expectOk(await server.get(contentPaths.myMessages, {}, { token: user.token })).body.result;
      expect(page.unread).toBe(1);
      // A second approval is refused and writes nothing more.
      expectRefused(await server.post(withId(walletAdminPaths.rechargeApprove, record.id), {}, { token: op.token }), 409, 'record_already_decided');
      expect(await messagesOf(server, userId)).toHaveLength(1);
    });

    it('a rejected deposit writes "deposit rejected" with the reason', async () => {
      const user = await server.registerByEmail();
      const userId = await userIdOf(server, user);
      const record = await applyDeposit(server, user.token);
      expectOk(await server.post(withId(walletAdminPaths.rechargeReject, record.id), { reason: 'The proof does not show the transfer.' }, { token: op.token }));
      const [message] = await messagesOf(server, userId);
      expect(message).toMatchObject({
        kind: 'deposit_rejected', category: 'money', params: { amount: '100.000000', currency: 'USDT', reason: 'The proof does not show the transfer.' },
      });
    });
  });

  describe('withdrawals', () => {
    it('paid, rejected and failed payouts each write their message; an approval alone writes none', async () => {
      const user = await withdrawer(server, '500');
      const paid = expectOk(await applyWithdrawal(server, user, { amount: '20' })).body.result;
      const rejected = expectOk(await applyWithdrawal(server, user, { amount: '30' })).body.result;
      const failed = expectOk(await applyWithdrawal(server, user, { amount: '40' })).body.result;
      expectOk(await server.post(withId(withdrawalAdminPaths.approve, paid.id), {}, { token: op.token }));
      expect(await messagesOf(server, user.userId)).toHaveLength(0);
      const { heard, stop } = listen(server);
      expectOk(await server.post(withId(withdrawalAdminPaths.paid, paid.id), { reference: 'TX-0001' }, { token: op.token }));
      expectOk(await server.post(withId(withdrawalAdminPaths.reject, rejected.id), { reason: 'The address is on a sanctions list.' }, { token: op.token }));
      expectOk(await server.post(withId(withdrawalAdminPaths.approve, failed.id), {}, { token: op.token }));
      expectOk(await server.post(withId(withdrawalAdminPaths.failed, failed.id), { reason: 'The network refused the transfer.' }, { token: op.token }));
      stop();
      const messages = await messagesOf(server, user.userId);
      expect(messages.map((m) => [m.kind, (m.params as Record<string, string>).amount])).toEqual([
        ['withdrawal_paid', '20.000000'], ['withdrawal_rejected', '30.000000'], ['withdrawal_rejected', '40.000000'],
      ]);
      expect(messages[1].params).toMatchObject({ reason: 'The address is on a sanctions list.', status: 'rejected', currency: 'USDT' });
      expect(messages[2].params).toMatchObject({ status: 'failed' });
      expect(messages.every((m) => m.route === '/chongzhitixianRecord' && m.category === 'money')).toBe(true);
      expect(heard.filter((h) => h.userId === user.userId && h.event.kind === 'message')).toHaveLength(3);
    });
  });

  describe('identity', () => {
    it('an approved and a rejected application each write their message with the level and reason', async () => {
      const user = await server.registerByEmail();
      const userId = (await server.userByEmail(user.email!)).id;
      const first = expectOk(await applyBasic(server, user.token)).body.result.id as string;
      expectOk(await rejectKyc(server, op, first, 'The photo of the back is unreadable.'));
      const second = expectOk(await applyBasic(server, user.token)).body.result.id as string;
      expectOk(await approveKyc(server, op, second));
      const messages = await messagesOf(server, userId);
      expect(messages.map((m) => [m.kind, m.category, m.route])).toEqual([
        ['kyc_rejected', 'security', '/renzhengResult'], ['kyc_approved', 'security', '/renzhengResult'],
      ]);
      expect(messages[0].params).toMatchObject({ level: '1', reason: 'The photo of the back is unreadable.' });
      const counts = expectOk(await server.get(contentPaths.unread, {}, { token: user.token })).body.result;
      expect(counts.messages).toBe(2);
    });
  });
}, { databases: 'embedded' });
