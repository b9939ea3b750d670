// Market display helpers. Every number is spelt by the one number module (lib/number.ts); this
// file adds only what is market-specific: the direction of a change, a ticker's price, when a
// closed market reopens.
import type { Ticker } from '../../api/contract/market.ts';
import { formatDecimal } from '../../lib/number.ts';
import { compareDecimals } from './tickers.ts';

export type Direction = 'up' | 'down' | 'flat';

export const directionOf = (change: string): Direction => {
  const sign = compareDecimals(change, '0');
  return sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat';
};

/** The last price with the symbol's precision, as the user's language writes it. */
export const tickerPrice = (ticker: Ticker, intl: string) => formatDecimal(ticker.last, ticker.pricePrecision, intl);

const reopeningFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * When a closed market reopens, on this device's clock in the user's language: a weekday and a
 * time ("Sun 11:00 PM", "dom, 23:00"), enough for a reopening at most two days away.
 */
export function formatReopening(ms: number, intl: string): string {
  let format = reopeningFormats.get(intl);
  if (!format) {
    format = new Intl.DateTimeFormat(intl, { weekday: 'short', hour: 'numeric', minute: '2-digit' });
    reopeningFormats.set(intl, format);
  }
  return format.format(ms);
}

/** Decimals a volume string carries, for the chart's volume axis. */
export const decimalsOf = (value: string) => value.split('.')[1]?.length ?? 0;
