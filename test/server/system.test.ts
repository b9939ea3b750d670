// Public and system calls: server time, the public key of the encrypted-body protocol, settings.
import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clockStart, expectOk, expectRefused, forEachDatabase } from './helpers.ts';
import { paths } from '../../src/api/contract/paths.ts';

forEachDatabase((server) => {
  describe('GET /api/public/getServerTime', () => {
    it('answers the server clock in milliseconds and the version of the web build', async () => {
      const first = expectOk(await server.get(paths.serverTime)).body.result;
      expect(first).toEqual({ serverTime: server.clock.now().getTime(), version: 'dev' });
      expect(first.serverTime).toBeGreaterThanOrEqual(clockStart.getTime());
      server.clock.advance(3_600_000);
      const later = expectOk(await server.get(paths.serverTime)).body.result;
      expect(later.serverTime - first.serverTime).toBe(3_600_000);
    });
  });

  describe('GET /api/public/getPublicKey', () => {
    it('answers a PEM public key (RSA 2048, SPKI) and nothing private', async () => {
      const pem = expectOk(await server.get(paths.publicKey)).body.result as string;
      expect(pem).toMatch(/^-----BEGIN PUBLIC KEY-----\n[A-Za-z0-9+/=\n]+-----END PUBLIC KEY-----\n?$/);
      expect(pem).not.toMatch(/PRIVATE/);
      const key = createPublicKey(pem);
      expect(key.asymmetricKeyType).toBe('rsa');
      expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);
    });
  });

  describe('GET /api/set/appSysSet/getKeyByParam', () => {
    it('answers the sys_set setting as a JSON string', async () => {
      const reply = expectOk(await server.get(paths.settingByKey, { key: 'sys_set' }));
      expect(typeof reply.body.result).toBe('string');
      expect(JSON.parse(reply.body.result)).toEqual({ isPcLimite: true });
    });

    it('answers an unknown key with 404 not_found', async () => {
      const reply = await server.get(paths.settingByKey, { key: 'no_such_setting' });
      expectRefused(reply, 404, 'not_found');
      expect(reply.body.message).toBe('No such setting.');
    });

    it.each([
      { name: 'a missing key', query: {} },
      { name: 'a key with other characters', query: { key: "sys_set'; drop table users;--" } },
      { name: 'an over-long key', query: { key: 'k'.repeat(65) } },
    ])('refuses $name with 400 invalid_request', async ({ query }) => {
      expectRefused(await server.get(paths.settingByKey, query as Record<string, string>), 400, 'invalid_request');
    });
  });
}, { databases: 'embedded' });
