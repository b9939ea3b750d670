// Sessions behind X-Access-Token: opaque tokens stored only as hashes, ended by logout, by an idle
// period (7 days) and at an absolute expiry (30 days) however busy the session is.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectOk, expectRefused, forEachDatabase } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';

const dayMs = 86_400_000;

forEachDatabase((server) => {
  async function newSession() {
    const account = await server.registerByEmail();
    return { ...account, user: await server.userByEmail(account.email!) };
  }

  const isLoggedIn = async (token: string) => {
    const reply = await server.get(paths.myUserInfo, {}, { token });
    if (reply.status === 200) return true;
    expectRefused(reply, 401, 'unauthorized');
    return false;
  };

  describe('sessions (X-Access-Token)', () => {
    it('stores only the SHA-256 of a 256-bit token', async () => {
      const { token, user } = await newSession();
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      const [session] = await server.sessionsOf(user.id);
      expect(session.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
      expect(JSON.stringify(session, (_key, value) => typeof value === 'bigint' ? String(value) : value)).not.toContain(token);
    });

    it('ends after the idle period without use (401), and not a moment before', async () => {
      const { token } = await newSession();
      server.clock.advance(server.limits.sessionIdleMs);
      expect(await isLoggedIn(token)).toBe(true);
      server.clock.advance(server.limits.sessionIdleMs + 1);
      expect(await isLoggedIn(token)).toBe(false);
      expectRefused(await server.post(paths.changePassword, { oldPassword: 'Secret123pass', newPassword: 'Changed4password' }, { token }),
        401, 'unauthorized');
    });

    it('stays open while it is used within every idle period', async () => {
      const { token } = await newSession();
      for (let use = 0; use < 3; use += 1) {
        server.clock.advance(server.limits.sessionIdleMs - 60_000);
        expect(await isLoggedIn(token)).toBe(true);
      }
    });

    it('ends at the absolute expiry however recently it was used', async () => {
      const { token } = await newSession();
      expect(server.limits.sessionAbsoluteMs).toBe(30 * dayMs);
      for (let day = 6; day <= 24; day += 6) {
        server.clock.advance(6 * dayMs);
        expect(await isLoggedIn(token)).toBe(true);
      }
      server.clock.advance(6 * dayMs - 1);
      expect(await isLoggedIn(token)).toBe(true);
      server.clock.advance(1);
      expect(await isLoggedIn(token)).toBe(false);
    });

    it('is not brought back by logging in again: a new session gets a new token', async () => {
      const { token, account, password } = await newSession();
      server.clock.advance(server.limits.sessionIdleMs + 1);
      expect(await isLoggedIn(token)).toBe(false);
      const fresh = expectOk(await server.post(paths.login, { account, password })).body.result.token;
      expect(fresh).not.toBe(token);
      expect(await isLoggedIn(fresh)).toBe(true);
      expect(await isLoggedIn(token)).toBe(false);
    });

    it('reads the token from X-Access-Token only', async () => {
      const { token } = await newSession();
      const asBearer = await server.get(paths.myUserInfo, {}, { headers: { authorization: `Bearer ${token}` } });
      expectRefused(asBearer, 401, 'unauthorized');
      const asCookie = await server.get(paths.myUserInfo, {}, { headers: { cookie: `token=${token}` } });
      expectRefused(asCookie, 401, 'unauthorized');
    });
  });
}, { databases: 'embedded' });
