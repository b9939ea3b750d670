// Pure helpers over the ticker list: exact ordering of decimal strings (prices are never turned
// into floats to be compared), the filters and sorts of the market page, the rankings of the home
// page, merging of tickers from REST and the socket (the newer tick wins), and reading the
// socket's payloads defensively.
import type { Candle, SymbolClass, Ticker } from '../../api/contract/market.ts';

/** Orders two decimal strings ("-1.25", "67250.00") exactly. Malformed text sorts as zero. */
export function compareDecimals(a: string, b: string): number {
  const parse = (text: string) => {
    const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
    if (!match) return { negative: false, whole: '0', fraction: '' };
    const whole = match[2].replace(/^0+(?=\d)/, '') || '0';
    const fraction = (match[3] ?? '').replace(/0+$/, '');
    const zero = /^0*$/.test(whole + fraction);
    return { negative: match[1] === '-' && !zero, whole, fraction };
  };
  const x = parse(a);
  const y = parse(b);
  if (x.negative !== y.negative) return x.negative ? -1 : 1;
  const sign = x.negative ? -1 : 1;
  if (x.whole.length !== y.whole.length) return sign * (x.whole.length - y.whole.length);
  if (x.whole !== y.whole) return sign * (x.whole < y.whole ? -1 : 1);
  const width = Math.max(x.fraction.length, y.fraction.length);
  const fx = x.fraction.padEnd(width, '0');
  const fy = y.fraction.padEnd(width, '0');
  return fx === fy ? 0 : sign * (fx < fy ? -1 : 1);
}

export type MarketTab = 'all' | SymbolClass | 'favourites';
export const marketTabs: MarketTab[] = ['all', 'crypto', 'metal', 'forex', 'favourites'];
export const isMarketTab = (value: unknown): value is MarketTab => marketTabs.includes(value as MarketTab);

export type SortKey = 'name' | 'price' | 'change' | 'volume';
export type SortDirection = 'asc' | 'desc';
export interface SortOrder { key: SortKey; direction: SortDirection }
export const sortKeys: SortKey[] = ['name', 'price', 'change', 'volume'];
export const isSortKey = (value: unknown): value is SortKey => sortKeys.includes(value as SortKey);

/** Tapping a column: the same column flips its direction; a new one starts in its natural order. */
export function nextSort(current: SortOrder | undefined, key: SortKey): SortOrder {
  if (current?.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: key === 'name' ? 'asc' : 'desc' };
}

/**
 * Text as the search compares it: without accents, case, spaces or punctuation, in any script
 * ("Dólar" and "dolar", "BTC/USDT" and "btcusdt" compare equal). Marks are dropped from both sides
 * alike, so Thai, Vietnamese and kana still match their own spelling.
 */
export const normaliseSearch = (text: string) =>
  text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The rows of a tab matching a search: a code anywhere in the symbol ("btc", "btc/usdt", "usd" all
 * match BTC/USDT), or the start of one of the market's names or of a word in it ("bit", "dólar",
 * "australian" or "australian dollar"), which `wordsOf` gives (see marketSearch.ts). Names match
 * from a word's start so that "eth" does not find every market quoted in tether.
 */
export function filterTickers(tickers: readonly Ticker[], tab: MarketTab, query: string, favourites: readonly string[],
  wordsOf?: (ticker: Ticker) => readonly string[]): Ticker[] {
  const needle = normaliseSearch(query);
  const startsName = (name: string) =>
    normaliseSearch(name).startsWith(needle) || name.split(/\s+/).some((word) => normaliseSearch(word).startsWith(needle));
  return tickers.filter((ticker) => {
    if (tab === 'favourites' ? !favourites.includes(ticker.symbol) : tab !== 'all' && ticker.class !== tab) return false;
    if (!needle) return true;
    return normaliseSearch(ticker.symbol).includes(needle) || normaliseSearch(ticker.displayName).includes(needle)
      || (wordsOf?.(ticker) ?? []).some(startsName);
  });
}

const comparators: Record<SortKey, (a: Ticker, b: Ticker) => number> = {
  name: (a, b) => a.displayName.localeCompare(b.displayName, 'en'),
  price: (a, b) => compareDecimals(a.last, b.last),
  change: (a, b) => compareDecimals(a.changePercent24h, b.changePercent24h),
  volume: (a, b) => compareDecimals(a.quoteVolume24h, b.quoteVolume24h),
};

/** A sorted copy; ties keep the server's order. Without an order, the server's order. */
export function sortTickers(tickers: readonly Ticker[], order: SortOrder | undefined): Ticker[] {
  if (!order) return [...tickers];
  const compare = comparators[order.key];
  const sign = order.direction === 'asc' ? 1 : -1;
  return tickers.map((ticker, index) => ({ ticker, index }))
    .sort((a, b) => sign * compare(a.ticker, b.ticker) || a.index - b.index)
    .map(({ ticker }) => ticker);
}

export type Ranking = 'volume' | 'hot' | 'gainers' | 'losers';
export const rankings: Ranking[] = ['volume', 'hot', 'gainers', 'losers'];

/**
 * 24 h range relative to the open, in basis points, on integers of the ticker's precision:
 * how much a market moved during the day, whichever way it ended.
 */
export function rangeBasisPoints(ticker: Ticker): bigint {
  const units = (text: string) => {
    const [whole, fraction = ''] = text.split('.');
    return BigInt(`${whole}${fraction.padEnd(ticker.pricePrecision, '0').slice(0, ticker.pricePrecision)}`);
  };
  const open = units(ticker.open24h);
  if (open <= 0n) return 0n;
  return ((units(ticker.high24h) - units(ticker.low24h)) * 10_000n) / open;
}

/**
 * The home page's short lists: 24 h trading ranking by traded value (quote volume); "hot" is our
 * choice of the markets that moved most within the day (widest 24 h high–low range relative to
 * the open), which differs from gainers and losers because a market that went up and back down
 * is hot but neither; gainers and losers by 24 h change, only those that rose or fell.
 */
export function rank(tickers: readonly Ticker[], ranking: Ranking, limit: number): Ticker[] {
  const sorted = (() => {
    switch (ranking) {
      case 'volume':
        return sortTickers(tickers, { key: 'volume', direction: 'desc' });
      case 'hot':
        return tickers.map((ticker, index) => ({ ticker, index, range: rangeBasisPoints(ticker) }))
          .sort((a, b) => (a.range === b.range ? a.index - b.index : a.range > b.range ? -1 : 1))
          .map(({ ticker }) => ticker);
      case 'gainers':
        return sortTickers(tickers.filter((ticker) => compareDecimals(ticker.changePercent24h, '0') > 0), { key: 'change', direction: 'desc' });
      case 'losers':
        return sortTickers(tickers.filter((ticker) => compareDecimals(ticker.changePercent24h, '0') < 0), { key: 'change', direction: 'asc' });
    }
  })();
  return sorted.slice(0, limit);
}

/**
 * Folds `incoming` into `current` in place (it is an immer draft in the RTK Query cache): a
 * symbol's ticker is replaced only by one at least as new, so a late REST answer or a stale
 * cached one never undoes what the socket already brought. New symbols are appended.
 */
export function mergeTickers(current: Ticker[], incoming: readonly Ticker[]): Ticker[] {
  const indexBySymbol = new Map(current.map((ticker, index) => [ticker.symbol, index]));
  for (const ticker of incoming) {
    const index = indexBySymbol.get(ticker.symbol);
    if (index === undefined) {
      indexBySymbol.set(ticker.symbol, current.length);
      current.push(ticker);
    } else if (ticker.time >= current[index].time) {
      current[index] = ticker;
    }
  }
  return current;
}

/** Time of the newest tick in the list: the age the list shows when it is not live. */
export const newestTickMs = (tickers: readonly Ticker[]) => tickers.reduce((newest, ticker) => Math.max(newest, ticker.time), 0);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const decimal = (value: unknown) => typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value);

function looksLikeTicker(value: unknown): value is Ticker {
  return isRecord(value) && typeof value.symbol === 'string' && typeof value.displayName === 'string'
    && decimal(value.last) && decimal(value.changePercent24h) && typeof value.time === 'number';
}

/** Tickers out of a socket payload: one ticker, a list, or `{ tickers: [...] }`; junk is dropped. */
export function tickersFromPayload(data: unknown): Ticker[] {
  const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.tickers) ? data.tickers : [data];
  return list.filter(looksLikeTicker);
}

function looksLikeCandle(value: unknown): value is Candle {
  return isRecord(value) && typeof value.time === 'number'
    && ['open', 'high', 'low', 'close', 'volume'].every((field) => decimal(value[field]));
}

/** The newest candle of a socket payload: one candle, a list, or `{ candles: [...] }`. */
export function candleFromPayload(data: unknown): Candle | undefined {
  const list = Array.isArray(data) ? data : isRecord(data) && Array.isArray(data.candles) ? data.candles
    : isRecord(data) && isRecord(data.candle) ? [data.candle] : [data];
  return list.filter(looksLikeCandle).reduce<Candle | undefined>((newest, candle) =>
    (!newest || candle.time >= newest.time ? candle : newest), undefined);
}
