// The chart's spelling and sizing rules (src/features/kline/chartFormat.ts), its indicator
// legends (chartIndicators.ts) and the device's copy of its candles (candleCache.ts), without a
// canvas: numbers through lib/number.ts in the user's language, no "0.0{3}6", a precision that
// follows MACD's magnitude, time labels that fit, and a stored entry read back only when whole.
import { describe, expect, it } from 'vitest';
import type { Candle } from '../../src/api/contract/market.ts';
import {
  formatChartDate, indicatorPaneHeight, magnitudeDecimals, rangeWithZero, spellChartNumber, ticksInside,
} from '../../src/features/kline/chartFormat.ts';
import { indicatorLegend, type ChartTexts } from '../../src/features/kline/chartIndicators.ts';
import { keysBeyond, parseSavedCandles, withLiveCandle } from '../../src/features/kline/candleCache.ts';

describe('spellChartNumber', () => {
  it("spells klinecharts' toFixed text as the language writes numbers, keeping its decimals", () => {
    expect(spellChartNumber('67250.10', 'en-US')).toBe('67,250.10');
    expect(spellChartNumber('67250.10', 'es-ES')).toBe('67.250,10');
    expect(spellChartNumber('-0.000612', 'en-US')).toBe('-0.000612');
    expect(spellChartNumber(250, 'ko-KR')).toBe('250');
  });

  it('leaves text that is already spelled, or not a number, as it came', () => {
    expect(spellChartNumber('1,45 mil', 'es-ES')).toBe('1,45 mil');
    expect(spellChartNumber('1.5K', 'en-US')).toBe('1.5K');
    expect(spellChartNumber('n/a', 'en-US')).toBe('n/a');
  });
});

describe('magnitudeDecimals', () => {
  it('shows about three significant digits of the largest value', () => {
    expect(magnitudeDecimals([-571.8, -526.7, -45])).toBe(0);
    expect(magnitudeDecimals([12.3, -4])).toBe(1);
    expect(magnitudeDecimals([0.0006123, -0.0002])).toBe(6);
    expect(magnitudeDecimals([0.0012, undefined, Number.NaN])).toBe(5);
  });

  it('falls back when there is nothing to measure and stops at ten decimals', () => {
    expect(magnitudeDecimals([])).toBe(2);
    expect(magnitudeDecimals([undefined, 0])).toBe(2);
    expect(magnitudeDecimals([1e-15])).toBe(10);
  });
});

describe('formatChartDate', () => {
  const time = Date.UTC(2026, 10, 22, 14, 5);
  it('spells the templates klinecharts asks for in the language, on a 24-hour clock', () => {
    const text = formatChartDate(time, 'HH:mm', true, 'en-US')!;
    expect(text).toMatch(/^\d{2}:05$/);
    expect(formatChartDate(time, 'YYYY-MM-DD HH:mm', false, 'ko-KR')).toMatch(/2026/);
  });

  it('drops the year of a day on the time axis only', () => {
    expect(formatChartDate(time, 'YYYY-MM-DD', true, 'en-US')).not.toMatch(/2026/);
    expect(formatChartDate(time, 'YYYY-MM-DD', false, 'en-US')).toMatch(/2026/);
  });

  it('answers nothing for a template it does not know, so the caller keeps klinecharts\' own', () => {
    expect(formatChartDate(time, 'DD/MM', true, 'en-US')).toBeUndefined();
  });
});

describe('ticksInside', () => {
  const measure = (text: string) => text.length * 6;
  it('drops the labels that would be cut at either edge', () => {
    const ticks = [{ coord: 10, text: '22:45', value: 1 }, { coord: 150, text: '23:00', value: 2 }, { coord: 290, text: '02:00', value: 3 }];
    expect(ticksInside(ticks, 300, measure).map((tick) => tick.text)).toEqual(['23:00']);
    expect(ticksInside(ticks, 330, measure).map((tick) => tick.text)).toEqual(['23:00', '02:00']);
  });
});

describe('rangeWithZero', () => {
  const range = (from: number, to: number) => ({ from, to, range: to - from, realFrom: from, realTo: to, realRange: to - from,
    displayFrom: from, displayTo: to, displayRange: to - from });
  it('widens a range that stops short of zero, where MACD bars start', () => {
    expect(rangeWithZero(range(-570, -80))).toEqual(range(-570, 0));
    expect(rangeWithZero(range(0.0002, 0.0016))).toEqual(range(0, 0.0016));
  });
  it('keeps a range that holds zero as it is', () => {
    const across = range(-5, 7);
    expect(rangeWithZero(across)).toBe(across);
  });
});

describe('indicatorPaneHeight', () => {
  it('gives indicator panes at most 100 px and half the chart together', () => {
    expect(indicatorPaneHeight(600, 1)).toBe(100);
    expect(indicatorPaneHeight(380, 3)).toBe(58);
    expect(indicatorPaneHeight(200, 3)).toBe(28);
  });

  it('leaves the candles at least half of a landscape chart with every pane indicator on', () => {
    // A landscape phone in full screen: ~300 px of chart, five indicators with panes of their own.
    for (const [chartPx, panes] of [[300, 5], [260, 5], [340, 4], [640, 5]] as const) {
      // Each pane is drawn with a 1 px separator.
      const candlesPx = chartPx - 24 - panes * (indicatorPaneHeight(chartPx, panes) + 1);
      expect(candlesPx).toBeGreaterThanOrEqual((chartPx - 24) / 2);
    }
  });
});

describe('indicatorLegend', () => {
  const texts: ChartTexts = {
    intl: 'es-ES',
    names: { MA: 'MM', EMA: 'MME', BOLL: 'Bollinger', VOL: 'Vol.', MACD: 'MACD', RSI: 'RSI' },
    lines: { dif: 'DIF', dea: 'DEA', up: 'Sup.', mid: 'Media', dn: 'Inf.' },
  };

  it('names MACD first, then its lines, with the precision it was given, in the language', () => {
    const macd = {
      name: 'MACD', precision: 6, calcParams: [12, 26, 9],
      figures: [{ key: 'dif', title: 'DIF: ', type: 'line' }, { key: 'dea', title: 'DEA: ', type: 'line' }, { key: 'macd', title: 'MACD: ', type: 'bar' }],
      result: [{ dif: 0.0006123, dea: 0.0004, macd: 0.0004246 }],
    };
    expect(indicatorLegend(macd, 0, texts).map(({ label, value }) => `${label} ${value}`))
      .toEqual(['MACD 0,000424', 'DIF 0,000612', 'DEA 0,000400']);
  });

  it('translates the volume and labels its averages with their periods, in compact numbers', () => {
    const volume = {
      name: 'VOL', precision: 0, calcParams: [5, 10],
      figures: [{ key: 'ma1', title: 'MA5: ', type: 'line' }, { key: 'ma2', title: 'MA10: ', type: 'line' },
        { key: 'volume', title: 'VOLUME: ', type: 'bar' }],
      result: [{ volume: 44_926_000, ma1: 103_520_000 }],
    };
    expect(indicatorLegend(volume, 0, texts).map(({ label, value }) => `${label} ${value}`))
      .toEqual(['Vol. 44,92\u00a0M', 'MM5 103,52\u00a0M', 'MM10 –']);
  });
});

const candle = (time: number, close = '1.00'): Candle => ({ time, open: '1.00', high: '2.00', low: '0.50', close, volume: '10' });

describe('the device copy of the candles', () => {
  it('reads back an entry only when it is whole', () => {
    expect(parseSavedCandles({ savedAtMs: 5, candles: [candle(1)] })).toEqual({ savedAtMs: 5, candles: [candle(1)] });
    expect(parseSavedCandles({ savedAtMs: 5, candles: [candle(1), { ...candle(2), close: 'NaN' }] })).toBeUndefined();
    expect(parseSavedCandles({ savedAtMs: 0, candles: [candle(1)] })).toBeUndefined();
    expect(parseSavedCandles({ savedAtMs: 5, candles: [] })).toBeUndefined();
    expect(parseSavedCandles('garbage')).toBeUndefined();
  });

  it('puts the live candle in place of the one with its opening time, or after the newest', () => {
    expect(withLiveCandle([candle(1), candle(2)], candle(2, '3.00'))).toEqual([candle(1), candle(2, '3.00')]);
    expect(withLiveCandle([candle(1), candle(2)], candle(3))).toEqual([candle(1), candle(2), candle(3)]);
    expect(withLiveCandle([candle(1), candle(2)], candle(1, '9.00'))).toEqual([candle(1), candle(2)]);
  });

  it('forgets the charts saved longest ago beyond the limit', () => {
    expect(keysBeyond([['a', 3], ['b', 1], ['c', 2]], 2)).toEqual(['b']);
    expect(keysBeyond([['a', 3]], 2)).toEqual([]);
  });
});
