// The candlestick chart (klinecharts 10). History comes through the chart's data loader: the
// newest page first, older pages as the user scrolls left (klinecharts calls that direction
// "forward"; each page ends before the oldest candle shown). The current candle is pushed in
// live through `subscribeBar` from the RTK Query cache (socket or polling, see useLiveCandle).
// Answers that arrive after the symbol or period changed are dropped.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useLingui } from '@lingui/react/macro';
import { dispose, init, registerLocale, type Chart, type DataLoader, type KLineData } from 'klinecharts';
import type { CandlePeriod } from '../../api/contract/market.ts';
import { marketApi } from '../market/marketApi.ts';
import { useLiveCandle } from '../market/useMarketData.ts';
import {
  candlePageSize, candlePeriodOf, chartPeriods, indicatorNames, indicatorPaneId, overlayIndicators, toBar, type IndicatorName,
} from './chartData.ts';

type LoadState = 'loading' | 'ready' | 'failed';

const symbolCodeOf = (chart: Chart) => chart.getSymbol()?.code;

/** The chart's own labels (its legend) in the interface language, registered once per language. */
function useChartLocale(): string {
  const { t, i18n } = useLingui();
  return useMemo(() => {
    const name = `bourse-${i18n.locale}`;
    const label = (text: string) => `${text} `;
    registerLocale(name, {
      time: label(t`Time:`), open: label(t`Open:`), high: label(t`High:`), low: label(t`Low:`), close: label(t`Close:`),
      volume: label(t`Volume:`), change: label(t`Change:`), turnover: label(t`Turnover:`),
      // Units after the period's number in the legend ("15m", "4h", "1D").
      second: t({ message: 's', context: 'unit of a chart period: seconds' }),
      minute: t({ message: 'm', context: 'unit of a chart period: minutes' }),
      hour: t({ message: 'h', context: 'unit of a chart period: hours' }),
      day: t({ message: 'D', context: 'unit of a chart period: days' }),
      week: t({ message: 'W', context: 'unit of a chart period: weeks' }),
      month: t({ message: 'M', context: 'unit of a chart period: months' }),
      year: t({ message: 'Y', context: 'unit of a chart period: years' }),
    });
    return name;
  }, [i18n.locale, t]);
}

export function KlineChart({ symbol, displayName, pricePrecision, volumePrecision, period, indicators, label }: {
  symbol: string;
  displayName: string;
  pricePrecision: number;
  volumePrecision: number;
  period: CandlePeriod;
  indicators: IndicatorName[];
  label: string;
}) {
  const { t } = useLingui();
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<Chart | null>(null);
  const pushBar = useRef<((bar: KLineData) => void) | undefined>(undefined);
  const [loadState, setLoadState] = useState<LoadState>('loading');
  const locale = useChartLocale();
  const live = useLiveCandle(symbol, period);

  useEffect(() => {
    const chart = init(container.current!, { locale });
    if (!chart) return;
    chartRef.current = chart;
    const isCurrent = (code: string, periodCode: CandlePeriod | undefined) =>
      symbolCodeOf(chart) === code && candlePeriodOf(chart.getPeriod()) === periodCode;
    const loader: DataLoader = {
      getBars: async ({ type, timestamp, symbol: info, period: chartPeriod, callback }) => {
        const code = candlePeriodOf(chartPeriod);
        const symbolCode = typeof info.code === 'string' ? info.code : info.ticker;
        // Newer than the newest candle there is nothing: the live candle comes through subscribeBar.
        if (type === 'backward' || type === 'update' || !code) {
          callback([], { backward: false });
          return;
        }
        if (type === 'init') setLoadState('loading');
        const request = dispatch(marketApi.endpoints.getCandles.initiate({
          symbol: symbolCode, period: code, endTime: type === 'forward' ? timestamp ?? undefined : undefined, limit: candlePageSize,
        }, { subscribe: false, forceRefetch: true }));
        const result = await request;
        if (!isCurrent(symbolCode, code)) return;
        if (!result.data) {
          if (type === 'init') {
            setLoadState('failed');
            callback([], false);
          } else {
            // Keep the way back open: scrolling to the edge again retries.
            callback([], { forward: true, backward: false });
          }
          return;
        }
        const bars = result.data.candles.map(toBar);
        callback(bars, { forward: bars.length >= candlePageSize, backward: false });
        if (type === 'init') setLoadState('ready');
      },
      subscribeBar: ({ callback }) => {
        pushBar.current = callback;
      },
      unsubscribeBar: () => {
        pushBar.current = undefined;
      },
    };
    chart.setDataLoader(loader);
    return () => {
      pushBar.current = undefined;
      chartRef.current = null;
      dispose(chart);
    };
    // The chart is made once; symbol, period, locale and indicators are applied by the effects below.
  }, []);

  useEffect(() => {
    chartRef.current?.setLocale(locale);
  }, [locale]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    const current = chart.getSymbol();
    if (current?.code === symbol && current.ticker === displayName && current.pricePrecision === pricePrecision
      && current.volumePrecision === volumePrecision) return;
    // `ticker` is what the chart's legend shows; `code` is what the data loader asks for.
    chart.setSymbol({ ticker: displayName, code: symbol, pricePrecision, volumePrecision });
  }, [symbol, displayName, pricePrecision, volumePrecision]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart || candlePeriodOf(chart.getPeriod()) === period) return;
    chart.setPeriod(chartPeriods[period]);
  }, [period]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    for (const name of indicatorNames) {
      const paneId = indicatorPaneId(name);
      const shown = chart.getIndicators({ name, paneId }).length > 0;
      if (indicators.includes(name) && !shown) chart.createIndicator({ name, paneId }, overlayIndicators.includes(name));
      if (!indicators.includes(name) && shown) chart.removeIndicator({ name, paneId });
    }
  }, [indicators]);

  // The live candle of this symbol and period only (currentData is empty while another loads).
  const candle = live.currentData;
  useEffect(() => {
    const chart = chartRef.current;
    if (!candle || !chart || symbolCodeOf(chart) !== symbol || candlePeriodOf(chart.getPeriod()) !== period) return;
    pushBar.current?.(toBar(candle));
  }, [candle, symbol, period]);

  return (
    <div className="kline-chart-wrap">
      <div ref={container} className="kline-chart" role="img" aria-label={label} data-testid="kline-chart" />
      {loadState === 'loading' && <p className="kline-overlay" role="status">{t`Loading chart...`}</p>}
      {loadState === 'failed' && (
        <div className="kline-overlay" role="alert">
          <p>{t`The chart could not be loaded.`}</p>
          <button type="button" className="retry-button" onClick={() => {
            const chart = chartRef.current;
            // Setting the same period again makes the chart reload from its data loader.
            if (chart) chart.setPeriod(chartPeriods[period]);
          }}>{t`Retry`}</button>
        </div>
      )}
    </div>
  );
}
