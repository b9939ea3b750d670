// shanduiOrder (spec §2 flash trade orders): the user's swaps, newest first, 20 at a time as the
// list scrolls, with pull to refresh. Each row is its receipt: amount, fee, rate and what was
// received, and the recorded ticks the rate was made from (id, price, time, source).
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { PageOf } from '../../api/contract/wallet.ts';
import type { SwapRecord } from '../../api/contract/trading.ts';
import { failureText } from '../../api/errorMessages.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Amount } from '../../components/Amount.tsx';
import { symbolName } from '../../lib/symbolName.ts';
import { SwapRate } from './SwapRate.tsx';
import { formatDecimal } from '../../lib/number.ts';
import { intlOf } from '../../lib/locales.ts';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { prepareTradeTexts } from '../../entities/trade/tradeTexts.ts';
import { useSwapRecordPagesInfiniteQuery } from './swapApi.ts';
import './swap.css';
import { SimulatedPricesLabel } from '../../components/SimulatedPricesLabel.tsx';
import {
  HistoryFilters, NoHistoryMatch, historyQueryOf, isFiltered, noHistoryFilter, type HistoryFilterValue,
} from '../../components/HistoryFilters.tsx';
import { ShareButton } from '../../components/share/ShareButton.tsx';
import { useSwapCurrenciesQuery } from '../../entities/trade/tradeApi.ts';
import { useLinkedRecord } from '../../components/share/useLinkedRecord.ts';
import { swapReceiptImage } from './swapReceiptImage.ts';
import { tickSourceLabel } from '../../components/tickSource.ts';

export const prepare = prepareTradeTexts;

const decimalsOf = (text: string) => text.split('.')[1]?.length ?? 0;

/** The records of every page read so far, each once (a swap made meanwhile shifts the pages by one). */
export function flattenSwaps(pages: readonly PageOf<SwapRecord>[] | undefined): SwapRecord[] {
  const seen = new Set<string>();
  return (pages ?? []).flatMap((page) => page.records).filter((row) => (seen.has(row.id) ? false : (seen.add(row.id), true)));
}

/** Every ordered pair of the swappable currencies, as the filter offers them ("BTC/USDT" is BTC → USDT). */
export function pairsOf(currencies: readonly string[]) {
  return currencies.flatMap((from) => currencies.filter((to) => to !== from).map((to) => ({ value: `${from}/${to}`, label: `${from} → ${to}` })));
}

export default function SwapOrdersPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [filter, setFilter] = useState<HistoryFilterValue>(noHistoryFilter);
  const currencies = useSwapCurrenciesQuery();
  const pairs = useMemo(() => pairsOf((currencies.data?.currencies ?? []).map((item) => item.currency)), [currencies.data]);
  // Read once per filter change: the periods start at a midnight, so the arguments stay stable.
  const recordFilter = useMemo(() => historyQueryOf(filter, Date.now(), 'pair'), [filter]);
  const query = useSwapRecordPagesInfiniteQuery(recordFilter);
  // currentData: after a filter change, never the rows of the previous filter.
  const rows = flattenSwaps(query.currentData?.pages);
  const [params] = useSearchParams();
  useLinkedRecord('data-record-id', params.get('id'), rows.length);
  const refresh = async () => {
    await query.refetch().unwrap().catch(() => undefined);
  };

  let content;
  if (query.isLoading || (query.isFetching && !query.currentData)) {
    content = (
      <div className="swap-skeleton" role="status" aria-label={t`Loading records`}>
        <span className="swap-skeleton-block" /><span className="swap-skeleton-block" /><span className="swap-skeleton-block" />
      </div>
    );
  } else if (rows.length === 0 && query.isError) {
    content = (
      <div className="swap-empty" role="alert">
        <p>{t`The records could not be loaded.`} {failureText(query.error)}</p>
        <Button color="primary" fill="outline" onClick={() => void refresh()}>{t`Retry`}</Button>
      </div>
    );
  } else if (rows.length === 0 && isFiltered(filter)) {
    content = <NoHistoryMatch onClear={() => setFilter(noHistoryFilter)} />;
  } else if (rows.length === 0) {
    content = (
      <div className="swap-empty">
        <p>{t`You have made no swaps yet.`}</p>
        <Button color="primary" onClick={() => navigate('/shandui')}>{t`Swap now`}</Button>
      </div>
    );
  } else {
    content = (
      <>
        {query.isError && <p className="swap-stale" role="alert">{t`The records could not be updated.`} {failureText(query.error)}</p>}
        <ul className="swap-records" aria-label={t`Swap records`}>
          {rows.map((record) => <SwapRow key={record.id} record={record} />)}
        </ul>
        <InfiniteScroll hasMore={query.hasNextPage} loadMore={async () => { await query.fetchNextPage().unwrap(); }}>
          {(hasMore, failed, retry) => (failed
            ? (
              <span className="swap-end">
                {t`More records could not be loaded.`}{' '}
                <button type="button" className="link-button" onClick={retry}>{t`Retry`}</button>
              </span>
            )
            : <span className="swap-end" role="status">{hasMore ? t`Loading more…` : t`No more records`}</span>)}
        </InfiniteScroll>
      </>
    );
  }
  return (
    <div className="swap-page">
      <PageHeader title={t`Flash swap orders`} fallback="/shandui" />
      <div className="swap-filters">
        <HistoryFilters value={filter} onChange={setFilter} symbols={pairs} kind="pair" results={false} />
      </div>
      <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
        refreshingText={t`Loading...`} completeText={t`Updated`}>
        <div className="swap-records-content">{content}</div>
      </PullToRefresh>
    </div>
  );
}

function SwapRow({ record }: { record: SwapRecord }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const amount = (value: string, asset: string) => <Amount value={value} asset={asset} scale={decimalsOf(value)} exact withAsset />;
  return (
    <li className="swap-record" data-record-id={record.id}>
      <div className="swap-record-head">
        <strong>{record.from} → {record.to}</strong>
        <time dateTime={isoOfEpochMs(record.createTime)}>{formatEpochMs(record.createTime)}</time>
      </div>
      <dl>
        <div><dt>{t`Amount`}</dt><dd>{amount(record.amount, record.from)}</dd></div>
        <div><dt>{t`Fee`}</dt><dd>{amount(record.fee, record.from)}</dd></div>
        <div><dt>{t`Rate`}</dt><dd><SwapRate rate={record.rate} from={record.from} to={record.to} /></dd></div>
        <div><dt>{t`Received`}</dt><dd><strong>{amount(record.receive, record.to)}</strong></dd></div>
      </dl>
      <SimulatedPricesLabel sources={record.ticks.map((tick) => tick.source)} />
      <details className="swap-ticks">
        <summary>{t`Receipt`}</summary>
        {record.ticks.length === 0
          ? <p>{t`Stablecoins at par: no price was used.`}</p>
          : (
            <ul>{record.ticks.map((tick) => (
              <li key={tick.id}>{symbolName(tick.symbol)} {formatDecimal(tick.price, decimalsOf(tick.price), intl)} · {formatEpochMs(tick.time)} · {t`Tick #${tick.id}`} · {tickSourceLabel(tick.source)}</li>
            ))}</ul>
          )}
        <p className="swap-rule">{t`Receive = (amount − fee) × rate, truncated to the currency's decimals.`}</p>
        <p className="swap-exact-rate" data-testid="swap-exact-rate">1 {record.from} = {record.rate} {record.to}</p>
      </details>
      <div className="swap-share"><ShareButton receipt={() => swapReceiptImage(record)} /></div>
    </li>
  );
}
