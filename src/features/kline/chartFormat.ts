// How the chart spells what it draws (issue 8 #8): numbers through the app's one number module
// (lib/number.ts) in the user's language, dates with Intl, a precision per indicator, and the
// time-axis labels that would be cut at the edges dropped. Pure functions, so they are tested
// without a canvas.
import { formatDecimal } from '../../lib/number.ts';

const plainDecimal = /^-?\d+(\.\d+)?$/;

/**
 * klinecharts hands its numbers over as `toFixed` text ("67250.10", "-0.000612"): spelled here as
 * the language writes numbers, keeping the decimals the chart chose. Text that is not a plain
 * number (a compact volume already spelled, "n/a") is returned as it came.
 */
export function spellChartNumber(text: string | number, intl: string): string {
  const value = String(text);
  if (!plainDecimal.test(value)) return value;
  return formatDecimal(value, value.split('.')[1]?.length ?? 0, intl);
}

/** The most decimals an indicator is shown with. */
export const indicatorDecimalsMax = 10;

/**
 * Decimals that show about three significant digits of the largest value. MACD is a difference of
 * averages of the price: about 500 for BTC on 15 minutes but 0.0006 for DOGE, so a fixed
 * precision shows either noise or nothing ("0.0000").
 */
export function magnitudeDecimals(values: Iterable<number | undefined>, fallback = 2): number {
  let largest = 0;
  for (const value of values) {
    if (typeof value === 'number' && Number.isFinite(value)) largest = Math.max(largest, Math.abs(value));
  }
  if (largest === 0) return fallback;
  return Math.min(indicatorDecimalsMax, Math.max(0, 2 - Math.floor(Math.log10(largest))));
}

/** Intl options for each date template klinecharts asks for (its period formats). */
const dateOptions: Record<string, Intl.DateTimeFormatOptions> = {
  'HH:mm:ss': { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  'HH:mm': { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  'MM-DD HH:mm': { month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  'YYYY-MM-DD HH:mm': { year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  'YYYY-MM-DD': { year: 'numeric', month: '2-digit', day: '2-digit' },
  'YYYY-MM': { year: 'numeric', month: '2-digit' },
  YYYY: { year: 'numeric' },
};
/** On the time axis a day's candles need no year: "22 nov", "11/22", "11. 22.". */
const axisDateOptions: Record<string, Intl.DateTimeFormatOptions> = {
  'YYYY-MM-DD': { month: 'numeric', day: 'numeric' },
};

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A candle time as the language writes dates, for the template klinecharts names; undefined for an unknown template. */
export function formatChartDate(timestampMs: number, template: string, onAxis: boolean, intl: string): string | undefined {
  const options = (onAxis ? axisDateOptions[template] : undefined) ?? dateOptions[template];
  if (!options) return undefined;
  const key = `${intl}|${onAxis}|${template}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(intl, options);
    dateFormats.set(key, format);
  }
  return format.format(timestampMs);
}

export interface AxisTick { coord: number; text: string; value: unknown }

/**
 * The time-axis labels that fit whole between 0 and `width` (a label is centred on its tick), so
 * the last one is not cut by the price axis.
 */
export function ticksInside<T extends AxisTick>(ticks: T[], width: number, measure: (text: string) => number): T[] {
  return ticks.filter((tick) => {
    const half = measure(tick.text) / 2;
    return tick.coord - half >= 0 && tick.coord + half <= width;
  });
}

/** A value range as klinecharts describes one (no value transforms: real and display values are the values). */
export interface ValueRange { from: number; to: number; range: number; realFrom: number; realTo: number; realRange: number;
  displayFrom: number; displayTo: number; displayRange: number }

/**
 * The range widened to include zero. MACD's histogram is drawn from zero: when every value is on
 * one side, klinecharts' range stops short of zero and the bars run past the pane's edge, over
 * its legend.
 */
export function rangeWithZero<T extends ValueRange>(range: T): T {
  const from = Math.min(range.from, 0);
  const to = Math.max(range.to, 0);
  if (from === range.from && to === range.to) return range;
  return { ...range, from, to, range: to - from, realFrom: from, realTo: to, realRange: to - from, displayFrom: from, displayTo: to,
    displayRange: to - from };
}

/** Height of the time axis under the panes. */
const timeAxisPx = 24;

/**
 * Height of each indicator pane: at most 100 px, and together at most half of the panes' height,
 * so the candles always keep at least half (issue 19: six indicators on a landscape phone left the
 * candles 100 px, as each pane had a 48 px floor). On such a screen a pane gets less than its
 * legend line needs; the candles are what the chart is for. 16 px is the least a pane is drawn at.
 */
export function indicatorPaneHeight(chartHeightPx: number, panes: number): number {
  if (panes <= 0) return 100;
  // Each pane below the candles is drawn 1 px taller than asked (its separator line).
  return Math.max(16, Math.min(100, Math.floor((chartHeightPx - timeAxisPx) / 2 / panes) - 1));
}
