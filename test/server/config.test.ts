// The demo account and the demo operator (credentials published in the README) are seeded by
// default only on the embedded database; a PostgreSQL install gets them only when it asks.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/lib/config.ts';

describe('SEED_DEMO', () => {
  it('is on by default on the embedded database and off by default on PostgreSQL', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: '' }).seedDemo).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/bourse' }).seedDemo).toBe(false);
  });

  it('follows an explicit setting either way', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/bourse', SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
  });
});

describe('per-address limits', () => {
  it('keep their defaults unless the environment raises them', () => {
    expect(loadConfig({}).limits.codeSendsPerIpPerHour).toBe(30);
    const raised = loadConfig({ CODE_SENDS_PER_IP_PER_HOUR: '500', CODE_CHECKS_PER_IP_PER_HOUR: '900', LOGIN_ATTEMPTS_PER_IP_PER_MINUTE: '120' }).limits;
    expect([raised.codeSendsPerIpPerHour, raised.codeChecksPerIpPerHour, raised.loginAttemptsPerIpPerMinute]).toEqual([500, 900, 120]);
  });

  it('stop the start on a value that is not a whole number above zero', () => {
    for (const value of ['0', '-5', '2.5', 'lots', '1e9']) {
      expect(() => loadConfig({ CODE_SENDS_PER_IP_PER_HOUR: value }), value).toThrow(/CODE_SENDS_PER_IP_PER_HOUR/);
    }
  });
});
