// Contract positions through the real protocol (issue 10): opening moves margin and fee out of
// spot in one transaction, every bad input is refused with nothing moved, the same clientOrderId
// opens once (even twice at once), a closed position's receipt recomputes to the ledger movement,
// take-profit, stop-loss and liquidation settle through settleOnTick at ticks the test records, a
// close racing a trigger settles once, and demo never touches real money. The ledger check
// (conservation per asset and ledger, house included) passes after every test.
import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { closePositionPath, tradePaths, ticksSpanMaxMs, type Position } from '../../../src/api/contract/trading.ts';
import { parseAmount } from '../../../src/api/contract/amounts.ts';
import * as math from '../../../src/api/contract/tradingMath.ts';
import { settleOnTick } from '../../../server/domain/core/trading/positions.ts';
import { expectOk, expectRefused, forEachDatabase, type Reply, type TestServer } from '../helpers.ts';
import {
  duringSettlementAt, expectLedgerSound, freshTick, fundsMovementOf, fundsOf, moneySnapshot, opened, openPosition, recordTick, trader, usdt,
} from './positionHelpers.ts';

const btc = { pricePrecision: 2, quantityPrecision: 4 };
const price = (text: string, precision = 2) => {
  const parsed = parseAmount(text, precision);
  if (!parsed.ok) throw new Error(text);
  return parsed.atomic;
};

const depsOf = (server: TestServer) => ({ db: server.db, clock: server.clock, userEvents: server.services.userEvents, competitions: server.services.ports.competitions });

async function positionRow(server: TestServer, id: string) {
  const [row] = await server.query<{ status: string; version: number; close_reason: string | null; shortfall: string | null }>(sql`
    select status, version, close_reason, shortfall::text from trade_positions where id = ${id}::bigint`);
  return row;
}

async function transfersOf(server: TestServer, id: string) {
  return server.query<{ id: string; kind: string; amount: string }>(sql`select id, kind, amount::text from ledger_transfers
    where reference = ${`position:${id}`} order by seq`);
}

/** Recomputes a receipt from its own ticks and figures by the README's formulas. */
function recompute(position: Position) {
  const receipt = position.receipt!;
  const spread = price(position.spread);
  const direction = position.direction;
  const entry = math.entryPrice(direction, price(receipt.entryTick.price), spread);
  const exit = math.exitPrice(direction, price(receipt.exitTick.price), spread);
  expect(String(entry)).toBe(String(price(receipt.entryPrice)));
  expect(String(exit)).toBe(String(price(receipt.exitPrice)));
  const quantity = price(receipt.quantity, 4);
  const feePpm = math.parseRate(position.feeRate)!;
  const openFee = math.feeOf(math.notional(btc, quantity, entry), feePpm);
  const settlement = math.settle(btc, { direction, quantity, entryPrice: entry, margin: usdt(receipt.margin), openFee, feePpm }, exit);
  expect({
    grossPnl: receipt.grossPnl, pnl: receipt.pnl, shortfall: receipt.shortfall, openFee: receipt.openFee, closeFee: receipt.closeFee,
    payout: receipt.payout, balanceChange: receipt.balanceChange,
  }).toEqual({
    grossPnl: fmt(settlement.grossPnl), pnl: fmt(settlement.pnl), shortfall: fmt(settlement.shortfall), openFee: fmt(openFee),
    closeFee: fmt(settlement.closeFee), payout: fmt(settlement.payout), balanceChange: fmt(settlement.balanceChange),
  });
  expect(usdt(receipt.fee)).toBe(openFee + settlement.closeFee);
  return settlement;
}
const fmt = (atomic: bigint) => {
  const negative = atomic < 0n;
  const digits = (negative ? -atomic : atomic).toString().padStart(7, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`;
};

forEachDatabase((server) => {
  afterEach(() => expectLedgerSound(server));

  async function refusedUnmoved(send: () => Promise<Reply>, status: number, error: string) {
    const before = await moneySnapshot(server);
    const answer = await send();
    expectRefused(answer, status, error);
    expect(await moneySnapshot(server)).toEqual(before);
    return answer;
  }

  describe('settings and ticks', () => {
    it('lists every symbol\'s settings, with the ones contracts cannot settle disabled', async () => {
      const settings = expectOk(await server.get(tradePaths.settings)).body.result as Array<Record<string, unknown>>;
      expect(settings.find((row) => row.symbol === 'BTCUSDT')).toMatchObject({
        enabled: true, leverages: [1, 2, 5, 10, 20, 50, 100], pricePrecision: 2, quantityPrecision: 4, feeRate: '0.0005',
        maintenanceMarginRate: '0.005', spread: '13.46', open: true, marginMin: '1.000000',
      });
      expect(settings.find((row) => row.symbol === 'USDJPY')).toMatchObject({ enabled: false });
    });

    it('answers the recorded ticks oldest first, and refuses a span too long', async () => {
      const first = await freshTick(server, 'ETHUSDT', '3000.00');
      const second = await recordTick(server, 'ETHUSDT', '3001.50', first.timeMs + 500);
      const answer = expectOk(await server.get(tradePaths.ticks, {
        symbol: 'ETHUSDT', from: String(first.timeMs), to: String(second.timeMs),
      })).body.result;
      expect(answer).toEqual([
        { id: String(first.id), symbol: 'ETHUSDT', price: '3000.00', time: first.timeMs, source: 'test' },
        { id: String(second.id), symbol: 'ETHUSDT', price: '3001.50', time: second.timeMs, source: 'test' },
      ]);
      expectRefused(await server.get(tradePaths.ticks, { symbol: 'ETHUSDT', from: '0', to: String(ticksSpanMaxMs + 1) }), 400, 'invalid_request');
      expectRefused(await server.get(tradePaths.ticks, { symbol: 'ETHUSDT', from: '10', to: '5' }), 400, 'invalid_request');
      expectRefused(await server.get(tradePaths.ticks, { symbol: 'NOPEUSDT', from: '0', to: '5' }), 404, 'unknown_symbol');
    });
  });

  describe('opening', () => {
    // PGlite runs one transaction at a time: there is nothing to race.
    it.skipIf(server.kind !== 'postgres')('an open and a settlement at the same tick lock in one order: accounts, then the tick', async () => {
      const user = await trader(server, '1000');
      const tick = await freshTick(server, 'BTCUSDT', '60000.00');
      // The open waits for the accounts a settlement at the same tick holds, and then goes through.
      expectOk(await duringSettlementAt(server, user.userId, 'USDT', tick.id, () => openPosition(server, user)));
      await expectLedgerSound(server);
    });

    it('opens a long at the tick plus half the spread, moving margin and fee out of spot in one batch', async () => {
      const user = await trader(server, '1000');
      const tick = await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, user, { margin: '100', leverage: 10, takeProfit: '65000', stopLoss: '58000.5' });
      // entry 60000.00 + 13.46 / 2; quantity ⌊100 × 10 / 60006.73⌋ in 0.0001 BTC; margin ⌈notional / 10⌉; fee 0.05 % of the notional.
      expect(position).toMatchObject({
        symbol: 'BTCUSDT', direction: 'long', leverage: 10, openPrice: '60006.73', quantity: '0.0166', margin: '99.611172',
        openFee: '0.498055', takeProfit: '65000.00', stopLoss: '58000.50', status: 'running', demo: false, pnl: null, receipt: null,
        closePrice: null, feeRate: '0.0005', spread: '13.46',
        entryTick: { id: String(tick.id), price: '60000.00', time: tick.timeMs, source: 'test', symbol: 'BTCUSDT' },
      });
      expect(position.liquidationPrice).toBe(fmtPrice(math.liquidationPrice(btc, 'long', 166n, 6000673n, 99_611_172n, 5000)!));
      expect(await fundsOf(server, user.userId)).toBe(usdt(1000) - 99_611_172n - 498_055n);
      expect(await fundsMovementOf(server, user.userId, position.id)).toBe(-(99_611_172n + 498_055n));
      expect((await transfersOf(server, position.id)).map((row) => [row.id, row.kind])).toEqual([
        [`pos:${position.id}:margin`, 'trade_margin'], [`pos:${position.id}:open_fee`, 'trade_fee'],
      ]);
      const [retained] = await server.query<{ retained: boolean }>(sql`select retained from market_ticks where id = ${tick.id}`);
      expect(retained.retained).toBe(true);
      const page = expectOk(await server.get(tradePaths.listPositions, { status: 'running' }, { token: user.token })).body.result;
      expect(page).toMatchObject({ total: 1, current: 1, size: 10, pages: 1 });
      expect(page.records[0]).toEqual(position);
      expect(expectOk(await server.get(tradePaths.getPosition, { id: position.id }, { token: user.token })).body.result).toEqual(position);
      const summary = expectOk(await server.get(tradePaths.summary, {}, { token: user.token })).body.result;
      // At the last tick the long would close at 60000.00 − 6.73: 0.0166 × −13.46 = −0.223436.
      expect(summary).toEqual({
        demo: false, available: fmt(usdt(1000) - 99_611_172n - 498_055n), margin: '99.611172', unrealisedPnl: '-0.223436',
        equity: fmt(99_611_172n - 223_436n), openPositions: 1,
      });
    });

    it('sizes by quantity, and opens a short at the tick minus half the spread', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, user, { direction: 'short', margin: undefined, quantity: '0.01', leverage: 20, takeProfit: '55000', stopLoss: '61000' });
      // notional 0.01 × 59993.27 = 599.9327; margin ⌈/20⌉ = 29.996635; fee 0.299966.
      expect(position).toMatchObject({ openPrice: '59993.27', quantity: '0.0100', margin: '29.996635', openFee: '0.299966' });
      expect(await fundsOf(server, user.userId)).toBe(usdt(1000) - usdt('29.996635') - usdt('0.299966'));
    });

    it('refuses every bad input with a clear message, and moves nothing', async () => {
      const user = await trader(server, '100');
      await freshTick(server, 'BTCUSDT', '60000.00');
      await refusedUnmoved(() => openPosition(server, user, { leverage: 3 }), 400, 'leverage_not_offered');
      await refusedUnmoved(() => openPosition(server, user, { margin: undefined }), 400, 'size_required');
      await refusedUnmoved(() => openPosition(server, user, { quantity: '0.01' }), 400, 'size_required');
      await refusedUnmoved(() => openPosition(server, user, { margin: '0.5' }), 400, 'margin_too_small');
      await refusedUnmoved(() => openPosition(server, user, { margin: '1000001' }), 400, 'margin_too_large');
      await refusedUnmoved(() => openPosition(server, user, { margin: '1', leverage: 1 }), 400, 'quantity_too_small');
      await refusedUnmoved(() => openPosition(server, user, { margin: undefined, quantity: '1000000001' }), 400, 'quantity_too_large');
      await refusedUnmoved(() => openPosition(server, user, { margin: undefined, quantity: '0.00001' }), 400, 'amount_too_many_decimals');
      await refusedUnmoved(() => openPosition(server, user, { margin: '1.2.3' }), 400, 'amount_malformed');
      await refusedUnmoved(() => openPosition(server, user, { takeProfit: '59000' }), 400, 'take_profit_wrong_side');
      await refusedUnmoved(() => openPosition(server, user, { stopLoss: '61000' }), 400, 'stop_loss_wrong_side');
      await refusedUnmoved(() => openPosition(server, user, { direction: 'short', takeProfit: '61000' }), 400, 'take_profit_wrong_side');
      await refusedUnmoved(() => openPosition(server, user, { direction: 'short', stopLoss: '59000' }), 400, 'stop_loss_wrong_side');
      await refusedUnmoved(() => openPosition(server, user, { takeProfit: '65000.123' }), 400, 'price_invalid');
      await refusedUnmoved(() => openPosition(server, user, { stopLoss: '0' }), 400, 'price_invalid');
      await refusedUnmoved(() => openPosition(server, user, { margin: '99.9' }), 400, 'balance_insufficient');
      await refusedUnmoved(() => openPosition(server, user, { symbol: 'NOPEUSDT' }), 400, 'symbol_not_tradable');
      await refusedUnmoved(() => openPosition(server, user, { symbol: 'USDJPY' }), 400, 'symbol_not_tradable');
      await refusedUnmoved(() => openPosition(server, user, { symbol: 'ETHUSDT' }), 400, 'price_unavailable');
      expect(await fundsOf(server, user.userId)).toBe(usdt(100));
      // A refused open keeps its clientOrderId free: the same id then opens.
      const clientOrderId = server.unique('retry-');
      await refusedUnmoved(() => openPosition(server, user, { margin: '99.9', clientOrderId }), 400, 'balance_insufficient');
      expectOk(await openPosition(server, user, { margin: '50', clientOrderId }));
    });

    it('answers the first position to a retry with the same clientOrderId, and refuses it with other fields', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const clientOrderId = server.unique('order-');
      const first = await opened(server, user, { clientOrderId });
      await freshTick(server, 'BTCUSDT', '61000.00');
      const before = await moneySnapshot(server);
      expect(await opened(server, user, { clientOrderId })).toEqual(first);
      expect(await moneySnapshot(server)).toEqual(before);
      await refusedUnmoved(() => openPosition(server, user, { clientOrderId, margin: '101' }), 409, 'client_order_id_reused');
      await refusedUnmoved(() => openPosition(server, user, { clientOrderId, direction: 'short' }), 409, 'client_order_id_reused');
    });

    it('opens one position when the same clientOrderId arrives five times at once', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const clientOrderId = server.unique('order-');
      const answers = await Promise.all(Array.from({ length: 5 }, () => openPosition(server, user, { clientOrderId })));
      const ids = answers.map((answer) => expectOk(answer).body.result.id);
      expect(new Set(ids).size).toBe(1);
      const [{ n }] = await server.query<{ n: number }>(sql`select count(*)::int as n from trade_positions where client_order_id = ${clientOrderId}`);
      expect(n).toBe(1);
      expect(await fundsOf(server, user.userId)).toBe(usdt(1000) - usdt('99.611172') - usdt('0.498055'));
    });
  });

  describe('closing, changing levels, receipts', () => {
    it('closes at the last tick; the receipt recomputes and the spot balance moved by exactly pnl − fee', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const before = await fundsOf(server, user.userId);
      const position = await opened(server, user, { margin: '200', leverage: 5 });
      const exitTick = await freshTick(server, 'BTCUSDT', '61234.56');
      const closed = expectOk(await server.post(closePositionPath(position.id), {}, { token: user.token })).body.result as Position;
      expect(closed).toMatchObject({ status: 'closed', closePrice: '61227.83', receipt: { reason: 'user', exitTick: { id: String(exitTick.id) } } });
      const settlement = recompute(closed);
      expect(settlement.grossPnl > 0n).toBe(true);
      expect(closed.pnl).toBe(closed.receipt!.pnl);
      expect(usdt(closed.receipt!.balanceChange)).toBe(usdt(closed.receipt!.pnl) - usdt(closed.receipt!.fee));
      expect(await fundsOf(server, user.userId) - before).toBe(usdt(closed.receipt!.balanceChange));
      expect(await fundsMovementOf(server, user.userId, position.id)).toBe(usdt(closed.receipt!.balanceChange));
      expect((await transfersOf(server, position.id)).map((row) => row.kind)).toEqual(['trade_margin', 'trade_fee', 'trade_margin', 'trade_pnl', 'trade_fee']);
      const listed = expectOk(await server.get(tradePaths.listPositions, { status: 'closed' }, { token: user.token })).body.result;
      expect(listed.records).toEqual([closed]);
      const summary = expectOk(await server.get(tradePaths.summary, {}, { token: user.token })).body.result;
      expect(summary).toMatchObject({ margin: '0.000000', unrealisedPnl: '0.000000', openPositions: 0 });
    });

    it('answers the summary of a user who never traded without writing anything', async () => {
      const user = await trader(server, '0');
      const before = await moneySnapshot(server);
      expect(expectOk(await server.get(tradePaths.summary, { demo: 'true' }, { token: user.token })).body.result).toEqual({
        demo: true, available: '0.000000', margin: '0.000000', unrealisedPnl: '0.000000', equity: '0.000000', openPositions: 0,
      });
      expect(await moneySnapshot(server)).toEqual(before);
    });

    it('changes take-profit and stop-loss (an omitted one is removed), checked against the current price', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, user, { takeProfit: '65000', stopLoss: '58000' });
      const changed = expectOk(await server.post(tradePaths.updateStopLoss, { id: position.id, stopLoss: '59000' }, { token: user.token })).body.result;
      expect(changed).toMatchObject({ stopLoss: '59000.00', takeProfit: null });
      expect((await positionRow(server, position.id)).version).toBe(2);
      await refusedUnmoved(() => server.post(tradePaths.updateStopLoss, { id: position.id, stopLoss: '60500' }, { token: user.token }),
        400, 'stop_loss_wrong_side');
      await refusedUnmoved(() => server.post(tradePaths.updateStopLoss, { id: position.id, takeProfit: '59000' }, { token: user.token }),
        400, 'take_profit_wrong_side');
      await refusedUnmoved(() => server.post(tradePaths.updateStopLoss, { id: position.id, takeProfit: '1.001' }, { token: user.token }),
        400, 'price_invalid');
      expect((await positionRow(server, position.id)).version).toBe(2);
    });

    it('refuses another user\'s position, a double close and an unknown id, moving nothing', async () => {
      const owner = await trader(server, '1000');
      const other = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, owner);
      await refusedUnmoved(() => server.post(closePositionPath(position.id), {}, { token: other.token }), 404, 'position_not_found');
      await refusedUnmoved(() => server.post(tradePaths.updateStopLoss, { id: position.id, stopLoss: '59000' }, { token: other.token }),
        404, 'position_not_found');
      expectRefused(await server.get(tradePaths.getPosition, { id: position.id }, { token: other.token }), 404, 'position_not_found');
      await refusedUnmoved(() => server.post(closePositionPath('999999999'), {}, { token: owner.token }), 404, 'position_not_found');
      expectOk(await server.post(closePositionPath(position.id), {}, { token: owner.token }));
      await refusedUnmoved(() => server.post(closePositionPath(position.id), {}, { token: owner.token }), 409, 'position_closed');
      await refusedUnmoved(() => server.post(tradePaths.updateStopLoss, { id: position.id, stopLoss: '59000' }, { token: owner.token }),
        409, 'position_closed');
    });
  });

  describe('triggers (settleOnTick)', () => {
    it('settles at the take-profit once, and a tick that reaches no level does nothing', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, user, { takeProfit: '61000', stopLoss: '59000' });
      const calm = await freshTick(server, 'BTCUSDT', '60500.00');
      expect(await settleOnTick(depsOf(server), BigInt(position.id), calm)).toBeUndefined();
      const high = await freshTick(server, 'BTCUSDT', '61010.00');
      const events: Array<[bigint, unknown]> = [];
      const stop = server.services.userEvents.subscribe((userId, event) => { events.push([userId, event]); });
      try {
        expect(await settleOnTick(depsOf(server), BigInt(position.id), high)).toBe('take_profit');
        expect(await settleOnTick(depsOf(server), BigInt(position.id), high)).toBeUndefined();
      } finally {
        stop();
      }
      // The position event and the take-profit message's (issue 21) to the owner's own channel,
      // after the commit; none for the second call.
      expect(events).toEqual([
        [user.userId, { kind: 'position', demo: false, id: position.id, status: 'closed' }],
        [user.userId, { kind: 'message', demo: false }],
      ]);
      const closed = expectOk(await server.get(tradePaths.getPosition, { id: position.id }, { token: user.token })).body.result;
      expect(closed.receipt).toMatchObject({ reason: 'take_profit', exitPrice: '61003.27', exitTick: { id: String(high.id) } });
      recompute(closed);
      expect(await fundsMovementOf(server, user.userId, position.id)).toBe(usdt(closed.receipt.balanceChange));
    });

    it('settles a short at its stop-loss', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, user, { direction: 'short', stopLoss: '60500' });
      const tick = await freshTick(server, 'BTCUSDT', '60600.00');
      expect(await settleOnTick(depsOf(server), BigInt(position.id), tick)).toBe('stop_loss');
      const closed = expectOk(await server.get(tradePaths.getPosition, { id: position.id }, { token: user.token })).body.result;
      const settlement = recompute(closed);
      expect(settlement.pnl < 0n).toBe(true);
      expect(await fundsMovementOf(server, user.userId, position.id)).toBe(usdt(closed.receipt.balanceChange));
    });

    it('liquidates through a gap: the loss stops at the margin and the house bears the shortfall, recorded', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, user, { margin: '100', leverage: 10 });
      const gap = await freshTick(server, 'BTCUSDT', '50000.00');
      expect(await settleOnTick(depsOf(server), BigInt(position.id), gap)).toBe('liquidation');
      const closed = expectOk(await server.get(tradePaths.getPosition, { id: position.id }, { token: user.token })).body.result;
      // gross = 0.0166 × (49993.27 − 60006.73) = −166.223436; the margin 99.611172 is all that is lost.
      expect(closed.receipt).toMatchObject({
        reason: 'liquidation', grossPnl: '-166.223436', pnl: '-99.611172', shortfall: '66.612264', closeFee: '0.000000',
        payout: '0.000000', balanceChange: '-100.109227',
      });
      recompute(closed);
      expect(await fundsMovementOf(server, user.userId, position.id)).toBe(-usdt('100.109227'));
      expect((await positionRow(server, position.id)).shortfall).toBe('66612264');
    });

    it('does nothing on a stale trigger: the levels the engine saw were moved meanwhile', async () => {
      const user = await trader(server, '1000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const position = await opened(server, user, { stopLoss: '59000' });
      expectOk(await server.post(tradePaths.updateStopLoss, { id: position.id, stopLoss: '58000' }, { token: user.token }));
      const tick = await freshTick(server, 'BTCUSDT', '58900.00');
      const before = await moneySnapshot(server);
      expect(await settleOnTick(depsOf(server), BigInt(position.id), tick)).toBeUndefined();
      expect(await moneySnapshot(server)).toEqual(before);
      expect((await positionRow(server, position.id)).status).toBe('running');
    });

    it('settles once when the user\'s close races a trigger', async () => {
      for (let round = 0; round < 3; round += 1) {
        const user = await trader(server, '1000');
        await freshTick(server, 'BTCUSDT', '60000.00');
        const position = await opened(server, user, { stopLoss: '59500' });
        const tick = await freshTick(server, 'BTCUSDT', '59400.00');
        const [close, trigger] = await Promise.all([
          server.post(closePositionPath(position.id), {}, { token: user.token }),
          settleOnTick(depsOf(server), BigInt(position.id), tick),
        ]);
        const closedByUser = close.status === 200;
        if (!closedByUser) expectRefused(close, 409, 'position_closed');
        expect(closedByUser === (trigger === undefined)).toBe(true);
        const kinds = (await transfersOf(server, position.id)).map((row) => row.id);
        expect(kinds.filter((id) => id.endsWith(':release'))).toHaveLength(1);
        const row = await positionRow(server, position.id);
        expect(row).toMatchObject({ status: 'closed', close_reason: closedByUser ? 'user' : 'stop_loss' });
        const closed = expectOk(await server.get(tradePaths.getPosition, { id: position.id }, { token: user.token })).body.result;
        expect(await fundsMovementOf(server, user.userId, position.id)).toBe(usdt(closed.receipt.balanceChange));
      }
    });
  });

  describe('demo', () => {
    it('trades demo funds without touching real money, and the two never show in each other\'s lists', async () => {
      const user = await trader(server, '500', '100000');
      await freshTick(server, 'BTCUSDT', '60000.00');
      const clientOrderId = server.unique('order-');
      const demo = await opened(server, user, { demo: true, margin: '1000', clientOrderId });
      expect(demo.demo).toBe(true);
      expect(await fundsOf(server, user.userId)).toBe(usdt(500));
      expect(await fundsOf(server, user.userId, true)).toBe(usdt(100000) - usdt(demo.margin) - usdt(demo.openFee));
      // The same clientOrderId in the real ledger is another order: it opens (and the real balance refuses 1000).
      expectRefused(await openPosition(server, user, { margin: '1000', clientOrderId }), 400, 'balance_insufficient');
      const real = await opened(server, user, { margin: '100', clientOrderId });
      expect(real.id).not.toBe(demo.id);
      const realList = expectOk(await server.get(tradePaths.listPositions, {}, { token: user.token })).body.result;
      const demoList = expectOk(await server.get(tradePaths.listPositions, { demo: 'true' }, { token: user.token })).body.result;
      expect(realList.records.map((row: Position) => row.id)).toEqual([real.id]);
      expect(demoList.records.map((row: Position) => row.id)).toEqual([demo.id]);
      expectRefused(await server.get(tradePaths.getPosition, { id: demo.id }, { token: user.token }), 404, 'position_not_found');
      expectRefused(await server.post(closePositionPath(demo.id), {}, { token: user.token }), 404, 'position_not_found');
      const summary = expectOk(await server.get(tradePaths.summary, { demo: 'true' }, { token: user.token })).body.result;
      expect(summary).toMatchObject({ demo: true, margin: demo.margin, openPositions: 1 });
      await freshTick(server, 'BTCUSDT', '60100.00');
      const realBefore = await fundsOf(server, user.userId);
      const closed = expectOk(await server.post(`${closePositionPath(demo.id)}?demo=true`, {}, { token: user.token })).body.result;
      expect(closed).toMatchObject({ demo: true, status: 'closed' });
      recompute(closed);
      expect(await fundsOf(server, user.userId)).toBe(realBefore);
      expect(await fundsMovementOf(server, user.userId, demo.id, true)).toBe(usdt(closed.receipt.balanceChange));
      const [{ n }] = await server.query<{ n: number }>(sql`select count(*)::int as n from ledger_transfers t
        join ledger_accounts d on d.id = t.debit_account_id join ledger_accounts c on c.id = t.credit_account_id
        where t.reference = ${`position:${demo.id}`} and (d.ledger <> 2 or c.ledger <> 2)`);
      expect(n).toBe(0);
    });
  });
});

function fmtPrice(units: bigint) {
  const digits = units.toString().padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
