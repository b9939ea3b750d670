// The withdrawal password: set with a code that only the logged-in user's own address receives,
// changed with the old one, shown in user info, and every wrong guess limited like logins.
import { expect, it } from 'vitest';
import { paths } from '../../../src/api/contract/paths.ts';
import { withdrawalPaths } from '../../../src/api/contract/withdrawals.ts';
import { passwordWork } from '../../../server/domain/kernel/passwords.ts';
import { expectOk, expectRefused, forEachDatabase } from '../helpers.ts';
import { apply, setWithdrawPassword, withdrawer, withdrawPassword } from './withdrawHelpers.ts';

forEachDatabase((server) => {
  const info = async (token: string) => expectOk(await server.get(paths.myUserInfo, {}, { token })).body.result;

  it('sends the code only to the logged-in user\'s own address, and sets the password with it', async () => {
    const user = await server.registerByEmail();
    const stranger = server.uniqueEmail();
    expect((await info(user.token)).hasWithdrawPassword).toBe(false);
    expectRefused(await server.get(paths.emailCaptcha, { email: user.email!, type: 'withdrawPassword' }), 401, 'unauthorized');
    expectRefused(await server.get(paths.emailCaptcha, { email: stranger, type: 'withdrawPassword' }, { token: user.token }), 400, 'invalid_request');
    expectRefused(await server.get(paths.phoneCaptcha, { phone: server.uniquePhone(), countryCode: '44', type: 'withdrawPassword' },
      { token: user.token }), 400, 'invalid_request');
    expect(server.outbox(stranger)).toEqual([]);
    expectOk(await server.get(paths.emailCaptcha, { email: user.email!.toUpperCase(), type: 'withdrawPassword' }, { token: user.token }));
    const code = server.latestCode(user.email!);
    expectRefused(await server.post(withdrawalPaths.setWithdrawPassword, { password: 'weakweakweak', code }, { token: user.token }), 400, 'password_weak');
    const wrong = code === '000000' ? '000001' : '000000';
    expectRefused(await server.post(withdrawalPaths.setWithdrawPassword, { password: withdrawPassword, code: wrong }, { token: user.token }), 400, 'code_invalid');
    expect((await info(user.token)).hasWithdrawPassword).toBe(false);
    expectOk(await server.post(withdrawalPaths.setWithdrawPassword, { password: withdrawPassword, code }, { token: user.token }));
    expect((await info(user.token)).hasWithdrawPassword).toBe(true);
    // A code is good once.
    expectRefused(await server.post(withdrawalPaths.setWithdrawPassword, { password: 'Another2026key', code }, { token: user.token }), 400, 'code_invalid');
  });

  it('sends a phone account\'s code by SMS to its own number', async () => {
    const user = await server.registerByPhone();
    expectOk(await server.get(paths.phoneCaptcha, { phone: user.phone!, countryCode: user.countryCode!, type: 'withdrawPassword' }, { token: user.token }));
    const code = server.latestCode(`+${user.countryCode}${user.phone}`);
    expectOk(await server.post(withdrawalPaths.setWithdrawPassword, { password: withdrawPassword, code }, { token: user.token }));
    expect((await info(user.token)).hasWithdrawPassword).toBe(true);
  });

  it('refuses a guest, who has no address to receive the code', async () => {
    const guest = expectOk(await server.post(paths.guestLogin, { account: server.unique('guest') })).body.result;
    const answer = await server.post(withdrawalPaths.setWithdrawPassword, { password: withdrawPassword, code: '123456' }, { token: guest.token });
    expectRefused(answer, 400, 'withdraw_password_no_contact');
  });

  it('changes it with the old one; a wrong old one is refused and the old one still works', async () => {
    const user = await withdrawer(server, '0');
    const change = (oldPassword: string, newPassword: string) =>
      server.post(withdrawalPaths.changeWithdrawPassword, { oldPassword, newPassword }, { token: user.token });
    expectRefused(await change('Wrong2026key', 'Fresh2026key'), 400, 'withdraw_password_invalid');
    expectRefused(await change(withdrawPassword, withdrawPassword), 400, 'password_unchanged');
    expectOk(await change(withdrawPassword, 'Fresh2026key'));
    expectRefused(await change(withdrawPassword, 'Other2026key'), 400, 'withdraw_password_invalid');
    expectOk(await change('Fresh2026key', withdrawPassword));
  });

  it('refuses a change before any is set', async () => {
    const user = await server.registerByEmail();
    const answer = await server.post(withdrawalPaths.changeWithdrawPassword, { oldPassword: 'Any2026key', newPassword: 'Fresh2026key' },
      { token: user.token });
    expectRefused(answer, 400, 'withdraw_password_required');
  });

  it('limits wrong guesses like logins: after the free attempts even the right one waits, and argon2 does not run', async () => {
    const user = await withdrawer(server, '100');
    for (let attempt = 1; attempt <= server.limits.passwordAttemptsFree; attempt += 1) {
      expectRefused(await apply(server, user, { withdrawPassword: `Wrong${attempt}key` }), 400, 'withdraw_password_invalid');
    }
    const verificationsBefore = passwordWork.verifications;
    const locked = await apply(server, user);
    expectRefused(locked, 429, 'too_many_attempts');
    expect(locked.body.result.retryAfterSeconds).toBeGreaterThan(0);
    // Changing it is the same throttle.
    expectRefused(await server.post(withdrawalPaths.changeWithdrawPassword, { oldPassword: withdrawPassword, newPassword: 'Fresh2026key' },
      { token: user.token }), 429, 'too_many_attempts');
    expect(passwordWork.verifications).toBe(verificationsBefore);
    server.clock.advance(server.limits.passwordLockoutBaseMs);
    expectOk(await apply(server, user));
    // A right password gives the attempts back.
    expectRefused(await apply(server, user, { withdrawPassword: 'Wrong2026key' }), 400, 'withdraw_password_invalid');
    expectOk(await apply(server, user));
  });

  it('setting it again with a fresh code (a forgotten password) ends the lockout', async () => {
    const user = await withdrawer(server, '100');
    for (let attempt = 1; attempt <= server.limits.passwordAttemptsFree; attempt += 1) {
      expectRefused(await apply(server, user, { withdrawPassword: `Wrong${attempt}key` }), 400, 'withdraw_password_invalid');
    }
    // One more wrong guess once the first lockout ends doubles it, so it outlasts the code's resend interval.
    server.clock.advance(server.limits.passwordLockoutBaseMs);
    expectRefused(await apply(server, user, { withdrawPassword: 'Wrong6key' }), 400, 'withdraw_password_invalid');
    server.clock.advance(server.limits.codeResendIntervalMs);
    expect(server.limits.codeResendIntervalMs).toBeLessThan(2 * server.limits.passwordLockoutBaseMs);
    expectRefused(await apply(server, user), 429, 'too_many_attempts');
    await setWithdrawPassword(server, user, 'Renewed2026key');
    expectOk(await apply(server, user, { withdrawPassword: 'Renewed2026key' }));
  });
}, { databases: 'embedded' });
