// The optional filters of the three history lists (issue 19), through the real protocol: contract
// positions and second contracts by symbol, result (won, lost, even) and time; swaps by pair and
// time. Each filter narrows the page the server pages (total and pages follow), combines with the
// others, and a time range that ends before it starts or an unknown value is refused.
import { describe, expect, it } from 'vitest';
import { closePositionPath, tradePaths, type Position, type SecondOrder, type SwapRecord } from '../../../src/api/contract/trading.ts';
import { expectOk, expectRefused, forEachDatabase, type Account } from '../helpers.ts';
import { freshTick, opened, trader } from './positionHelpers.ts';
import { bought, freshTick as freshSecondTick, recordTicks, settlerOf } from './secondHelpers.ts';
import { fund } from '../wallet/withdrawHelpers.ts';

type Query = Record<string, string>;

const ids = (records: Array<{ id: string }>) => records.map((record) => record.id).sort();

forEachDatabase((server) => {
  const list = async <T>(path: string, user: Account, query: Query) =>
    expectOk(await server.get(path, query, { token: user.token })).body.result as { records: T[]; total: number; pages: number };

  async function closeAt(user: Account, symbol: string, entry: string, exit: string, direction = 'long') {
    await freshTick(server, symbol, entry);
    const position = await opened(server, user, { symbol, direction, margin: '100', leverage: 10 });
    await freshTick(server, symbol, exit);
    return expectOk(await server.post(closePositionPath(position.id), {}, { token: user.token })).body.result as Position;
  }

  describe('GET /trade/appTradePositions/listMy filters', () => {
    it('narrows closed positions by symbol, result net of fees and time closed, and pages what is left', async () => {
      const user = await trader(server, '2000');
      const won = await closeAt(user, 'BTCUSDT', '60000.00', '61000.00');
      const lost = await closeAt(user, 'BTCUSDT', '60000.00', '59000.00');
      const dayLater = server.clock.now().getTime();
      server.clock.advance(86_400_000);
      const ethWon = await closeAt(user, 'ETHUSDT', '3000.00', '3100.00');
      const closed = { status: 'closed', pageSize: '10' };

      expect(ids((await list<Position>(tradePaths.listPositions, user, closed)).records)).toEqual(ids([won, lost, ethWon]));
      const btc = await list<Position>(tradePaths.listPositions, user, { ...closed, symbol: 'BTCUSDT' });
      expect([ids(btc.records), btc.total]).toEqual([ids([won, lost]), 2]);
      const wins = await list<Position>(tradePaths.listPositions, user, { ...closed, result: 'won' });
      expect(ids(wins.records)).toEqual(ids([won, ethWon]));
      expect(wins.records.every((position) => !position.receipt!.balanceChange.startsWith('-'))).toBe(true);
      expect(ids((await list<Position>(tradePaths.listPositions, user, { ...closed, result: 'lost' })).records)).toEqual([lost.id]);
      expect((await list<Position>(tradePaths.listPositions, user, { ...closed, result: 'even' })).total).toBe(0);
      expect(ids((await list<Position>(tradePaths.listPositions, user, { ...closed, since: String(dayLater + 1) })).records))
        .toEqual([ethWon.id]);
      expect(ids((await list<Position>(tradePaths.listPositions, user, { ...closed, until: String(dayLater) })).records))
        .toEqual(ids([won, lost]));
      expect(ids((await list<Position>(tradePaths.listPositions, user, { ...closed, symbol: 'BTCUSDT', result: 'won' })).records))
        .toEqual([won.id]);
      const paged = await list<Position>(tradePaths.listPositions, user, { ...closed, result: 'won', pageSize: '1' });
      expect([paged.records.length, paged.total, paged.pages]).toEqual([1, 2, 2]);
    });

    it('gives a result filter only closed positions, and refuses a range that ends before it starts or an unknown result', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const running = await opened(server, user);
      expect(ids((await list<Position>(tradePaths.listPositions, user, { symbol: 'BTCUSDT' })).records)).toEqual([running.id]);
      expect((await list<Position>(tradePaths.listPositions, user, { result: 'lost' })).total).toBe(0);
      expectRefused(await server.get(tradePaths.listPositions, { since: '10', until: '5' }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.get(tradePaths.listPositions, { result: 'draw' }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.get(tradePaths.listPositions, { symbol: 'btc usdt' }, { token: user.token }), 400, 'invalid_request');
    });
  });

  describe('GET /trade/appSecondContractOrder/listMy filters', () => {
    it('narrows settled orders by symbol, result (a draw is even) and time settled', async () => {
      const user = await trader(server, '1000');
      const settler = settlerOf(server);
      await freshSecondTick(server, 'BTCUSDT', '60000.00');
      const won = await bought(server, user, { direction: 'up', duration: 120, amount: '100' }) as SecondOrder;
      const lost = await bought(server, user, { direction: 'down', duration: 120, amount: '100' }) as SecondOrder;
      const draw = await bought(server, user, { direction: 'up', duration: 30, amount: '50' }) as SecondOrder;
      const accept = won.acceptTime;
      // The draw settles 30 s after acceptance, the others 120 s after: the times the list filters on.
      server.clock.advance(30_000);
      await settler.onTicks(await recordTicks(server, 'BTCUSDT', [['60000.00', accept + 30_000]]));
      const between = server.clock.now().getTime() + 1;
      server.clock.advance(90_000);
      await settler.onTicks(await recordTicks(server, 'BTCUSDT', [['60010.00', accept + 120_000]]));
      await freshSecondTick(server, 'ETHUSDT', '3000.00');
      const open = await bought(server, user, { symbol: 'ETHUSDT', direction: 'up', duration: 60, amount: '10' }) as SecondOrder;
      const settled = { status: 'settled', pageSize: '10' };

      expect(ids((await list<SecondOrder>(tradePaths.secondList, user, settled)).records)).toEqual(ids([won, lost, draw]));
      expect(ids((await list<SecondOrder>(tradePaths.secondList, user, { result: 'won' })).records)).toEqual([won.id]);
      expect(ids((await list<SecondOrder>(tradePaths.secondList, user, { result: 'lost' })).records)).toEqual([lost.id]);
      expect(ids((await list<SecondOrder>(tradePaths.secondList, user, { result: 'even' })).records)).toEqual([draw.id]);
      expect(ids((await list<SecondOrder>(tradePaths.secondList, user, { symbol: 'ETHUSDT' })).records)).toEqual([open.id]);
      expect((await list<SecondOrder>(tradePaths.secondList, user, { ...settled, symbol: 'ETHUSDT' })).total).toBe(0);
      expect(ids((await list<SecondOrder>(tradePaths.secondList, user, { ...settled, since: String(between) })).records))
        .toEqual(ids([won, lost]));
      expect(ids((await list<SecondOrder>(tradePaths.secondList, user, { ...settled, until: String(between) })).records))
        .toEqual([draw.id]);
      expectRefused(await server.get(tradePaths.secondList, { since: '10', until: '5' }, { token: user.token }), 400, 'invalid_request');
    });
  });

  describe('GET /trade/appFlashExchangeLog/listMy filters', () => {
    async function swapped(user: Account, from: string, to: string, amount: string) {
      const quote = expectOk(await server.get(tradePaths.swapQuote, { from, to, amount }, { token: user.token })).body.result;
      return expectOk(await server.post(tradePaths.swap, { quoteId: quote.quoteId }, { token: user.token })).body.result as SwapRecord;
    }

    it('narrows swaps by the pair in its direction (either side alone) and by time', async () => {
      const user = await trader(server, '1000');
      await fund(server, user.userId, '100', 'USDC');
      const toUsdc = await swapped(user, 'USDT', 'USDC', '10');
      const middle = server.clock.now().getTime();
      server.clock.advance(3_600_000);
      const toUsdt = await swapped(user, 'USDC', 'USDT', '5');

      expect(ids((await list<SwapRecord>(tradePaths.swapList, user, {})).records)).toEqual(ids([toUsdc, toUsdt]));
      expect(ids((await list<SwapRecord>(tradePaths.swapList, user, { from: 'USDT', to: 'USDC' })).records)).toEqual([toUsdc.id]);
      expect(ids((await list<SwapRecord>(tradePaths.swapList, user, { to: 'USDT' })).records)).toEqual([toUsdt.id]);
      expect((await list<SwapRecord>(tradePaths.swapList, user, { from: 'BTC' })).total).toBe(0);
      expect(ids((await list<SwapRecord>(tradePaths.swapList, user, { since: String(middle + 1) })).records)).toEqual([toUsdt.id]);
      expect(ids((await list<SwapRecord>(tradePaths.swapList, user, { until: String(middle) })).records)).toEqual([toUsdc.id]);
      expectRefused(await server.get(tradePaths.swapList, { since: '10', until: '5' }, { token: user.token }), 400, 'invalid_request');
      expectRefused(await server.get(tradePaths.swapList, { from: 'usdt' }, { token: user.token }), 400, 'invalid_request');
    });
  });
});
