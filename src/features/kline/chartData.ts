// Conversions between the wire and klinecharts: periods both ways, and candles into the chart's
// bars. The chart draws with floats; that is display only, every price shown as text elsewhere
// stays a decimal string.
import type { KLineData, Period } from 'klinecharts';
import type { Candle, CandlePeriod } from '../../api/contract/market.ts';

export const chartPeriods: Record<CandlePeriod, Period> = {
  '1m': { span: 1, type: 'minute' },
  '5m': { span: 5, type: 'minute' },
  '15m': { span: 15, type: 'minute' },
  '30m': { span: 30, type: 'minute' },
  '1h': { span: 1, type: 'hour' },
  '4h': { span: 4, type: 'hour' },
  '1d': { span: 1, type: 'day' },
  '1w': { span: 1, type: 'week' },
  '1M': { span: 1, type: 'month' },
};

export function candlePeriodOf(period: Period | null | undefined): CandlePeriod | undefined {
  if (!period) return undefined;
  return (Object.keys(chartPeriods) as CandlePeriod[])
    .find((code) => chartPeriods[code].span === period.span && chartPeriods[code].type === period.type);
}

export const toBar = (candle: Candle): KLineData => ({
  timestamp: candle.time,
  open: Number(candle.open),
  high: Number(candle.high),
  low: Number(candle.low),
  close: Number(candle.close),
  volume: Number(candle.volume),
});

/** Candles per request of the chart's history. */
export const candlePageSize = 300;

export type IndicatorName = 'MA' | 'EMA' | 'BOLL' | 'VOL' | 'MACD' | 'RSI';
export const indicatorNames: IndicatorName[] = ['MA', 'EMA', 'BOLL', 'VOL', 'MACD', 'RSI'];
/** Drawn over the candles; the others get a pane of their own below. */
export const overlayIndicators: IndicatorName[] = ['MA', 'EMA', 'BOLL'];
export const defaultIndicators: IndicatorName[] = ['MA', 'VOL'];
export const candlePaneId = 'candle_pane';
export const indicatorPaneId = (name: IndicatorName) => (overlayIndicators.includes(name) ? candlePaneId : `pane_${name}`);
