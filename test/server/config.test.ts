// The demo account and the demo operator (credentials published in the README) are seeded by
// default only on the embedded database; a PostgreSQL install gets them only when it asks.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';

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
