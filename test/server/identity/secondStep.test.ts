// Every way into an account with Google Authenticator bound ends in its code (issue 18): the mailed
// or texted code, the password and a wallet each earn a login ticket, not a session; the ticket and
// a Google or recovery code open the session once. A password reset and a withdrawal destination of
// a bound account need the code too. Each refusal is checked to change nothing: no session, no new
// password, no destination, the mailed code still usable where the refusal came before its use.
import { expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { paths } from '../../../src/api/contract/paths.ts';
import { externalLoginPaths, twoFactorPaths } from '../../../src/api/contract/security.ts';
import { withdrawalPaths } from '../../../src/api/contract/withdrawals.ts';
import { userWallets, withdrawalDestinations } from '../../../server/db/schema.ts';
import { totpCode } from '../../../server/domain/kernel/totp.ts';
import { expectOk, expectRefused, forEachDatabase, type Account, type TestServer } from '../helpers.ts';

const stepMs = 30_000;

/** Binds Google Authenticator through the real flow; the clock then moves on, so the next code is fresh. */
async function bind(server: TestServer, account: Account) {
  const key = expectOk(await server.get(twoFactorPaths.generateGoogleKey, {}, { token: account.token })).body.result as { secret: string };
  const answer = expectOk(await server.post(twoFactorPaths.bindGoogleAuth,
    { secret: key.secret, code: await totpCode(key.secret, server.clock.now().getTime()) }, { token: account.token }));
  server.clock.advance(stepMs);
  return { secret: key.secret, recoveryCodes: answer.body.result.recoveryCodes as string[] };
}

const code = (server: TestServer, secret: string) => totpCode(secret, server.clock.now().getTime());
const isLoggedIn = async (server: TestServer, token: string) => (await server.get(paths.myUserInfo, {}, { token })).status === 200;

async function liveSessions(server: TestServer, email: string) {
  const user = await server.userByEmail(email);
  return (await server.sessionsOf(user.id)).filter((session) => session.revokedAt === null).length;
}

/** The refusal a first factor gets on a bound account: google_code_required with a ticket. */
function ticketOf(reply: Awaited<ReturnType<TestServer['post']>>): string {
  expectRefused(reply, 400, 'google_code_required');
  const ticket = reply.body.result.loginTicket as string;
  expect(ticket).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  expect(reply.body.result.token).toBeUndefined();
  return ticket;
}

async function emailCodeLogin(server: TestServer, email: string) {
  expectOk(await server.requestEmailCode(email, 'login'));
  return server.post(paths.emailLogin, { email, code: server.latestCode(email) });
}

forEachDatabase((server) => {
  it('answers an e-mail code login of a bound account with a ticket, and opens the session only with the Google code', async () => {
    const user = await server.registerByEmail();
    const { secret } = await bind(server, user);
    const sessionsBefore = await liveSessions(server, user.email!);

    const ticket = ticketOf(await emailCodeLogin(server, user.email!));
    expect(await liveSessions(server, user.email!)).toBe(sessionsBefore);
    // The mailed code was spent with the first step: it cannot be presented again.
    expectRefused(await server.post(paths.emailLogin, { email: user.email, code: server.latestCode(user.email!) }), 400, 'code_invalid');

    // A wrong code leaves the ticket alive; the right one opens the session; the ticket is then spent.
    const wrong = await totpCode(secret, server.clock.now().getTime() + 20 * stepMs);
    expectRefused(await server.post(twoFactorPaths.loginSecondStep, { loginTicket: ticket, googleCode: wrong }), 400, 'google_code_invalid');
    expect(await liveSessions(server, user.email!)).toBe(sessionsBefore);
    const token = expectOk(await server.post(twoFactorPaths.loginSecondStep, { loginTicket: ticket, googleCode: await code(server, secret) }))
      .body.result.token as string;
    expect(await isLoggedIn(server, token)).toBe(true);
    const [session] = await server.query<{ method: string }>(sql`select method from sessions order by id desc limit 1`);
    expect(session.method).toBe('code');
    server.clock.advance(stepMs);
    expectRefused(await server.post(twoFactorPaths.loginSecondStep, { loginTicket: ticket, googleCode: await code(server, secret) }),
      400, 'login_ticket_invalid');
  });

  it('answers a phone code login of a bound account with a ticket that a recovery code completes once', async () => {
    const user = await server.registerByPhone();
    const { recoveryCodes } = await bind(server, user);
    const target = `+${user.countryCode}${user.phone}`;
    expectOk(await server.requestPhoneCode(user.phone!, user.countryCode!, 'login'));
    const ticket = ticketOf(await server.post(paths.phoneLogin,
      { phone: user.phone, countryCode: user.countryCode, code: server.latestCode(target) }));
    const token = expectOk(await server.post(twoFactorPaths.loginSecondStep, { loginTicket: ticket, recoveryCode: recoveryCodes[0] }))
      .body.result.token as string;
    expect(await isLoggedIn(server, token)).toBe(true);
  });

  it('lets a ticket expire after five minutes and refuses one never issued', async () => {
    const user = await server.registerByEmail();
    const { secret } = await bind(server, user);
    const ticket = ticketOf(await emailCodeLogin(server, user.email!));
    server.clock.advance(5 * 60_000 + 1);
    expectRefused(await server.post(twoFactorPaths.loginSecondStep, { loginTicket: ticket, googleCode: await code(server, secret) }),
      400, 'login_ticket_invalid');
    expectRefused(await server.post(twoFactorPaths.loginSecondStep,
      { loginTicket: 'x'.repeat(43), googleCode: await code(server, secret) }), 400, 'login_ticket_invalid');
    expectRefused(await server.post(twoFactorPaths.loginSecondStep, { loginTicket: 'x'.repeat(43) }), 400, 'login_ticket_invalid');
  });

  it('gives the password login a ticket too, while the spec\'s googleSecretLogin still works', async () => {
    const user = await server.registerByEmail();
    const { secret } = await bind(server, user);
    const ticket = ticketOf(await server.post(paths.login, { account: user.account, password: user.password }));
    const token = expectOk(await server.post(twoFactorPaths.loginSecondStep, { loginTicket: ticket, googleCode: await code(server, secret) }))
      .body.result.token as string;
    expect(await isLoggedIn(server, token)).toBe(true);
    server.clock.advance(stepMs);
    expectOk(await server.post(twoFactorPaths.googleSecretLogin,
      { account: user.account, password: user.password, googleCode: await code(server, secret) }));
  });

  it('answers a wallet login of a bound account with a ticket', async () => {
    const user = await server.registerByEmail();
    const { secret } = await bind(server, user);
    const wallet = privateKeyToAccount(generatePrivateKey());
    const userRow = await server.userByEmail(user.email!);
    await server.db.insert(userWallets).values({
      address: wallet.address.toLowerCase(), userId: userRow.id, chainId: 1, createdAt: server.clock.now(),
    });
    const fields = expectOk(await server.get(externalLoginPaths.siweNonce)).body.result;
    const message = createSiweMessage({
      address: wallet.address, chainId: fields.chainId, domain: fields.domain, uri: fields.uri, nonce: fields.nonce, version: '1',
      statement: fields.statement, issuedAt: new Date(fields.issuedAt), expirationTime: new Date(fields.expirationTime),
    });
    const sessionsBefore = await liveSessions(server, user.email!);
    const ticket = ticketOf(await server.post(externalLoginPaths.siweLogin, { message, signature: await wallet.signMessage({ message }) }));
    expect(await liveSessions(server, user.email!)).toBe(sessionsBefore);
    const token = expectOk(await server.post(twoFactorPaths.loginSecondStep, { loginTicket: ticket, googleCode: await code(server, secret) }))
      .body.result.token as string;
    const [session] = await server.query<{ method: string }>(sql`select method from sessions order by id desc limit 1`);
    expect(session.method).toBe('wallet');
    expect(await isLoggedIn(server, token)).toBe(true);
  });

  it('refuses to reset a bound account\'s password with the mailed code alone, and resets it with the Google code', async () => {
    const user = await server.registerByEmail();
    const { secret } = await bind(server, user);
    const hashBefore = (await server.userByEmail(user.email!)).passwordHash;
    expectOk(await server.requestEmailCode(user.email!, 'reset'));
    const mailed = server.latestCode(user.email!);
    const reset = { accountType: 'email', account: user.email, code: mailed, password: 'Another2027pass' };
    expectRefused(await server.post(paths.resetPassword, reset), 400, 'google_code_required');
    expect((await server.userByEmail(user.email!)).passwordHash).toBe(hashBefore);
    expect(await isLoggedIn(server, user.token)).toBe(true);
    // A wrong Google code changes nothing either; the mailed code stays usable for the right one.
    const wrong = await totpCode(secret, server.clock.now().getTime() + 20 * stepMs);
    expectRefused(await server.post(paths.resetPassword, { ...reset, googleCode: wrong }), 400, 'google_code_invalid');
    expect((await server.userByEmail(user.email!)).passwordHash).toBe(hashBefore);
    expectOk(await server.post(paths.resetPassword, { ...reset, googleCode: await code(server, secret) }));
    expect((await server.userByEmail(user.email!)).passwordHash).not.toBe(hashBefore);
    expect(await isLoggedIn(server, user.token)).toBe(false);
  });

  it('resets an unbound account\'s password with the mailed code alone, as before', async () => {
    const user = await server.registerByEmail();
    expectOk(await server.requestEmailCode(user.email!, 'reset'));
    expectOk(await server.post(paths.resetPassword,
      { accountType: 'email', account: user.email, code: server.latestCode(user.email!), password: 'Another2027pass' }));
  });

  it('needs the Google code to add or edit a withdrawal destination of a bound account', async () => {
    const user = await server.registerByEmail();
    const { secret } = await bind(server, user);
    const userRow = await server.userByEmail(user.email!);
    const card = { type: 'bank', bankName: 'Test Bank', realName: 'A User', cardNumber: '6222021234567890' };
    const destinations = async () => server.db.select().from(withdrawalDestinations).where(eq(withdrawalDestinations.userId, userRow.id));

    expectRefused(await server.post(withdrawalPaths.addDestination, card, { token: user.token }), 400, 'google_code_required');
    expect(await destinations()).toHaveLength(0);
    const added = expectOk(await server.post(withdrawalPaths.addDestination, { ...card, googleCode: await code(server, secret) },
      { token: user.token })).body.result;
    expect(await destinations()).toHaveLength(1);

    server.clock.advance(stepMs);
    const edit = { id: added.id, ...card, cardNumber: '6222029999999999' };
    expectRefused(await server.post(withdrawalPaths.editDestination, edit, { token: user.token }), 400, 'google_code_required');
    expect((await destinations())[0].cardNumber).toBe('6222021234567890');
    expectOk(await server.post(withdrawalPaths.editDestination, { ...edit, googleCode: await code(server, secret) }, { token: user.token }));
    expect((await destinations())[0].cardNumber).toBe('6222029999999999');
  });
}, { databases: 'embedded' });
