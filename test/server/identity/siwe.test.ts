// Sign-In with Ethereum through the real protocol: a wallet's first login creates its account and
// later ones reuse it; a forged signature, a replayed message, a wrong or foreign nonce, another
// site's domain or URI, an expired message and another account's wallet are each refused with
// their code and change nothing (no session, no account, the nonce still unused where it was).
// Linking a wallet needs a fresh proof (the password here; a wallet-made account without e-mail has
// only its session) and tells the owner; after a password change the other ways in can all go in one step.
import { expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { paths } from '../../../src/api/contract/paths.ts';
import { externalLoginPaths } from '../../../src/api/contract/security.ts';
import { siweNonces, userWallets } from '../../../server/db/schema.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';

interface NonceAnswer { nonce: string; domain: string; uri: string; chainId: number; statement: string; issuedAt: string; expirationTime: string }

async function nonceFor(server: TestServer, token?: string, chainId?: number): Promise<NonceAnswer> {
  return expectOk(await server.get(externalLoginPaths.siweNonce, chainId ? { chainId: String(chainId) } : {}, { token })).body.result;
}

function messageOf(address: `0x${string}`, fields: NonceAnswer, overrides: Partial<Parameters<typeof createSiweMessage>[0]> = {}) {
  return createSiweMessage({
    address, chainId: fields.chainId, domain: fields.domain, uri: fields.uri, nonce: fields.nonce, version: '1',
    statement: fields.statement, issuedAt: new Date(fields.issuedAt), expirationTime: new Date(fields.expirationTime), ...overrides,
  });
}

async function signed(server: TestServer, key = generatePrivateKey(), options: { token?: string; overrides?: Parameters<typeof messageOf>[2] } = {}) {
  const wallet = privateKeyToAccount(key);
  const fields = await nonceFor(server, options.token);
  const message = messageOf(wallet.address, fields, options.overrides);
  return { wallet, key, fields, message, signature: await wallet.signMessage({ message }) };
}

const sessionsCount = (server: TestServer) => server.count('sessions');
const walletRow = async (server: TestServer, address: string) =>
  (await server.db.select().from(userWallets).where(eq(userWallets.address, address.toLowerCase())))[0];
const nonceRow = async (server: TestServer, nonce: string) =>
  (await server.db.select().from(siweNonces).where(eq(siweNonces.nonce, nonce)))[0];

forEachDatabase((server) => {
  it('hands out a nonce with our domain, origin, chain and five minutes', async () => {
    const fields = await nonceFor(server, undefined, 137);
    expect(fields.domain).toBe(new URL(server.services.publicOrigin).host);
    expect(fields.uri).toBe(server.services.publicOrigin);
    expect(fields.chainId).toBe(137);
    expect(fields.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(Date.parse(fields.expirationTime) - Date.parse(fields.issuedAt)).toBe(5 * 60_000);
    expect(fields.issuedAt).toBe(server.clock.now().toISOString());
  });

  it('creates an account on a first wallet login and logs in to it afterwards', async () => {
    const first = await signed(server);
    const users = await server.count('users');
    const token = expectOk(await server.post(externalLoginPaths.siweLogin, { message: first.message, signature: first.signature })).body.result.token;
    expect(await server.count('users')).toBe(users + 1);
    const info = expectOk(await server.get(paths.myUserInfo, {}, { token })).body.result;
    const wallet = await walletRow(server, first.wallet.address);
    expect(wallet.userId.toString()).toBe(info.id);
    expect(info.email).toBeNull();
    const [session] = await server.query<{ method: string }>(sql`select method from sessions where user_id = ${wallet.userId}`);
    expect(session.method).toBe('wallet');

    const again = await signed(server, first.key);
    const second = expectOk(await server.post(externalLoginPaths.siweLogin, { message: again.message, signature: again.signature })).body.result.token;
    expect(expectOk(await server.get(paths.myUserInfo, {}, { token: second })).body.result.id).toBe(info.id);
    expect(await server.count('users')).toBe(users + 1);
    expect((await walletRow(server, first.wallet.address)).lastUsedAt).not.toBeNull();
  });

  it('refuses a forged signature, and the nonce stays usable', async () => {
    const honest = await signed(server);
    const forger = privateKeyToAccount(generatePrivateKey());
    const forged = await forger.signMessage({ message: honest.message });
    const before = await sessionsCount(server);
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message: honest.message, signature: forged }), 400, 'siwe_signature_invalid');
    // A signature of another text by the right key is no better.
    const other = await honest.wallet.signMessage({ message: `${honest.message}\n` });
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message: honest.message, signature: other }), 400, 'siwe_signature_invalid');
    expect(await sessionsCount(server)).toBe(before);
    expect(await walletRow(server, honest.wallet.address)).toBeUndefined();
    expect((await nonceRow(server, honest.fields.nonce)).usedAt).toBeNull();
    expectOk(await server.post(externalLoginPaths.siweLogin, { message: honest.message, signature: honest.signature }));
  });

  it('refuses a replayed message: its nonce is spent', async () => {
    const login = await signed(server);
    expectOk(await server.post(externalLoginPaths.siweLogin, { message: login.message, signature: login.signature }));
    const before = await sessionsCount(server);
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message: login.message, signature: login.signature }), 400, 'siwe_nonce_invalid');
    expect(await sessionsCount(server)).toBe(before);
  });

  it('refuses a nonce it did not issue, and a link nonce used to log in', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const fields = await nonceFor(server);
    const message = messageOf(wallet.address, { ...fields, nonce: 'abcdef0123456789abcdef0123456789' });
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message, signature: await wallet.signMessage({ message }) }),
      400, 'siwe_nonce_invalid');
    const owner = await server.registerByEmail();
    const linkFields = await nonceFor(server, owner.token);
    const linkMessage = messageOf(wallet.address, linkFields);
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message: linkMessage, signature: await wallet.signMessage({ message: linkMessage }) }),
      400, 'siwe_nonce_invalid');
    expect(await walletRow(server, wallet.address)).toBeUndefined();
  });

  it('refuses a message written for another domain or origin', async () => {
    const before = await server.count('users');
    for (const overrides of [{ domain: 'evil.example.com' }, { uri: 'https://evil.example.com' }, { scheme: 'https' }]) {
      const attempt = await signed(server, generatePrivateKey(), { overrides });
      expectRefused(await server.post(externalLoginPaths.siweLogin, { message: attempt.message, signature: attempt.signature }),
        400, 'siwe_domain_mismatch');
      expect((await nonceRow(server, attempt.fields.nonce)).usedAt).toBeNull();
    }
    expect(await server.count('users')).toBe(before);
  });

  it('refuses an expired message, a message not yet valid and an expired nonce', async () => {
    const late = await signed(server);
    server.clock.advance(5 * 60_000 + 1);
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message: late.message, signature: late.signature }), 400, 'siwe_expired');
    // Without an expiration time in the message, the nonce's own five minutes still hold.
    const wallet = privateKeyToAccount(generatePrivateKey());
    const fields = await nonceFor(server);
    const open = messageOf(wallet.address, fields, { expirationTime: undefined });
    const signature = await wallet.signMessage({ message: open });
    server.clock.advance(5 * 60_000 + 1);
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message: open, signature }), 400, 'siwe_expired');
    const early = await signed(server, generatePrivateKey(), { overrides: { notBefore: new Date(server.clock.now().getTime() + 60_000) } });
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message: early.message, signature: early.signature }), 400, 'siwe_expired');
    expect(await walletRow(server, wallet.address)).toBeUndefined();
  });

  it('refuses what is not a Sign-In with Ethereum message', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = 'Please sign this to log in.';
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message, signature: await wallet.signMessage({ message }) }),
      400, 'siwe_message_invalid');
    expectRefused(await server.post(externalLoginPaths.siweLogin, { message, signature: '0x1234' }), 400, 'invalid_request');
  });

  it('links a wallet to the logged-in account, refuses another account\'s wallet, and lists and unlinks', async () => {
    const owner = await server.registerByEmail();
    const key = generatePrivateKey();
    const link = await signed(server, key, { token: owner.token });
    expect(link.fields.statement).toContain('Link');
    // The link nonce belongs to the session that asked for it.
    const stranger = await server.registerByEmail();
    expectRefused(await server.post(externalLoginPaths.siweLink,
      { message: link.message, signature: link.signature, password: stranger.password }, { token: stranger.token }), 400, 'siwe_nonce_invalid');
    // The session alone is not enough, nor a wrong password: nothing is linked and the nonce stays usable.
    expectRefused(await server.post(externalLoginPaths.siweLink, { message: link.message, signature: link.signature }, { token: owner.token }),
      400, 'password_required');
    expectRefused(await server.post(externalLoginPaths.siweLink,
      { message: link.message, signature: link.signature, password: 'Wrong123pass' }, { token: owner.token }), 400, 'credentials_invalid');
    expect(await walletRow(server, link.wallet.address)).toBeUndefined();
    expect((await nonceRow(server, link.fields.nonce)).usedAt).toBeNull();
    expectOk(await server.post(externalLoginPaths.siweLink,
      { message: link.message, signature: link.signature, password: owner.password }, { token: owner.token }));
    expect(server.outbox(owner.email!).at(-1)?.text).toContain(`The wallet ${link.wallet.address.toLowerCase()} was linked`);
    const listed = expectOk(await server.get(externalLoginPaths.linkedLogins, {}, { token: owner.token })).body.result;
    expect(listed.wallets.map((wallet: { address: string }) => wallet.address)).toEqual([link.wallet.address.toLowerCase()]);
    expect(listed.hasPasswordLogin).toBe(true);

    // The wallet now logs in to the owner's account.
    const login = await signed(server, key);
    const token = expectOk(await server.post(externalLoginPaths.siweLogin, { message: login.message, signature: login.signature })).body.result.token;
    const ownerInfo = expectOk(await server.get(paths.myUserInfo, {}, { token: owner.token })).body.result;
    expect(expectOk(await server.get(paths.myUserInfo, {}, { token })).body.result.id).toBe(ownerInfo.id);

    // Another account cannot take it, and its attempt leaves the nonce unspent.
    const steal = await signed(server, key, { token: stranger.token });
    expectRefused(await server.post(externalLoginPaths.siweLink,
      { message: steal.message, signature: steal.signature, password: stranger.password }, { token: stranger.token }), 409, 'wallet_linked_elsewhere');
    expect((await walletRow(server, link.wallet.address)).userId.toString()).toBe(ownerInfo.id);
    expect((await nonceRow(server, steal.fields.nonce)).usedAt).toBeNull();
    // Nor unlink it.
    expectRefused(await server.post(externalLoginPaths.unlinkLogin, { wallet: link.wallet.address }, { token: stranger.token }),
      404, 'linked_login_not_found');
    expectOk(await server.post(externalLoginPaths.unlinkLogin, { wallet: link.wallet.address }, { token: owner.token }));
    expect(await walletRow(server, link.wallet.address)).toBeUndefined();
    expect(server.outbox(owner.email!).at(-1)?.text).toContain(`The wallet ${link.wallet.address.toLowerCase()} was removed`);
  });

  it('keeps the last way into a wallet-made account', async () => {
    const first = await signed(server);
    const token = expectOk(await server.post(externalLoginPaths.siweLogin, { message: first.message, signature: first.signature })).body.result.token;
    const listed = expectOk(await server.get(externalLoginPaths.linkedLogins, {}, { token })).body.result;
    expect(listed.hasPasswordLogin).toBe(false);
    expectRefused(await server.post(externalLoginPaths.unlinkLogin, { wallet: first.wallet.address }, { token }), 409, 'last_login_method');
    expect(await walletRow(server, first.wallet.address)).toBeDefined();
    // With a second wallet linked, the first may go. An account without e-mail, phone or
    // authenticator has nothing to prove itself with but its session, which then suffices.
    const second = await signed(server, generatePrivateKey(), { token });
    expectOk(await server.post(externalLoginPaths.siweLink, { message: second.message, signature: second.signature }, { token }));
    expectOk(await server.post(externalLoginPaths.unlinkLogin, { wallet: first.wallet.address }, { token }));
    expectRefused(await server.post(externalLoginPaths.unlinkLogin, { wallet: second.wallet.address }, { token }), 409, 'last_login_method');
  });

  it('limits the messages one wallet address may present', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = messageOf(wallet.address, await nonceFor(server), { domain: 'evil.example.com' });
    const signature = await wallet.signMessage({ message });
    let last;
    for (let attempt = 0; attempt < 61; attempt += 1) {
      server.freshIp();
      last = await server.post(externalLoginPaths.siweLogin, { message, signature });
    }
    expectRefused(last!, 429, 'rate_limited');
  });

  it('lists the other ways in and removes them all in one step with a fresh proof, ending the other sessions', async () => {
    const owner = await server.registerByEmail();
    const link = await signed(server, generatePrivateKey(), { token: owner.token });
    expectOk(await server.post(externalLoginPaths.siweLink,
      { message: link.message, signature: link.signature, password: owner.password }, { token: owner.token }));
    const other = expectOk(await server.post(paths.login, { account: owner.account, password: owner.password })).body.result.token as string;
    const waysIn = async () => expectOk(await server.get(externalLoginPaths.waysIn, {}, { token: owner.token })).body.result;
    const before = await waysIn();
    expect(before).toEqual({ passkeys: 0, wallets: 1, identities: 0, otherSessions: 1, hasPasswordLogin: true });

    expectRefused(await server.post(externalLoginPaths.removeOtherWaysIn, {}, { token: owner.token }), 400, 'password_required');
    expectRefused(await server.post(externalLoginPaths.removeOtherWaysIn, { password: 'Wrong123pass' }, { token: owner.token }),
      400, 'credentials_invalid');
    expect(await waysIn()).toEqual(before);
    expect((await server.get(paths.myUserInfo, {}, { token: other })).status).toBe(200);

    const removed = expectOk(await server.post(externalLoginPaths.removeOtherWaysIn, { password: owner.password }, { token: owner.token }));
    expect(removed.body.result).toEqual({ passkeys: 0, wallets: 1, identities: 0, otherSessions: 1 });
    expect(await waysIn()).toEqual({ passkeys: 0, wallets: 0, identities: 0, otherSessions: 0, hasPasswordLogin: true });
    expect(await walletRow(server, link.wallet.address)).toBeUndefined();
    expectRefused(await server.get(paths.myUserInfo, {}, { token: other }), 401, 'unauthorized');
    expect(server.outbox(owner.email!).at(-1)?.text).toContain('only your password opens it now');
  });

  it('keeps the ways into an account that has no password login', async () => {
    const first = await signed(server);
    const token = expectOk(await server.post(externalLoginPaths.siweLogin, { message: first.message, signature: first.signature })).body.result.token;
    expectRefused(await server.post(externalLoginPaths.removeOtherWaysIn, {}, { token }), 409, 'last_login_method');
    expect(await walletRow(server, first.wallet.address)).toBeDefined();
  });
}, { databases: 'embedded' });
