// Contract positions and the market's hours and prices (issue 10): EURUSD opens on a weekday and
// not on a Saturday (forex closes Friday 22:00 UTC), a position cannot be closed by its owner while
// its market is closed, a tick older than the freshness limit is no price to trade at, and a call
// without a session is refused. Every refusal moves nothing. The suite's clock walks from Monday
// to the weekend, so it has a server of its own.
import { afterEach, describe, expect, it } from 'vitest';
import { closePositionPath, tradePaths } from '../../../src/api/contract/trading.ts';
import { tickFreshnessMs } from '../../../server/domain/core/market/ticks.ts';
import { clockStart, expectOk, expectRefused, forEachDatabase, type Reply } from '../helpers.ts';
import { expectLedgerSound, fundsOf, moneySnapshot, opened, openPosition, recordTick, trader, usdt } from './positionHelpers.ts';


forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  const advanceTo = (iso: string) => server.clock.advance(Date.parse(iso) - server.clock.now().getTime());

  async function refusedUnmoved(send: () => Promise<Reply>, status: number, error: string) {
    const before = await moneySnapshot(server);
    const answer = await send();
    expectRefused(answer, status, error);
    expect(await moneySnapshot(server)).toEqual(before);
  }

  describe('prices and hours', () => {
    it('refuses a call without a session', async () => {
      expectRefused(await server.post(tradePaths.createPosition, {
        symbol: 'BTCUSDT', direction: 'long', leverage: 10, margin: '10', clientOrderId: 'no-session-1',
      }), 401, 'unauthorized');
      expectRefused(await server.get(tradePaths.summary), 401, 'unauthorized');
    });

    it('refuses a price older than the freshness limit, and trades at a fresh one', async () => {
      const user = await trader(server, '1000');
      expect(server.clock.now().getTime()).toBe(clockStart.getTime());
      await recordTick(server, 'BTCUSDT', '60000.00');
      server.clock.advance(tickFreshnessMs);
      await refusedUnmoved(() => openPosition(server, user), 400, 'price_unavailable');
      await recordTick(server, 'BTCUSDT', '60000.00', server.clock.now().getTime() - 1);
      expectOk(await openPosition(server, user));
    });

    it('opens EURUSD on a weekday; on Saturday refuses to open or close it, moving nothing', async () => {
      const user = await trader(server, '10000');
      advanceTo('2026-06-05T12:00:00.000Z'); // a Friday
      await recordTick(server, 'EURUSD', '1.08450');
      const settings = expectOk(await server.get(tradePaths.settings)).body.result as Array<{ symbol: string; open: boolean }>;
      expect(settings.find((row) => row.symbol === 'EURUSD')?.open).toBe(true);
      const position = await opened(server, user, { symbol: 'EURUSD', leverage: 100, margin: '100' });
      // entry 1.08450 + 0.00010 / 2; quantity ⌊100 × 100 / 1.08455⌋ = 9220.41 EUR (in 0.01); margin ⌈9220.41 × 1.08455 / 100⌉.
      expect(position).toMatchObject({ openPrice: '1.08455', quantity: '9220.41', margin: '99.999957', status: 'running' });
      const spotAfterOpen = await fundsOf(server, user.userId);
      expect(spotAfterOpen).toBe(usdt(10000) - usdt(position.margin) - usdt(position.openFee));

      // Friday 23:00: closed for the weekend, though the last tick is only a second old.
      advanceTo('2026-06-05T23:00:00.000Z');
      await recordTick(server, 'EURUSD', '1.08460', server.clock.now().getTime() - 1000);
      const closedSettings = expectOk(await server.get(tradePaths.settings)).body.result as Array<{ symbol: string; open: boolean; reopensAt?: number }>;
      expect(closedSettings.find((row) => row.symbol === 'EURUSD')).toMatchObject({ open: false, reopensAt: Date.parse('2026-06-07T22:00:00.000Z') });
      advanceTo('2026-06-06T12:00:00.000Z'); // Saturday noon
      await recordTick(server, 'EURUSD', '1.08460', server.clock.now().getTime() - 1000);
      await refusedUnmoved(() => openPosition(server, user, { symbol: 'EURUSD', leverage: 100, margin: '100' }), 400, 'market_closed');
      await refusedUnmoved(() => server.post(closePositionPath(position.id), {}, { token: user.token }), 400, 'market_closed');
      // Crypto trades through the weekend.
      await recordTick(server, 'BTCUSDT', '60000.00', server.clock.now().getTime() - 1000);
      expectOk(await openPosition(server, user));
      expect((await fundsOf(server, user.userId)) < spotAfterOpen).toBe(true);
    });
  });
});
