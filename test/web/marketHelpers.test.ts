// The pure helpers of the market views: exact decimal ordering, the tabs' filters and search,
// sorting, the home rankings, merging tickers from REST and the socket, reading socket payloads,
// and the display formats (truncated, never rounded).
import { describe, expect, it } from 'vitest';
import type { Ticker } from '../../src/api/contract/market.ts';
import {
  candleFromPayload, compareDecimals, filterTickers, mergeTickers, newestTickMs, nextSort, rank, rangeBasisPoints,
  sortTickers, tickersFromPayload,
} from '../../src/entities/market/tickers.ts';
import { directionOf, formatReopening, tickerPrice } from '../../src/entities/market/format.ts';
import { formatCompact } from '../../src/lib/number.ts';
import { parseSort } from '../../src/features/market/MarketPage.tsx';
import { bucketDirection, bucketLabel } from '../../src/features/market/DistributionCard.tsx';
import { searchWords } from '../../src/features/market/marketSearch.ts';
import { distributionBounds, priceDistribution } from '../../src/api/contract/marketDistribution.ts';
import { candlePeriodOf, chartPeriods, toBar } from '../../src/features/kline/chartData.ts';

function ticker(symbol: string, fields: Partial<Ticker> = {}): Ticker {
  const base = symbol.replace(/(USDT|USD)$/, '');
  const quote = symbol.slice(base.length);
  return {
    symbol, displayName: `${base}/${quote}`, base, quote, class: 'crypto', pricePrecision: 2,
    last: '100.00', open24h: '100.00', high24h: '101.00', low24h: '99.00', volume24h: '10.0000', quoteVolume24h: '1000.00',
    change24h: '0.00', changePercent24h: '0.00', open: true, time: 1_000, ...fields,
  };
}

const btc = ticker('BTCUSDT', { last: '67250.00', changePercent24h: '-3.78', quoteVolume24h: '1503502975.20', high24h: '70466.13', low24h: '66100.06', open24h: '69974.71' });
const eth = ticker('ETHUSDT', { last: '3180.25', changePercent24h: '0.50', quoteVolume24h: '962976277.98', high24h: '3281.93', low24h: '3101.36', open24h: '3164.38' });
const doge = ticker('DOGEUSDT', { last: '0.12350', pricePrecision: 5, changePercent24h: '7.10', quoteVolume24h: '358000000.00', high24h: '0.13000', low24h: '0.11500', open24h: '0.11530' });
const gold = ticker('XAUUSD', { class: 'metal', last: '2352.40', changePercent24h: '0.00', quoteVolume24h: '376000000.00', open: false });
const euro = ticker('EURUSD', { class: 'forex', last: '1.08450', pricePrecision: 5, changePercent24h: '-0.12', quoteVolume24h: '1300000000.00', high24h: '1.08600', low24h: '1.08300', open24h: '1.08580' });
const all = [btc, eth, doge, gold, euro];
const symbols = (list: Ticker[]) => list.map((item) => item.symbol);

describe('compareDecimals', () => {
  it('orders decimal strings exactly, across lengths, signs and trailing zeros', () => {
    const sorted = ['10', '-1.5', '0.0001', '9.99', '-10', '0', '-0.00', '100.000000000000000001', '100']
      .sort(compareDecimals);
    expect(sorted).toEqual(['-10', '-1.5', '0', '-0.00', '0.0001', '9.99', '10', '100', '100.000000000000000001']);
    expect(compareDecimals('1.10', '1.1')).toBe(0);
    expect(compareDecimals('-0', '0')).toBe(0);
    expect(compareDecimals('0.3', '0.30000000000000000001')).toBeLessThan(0);
  });
});

describe('filterTickers', () => {
  it('keeps a class, or the favourites, or everything', () => {
    expect(symbols(filterTickers(all, 'all', '', []))).toEqual(symbols(all));
    expect(symbols(filterTickers(all, 'crypto', '', []))).toEqual(['BTCUSDT', 'ETHUSDT', 'DOGEUSDT']);
    expect(symbols(filterTickers(all, 'metal', '', []))).toEqual(['XAUUSD']);
    expect(symbols(filterTickers(all, 'forex', '', []))).toEqual(['EURUSD']);
    expect(symbols(filterTickers(all, 'favourites', '', ['EURUSD', 'BTCUSDT']))).toEqual(['BTCUSDT', 'EURUSD']);
    expect(filterTickers(all, 'favourites', '', [])).toEqual([]);
  });

  it('searches symbol and pair, ignoring case, spaces and the slash', () => {
    expect(symbols(filterTickers(all, 'all', 'btc', []))).toEqual(['BTCUSDT']);
    expect(symbols(filterTickers(all, 'all', ' eth/usdt ', []))).toEqual(['ETHUSDT']);
    expect(symbols(filterTickers(all, 'all', 'usd', []))).toEqual(symbols(all));
    expect(symbols(filterTickers(all, 'crypto', 'xau', []))).toEqual([]);
  });
});

describe('sorting', () => {
  it('sorts by name, price, change and volume, both ways, on exact decimals', () => {
    expect(symbols(sortTickers(all, { key: 'name', direction: 'asc' }))).toEqual(['BTCUSDT', 'DOGEUSDT', 'ETHUSDT', 'EURUSD', 'XAUUSD']);
    expect(symbols(sortTickers(all, { key: 'price', direction: 'desc' }))).toEqual(['BTCUSDT', 'ETHUSDT', 'XAUUSD', 'EURUSD', 'DOGEUSDT']);
    expect(symbols(sortTickers(all, { key: 'change', direction: 'desc' }))).toEqual(['DOGEUSDT', 'ETHUSDT', 'XAUUSD', 'EURUSD', 'BTCUSDT']);
    expect(symbols(sortTickers(all, { key: 'change', direction: 'asc' }))).toEqual(['BTCUSDT', 'EURUSD', 'XAUUSD', 'ETHUSDT', 'DOGEUSDT']);
    expect(symbols(sortTickers(all, { key: 'volume', direction: 'desc' }))).toEqual(['BTCUSDT', 'EURUSD', 'ETHUSDT', 'XAUUSD', 'DOGEUSDT']);
  });

  it('keeps the server order without an order and for ties, and never changes its input', () => {
    const copy = [...all];
    expect(sortTickers(all, undefined)).toEqual(all);
    const tied = [ticker('AAAUSDT', { last: '1' }), ticker('BBBUSDT', { last: '1' })];
    expect(symbols(sortTickers(tied, { key: 'price', direction: 'desc' }))).toEqual(['AAAUSDT', 'BBBUSDT']);
    expect(all).toEqual(copy);
  });

  it('flips the direction on the same column and starts a new one in its natural order', () => {
    expect(nextSort(undefined, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort(undefined, 'price')).toEqual({ key: 'price', direction: 'desc' });
    expect(nextSort({ key: 'price', direction: 'desc' }, 'price')).toEqual({ key: 'price', direction: 'asc' });
    expect(nextSort({ key: 'price', direction: 'asc' }, 'change')).toEqual({ key: 'change', direction: 'desc' });
  });

  it('reads the order from the address and ignores anything else', () => {
    expect(parseSort('change-desc')).toEqual({ key: 'change', direction: 'desc' });
    expect(parseSort('name-asc')).toEqual({ key: 'name', direction: 'asc' });
    for (const text of [null, '', 'change', 'colour-asc', 'price-up']) expect(parseSort(text), String(text)).toBeUndefined();
  });
});

describe('home rankings', () => {
  it('ranks by traded value, gainers and losers by change (only those that rose or fell), and limits the list', () => {
    expect(symbols(rank(all, 'volume', 3))).toEqual(['BTCUSDT', 'EURUSD', 'ETHUSDT']);
    expect(symbols(rank(all, 'gainers', 5))).toEqual(['DOGEUSDT', 'ETHUSDT']);
    expect(symbols(rank(all, 'losers', 5))).toEqual(['BTCUSDT', 'EURUSD']);
  });

  it('calls hot the widest 24 h range relative to the open, whichever way the day ended', () => {
    expect(rangeBasisPoints(doge)).toBe(1300n); // (0.13000 - 0.11500) / 0.11530 = 13.0 %
    expect(rangeBasisPoints(btc)).toBe(623n);
    expect(symbols(rank(all, 'hot', 5))).toEqual(['DOGEUSDT', 'BTCUSDT', 'ETHUSDT', 'XAUUSD', 'EURUSD']);
    expect(rangeBasisPoints(ticker('ZZZUSDT', { open24h: '0.00' }))).toBe(0n);
  });
});

describe('mergeTickers', () => {
  it('replaces a symbol only with a ticker at least as new, and appends new symbols', () => {
    const current = [ticker('BTCUSDT', { last: '1.00', time: 10 }), ticker('ETHUSDT', { last: '2.00', time: 10 })];
    mergeTickers(current, [
      ticker('BTCUSDT', { last: '1.50', time: 11 }),
      ticker('ETHUSDT', { last: '1.90', time: 9 }),
      ticker('SOLUSDT', { last: '3.00', time: 11 }),
    ]);
    expect(current.map((item) => `${item.symbol}=${item.last}`)).toEqual(['BTCUSDT=1.50', 'ETHUSDT=2.00', 'SOLUSDT=3.00']);
    expect(newestTickMs(current)).toBe(11);
    expect(newestTickMs([])).toBe(0);
  });
});

describe('socket payloads', () => {
  it('reads tickers from a list, one ticker, or an object holding a list, and drops junk', () => {
    expect(symbols(tickersFromPayload([btc, eth]))).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(symbols(tickersFromPayload(btc))).toEqual(['BTCUSDT']);
    expect(symbols(tickersFromPayload({ tickers: [eth] }))).toEqual(['ETHUSDT']);
    expect(tickersFromPayload([null, 5, { symbol: 'X' }, { ...btc, last: 67250 }])).toEqual([]);
    expect(tickersFromPayload(null)).toEqual([]);
  });

  it('takes the newest well-formed candle of a payload', () => {
    const candle = { time: 60_000, open: '1.0', high: '2.0', low: '0.5', close: '1.5', volume: '10' };
    expect(candleFromPayload(candle)).toEqual(candle);
    expect(candleFromPayload([candle, { ...candle, time: 120_000 }])?.time).toBe(120_000);
    expect(candleFromPayload({ candles: [candle] })).toEqual(candle);
    expect(candleFromPayload(null)).toBeUndefined();
    expect(candleFromPayload({ ...candle, close: 1.5 })).toBeUndefined();
  });
});

describe('display formats', () => {
  it('shows a ticker\'s last price truncated to its precision, grouped as the language groups', () => {
    expect(tickerPrice(ticker('BTCUSDT', { last: '67250.129', pricePrecision: 2 }), 'en-US')).toBe('67,250.12');
    expect(tickerPrice(ticker('DOGEUSDT', { last: '0.123459', pricePrecision: 5 }), 'en-US')).toBe('0.12345');
    expect(tickerPrice(ticker('XAUUSD', { last: '1.5', pricePrecision: 3 }), 'en-US')).toBe('1.500');
    expect(tickerPrice(ticker('BTCUSDT', { last: '67250.129', pricePrecision: 2 }), 'es-ES')).toBe('67.250,12');
  });

  it('tells the direction of a change', () => {
    expect(['1', '-0.01', '0', '-0.00'].map(directionOf)).toEqual(['up', 'down', 'flat', 'flat']);
  });

  it('shows volumes in the compact form of the language, truncated', () => {
    expect(formatCompact('1503502975.20', 'en-US')).toBe('1.5B');
    expect(formatCompact('22119.9999', 'en-US')).toBe('22.11K');
    expect(formatCompact('1503502975.20', 'zh-CN')).toBe('15.03亿');
    expect(formatCompact('12.5', 'en-US')).toBe('12.5');
  });

  it('labels the distribution buckets by their bounds, and colours them by their side of zero', () => {
    expect(bucketLabel({ fromPercent: null, toPercent: -7, count: 0 })).toBe('<-7');
    expect(bucketLabel({ fromPercent: -3, toPercent: 0, count: 0 })).toBe('-3~0');
    expect(bucketLabel({ fromPercent: 0, toPercent: 0, count: 0 })).toBe('0');
    expect(bucketLabel({ fromPercent: 7, toPercent: null, count: 0 })).toBe('≥7');
    expect(distributionBounds.map(([fromPercent, toPercent]) => bucketDirection({ fromPercent, toPercent, count: 0 })))
      .toEqual(['down', 'down', 'down', 'down', 'flat', 'up', 'up', 'up', 'up']);
  });

  it('says when a closed market reopens as a weekday and a time in the language', () => {
    const sunday = Date.UTC(2026, 5, 7, 22);
    expect(formatReopening(sunday, 'en-US')).toMatch(/^(Sun|Mon) \d{1,2}:00\s(AM|PM)$/);
    expect(formatReopening(sunday, 'es-ES')).toMatch(/^(dom|lun), \d{2}:00$/);
  });
});

describe('the rise-and-fall distribution', () => {
  const changes = ['-8.10', '-3.00', '-0.01', '0.00', '0.00', '0.01', '2.99', '3.00', '7.00'];
  const open = changes.map((changePercent, index) => ticker(`M${index}USDT`, { changePercent24h: changePercent }));
  const closedMarkets = [ticker('XAUUSD', { changePercent24h: '0.00', open: false }), ticker('EURUSD', { changePercent24h: '1.20', open: false })];

  it('leaves closed markets out, gives flat ones their own bar, and each colour adds up to its count', () => {
    const distribution = priceDistribution([...open, ...closedMarkets], 5);
    expect(distribution).toMatchObject({ rising: 4, falling: 3, flat: 2, closed: 2, time: 5 });
    expect(distribution.buckets.map((bucket) => bucket.count)).toEqual([1, 0, 0, 2, 2, 2, 1, 0, 1]);
    const sum = (direction: string) => distribution.buckets.filter((bucket) => bucketDirection(bucket) === direction)
      .reduce((total, bucket) => total + bucket.count, 0);
    expect({ up: sum('up'), flat: sum('flat'), down: sum('down') })
      .toEqual({ up: distribution.rising, flat: distribution.flat, down: distribution.falling });
  });
});

describe('market search', () => {
  const markets = [btc, eth, gold, euro,
    ticker('XAGUSD', { class: 'metal' }), ticker('USDJPY', { class: 'forex', base: 'USD', quote: 'JPY', displayName: 'USD/JPY' })];
  const search = (query: string, shownName = (symbol: string): string | undefined => (symbol === 'XAUUSD' ? 'Oro' : undefined)) =>
    symbols(filterTickers(markets, 'all', query, [], (item) => searchWords(item, shownName(item.symbol))));

  it('finds markets by their names and aliases in every language, not only their codes', () => {
    expect(search('gold')).toEqual(['XAUUSD']);
    expect(search('oro')).toEqual(['XAUUSD']);
    expect(search('금')).toEqual(['XAUUSD']);
    expect(search('ทองคำ')).toEqual(['XAUUSD']);
    expect(search('Vang')).toEqual(['XAUUSD']);
    expect(search('bitcoin')).toEqual(['BTCUSDT']);
    expect(search('비트코인')).toEqual(['BTCUSDT']);
    expect(search('比特币')).toEqual(['BTCUSDT']);
    expect(search('Euro')).toEqual(['EURUSD']);
    expect(search('yen')).toEqual(['USDJPY']);
    expect(search('円')).toEqual(['USDJPY']);
    expect(search('dolar')).toEqual(['XAUUSD', 'EURUSD', 'XAGUSD', 'USDJPY']);
    expect(search('btc/usdt')).toEqual(['BTCUSDT']);
    expect(search('nothing like it')).toEqual([]);
    // Names match from the start of a word: "eth" is not found inside "tether".
    expect(search('eth')).toEqual(['ETHUSDT']);
    expect(search('tether')).toEqual(['BTCUSDT', 'ETHUSDT']);
    expect(search('japanese yen', (symbol) => (symbol === 'USDJPY' ? 'Japanese yen' : undefined))).toEqual(['USDJPY']);
  });

  it('finds a market by the name it shows in the current language', () => {
    expect(search('Goldilocks', (symbol) => (symbol === 'ETHUSDT' ? 'Goldilocks' : undefined))).toEqual(['ETHUSDT']);
  });
});

describe('chart data', () => {
  it('maps every period to the chart and back', () => {
    for (const [code, period] of Object.entries(chartPeriods)) expect(candlePeriodOf(period)).toBe(code);
    expect(candlePeriodOf({ span: 2, type: 'minute' })).toBeUndefined();
    expect(candlePeriodOf(null)).toBeUndefined();
  });

  it('turns a candle into a chart bar', () => {
    expect(toBar({ time: 60_000, open: '1.10', high: '1.30', low: '1.00', close: '1.20', volume: '12.5' }))
      .toEqual({ timestamp: 60_000, open: 1.1, high: 1.3, low: 1, close: 1.2, volume: 12.5 });
  });
});
