// Back-office user search (GET /api/admin/users): what a query matches (e-mail, phone and user
// name prefixes in any case, an exact user id or wallet address), each match's security state from
// the identity tables (rows inserted directly where the owning feature is another area's), that no
// secret is answered, that every search is audited, and the operator guard — on every database.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { kycAdminPaths } from '../../../src/api/contract/identity.ts';
import {
  auditLog, kycApplications, loginHistory, sessions, userOidcIdentities, userPasskeys, userRecoveryCodes, userTotp, userWallets, users,
} from '../../../server/db/schema.ts';
import { createOperator, operatorLogin } from '../adminHelpers.ts';
import { expectOk, expectRefused, forEachDatabase, type TestServer } from '../helpers.ts';

const hourMs = 3_600_000;

forEachDatabase((server: TestServer) => {
  const search = async (token: string, q: string, extra: Record<string, string> = {}) =>
    server.get(kycAdminPaths.users, { q, ...extra }, { token });
  let adminToken = '';
  const admin = async () => {
    if (!adminToken) adminToken = await operatorLogin(server, await createOperator(server, 'admin'));
    return adminToken;
  };
  const newUser = async () => {
    const account = await server.registerByEmail();
    const row = await server.userByEmail(account.email!);
    return { ...account, id: row.id };
  };

  describe('matching', () => {
    it('finds a user by e-mail prefix in any case, by exact id, and not by a middle part', async () => {
      const token = await admin();
      const user = await newUser();
      const prefix = user.email!.slice(0, user.email!.indexOf('@') - 1).toUpperCase();
      const byPrefix = expectOk(await search(token, prefix)).body.result;
      expect(byPrefix.records.map((record: { userId: string }) => record.userId)).toContain(user.id.toString());
      const byId = expectOk(await search(token, user.id.toString())).body.result;
      expect(byId.records.map((record: { userId: string }) => record.userId)).toContain(user.id.toString());
      const middle = expectOk(await search(token, user.email!.slice(3))).body.result;
      expect(middle.total).toBe(0);
    });

    it('treats % and _ as themselves, not as wildcards', async () => {
      const token = await admin();
      await newUser();
      expect(expectOk(await search(token, '%')).body.result.total).toBe(0);
      expect(expectOk(await search(token, '_')).body.result.total).toBe(0);
    });

    it('finds a phone account by its digits with or without the country code, and a guest by user name', async () => {
      const token = await admin();
      const phone = await server.registerByPhone();
      const [row] = await server.db.select().from(users).where(eq(users.phone, phone.phone!));
      const ids = (reply: { body: { result: { records: Array<{ userId: string; account: string }> } } }) =>
        reply.body.result.records.map((record) => record.userId);
      expect(ids(expectOk(await search(token, phone.phone!.slice(0, 7))))).toContain(row.id.toString());
      expect(ids(expectOk(await search(token, `+44 ${phone.phone}`)))).toContain(row.id.toString());
      const found = expectOk(await search(token, phone.phone!)).body.result.records
        .find((record: { userId: string }) => record.userId === row.id.toString());
      expect(found.account).toBe(`+44 ${phone.phone}`);

      const username = server.unique('Guest').slice(0, 20);
      const [guest] = await server.db.insert(users).values({
        username, passwordHash: 'x', isGuest: true, inviteCode: server.unique('i').slice(0, 12),
      }).returning({ id: users.id });
      const byName = expectOk(await search(token, username.toLowerCase())).body.result.records;
      expect(byName.map((record: { userId: string }) => record.userId)).toEqual([guest.id.toString()]);
      expect(byName[0].account).toBe(username);
    });

    it('finds the owner of an exact wallet address in any case', async () => {
      const token = await admin();
      const user = await newUser();
      const address = `0x${'ab'.repeat(19)}${(Number(user.id) % 256).toString(16).padStart(2, '0')}`;
      await server.db.insert(userWallets).values({ address, userId: user.id, chainId: 1 });
      const found = expectOk(await search(token, address.toUpperCase().replace('0X', '0x'))).body.result.records;
      expect(found.map((record: { userId: string }) => record.userId)).toEqual([user.id.toString()]);
      expect(found[0].wallets).toEqual([address]);
    });

    it('pages the matches, newest account first', async () => {
      const token = await admin();
      const stem = server.unique('pg');
      const made = [];
      for (let index = 0; index < 3; index += 1) made.push(await server.registerByEmail(`${stem}${index}@example.com`));
      const first = expectOk(await search(token, stem, { pageSize: '2', pageNo: '1' })).body.result;
      expect(first).toMatchObject({ total: 3, size: 2, current: 1, pages: 2 });
      expect(first.records.map((record: { account: string }) => record.account)).toEqual([`${stem}2@example.com`, `${stem}1@example.com`]);
      const second = expectOk(await search(token, stem, { pageSize: '2', pageNo: '2' })).body.result;
      expect(second.records.map((record: { account: string }) => record.account)).toEqual([`${stem}0@example.com`]);
    });
  });

  describe('security state', () => {
    it('answers a fresh account as unverified with one session and its registration login', async () => {
      const token = await admin();
      const user = await newUser();
      const [record] = expectOk(await search(token, user.id.toString())).body.result.records;
      expect(record).toMatchObject({
        userId: user.id.toString(), account: user.email, kycLevel: 0, kycPending: false, googleBound: false, recoveryCodesLeft: 0,
        passkeys: 0, wallets: [], oidcProviders: [], activeSessions: 1, failedLogins24h: 0,
      });
      expect(record.createdAt).toBeGreaterThan(0);
    });

    it('counts what is bound and used, from each table, and answers no secret', async () => {
      const user = await newUser();
      // The registration's own login (if login history records it) is older than the lines below.
      server.clock.advance(2 * hourMs);
      adminToken = '';
      const token = await admin();
      const now = server.clock.now();
      const ago = (ms: number) => new Date(now.getTime() - ms);
      await server.db.insert(kycApplications).values([
        { userId: user.id, level: 1, status: 'rejected', details: {}, reason: 'blurry', createdAt: ago(3 * hourMs) },
        { userId: user.id, level: 1, status: 'approved', details: {}, createdAt: ago(2 * hourMs) },
        { userId: user.id, level: 2, status: 'pending', details: {}, createdAt: ago(hourMs) },
      ]);
      await server.db.insert(userTotp).values({ userId: user.id, secretEncrypted: 'SEALED-SECRET-VALUE', boundAt: now });
      await server.db.insert(userRecoveryCodes).values([
        { userId: user.id, codeHash: 'HASH-ONE' }, { userId: user.id, codeHash: 'HASH-TWO' },
        { userId: user.id, codeHash: 'HASH-USED', usedAt: now },
      ]);
      await server.db.insert(userPasskeys).values([
        { credentialId: server.unique('cred-a'), userId: user.id, publicKey: 'PUBLIC-KEY-A' },
        { credentialId: server.unique('cred-b'), userId: user.id, publicKey: 'PUBLIC-KEY-B' },
      ]);
      await server.db.insert(userOidcIdentities).values([
        { provider: 'google', issuer: 'https://accounts.example', subject: server.unique('sub'), userId: user.id },
        { provider: 'apple', issuer: 'https://apple.example', subject: server.unique('sub'), userId: user.id },
      ]);
      // Sessions: the registration's (live), one revoked, one past its expiry, one idle too long.
      const session = (hash: string, values: Partial<typeof sessions.$inferInsert>) => ({
        userId: user.id, tokenHash: server.unique(hash).padEnd(64, '0').slice(0, 64), lastUsedAt: now,
        expiresAt: new Date(now.getTime() + hourMs), ...values,
      });
      await server.db.insert(sessions).values([
        session('revoked', { revokedAt: now }),
        session('expired', { expiresAt: ago(1) }),
        session('idle', { lastUsedAt: ago(server.limits.sessionIdleMs + 1) }),
        session('live', {}),
      ]);
      await server.db.insert(loginHistory).values([
        { userId: user.id, method: 'password', success: true, ip: '192.0.2.7', createdAt: ago(2 * hourMs) },
        { userId: user.id, method: 'password', success: true, ip: '192.0.2.9', createdAt: ago(hourMs) },
        { userId: user.id, method: 'password', success: false, ip: '192.0.2.66', createdAt: ago(hourMs / 2) },
        { userId: user.id, method: 'google', success: false, ip: '192.0.2.66', createdAt: ago(hourMs / 4) },
        { userId: user.id, method: 'password', success: false, ip: '192.0.2.66', createdAt: ago(25 * hourMs) },
      ]);

      const reply = expectOk(await search(token, user.email!));
      const [record] = reply.body.result.records;
      expect(record).toMatchObject({
        kycLevel: 1, kycPending: true, googleBound: true, recoveryCodesLeft: 2, passkeys: 2, oidcProviders: ['apple', 'google'],
        activeSessions: 2, lastLoginAt: now.getTime() - hourMs, lastLoginIp: '192.0.2.9', failedLogins24h: 2,
      });
      const text = JSON.stringify(reply.body);
      for (const secret of ['SEALED-SECRET-VALUE', 'HASH-ONE', 'PUBLIC-KEY-A', 'passwordHash', 'tokenHash', 'codeHash', 'secret']) {
        expect(text).not.toContain(secret);
      }
    });

    it('keeps one user\'s rows out of another user\'s state', async () => {
      const token = await admin();
      const owner = await newUser();
      const other = await newUser();
      await server.db.insert(userTotp).values({ userId: owner.id, secretEncrypted: 'x', boundAt: server.clock.now() });
      await server.db.insert(userPasskeys).values({ credentialId: server.unique('cred'), userId: owner.id, publicKey: 'k' });
      const [record] = expectOk(await search(token, other.id.toString())).body.result.records;
      expect(record).toMatchObject({ userId: other.id.toString(), googleBound: false, passkeys: 0 });
    });
  });

  describe('audit and access', () => {
    it('records who searched for what', async () => {
      const op = await createOperator(server, 'finance');
      const token = await operatorLogin(server, op);
      const user = await newUser();
      expectOk(await search(token, user.email!));
      const [entry] = await server.db.select().from(auditLog).where(eq(auditLog.action, 'user.search'))
        .orderBy(auditLog.id).then((rows) => rows.slice(-1));
      expect(entry).toMatchObject({ targetType: 'user', targetId: user.id.toString(), userId: user.id });
      expect(entry.after).toMatchObject({ q: user.email, total: 1 });
    });

    it('refuses a user token, no token, an empty query and a query too long, changing nothing', async () => {
      const user = await newUser();
      expectRefused(await server.get(kycAdminPaths.users, { q: 'a' }), 401, 'unauthorized');
      expectRefused(await server.get(kycAdminPaths.users, { q: 'a' }, { token: user.token }), 401, 'unauthorized');
      const token = await admin();
      const before = (await server.db.select().from(auditLog)).length;
      expectRefused(await search(token, ''), 400, 'invalid_request');
      expectRefused(await search(token, 'x'.repeat(255)), 400, 'invalid_request');
      expectRefused(await server.get(kycAdminPaths.users, {}, { token }), 400, 'invalid_request');
      expect((await server.db.select().from(auditLog)).length).toBe(before);
    });
  });
});
