// The candlestick chart (klinecharts 10). History comes through the chart's data loader: the
// newest page first, older pages as the user scrolls left (klinecharts calls that direction
// "forward"; each page ends before the oldest candle shown). The current candle is pushed in
// live through `subscribeBar` from the RTK Query cache (socket or polling, see useLiveCandle).
// Answers that arrive after the symbol or period changed are dropped.
//
// The newest page of each chart is also kept on the device (candleCache.ts): when it cannot be
// fetched (offline, server down) the kept candles are shown with their age, and the chart loads
// again when the network is back. Numbers, dates, fonts and legends: chartSetup.ts,
// chartIndicators.ts, ChartLegend.tsx.
import { useEffect, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import { useLingui } from '@lingui/react/macro';
import { dispose, init, type Chart, type DataLoader, type KLineData, type Nullable } from 'klinecharts';
import type { Candle, CandlePeriod } from '../../api/contract/market.ts';
import { useOnline } from '../../components/OfflineBanner.tsx';
import { formatAge } from '../../lib/age.ts';
import { marketApi } from '../../entities/market/marketApi.ts';
import { useLiveCandle } from '../../entities/market/useMarketData.ts';
import { readSavedCandles, saveCandles, withLastTick, withLiveCandle, type LastTick } from './candleCache.ts';
import { indicatorPaneHeight, rangeWithZero, ticksInside } from './chartFormat.ts';
import {
  followMacdMagnitude, indicatorCreate, overlayLegends, type ChartTexts,
} from './chartIndicators.ts';
import {
  chartSpelling, chartStyles, indicatorLegendRoomPx, measureAxisText, pageFontFamily, plainDecimals, refreshChartPalette,
} from './chartSetup.ts';
import {
  candlePageSize, candlePeriodOf, chartPeriods, indicatorNames, indicatorPaneId, overlayIndicators, toBar, type IndicatorName,
} from './chartData.ts';
import { ChartLegend, type CandleLegend } from './ChartLegend.tsx';

type LoadState = 'loading' | 'ready' | 'failed';

/** Candles shown from the device, and since when they are that old. */
interface FromDevice { savedAtMs: number }

/** The device's copy follows the live candle at most this often. */
const liveSaveIntervalMs = 30_000;
/** How often the age of kept candles is spelled again. */
const ageRefreshMs = 30_000;

const symbolCodeOf = (chart: Chart) => chart.getSymbol()?.code;

const sameLegend = (a: CandleLegend | null, b: CandleLegend | null) => JSON.stringify(a) === JSON.stringify(b);

/** Indicator panes share the chart's height with the candles (see indicatorPaneHeight). */
function fitIndicatorPanes(chart: Chart, heightPx: number) {
  const panes = indicatorNames.filter((name) => !overlayIndicators.includes(name)).map(indicatorPaneId)
    .filter((paneId) => chart.getIndicators({ paneId }).length > 0);
  const height = indicatorPaneHeight(heightPx, panes.length);
  for (const id of panes) {
    const options = chart.getPaneOptions(id);
    if (options && !Array.isArray(options) && options.height !== height) chart.setPaneOptions({ id, height });
  }
}

export function KlineChart({ symbol, displayName, pricePrecision, volumePrecision, period, indicators, label, texts, lastTick }: {
  symbol: string;
  displayName: string;
  pricePrecision: number;
  volumePrecision: number;
  period: CandlePeriod;
  indicators: IndicatorName[];
  label: string;
  texts: ChartTexts;
  /** The price the page shows above the chart: kept candles shown offline end on it (withLastTick). */
  lastTick?: LastTick;
}) {
  const { t } = useLingui();
  const dispatch = useDispatch<ThunkDispatch<unknown, unknown, UnknownAction>>();
  const container = useRef<HTMLDivElement>(null);
  const chartRef = useRef<Chart | null>(null);
  const pushBar = useRef<((bar: KLineData) => void) | undefined>(undefined);
  const textsRef = useRef(texts);
  textsRef.current = texts;
  const lastTickRef = useRef(lastTick);
  lastTickRef.current = lastTick;
  /** The candles of the chart shown, as the device keeps them. */
  const kept = useRef<{ symbol: string; period: CandlePeriod; candles: Candle[]; savedAtMs: number } | null>(null);
  const [loadState, setLoadState] = useState<LoadState>('loading');
  const [fromDevice, setFromDevice] = useState<FromDevice | null>(null);
  const [legend, setLegend] = useState<CandleLegend | null>(null);
  const [nowMs, setNowMs] = useState(() => Date.now());
  const online = useOnline();
  const live = useLiveCandle(symbol, period);

  useEffect(() => {
    const fontFamily = pageFontFamily();
    let legendFrame = 0;
    let legendCandle: Nullable<KLineData> = null;
    // The strip above the chart shows the candle the chart's own legend would (see chartSetup.ts),
    // or the newest one (null) when the data changed without a drawing that names one.
    const showLegendOf = (current: Nullable<KLineData>) => {
      legendCandle = current;
      if (legendFrame) return;
      legendFrame = requestAnimationFrame(() => {
        legendFrame = 0;
        const chart = chartRef.current;
        const candle = legendCandle ?? chart?.getDataList().at(-1);
        if (!chart || !candle) return;
        const index = chart.getDataList().lastIndexOf(candle);
        const { open, high, low, close } = candle;
        const next = { open, high, low, close, overlays: index < 0 ? [] : overlayLegends(chart, index, textsRef.current) };
        setLegend((previous) => (sameLegend(previous, next) ? previous : next));
      });
    };
    const chart = init(container.current!, {
      styles: chartStyles(fontFamily, showLegendOf, refreshChartPalette()),
      decimalFold: plainDecimals,
      ...chartSpelling(textsRef.current.intl),
    });
    if (!chart) return undefined;
    chartRef.current = chart;
    // Time labels that would be cut at either edge are left out.
    chart.overrideXAxis({
      createTicks: ({ bounding, defaultTicks }) => ticksInside(defaultTicks, bounding.width, (text) => measureAxisText(text, fontFamily)),
    });
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
        if (type === 'init') {
          setLoadState('loading');
          kept.current = null;
        }
        const request = dispatch(marketApi.endpoints.getCandles.initiate({
          symbol: symbolCode, period: code, endTime: type === 'forward' ? timestamp ?? undefined : undefined, limit: candlePageSize,
        }, { subscribe: false, forceRefetch: true }));
        const result = await request;
        if (!isCurrent(symbolCode, code)) return;
        if (result.data) {
          const { candles } = result.data;
          callback(candles.map(toBar), { forward: candles.length >= candlePageSize, backward: false });
          if (type === 'init') {
            const savedAtMs = Date.now();
            kept.current = { symbol: symbolCode, period: code, candles, savedAtMs };
            void saveCandles(symbolCode, code, candles, savedAtMs);
            setFromDevice(null);
            setLoadState('ready');
          }
          return;
        }
        if (type !== 'init') {
          // Keep the way back open: scrolling to the edge again retries.
          callback([], { forward: true, backward: false });
          return;
        }
        const saved = await readSavedCandles(symbolCode, code);
        if (!isCurrent(symbolCode, code)) return;
        if (!saved) {
          setLoadState('failed');
          callback([], false);
          return;
        }
        // Older pages cannot be fetched either; they load when the chart loads again online. The
        // last candle ends on the price shown above the chart, so the two do not disagree.
        const tick = lastTickRef.current;
        const candles = tick ? withLastTick(saved.candles, tick, code) : saved.candles;
        callback(candles.map(toBar), { forward: false, backward: false });
        // No live candle will redraw the chart: the strip is filled from the data itself.
        showLegendOf(null);
        setFromDevice({ savedAtMs: saved.savedAtMs });
        setNowMs(Date.now());
        setLoadState('ready');
      },
      subscribeBar: ({ callback }) => {
        pushBar.current = callback;
      },
      unsubscribeBar: () => {
        pushBar.current = undefined;
      },
    };
    chart.setDataLoader(loader);
    const resized = new ResizeObserver(() => fitIndicatorPanes(chart, container.current?.clientHeight ?? 0));
    resized.observe(container.current!);
    // The theme or the colour convention changed (in My, or the system's theme): the chart, which
    // cannot use CSS variables, is drawn again in the new colours.
    const recolour = new MutationObserver(() => chart.setStyles(chartStyles(fontFamily, showLegendOf, refreshChartPalette())));
    recolour.observe(document.documentElement, { attributes: true, attributeFilter: ['data-prefers-color-scheme', 'data-rise', 'lang'] });
    return () => {
      recolour.disconnect();
      resized.disconnect();
      cancelAnimationFrame(legendFrame);
      pushBar.current = undefined;
      chartRef.current = null;
      dispose(chart);
    };
    // The chart is made once; symbol, period, language and indicators are applied by the effects below.
  }, []);

  // A change of language: numbers and dates are spelled again, and the legends (which read
  // `texts` as they draw) follow with the redraw this causes.
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    const { formatter, thousandsSeparator } = chartSpelling(texts.intl);
    chart.setFormatter(formatter);
    chart.setThousandsSeparator(thousandsSeparator);
  }, [texts]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    const current = chart.getSymbol();
    if (current?.code === symbol && current.ticker === displayName && current.pricePrecision === pricePrecision
      && current.volumePrecision === volumePrecision) return;
    // `ticker` names the symbol in the chart; `code` is what the data loader asks for.
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
      if (indicators.includes(name) && !shown) {
        chart.createIndicator(indicatorCreate(name, () => textsRef.current), overlayIndicators.includes(name));
        // A pane of its own keeps room at its top for its one-line legend. The gap is in pixels of
        // value range, which klinecharts scales with the pane: 30 leaves 22 px or more on panes of
        // 80 px and up. MACD's range reaches zero, where its bars start.
        if (!overlayIndicators.includes(name)) {
          chart.overrideYAxis({
            paneId,
            gap: { top: indicatorLegendRoomPx + 8, bottom: 4 },
            ...(name === 'MACD' ? { createRange: ({ defaultRange }) => rangeWithZero(defaultRange) } : {}),
          });
        }
        if (name === 'MACD') followMacdMagnitude(chart);
      }
      if (!indicators.includes(name) && shown) chart.removeIndicator({ name, paneId });
    }
    fitIndicatorPanes(chart, container.current?.clientHeight ?? 0);
  }, [indicators]);

  // The live candle of this symbol and period only (currentData is empty while another loads).
  const candle = live.currentData;
  useEffect(() => {
    const chart = chartRef.current;
    if (!candle || !chart || symbolCodeOf(chart) !== symbol || candlePeriodOf(chart.getPeriod()) !== period) return;
    pushBar.current?.(toBar(candle));
    // The device's copy follows, now and then.
    const saved = kept.current;
    if (!saved || saved.symbol !== symbol || saved.period !== period) return;
    saved.candles = withLiveCandle(saved.candles, candle);
    const nowMs = Date.now();
    if (nowMs - saved.savedAtMs < liveSaveIntervalMs) return;
    saved.savedAtMs = nowMs;
    void saveCandles(symbol, period, saved.candles, nowMs);
  }, [candle, symbol, period]);

  // Kept candles on screen: their age stays current, and the chart loads again once online.
  useEffect(() => {
    if (!fromDevice) return undefined;
    const timer = setInterval(() => setNowMs(Date.now()), ageRefreshMs);
    return () => clearInterval(timer);
  }, [fromDevice]);
  const wasOnline = useRef(online);
  useEffect(() => {
    const cameBack = online && !wasOnline.current;
    wasOnline.current = online;
    if (cameBack && fromDevice) chartRef.current?.resetData();
  }, [fromDevice, online]);

  // A last price that arrives (or changes) while kept candles are shown: they are drawn again to end on it.
  const tickPrice = lastTick?.price;
  const tickTimeMs = lastTick?.timeMs;
  const drawnTick = useRef<string | undefined>(undefined);
  useEffect(() => {
    const key = `${tickPrice}@${tickTimeMs}`;
    const previous = drawnTick.current;
    drawnTick.current = key;
    if (fromDevice && previous !== undefined && previous !== key) chartRef.current?.resetData();
  }, [fromDevice, tickPrice, tickTimeMs]);

  const retry = () => chartRef.current?.resetData();
  const age = fromDevice ? formatAge(fromDevice.savedAtMs, nowMs, texts.intl) : '';
  return (
    <div className="kline-chart-wrap">
      {fromDevice && (
        <p className="kline-kept-note" role="status" data-testid="kline-kept-note">
          {online ? t`The chart could not be refreshed. Candles updated ${age}.` : t`Offline. Candles updated ${age}.`}
          {online && <button type="button" className="retry-button small" onClick={retry}>{t`Retry`}</button>}
        </p>
      )}
      <ChartLegend legend={loadState === 'ready' ? legend : null} pricePrecision={pricePrecision} intl={texts.intl} />
      <div className="kline-chart-box">
        <div ref={container} className="kline-chart" role="img" aria-label={label} data-testid="kline-chart" />
        {loadState === 'loading' && <p className="kline-overlay" role="status">{t`Loading chart...`}</p>}
        {loadState === 'failed' && (
          <div className="kline-overlay" role="alert">
            <p>{online ? t`The chart could not be loaded.` : t`You are offline and this chart is not saved on this device yet.`}</p>
            <button type="button" className="retry-button" onClick={retry}>{t`Retry`}</button>
          </div>
        )}
      </div>
    </div>
  );
}
