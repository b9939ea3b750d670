// Display of market numbers: prices truncated (never rounded) to the symbol's precision with
// thousands separators (spec §5, §9), changes with their sign, volumes in the language's compact
// form ("1.5B", "15.03亿"), also truncated.
import type { Ticker } from '../../api/contract/market.ts';
import { formatAmount, truncateDecimals } from '../../lib/number.ts';
import { locales } from '../../lib/locales.ts';
import { compareDecimals } from './tickers.ts';

export type Direction = 'up' | 'down' | 'flat';

export const directionOf = (change: string): Direction => {
  const sign = compareDecimals(change, '0');
  return sign > 0 ? 'up' : sign < 0 ? 'down' : 'flat';
};

export const formatPrice = (value: string, precision: number) => formatAmount(value, precision);
export const tickerPrice = (ticker: Ticker) => formatPrice(ticker.last, ticker.pricePrecision);

/** "+1.25%", "-0.50%", "0.00%". */
export function formatChangePercent(percent: string): string {
  const text = truncateDecimals(percent, 2) || '0.00';
  return `${directionOf(text) === 'up' ? '+' : ''}${text}%`;
}

/** "+2,646.63" with the symbol's precision. */
export function formatChange(change: string, precision: number): string {
  const text = formatAmount(change, precision);
  return `${directionOf(change) === 'up' ? '+' : ''}${text}`;
}

const compactFormats = new Map<string, Intl.NumberFormat>();

/** A volume in the compact form of `intl`, truncated to two decimals. */
export function formatCompact(value: string, intl: string): string {
  let format = compactFormats.get(intl);
  if (!format) {
    format = new Intl.NumberFormat(intl, { notation: 'compact', maximumFractionDigits: 2, roundingMode: 'trunc' });
    compactFormats.set(intl, format);
  }
  // A decimal string is formatted exactly (ES2023), without passing through a float.
  return format.format(value as Intl.StringNumericLiteral);
}

/** Decimals a volume string carries, for the chart's volume axis. */
export const decimalsOf = (value: string) => value.split('.')[1]?.length ?? 0;

/** The BCP 47 tag of an interface language key ("zh-cn" → "zh-CN"). */
export const intlOf = (code: string) => locales.find((locale) => locale.value === code)?.intl ?? 'en-US';

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
