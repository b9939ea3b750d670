// /hangqing, the market tab: the rise-and-fall distribution, then every symbol by class (all,
// crypto, metals, forex, favourites) with search (codes, names and aliases in every language),
// sorting and pull to refresh. The tab and the order live in the address
// (?tab=crypto&sort=change-desc), so back and the home page's "More" links land on the same view.
// Offline, the saved list and its distribution show with their age.
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { Ticker } from '../../api/contract/market.ts';
import { msg } from '@lingui/core/macro';
import { DistributionCard } from './DistributionCard.tsx';
import { FailedNotice, LoadingRows, StaleNotice } from '../../entities/market/MarketStates.tsx';
import { TickerRow } from '../../entities/market/TickerRow.tsx';
import { marketNames } from '../../entities/market/assets.ts';
import { intlOf } from '../../lib/locales.ts';
import { searchWords } from './marketSearch.ts';
import {
  filterTickers, isMarketTab, isSortKey, marketTabs, nextSort, sortTickers, type MarketTab, type SortKey, type SortOrder,
} from '../../entities/market/tickers.ts';
import { useDistribution, useFavourites, useTickers } from '../../entities/market/useMarketData.ts';
import { prepareMarketTexts } from '../../entities/market/catalog.ts';
import { SimulatedPricesLabel } from '../../components/SimulatedPricesLabel.tsx';
import { ScrollHint } from '../../components/ScrollHint.tsx';

const tabTitles: Record<MarketTab, MessageDescriptor> = {
  all: msg`All`,
  crypto: msg`Crypto`,
  metal: msg`Metals`,
  forex: msg`Forex`,
  favourites: msg`Favourites`,
};

const sortTitles: Record<SortKey, MessageDescriptor> = {
  name: msg`Name`,
  price: msg`Price`,
  change: msg`24h change`,
  volume: msg`Volume`,
};

/** "change-desc" → { key: 'change', direction: 'desc' }; anything else → no order. */
export function parseSort(text: string | null): SortOrder | undefined {
  const [key, direction] = (text ?? '').split('-');
  if (!isSortKey(key) || (direction !== 'asc' && direction !== 'desc')) return undefined;
  return { key, direction };
}

function SortButton({ sortKey, order, onSort }: { sortKey: SortKey; order: SortOrder | undefined; onSort: (key: SortKey) => void }) {
  const { t, i18n } = useLingui();
  const active = order?.key === sortKey;
  const title = i18n._(sortTitles[sortKey]);
  const label = !active ? t`Sort by ${title}` : order.direction === 'asc' ? t`Sorted by ${title}, ascending` : t`Sorted by ${title}, descending`;
  return (
    <button type="button" className={`sort-button${active ? ' active' : ''}`} aria-label={label} aria-pressed={active}
      onClick={() => onSort(sortKey)}>
      {title}
      <span className="sort-arrows" aria-hidden="true">{active ? (order.direction === 'asc' ? '▲' : '▼') : '▴▾'}</span>
    </button>
  );
}

/** The router awaits this before the page shows: its texts. */
export const prepare = prepareMarketTexts;

export default function MarketPage() {
  const { t, i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  const [query, setQuery] = useState('');
  const tab: MarketTab = isMarketTab(params.get('tab')) ? params.get('tab') as MarketTab : 'all';
  const order = parseSort(params.get('sort'));
  const view = useTickers();
  const distribution = useDistribution();
  const { favourites, toggle } = useFavourites();
  const intl = intlOf(i18n.locale);

  const rows = useMemo(() => {
    const wordsOf = (ticker: Ticker) => {
      const name = marketNames[ticker.symbol];
      return searchWords(ticker, name ? i18n._(name) : undefined);
    };
    return sortTickers(filterTickers(view.tickers ?? [], tab, query, favourites, wordsOf), order);
  }, [view.tickers, tab, query, favourites, order, i18n, t]);
  const closedCount = (view.tickers ?? []).filter((ticker) => !ticker.open).length;

  const update = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next, { replace: true });
  };
  const sortBy = (key: SortKey) => {
    const sort = nextSort(order, key);
    update({ sort: `${sort.key}-${sort.direction}` });
  };
  const refresh = async () => {
    await Promise.all([view.refetch(), distribution.refetch()]);
  };

  return (
    <div className="market-page">
      <header className="market-header">
        <h1>{t`Market`}</h1>
        <SimulatedPricesLabel sources={(view.tickers ?? []).map((ticker) => ticker.source)} />
      </header>
      <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
        refreshingText={t`Loading...`} completeText={t`Updated`}>
        <DistributionCard saved={view.tickers && { tickers: view.tickers, asOfMs: view.asOfMs }} />
        <div className="market-tools">
          <ScrollHint className="market-tabs-hint">
          <div className="market-tabs" role="tablist" aria-label={t`Market classes`}>
            {marketTabs.map((key) => (
              <button key={key} type="button" role="tab" aria-selected={tab === key} aria-controls="market-list"
                className={`market-tab${tab === key ? ' active' : ''}`}
                onClick={() => update({ tab: key === 'all' ? undefined : key })}>
                {i18n._(tabTitles[key])}
              </button>
            ))}
          </div>
          </ScrollHint>
          <input className="market-search" type="search" value={query} onChange={(event) => setQuery(event.target.value)}
            placeholder={t`Search markets`} aria-label={t`Search markets`} maxLength={20} enterKeyHint="search" />
        </div>
        {view.stale && <StaleNotice asOfMs={view.asOfMs} offline={view.offline} />}
        {closedCount > 0 && (tab === 'all' || tab === 'metal' || tab === 'forex') && (
          <p className="closed-note">{t`Closed markets show the figures of their last 24 hours of trading.`}</p>
        )}
        <div className="market-columns">
          <span className="column-name">
            <SortButton sortKey="name" order={order} onSort={sortBy} />
            <span aria-hidden="true"> / </span>
            <SortButton sortKey="volume" order={order} onSort={sortBy} />
          </span>
          <span className="column-price">
            <SortButton sortKey="price" order={order} onSort={sortBy} />
            <span aria-hidden="true"> / </span>
            <SortButton sortKey="change" order={order} onSort={sortBy} />
          </span>
        </div>
        <div id="market-list" role="tabpanel" aria-label={i18n._(tabTitles[tab])}>
          {view.loading && <LoadingRows label={t`Loading markets`} />}
          {view.failed && <FailedNotice offline={view.offline} onRetry={() => void view.refetch()} />}
          {view.tickers && rows.length === 0 && (
            <p className="empty-note">
              {query ? t`No market matches “${query}”.`
                : tab === 'favourites' ? t`No favourites yet. Tap the star beside a market to add it.` : t`No markets here yet.`}
            </p>
          )}
          {rows.length > 0 && (
            <ul className="ticker-list" aria-label={t`Markets`}>
              {rows.map((ticker) => (
                <TickerRow key={ticker.symbol} ticker={ticker} intl={intl}
                  star={{ starred: favourites.includes(ticker.symbol), onToggle: toggle }} />
              ))}
            </ul>
          )}
        </div>
      </PullToRefresh>
    </div>
  );
}
