// The ccxt venue source on fixture responses: ccxt's own Binance client parses them (its HTTP
// fetch is replaced by a fixture server that refuses any other address), so no test touches the
// network. The fixtures are trimmed responses in Binance's documented format (this machine has
// no network to record live ones).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import ccxt from 'ccxt';
import { ccxtSource, compositeSource, unitsOf, type TickerVenue } from '../../server/domain/core/market/ccxtSource.ts';
import { seededSimulator, simulatorSource } from '../../server/domain/core/market/engine.ts';
import { symbolByCode } from '../../server/domain/core/market/symbols.ts';

const fixtures = path.join(import.meta.dirname, 'fixtures', 'binance');
const fixture = (name: string) => JSON.parse(fs.readFileSync(path.join(fixtures, name), 'utf8')) as unknown;
const specs = ['BTCUSDT', 'ETHUSDT', 'DOGEUSDT'].map((symbol) => symbolByCode.get(symbol)!);

function fixtureVenue() {
  const requested: string[] = [];
  let tickerPoll = 0;
  const exchange = new ccxt.binance({ options: { fetchMarkets: { types: ['spot'] }, fetchCurrencies: false } });
  (exchange as unknown as { fetch: (url: string) => Promise<unknown> }).fetch = async (url: string) => {
    requested.push(new URL(url).pathname);
    if (url.includes('/api/v3/exchangeInfo')) return fixture('exchangeInfo.json');
    if (url.includes('/api/v3/ticker/24hr')) {
      tickerPoll += 1;
      return fixture(`ticker24hr-${Math.min(tickerPoll, 2)}.json`);
    }
    throw new Error(`no fixture for ${url}`);
  };
  return { venue: exchange as unknown as TickerVenue, requested };
}

describe('the ccxt price source', () => {
  it('turns the venue\'s tickers into ticks with exact prices, named after the venue', async () => {
    const { venue, requested } = fixtureVenue();
    const source = ccxtSource(venue, specs);
    await source.init(new Map(), 0);
    const ticks = await source.ticksAt(1_795_300_000_500);
    expect(source.name).toBe('ccxt:binance');
    expect(ticks.map((tick) => [tick.symbol, tick.priceUnits, tick.source])).toEqual([
      ['BTCUSDT', 6701234n, 'ccxt:binance'],
      ['ETHUSDT', 317550n, 'ccxt:binance'],
      ['DOGEUSDT', 12351n, 'ccxt:binance'],
    ]);
    // The first poll has nothing to compare the 24 h volume with.
    expect(ticks.every((tick) => tick.volumeUnits === 0n)).toBe(true);
    expect(requested).toEqual(['/api/v3/exchangeInfo', '/api/v3/ticker/24hr']);
  });

  it('counts the growth of the 24 h volume between polls as traded volume, never a fall', async () => {
    const { venue } = fixtureVenue();
    const source = ccxtSource(venue, specs);
    await source.init(new Map(), 0);
    await source.ticksAt(1_795_300_000_500);
    const second = await source.ticksAt(1_795_300_001_500);
    const volumeOf = (symbol: string) => second.find((tick) => tick.symbol === symbol)!.volumeUnits;
    expect(volumeOf('BTCUSDT')).toBe(125_000n);
    expect(volumeOf('ETHUSDT')).toBe(0n);
    expect(volumeOf('DOGEUSDT')).toBe(5_000_000n);
    expect(second.find((tick) => tick.symbol === 'BTCUSDT')!.priceUnits).toBe(6702099n);
  });

  it('leaves forex and metals to the simulator when combined', async () => {
    const { venue } = fixtureVenue();
    const eur = symbolByCode.get('EURUSD')!;
    const source = compositeSource([ccxtSource(venue, specs), simulatorSource(seededSimulator('composite'), [eur])]);
    const monday = Date.UTC(2026, 5, 1, 4);
    await source.init(new Map(), monday);
    const ticks = await source.ticksAt(monday + 1000);
    expect(ticks.map((tick) => [tick.symbol, tick.source])).toEqual([
      ['BTCUSDT', 'ccxt:binance'], ['ETHUSDT', 'ccxt:binance'], ['DOGEUSDT', 'ccxt:binance'], ['EURUSD', 'simulator'],
    ]);
    // Known before any tick, so a closed market's ticker says whether its prices are simulated.
    expect(['BTCUSDT', 'EURUSD', 'XAUUSD'].map((symbol) => source.sourceOf?.(symbol))).toEqual(['ccxt:binance', 'simulator', undefined]);
  });

  it('cuts a venue number to the symbol precision without rounding', () => {
    expect(unitsOf(67012.349, 2)).toBe(6701234n);
    expect(unitsOf(0.0000001, 8)).toBe(10n);
    expect(unitsOf(0, 2)).toBeUndefined();
    expect(unitsOf(Number.NaN, 2)).toBeUndefined();
  });
});
