// The user's open second contracts (one short page, re-read every few seconds while any is open,
// in case the realtime channel is down) and the settled ones as an infinite history with pull to
// refresh. When an open contract leaves the open list it has settled: the history, the balance and
// the trade asset info are read again, and its result is announced.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { useSearchParams } from 'react-router-dom';
import { Button, InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { api } from '../../../api/api.ts';
import type { PageOf } from '../../../api/contract/wallet.ts';
import type { SecondOrder } from '../../../api/contract/trading.ts';
import { failureText } from '../../../api/errorMessages.ts';
import {
  HistoryFilters, NoHistoryMatch, historyQueryOf, isFiltered, noHistoryFilter, symbolLabel, type HistoryFilterValue,
} from '../../../components/HistoryFilters.tsx';
import { useLinkedRecord } from '../../../components/share/useLinkedRecord.ts';
import { useSecondOrdersQuery, useSecondSetsQuery } from '../../../entities/trade/tradeApi.ts';
import { openOrdersPageSize, useSecondHistoryInfiniteQuery } from './optionsApi.ts';
import { SecondOrderCard, useNowMs } from './SecondOrderCard.tsx';

/** While a contract is open, its list is read again this often (the socket usually comes first). */
export const openOrdersPollMs = 3_000;

export function OpenOrders({ demo }: { demo: boolean }) {
  const { t } = useLingui();
  const dispatch = useDispatch();
  const [polling, setPolling] = useState(false);
  const query = useSecondOrdersQuery({ demo, status: 'open', pageNo: 1, pageSize: openOrdersPageSize },
    { pollingInterval: polling ? openOrdersPollMs : 0, skipPollingIfUnfocused: true });
  const orders = query.data?.records ?? [];
  const nowMs = useNowMs(1000, orders.length > 0);
  const seen = useRef<Set<string>>(new Set());

  useEffect(() => {
    setPolling(orders.length > 0);
    const ids = new Set(orders.map((order) => order.id));
    const settled = [...seen.current].some((id) => !ids.has(id));
    seen.current = ids;
    if (settled) dispatch(api.util.invalidateTags(['SecondOrder', 'Balance', 'Demo']));
  }, [query.data, dispatch]);

  if (!query.data && query.isError) {
    return (
      <section className="options-list" aria-label={t`Open orders`}>
        <h2>{t`Open orders`}</h2>
        <p className="options-failed" role="alert">{t`Open orders could not be loaded.`} {failureText(query.error)}</p>
      </section>
    );
  }
  if (orders.length === 0) return null;
  return (
    <section className="options-list" aria-label={t`Open orders`}>
      <h2>{t`Open orders`}</h2>
      <ul className="option-orders">
        {orders.map((order) => <SecondOrderCard key={order.id} order={order} nowMs={nowMs} />)}
      </ul>
    </section>
  );
}

/** The rows of every page read so far, each once (a contract settled meanwhile shifts the pages by one). */
export function flattenOrders(pages: readonly PageOf<SecondOrder>[] | undefined): SecondOrder[] {
  const seen = new Set<string>();
  const rows: SecondOrder[] = [];
  for (const page of pages ?? []) {
    for (const row of page.records) {
      if (!seen.has(row.id)) {
        seen.add(row.id);
        rows.push(row);
      }
    }
  }
  return rows;
}

export function OptionsHistory({ demo }: { demo: boolean }) {
  const { t } = useLingui();
  const [filter, setFilter] = useState<HistoryFilterValue>(noHistoryFilter);
  const sets = useSecondSetsQuery();
  const symbols = useMemo(() => (sets.data ?? []).map((set) => ({ value: set.symbol, label: symbolLabel(set.symbol) })), [sets.data]);
  // Read once per filter change: the periods start at a midnight, so the arguments stay stable.
  const historyFilter = useMemo(() => historyQueryOf(filter, Date.now()), [filter]);
  const query = useSecondHistoryInfiniteQuery({ demo, filter: historyFilter });
  // currentData: after a filter change, never the rows of the previous filter.
  const orders = flattenOrders(query.currentData?.pages);
  const [params] = useSearchParams();
  useLinkedRecord('data-order-id', params.get('order'), orders.length);
  const refresh = async () => {
    await query.refetch().unwrap().catch(() => undefined);
  };

  let content;
  if (query.isLoading || (query.isFetching && !query.currentData)) {
    content = (
      <div className="options-skeleton" role="status" aria-label={t`Loading history`}>
        <span className="skeleton-block" /><span className="skeleton-block" />
      </div>
    );
  } else if (orders.length === 0 && query.isError) {
    content = (
      <div className="options-empty" role="alert">
        <p>{t`The history could not be loaded.`} {failureText(query.error)}</p>
        <Button color="primary" fill="outline" onClick={() => void refresh()}>{t`Retry`}</Button>
      </div>
    );
  } else if (orders.length === 0 && isFiltered(filter)) {
    content = <NoHistoryMatch onClear={() => setFilter(noHistoryFilter)} />;
  } else if (orders.length === 0) {
    content = <div className="options-empty"><p>{t`No settled options yet.`}</p></div>;
  } else {
    content = (
      <>
        {query.isError && <p className="options-failed" role="alert">{t`The history could not be updated.`} {failureText(query.error)}</p>}
        <ul className="option-orders">
          {orders.map((order) => <SecondOrderCard key={order.id} order={order} nowMs={0} />)}
        </ul>
        <InfiniteScroll hasMore={query.hasNextPage} loadMore={async () => { await query.fetchNextPage().unwrap(); }}>
          {(hasMore, failed, retry) => (failed
            ? (
              <span className="options-end">
                {t`More orders could not be loaded.`}{' '}
                <button type="button" className="link-button" onClick={retry}>{t`Retry`}</button>
              </span>
            )
            : <span className="options-end" role="status">{hasMore ? t`Loading more…` : t`No more orders`}</span>)}
        </InfiniteScroll>
      </>
    );
  }
  return (
    <section className="options-list" aria-label={t`History`}>
      <h2>{t`History`}</h2>
      <HistoryFilters value={filter} onChange={setFilter} symbols={symbols} />
      <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
        refreshingText={t`Loading...`} completeText={t`Updated`}>
        {content}
      </PullToRefresh>
    </section>
  );
}
