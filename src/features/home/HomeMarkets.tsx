// The home page's market card, loaded after the first screen (React.lazy): the 24 h trading
// ranking, hot, gainers and losers (see `rank` for what each means), five rows each, with "More"
// leading to the matching view of /hangqing. Plain elements only, no antd-mobile.
import { useDeferredValue, useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { FailedNotice, LoadingRows, StaleNotice } from '../../entities/market/MarketStates.tsx';
import { TickerRow } from '../../entities/market/TickerRow.tsx';
import { intlOf } from '../../lib/locales.ts';
import { rank, rankings, type Ranking } from '../../entities/market/tickers.ts';
import { useTickers } from '../../entities/market/useMarketData.ts';
import { prepareMarketTexts } from '../../entities/market/catalog.ts';
import { SimulatedPricesLabel } from '../../components/SimulatedPricesLabel.tsx';
import { ScrollHint } from '../../components/ScrollHint.tsx';

export const homeRowsMax = 5;

const titles: Record<Ranking, MessageDescriptor> = {
  volume: msg`24h trading ranking`,
  hot: msg`Hot`,
  gainers: msg`Gainers`,
  losers: msg`Losers`,
};

/** Where "More" goes: the market page in the order that continues the list. */
const moreLinks: Record<Ranking, string> = {
  volume: '/hangqing?sort=volume-desc',
  hot: '/hangqing',
  gainers: '/hangqing?sort=change-desc',
  losers: '/hangqing?sort=change-asc',
};

/** The router awaits this before the page shows: its texts. */
export const prepare = prepareMarketTexts;

export default function HomeMarkets() {
  const { t, i18n } = useLingui();
  const [ranking, setRanking] = useState<Ranking>('volume');
  // The card follows the feed a render behind: a tick's store update (notified in an animation
  // frame, rendered by React at once) only re-renders this component, and the rows follow in a
  // deferred render that React splits into slices, so a tick is never one long task on a slow phone.
  const view = useDeferredValue(useTickers());
  const intl = intlOf(i18n.locale);
  // Ranked again only when the list or the tab changes, not on the rows' own renders (a price's flash).
  const rows = useMemo(() => (view.tickers ? rank(view.tickers, ranking, homeRowsMax) : []), [view.tickers, ranking]);
  const title = i18n._(titles[ranking]);
  return (
    <section className="home-markets" aria-label={t`Markets`}>
      <ScrollHint className="home-markets-tabs-hint">
      <div className="home-markets-tabs" role="tablist" aria-label={t`Market rankings`}>
        {rankings.map((key) => (
          <button key={key} type="button" role="tab" id={`ranking-${key}`} aria-selected={ranking === key}
            aria-controls="ranking-panel" className={`ranking-tab${ranking === key ? ' active' : ''}`}
            onClick={() => setRanking(key)}>
            {i18n._(titles[key])}
          </button>
        ))}
      </div>
      </ScrollHint>
      <div id="ranking-panel" role="tabpanel" aria-labelledby={`ranking-${ranking}`}>
        {view.stale && <StaleNotice asOfMs={view.asOfMs} offline={view.offline} />}
        <SimulatedPricesLabel sources={rows.map((ticker) => ticker.source)} className="home-simulated" />
        {view.loading && <LoadingRows label={t`Loading markets`} />}
        {view.failed && <FailedNotice offline={view.offline} onRetry={() => void view.refetch()} />}
        {view.tickers && rows.length === 0 && <p className="empty-note">{t`No markets in this list right now.`}</p>}
        {rows.length > 0 && (
          <ul className="ticker-list" aria-label={title}>
            {rows.map((ticker) => <TickerRow key={ticker.symbol} ticker={ticker} intl={intl} />)}
          </ul>
        )}
        <Link className="more-link" to={moreLinks[ranking]} aria-label={t`More: ${title}`}>{t`More`}</Link>
      </div>
    </section>
  );
}
