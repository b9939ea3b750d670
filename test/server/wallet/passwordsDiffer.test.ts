// The withdrawal password and the login password must differ (issue 19): one stolen password must
// not both open the account and take its money out. Each direction is refused with its own code and
// changes nothing; a withdrawal password that equals the login password anyway (set before the rule)
// no longer moves money.
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { paths } from '../../../src/api/contract/paths.ts';
import { withdrawalPaths } from '../../../src/api/contract/withdrawals.ts';
import { users, withdrawPasswords } from '../../../server/db/schema.ts';
import { expectOk, expectRefused, forEachDatabase } from '../helpers.ts';
import { apply, moneySnapshot, withdrawer, withdrawPassword } from './withdrawHelpers.ts';

forEachDatabase((server) => {
  const info = async (token: string) => expectOk(await server.get(paths.myUserInfo, {}, { token })).body.result;
  const loginWorks = async (account: string, password: string) =>
    (await server.post(paths.login, { account, password }, { ip: server.freshIp() })).status === 200;

  it('refuses to set a withdrawal password equal to the login password, and sets none', async () => {
    const user = await server.registerByEmail();
    expectOk(await server.get(paths.emailCaptcha, { email: user.email!, type: 'withdrawPassword' }, { token: user.token }));
    const code = server.latestCode(user.email!);
    // Without the right code nothing tells a stolen session whether a guess is the login password.
    const wrong = code === '000000' ? '000001' : '000000';
    expectRefused(await server.post(withdrawalPaths.setWithdrawPassword, { password: user.password, code: wrong }, { token: user.token }),
      400, 'code_invalid');
    const refused = await server.post(withdrawalPaths.setWithdrawPassword, { password: user.password, code }, { token: user.token });
    expectRefused(refused, 400, 'withdraw_password_same_as_login');
    expect((await info(user.token)).hasWithdrawPassword).toBe(false);
    // The code was not used up by the refusal: a different password is set with it.
    expectOk(await server.post(withdrawalPaths.setWithdrawPassword, { password: withdrawPassword, code }, { token: user.token }));
    expect((await info(user.token)).hasWithdrawPassword).toBe(true);
  });

  it('refuses to change the withdrawal password to the login password; the old one still works', async () => {
    const user = await withdrawer(server, '0');
    const refused = await server.post(withdrawalPaths.changeWithdrawPassword, { oldPassword: withdrawPassword, newPassword: user.password },
      { token: user.token });
    expectRefused(refused, 400, 'withdraw_password_same_as_login');
    expectOk(await server.post(withdrawalPaths.changeWithdrawPassword, { oldPassword: withdrawPassword, newPassword: 'Fresh2026key' },
      { token: user.token }));
  });

  it('refuses a login password change or reset to the withdrawal password; the login password stays', async () => {
    const user = await withdrawer(server, '0');
    expectRefused(await server.post(paths.changePassword, { oldPassword: user.password, newPassword: withdrawPassword },
      { token: user.token }), 400, 'password_same_as_withdraw_password');
    server.clock.advance(server.limits.codeResendIntervalMs);
    expectOk(await server.requestEmailCode(user.email!, 'reset'));
    const code = server.latestCode(user.email!);
    expectRefused(await server.post(paths.resetPassword, { accountType: 'email', account: user.email, code, password: withdrawPassword }),
      400, 'password_same_as_withdraw_password');
    expect(await loginWorks(user.account, user.password)).toBe(true);
    expect(await loginWorks(user.account, withdrawPassword)).toBe(false);
  });

  it('refuses a withdrawal whose password is also the login password, and moves nothing', async () => {
    const user = await withdrawer(server, '100');
    // As if set before the two were compared: the stored withdrawal hash is the login's own.
    const [row] = await server.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.userId));
    await server.db.update(withdrawPasswords).set({ passwordHash: row.passwordHash }).where(eq(withdrawPasswords.userId, user.userId));
    const before = await moneySnapshot(server);
    const refused = await apply(server, user, { withdrawPassword: user.password });
    expectRefused(refused, 400, 'withdraw_password_same_as_login');
    expect(await moneySnapshot(server)).toEqual(before);
  });
}, { databases: 'embedded' });
