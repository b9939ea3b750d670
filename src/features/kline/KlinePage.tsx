// /kline?symbol=BTCUSDT&period=1h: one symbol's 24 h figures, its candlestick chart with a period
// switcher and indicator toggles, and a way back. The period is kept in the address so a reload
// or back returns to the same chart; so is the full-screen mode (`&view=full`), so that back
// leaves it. No trade buttons until trading exists (DESIGN §1).
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import { BellOutline } from 'antd-mobile-icons';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CandlePeriod, Ticker } from '../../api/contract/market.ts';
import { candlePeriods } from '../../api/contract/marketConstants.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ChangeBadge, StarButton, useFlash } from '../../entities/market/TickerRow.tsx';
import { StaleNotice } from '../../entities/market/MarketStates.tsx';
import { decimalsOf, directionOf, tickerPrice } from '../../entities/market/format.ts';
import { formatCompact, formatDecimal, formatSigned } from '../../lib/number.ts';
import { intlOf } from '../../lib/locales.ts';
import { useFavourites, useTickers } from '../../entities/market/useMarketData.ts';
import { KlineChart } from './KlineChart.tsx';
import { defaultIndicators, indicatorNames, type IndicatorName } from './chartData.ts';
import type { ChartTexts } from './chartIndicators.ts';
import { useChartFullscreen } from './useChartFullscreen.ts';
import './kline.css';
import { prepareMarketTexts } from '../../entities/market/catalog.ts';
import { SimulatedPricesLabel } from '../../components/SimulatedPricesLabel.tsx';
import { ScrollHint } from '../../components/ScrollHint.tsx';
import { readLastSymbol, rememberSymbol } from '../../lib/lastSymbol.ts';

export const defaultSymbol = 'BTCUSDT';
export const defaultPeriod: CandlePeriod = '15m';

/** Visible label and spoken name of each period. */
const periodLabels: Record<CandlePeriod, { short: MessageDescriptor; long: MessageDescriptor }> = {
  '1m': { short: msg`1m`, long: msg`1 minute` },
  '5m': { short: msg`5m`, long: msg`5 minutes` },
  '15m': { short: msg`15m`, long: msg`15 minutes` },
  '30m': { short: msg`30m`, long: msg`30 minutes` },
  '1h': { short: msg`1h`, long: msg`1 hour` },
  '4h': { short: msg`4h`, long: msg`4 hours` },
  '1d': { short: msg`1D`, long: msg`1 day` },
  '1w': { short: msg`1W`, long: msg`1 week` },
  '1M': { short: msg`1M`, long: msg`1 month` },
};

/** Short names on the toggles and in the legends; most languages keep the Latin abbreviations. */
const indicatorShortNames: Record<IndicatorName, MessageDescriptor> = {
  MA: msg({ message: 'MA', context: 'chart indicator short name: moving average' }),
  EMA: msg({ message: 'EMA', context: 'chart indicator short name: exponential moving average' }),
  BOLL: msg({ message: 'BOLL', context: 'chart indicator short name: Bollinger bands' }),
  VOL: msg({ message: 'Vol', context: 'chart indicator short name: volume' }),
  MACD: msg({ message: 'MACD', context: 'chart indicator short name: moving average convergence divergence' }),
  RSI: msg({ message: 'RSI', context: 'chart indicator short name: relative strength index' }),
};

const indicatorTitles: Record<IndicatorName, MessageDescriptor> = {
  MA: msg`Moving average`,
  EMA: msg`Exponential moving average`,
  BOLL: msg`Bollinger bands`,
  VOL: msg`Volume`,
  MACD: msg`Moving average convergence divergence`,
  RSI: msg`Relative strength index`,
};

const isPeriod = (value: unknown): value is CandlePeriod => candlePeriods.includes(value as CandlePeriod);

function Stats({ ticker, intl }: { ticker: Ticker; intl: string }) {
  const { t } = useLingui();
  const { base, quote } = ticker;
  const flash = useFlash(ticker.last);
  const direction = directionOf(ticker.changePercent24h);
  return (
    <section className="kline-stats" aria-label={t`24h figures`}>
      <div className="kline-last">
        <p className={`kline-price ${direction}${flash ? ` flash-${flash}` : ''}`} data-testid="kline-last">
          <span className="visually-hidden">{t`Last price`} </span>{tickerPrice(ticker, intl)}
        </p>
        <p className={`kline-change ${direction}`}>
          <span className="visually-hidden">{t`24h change`} </span>
          {formatSigned(ticker.change24h, ticker.pricePrecision, intl)} <ChangeBadge percent={ticker.changePercent24h} intl={intl} />
        </p>
        {!ticker.open && <p className="closed-badge large">{t`Market closed`}</p>}
        <SimulatedPricesLabel sources={[ticker.source]} />
      </div>
      <dl className="kline-figures">
        <div><dt>{t`24h high`}</dt><dd>{formatDecimal(ticker.high24h, ticker.pricePrecision, intl)}</dd></div>
        <div><dt>{t`24h low`}</dt><dd>{formatDecimal(ticker.low24h, ticker.pricePrecision, intl)}</dd></div>
        <div><dt>{t`24h volume (${base})`}</dt><dd>{formatCompact(ticker.volume24h, intl)}</dd></div>
        <div><dt>{t`24h turnover (${quote})`}</dt><dd>{formatCompact(ticker.quoteVolume24h, intl)}</dd></div>
      </dl>
    </section>
  );
}

/** The legends' texts in the interface language. */
function useChartTexts(intl: string): ChartTexts {
  const { t, i18n } = useLingui();
  return useMemo(() => ({
    intl,
    names: Object.fromEntries(indicatorNames.map((name) => [name, i18n._(indicatorShortNames[name])])) as Record<IndicatorName, string>,
    lines: {
      dif: t({ message: 'DIF', context: 'MACD line: fast average minus slow average' }),
      dea: t({ message: 'DEA', context: 'MACD signal line: average of DIF' }),
      up: t({ message: 'UP', context: 'Bollinger upper band, short' }),
      mid: t({ message: 'MID', context: 'Bollinger middle band, short' }),
      dn: t({ message: 'DN', context: 'Bollinger lower band, short' }),
    },
  }), [i18n, intl, t]);
}

function FullscreenIcon({ full }: { full: boolean }) {
  return (
    <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round"
      strokeLinejoin="round" aria-hidden="true" focusable="false">
      {full
        ? <path d="M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5" />
        : <path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5" />}
    </svg>
  );
}

/** The router awaits this before the page shows: its texts. */
export const prepare = prepareMarketTexts;

/** The chart's "Buy long" and "Sell short" links to the contract screen (issue 10). */
const tradeButton = {
  display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: 44, borderRadius: 8, color: '#fff',
  fontWeight: 700, textDecoration: 'none', textAlign: 'center', padding: '4px 8px',
} as const;

export default function KlinePage() {
  const { t, i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  // Without one in the address, the symbol viewed last on any page (lib/lastSymbol.ts).
  const symbol = (params.get('symbol') ?? readLastSymbol() ?? defaultSymbol).toUpperCase();
  const period = isPeriod(params.get('period')) ? params.get('period') as CandlePeriod : defaultPeriod;
  const [indicators, setIndicators] = useState<IndicatorName[]>(defaultIndicators);
  const view = useTickers();
  const { favourites, toggle } = useFavourites();
  const ticker = view.tickers?.find((candidate) => candidate.symbol === symbol);
  const shownSymbol = ticker?.symbol;
  useEffect(() => {
    if (shownSymbol) rememberSymbol(shownSymbol);
  }, [shownSymbol]);
  const intl = intlOf(i18n.locale);
  const texts = useChartTexts(intl);
  const location = useLocation();
  const area = useRef<HTMLElement>(null);
  const fullscreen = useChartFullscreen(area);

  const choosePeriod = (next: CandlePeriod) => {
    const updated = new URLSearchParams(params);
    updated.set('period', next);
    // The entry's state says whether full screen pushed it: kept, so back still leaves full screen.
    setParams(updated, { replace: true, state: location.state as unknown });
  };
  const toggleIndicator = (name: IndicatorName) => setIndicators((current) =>
    (current.includes(name) ? current.filter((shown) => shown !== name) : [...current, name]));

  const title = ticker?.displayName ?? symbol;
  const periodName = i18n._(periodLabels[period].long);
  return (
    <div className="kline-page">
      {/* In full screen the chart covers these; they leave the tab order and the reading order too. */}
      <div className="kline-behind" inert={fullscreen.full}>
        <PageHeader title={title} fallback="/hangqing"
          right={ticker && (
            <>
              <Link className="kline-alert-link" to={`/priceAlerts?symbol=${encodeURIComponent(ticker.symbol)}`} aria-label={t`Price alerts`}>
                <BellOutline aria-hidden="true" />
              </Link>
              <StarButton ticker={ticker} starred={favourites.includes(ticker.symbol)} onToggle={toggle} />
            </>
          )} />
        {view.stale && <StaleNotice asOfMs={view.asOfMs} offline={view.offline} />}
        {ticker && <Stats ticker={ticker} intl={intl} />}
        {!ticker && view.loading && <p className="center-note" role="status">{t`Loading...`}</p>}
        {!ticker && !view.loading && (
          <div className="center-note" role="alert">
            <p>{view.failed ? t`The markets could not be loaded.` : t`There is no market ${symbol}.`}</p>
            {view.failed
              ? <button type="button" className="retry-button" onClick={() => void view.refetch()}>{t`Retry`}</button>
              : <Link to="/hangqing">{t`All markets`}</Link>}
          </div>
        )}
      </div>
      <section ref={area} className={`kline-area${fullscreen.full ? ' kline-area-full' : ''}`} aria-label={t`Chart`}>
        <ScrollHint className="kline-periods-hint">
        <div className="kline-periods" role="radiogroup" aria-label={t`Chart period`}>
          {candlePeriods.map((code) => (
            <button key={code} type="button" role="radio" aria-checked={period === code}
              aria-label={i18n._(periodLabels[code].long)} className={`period-button${period === code ? ' active' : ''}`}
              onClick={() => choosePeriod(code)}>
              {i18n._(periodLabels[code].short)}
            </button>
          ))}
        </div>
        </ScrollHint>
        {ticker && (
          <button type="button" className="kline-fullscreen-button" data-testid="kline-fullscreen"
            aria-label={fullscreen.full ? t`Exit full screen` : t`Full screen chart`}
            onClick={fullscreen.full ? fullscreen.leave : fullscreen.enter}>
            <FullscreenIcon full={fullscreen.full} />
          </button>
        )}
        {ticker && (
          <KlineChart symbol={ticker.symbol} displayName={ticker.displayName} pricePrecision={ticker.pricePrecision}
            volumePrecision={decimalsOf(ticker.volume24h)} period={period} indicators={indicators} texts={texts}
            label={t`Candlestick chart of ${title}, ${periodName} candles`} lastTick={{ price: ticker.last, timeMs: ticker.time }} />
        )}
        <ScrollHint className="kline-indicators-hint">
        <div className="kline-indicators" role="group" aria-label={t`Indicators`}>
          {indicatorNames.map((name) => (
            <button key={name} type="button" aria-pressed={indicators.includes(name)} title={i18n._(indicatorTitles[name])}
              aria-label={`${texts.names[name]}: ${i18n._(indicatorTitles[name])}`} className={`indicator-button${indicators.includes(name) ? ' active' : ''}`}
              onClick={() => toggleIndicator(name)}>
              {texts.names[name]}
            </button>
          ))}
        </div>
        </ScrollHint>
      </section>
      {ticker && !fullscreen.full && (
        <nav className="kline-trade" aria-label={t`Trade ${title}`}
          style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8, padding: '8px 12px 16px' }}>
          <Link to={`/heyue?symbol=${encodeURIComponent(ticker.symbol)}&side=long`} style={{ ...tradeButton, background: 'var(--up-fill)' }}>{t`Buy long`}</Link>
          <Link to={`/heyue?symbol=${encodeURIComponent(ticker.symbol)}&side=short`} style={{ ...tradeButton, background: 'var(--down-fill)' }}>{t`Sell short`}</Link>
        </nav>
      )}
    </div>
  );
}
