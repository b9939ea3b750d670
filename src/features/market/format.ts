// Display of market numbers through the one number module (lib/number.ts): prices truncated
// (never rounded) to the symbol's precision (spec §5), changes with their sign, volumes in the
// language's compact form ("1.5B", "15.03亿"), all written as the user's language writes numbers.
import type { Ticker } from '../../api/contract/market.ts';
import { formatCompact, formatDecimal, formatPercent, formatSigned } from '../../lib/number.ts';
import { intlOf } from '../../lib/locales.ts';
import { compareDecimals } from './tickers.ts';

export type Direction = 'up' | 'down' | 'flat';

export const directionOf = (change: string): Direction => {
  const sign = compareDecimals(change, '0');
  return sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat';
};

export const formatPrice = (value: string, precision: number, intl: string) => formatDecimal(value, precision, intl);
export const tickerPrice = (ticker: Ticker, intl: string) => formatPrice(ticker.last, ticker.pricePrecision, intl);

/** "+1.25%", "-0.50%", "0.00%" as the language writes them. */
export const formatChangePercent = (percent: string, intl: string) => formatPercent(percent, intl);

/** "+2,646.63" with the symbol's precision. */
export const formatChange = (change: string, precision: number, intl: string) => formatSigned(change, precision, intl);

export { formatCompact, intlOf };

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

/**
 * Epoch ms as "YYYY-MM-DD HH:mm:ss" on this device's clock (the spec's format). Written out here
 * rather than with lib/time.ts so the home page's market card does not load luxon.
 */
export function formatLocalDateTime(ms: number): string {
  const date = new Date(ms);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} `
    + `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}
