// Google Authenticator through the real protocol: binding (pending secret, code, recovery codes
// once), the two-step login (password, then a single-use code), unbinding with a code to the
// account's own address, the other sessions ended, and withdrawals and password changes refused
// without a code, with nothing moved.
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { paths } from '../../../src/api/contract/paths.ts';
import { twoFactorPaths } from '../../../src/api/contract/security.ts';
import { totpCode } from '../../../server/domain/kernel/totp.ts';
import { expectOk, expectRefused, forEachDatabase, type Account, type TestServer } from '../helpers.ts';
import { apply, expectLedgerSound, moneySnapshot, withdrawer } from '../wallet/withdrawHelpers.ts';

const stepMs = 30_000;

async function newKey(server: TestServer, token: string) {
  return expectOk(await server.get(twoFactorPaths.generateGoogleKey, {}, { token })).body.result as { secret: string; otpauthUri: string };
}

/** Binds through the real flow; the clock then moves a step on, so the next code is a fresh one. */
async function bind(server: TestServer, account: Account) {
  const { secret } = await newKey(server, account.token);
  const answer = expectOk(await server.post(twoFactorPaths.bindGoogleAuth,
    { secret, code: await totpCode(secret, server.clock.now().getTime()) }, { token: account.token }));
  server.clock.advance(stepMs);
  return { secret, recoveryCodes: answer.body.result.recoveryCodes as string[] };
}

const code = (server: TestServer, secret: string) => totpCode(secret, server.clock.now().getTime());
const state = async (server: TestServer, token: string) =>
  expectOk(await server.get(twoFactorPaths.googleAuthState, {}, { token })).body.result;
const isLoggedIn = async (server: TestServer, token: string) => (await server.get(paths.myUserInfo, {}, { token })).status === 200;

forEachDatabase((server) => {
  const login = (account: Account, fields: Record<string, unknown>, ip?: string) => server.post(twoFactorPaths.googleSecretLogin,
    { account: account.account, password: account.password, ...fields }, ip ? { ip } : {});

  it('binds with the pending secret and a right code, shows ten recovery codes once, and ends the other sessions', async () => {
    const user = await server.registerByEmail();
    const other = expectOk(await server.post(paths.login, { account: user.account, password: user.password })).body.result.token;
    expect(await state(server, user.token)).toEqual({ bound: false, recoveryCodesLeft: 0 });
    const key = await newKey(server, user.token);
    expect(key.otpauthUri).toMatch(/^otpauth:\/\/totp\/Bourse:/);
    expect(key.otpauthUri).toContain(`secret=${key.secret}`);
    expect(decodeURIComponent(key.otpauthUri)).toContain(user.email);
    // The secret is sealed at rest.
    const [pending] = await server.query<{ secret_encrypted: string }>(sql`select secret_encrypted from user_totp_pending`);
    expect(JSON.stringify(pending)).not.toContain(key.secret);

    const now = server.clock.now().getTime();
    const wrong = await totpCode(key.secret, now + 10 * stepMs);
    expectRefused(await server.post(twoFactorPaths.bindGoogleAuth, { secret: key.secret, code: wrong }, { token: user.token }),
      400, 'google_code_invalid');
    expect((await state(server, user.token)).bound).toBe(false);
    // Someone else's secret, or one never offered, is not bindable.
    const stranger = await server.registerByEmail();
    const strangerKey = await newKey(server, stranger.token);
    expectRefused(await server.post(twoFactorPaths.bindGoogleAuth,
      { secret: strangerKey.secret, code: await code(server, strangerKey.secret) }, { token: user.token }), 400, 'google_secret_unknown');
    expect(await isLoggedIn(server, other)).toBe(true);

    const answer = expectOk(await server.post(twoFactorPaths.bindGoogleAuth, { secret: key.secret, code: await code(server, key.secret) },
      { token: user.token }));
    const recoveryCodes = answer.body.result.recoveryCodes as string[];
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await server.query<{ code_hash: string }>(sql`select code_hash from user_recovery_codes`);
    expect(JSON.stringify(stored)).not.toContain(recoveryCodes[0]);
    const s = await state(server, user.token);
    expect(s).toMatchObject({ bound: true, recoveryCodesLeft: 10 });
    expect(server.outbox(user.email!).at(-1)?.text).toMatch(/^Google Authenticator was bound to your Bourse account at .+ UTC/);
    expect(s.boundAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(await isLoggedIn(server, user.token)).toBe(true);
    expect(await isLoggedIn(server, other)).toBe(false);
    // Bound: no new key, no second binding.
    expectRefused(await server.get(twoFactorPaths.generateGoogleKey, {}, { token: user.token }), 409, 'google_already_bound');
    // The offer expires after ten minutes.
    server.clock.advance(11 * 60_000);
    expectRefused(await server.post(twoFactorPaths.bindGoogleAuth,
      { secret: strangerKey.secret, code: await code(server, strangerKey.secret) }, { token: stranger.token }), 400, 'google_secret_unknown');
  });

  it('asks a bound account for the code after a right password, and logs in with password and a single-use code', async () => {
    const user = await server.registerByEmail();
    const other = await server.registerByEmail();
    expect(expectOk(await server.get(twoFactorPaths.checkGoogleAuth, { account: user.account })).body.result).toEqual({ bound: false });
    const { secret } = await bind(server, user);
    expect(expectOk(await server.get(twoFactorPaths.checkGoogleAuth, { account: user.account.toUpperCase() })).body.result)
      .toEqual({ bound: true });
    expect(expectOk(await server.get(twoFactorPaths.checkGoogleAuth, { account: other.account })).body.result).toEqual({ bound: false });
    expect(expectOk(await server.get(twoFactorPaths.checkGoogleAuth, { account: server.uniqueEmail() })).body.result)
      .toEqual({ bound: false });

    const sessionsBefore = await server.count('sessions');
    expectRefused(await server.post(paths.login, { account: user.account, password: 'Wrong123pass' }), 400, 'credentials_invalid');
    expectRefused(await server.post(paths.login, { account: user.account, password: user.password }), 400, 'google_code_required');
    // The Google code is never enough alone; a wrong password is refused before the code is looked at.
    expectRefused(await server.post(twoFactorPaths.googleSecretLogin, { account: user.account, googleCode: await code(server, secret) }),
      400, 'credentials_invalid');
    expectRefused(await login(user, { password: 'Wrong123pass', googleCode: await code(server, secret) }), 400, 'credentials_invalid');
    expectRefused(await login(user, {}), 400, 'google_code_required');
    const wrong = await totpCode(secret, server.clock.now().getTime() + 10 * stepMs);
    expectRefused(await login(user, { googleCode: wrong }), 400, 'google_code_invalid');
    expect(await server.count('sessions')).toBe(sessionsBefore);

    const now = await code(server, secret);
    const token = expectOk(await login(user, { googleCode: now })).body.result.token as string;
    expect(await isLoggedIn(server, token)).toBe(true);
    const [row] = await server.query<{ method: string }>(sql`select method from sessions order by id desc limit 1`);
    expect(row.method).toBe('google');
    // The same code again, within its window: refused. So is the previous step's.
    expectRefused(await login(user, { googleCode: now }), 400, 'google_code_invalid');
    expectRefused(await login(user, { googleCode: await totpCode(secret, server.clock.now().getTime() - stepMs) }), 400, 'google_code_invalid');
    server.clock.advance(stepMs);
    expectOk(await login(user, { googleCode: await code(server, secret) }));
    // An account without a binding has no Google login.
    expectRefused(await login(other, { googleCode: await code(server, secret) }), 400, 'google_not_bound');
  });

  it('accepts each recovery code once', async () => {
    const user = await server.registerByEmail();
    const { recoveryCodes } = await bind(server, user);
    expectOk(await login(user, { recoveryCode: recoveryCodes[3].toUpperCase().replace('-', ' ') }));
    expectRefused(await login(user, { recoveryCode: recoveryCodes[3] }), 400, 'recovery_code_invalid');
    expectRefused(await login(user, { recoveryCode: 'abcde-fghjk' }), 400, 'recovery_code_invalid');
    expect((await state(server, user.token)).recoveryCodesLeft).toBe(9);
    // Another user's recovery code is not this user's.
    const other = await server.registerByEmail();
    const theirs = await bind(server, other);
    expectRefused(await login(user, { recoveryCode: theirs.recoveryCodes[0] }), 400, 'recovery_code_invalid');
  });

  it('limits wrong codes per account', async () => {
    const user = await server.registerByEmail();
    const { secret } = await bind(server, user);
    const wrong = await totpCode(secret, server.clock.now().getTime() + 10 * stepMs);
    let refusal = '';
    for (let i = 0; i < 30 && refusal !== 'too_many_attempts'; i += 1) {
      refusal = (await login(user, { googleCode: wrong }, server.freshIp())).body.result?.error;
      if (refusal !== 'too_many_attempts') expect(refusal).toBe('google_code_invalid');
    }
    expect(refusal).toBe('too_many_attempts');
    // Even the right code waits for the lockout.
    expectRefused(await login(user, { googleCode: await code(server, secret) }, server.freshIp()), 429, 'too_many_attempts');
  });

  it('unbinds with a code to the account\'s own address and a Google or recovery code; the previous binding\'s codes fail', async () => {
    const user = await server.registerByEmail();
    const { secret, recoveryCodes } = await bind(server, user);
    const other = expectOk(await login(user, { googleCode: await code(server, secret) })).body.result.token as string;
    server.clock.advance(stepMs);
    const unbind = (fields: Record<string, unknown>) => server.post(twoFactorPaths.unbindGoogleAuth, fields, { token: user.token });
    // The code goes only to the account's own address.
    expectRefused(await server.get(paths.emailCaptcha, { email: server.uniqueEmail(), type: 'googleUnbind' }, { token: user.token }),
      400, 'invalid_request');
    expectRefused(await server.get(paths.emailCaptcha, { email: user.email!, type: 'googleUnbind' }), 401, 'unauthorized');
    expectOk(await server.get(paths.emailCaptcha, { email: user.email!, type: 'googleUnbind' }, { token: user.token }));
    const emailCode = server.latestCode(user.email!);
    expectRefused(await unbind({ emailCode }), 400, 'google_code_required');
    expectRefused(await unbind({ googleCode: await code(server, secret) }), 400, 'code_invalid');
    const wrongEmail = emailCode === '000000' ? '000001' : '000000';
    expectRefused(await unbind({ emailCode: wrongEmail, googleCode: await code(server, secret) }), 400, 'code_invalid');
    expectRefused(await unbind({ emailCode, recoveryCode: 'abcde-fghjk' }), 400, 'recovery_code_invalid');
    expect((await state(server, user.token)).bound).toBe(true);
    // The e-mail code is still good after a wrong second code.
    expectOk(await unbind({ emailCode, recoveryCode: recoveryCodes[0] }));
    expect(await state(server, user.token)).toEqual({ bound: false, recoveryCodesLeft: 0 });
    expect(server.outbox(user.email!).at(-1)?.text).toMatch(/^Google Authenticator was removed from your Bourse account/);
    expect(await isLoggedIn(server, other)).toBe(false);
    expect(await isLoggedIn(server, user.token)).toBe(true);
    const userId = (await server.userByEmail(user.email!)).id;
    expect(await server.query(sql`select * from user_recovery_codes where user_id = ${userId}`)).toEqual([]);
    // Password login works alone again.
    expectOk(await server.post(paths.login, { account: user.account, password: user.password }));

    // A new binding: the old secret's codes and recovery codes are worth nothing.
    const again = await bind(server, user);
    expect(again.secret).not.toBe(secret);
    expectRefused(await login(user, { googleCode: await code(server, secret) }), 400, 'google_code_invalid');
    expectRefused(await login(user, { recoveryCode: recoveryCodes[1] }), 400, 'recovery_code_invalid');
    expectOk(await login(user, { googleCode: await code(server, again.secret) }));
  });

  it('refuses a guest, who has no address for the unbinding code', async () => {
    const guest = expectOk(await server.post(paths.guestLogin, { account: server.unique('guest') })).body.result;
    const { secret } = await newKey(server, guest.token);
    expectRefused(await server.post(twoFactorPaths.bindGoogleAuth, { secret, code: await code(server, secret) }, { token: guest.token }),
      400, 'google_no_contact');
  });

  it('refuses a withdrawal without a right Google code when bound, and nothing moves', async () => {
    const user = await withdrawer(server, '100');
    const { secret } = await bind(server, user);
    const before = await moneySnapshot(server);
    expectRefused(await apply(server, user), 400, 'google_code_required');
    expectRefused(await apply(server, user, { googleCode: await totpCode(secret, server.clock.now().getTime() + 10 * stepMs) }),
      400, 'google_code_invalid');
    expectRefused(await apply(server, user, { googleCode: 'abcdef' }), 400, 'invalid_request');
    expect(await moneySnapshot(server)).toEqual(before);
    const googleCode = await code(server, secret);
    expectOk(await apply(server, user, { googleCode }));
    // Used once.
    const after = await moneySnapshot(server);
    expectRefused(await apply(server, user, { googleCode }), 400, 'google_code_invalid');
    expect(await moneySnapshot(server)).toEqual(after);
    await expectLedgerSound(server);
  });

  it('refuses a password change without a right Google code when bound, and the password stays', async () => {
    const user = await server.registerByEmail();
    const { secret } = await bind(server, user);
    const change = (fields: Record<string, unknown>) => server.post(paths.changePassword,
      { oldPassword: user.password, newPassword: 'Fresh2026pass', ...fields }, { token: user.token });
    expectRefused(await change({}), 400, 'google_code_required');
    expectRefused(await change({ googleCode: await totpCode(secret, server.clock.now().getTime() + 10 * stepMs) }), 400, 'google_code_invalid');
    expectRefused(await server.post(paths.login, { account: user.account, password: 'Fresh2026pass' }), 400, 'credentials_invalid');
    expectOk(await change({ googleCode: await code(server, secret) }));
    server.clock.advance(stepMs);
    expectOk(await login({ ...user, password: 'Fresh2026pass' }, { googleCode: await code(server, secret) }));
  });

  it('leaves an account without a binding as it was: withdrawal and password change need no code', async () => {
    const user = await withdrawer(server, '100');
    expectOk(await apply(server, user));
    expectOk(await server.post(paths.changePassword, { oldPassword: user.password, newPassword: 'Fresh2026pass' }, { token: user.token }));
  });
}, { databases: 'embedded' });
