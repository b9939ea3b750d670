// zhangbianRecord: the account ledger (issue 9): every movement of the user's balances, newest
// first, filtered by type, currency and time, page after page as the list scrolls. By default one
// line per business event (GET /finance/appBalanceLog/events, issue 19: a withdrawal is one hold
// that is paid out or returned, a contract one line); "Details" shows every raw entry of the
// ledger's transfers (GET /finance/appBalanceLog/list), internal moves included. `?currency=USDT`
// opens it on one currency.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, CheckList, Dropdown, ErrorBlock, InfiniteScroll, PullToRefresh, Skeleton, type DropdownRef } from 'antd-mobile';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import type { BalanceLogEntry, BalanceLogEvent, PageOf } from '../../api/contract/wallet.ts';
import { failureText } from '../../api/errorMessages.ts';
import { Amount } from '../../components/Amount.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { entryMovedBalance, ledgerAccountLabel, ledgerEntryLabel, ledgerTypeLabel, ledgerTypes } from './ledgerTypes.ts';
import { LedgerEventRow } from './LedgerEventRow.tsx';
import { useCurrencyListQuery, useLazyBalanceEventsQuery, useLazyBalanceLogQuery, type BalanceLogArgs } from '../../entities/wallet/walletApi.ts';
import { prepareWalletTexts } from './walletTexts.ts';
import './ledger.css';
import './ledgerEvents.css';
import { decimalsOf } from '../../lib/number.ts';

export const prepare = prepareWalletTexts;

export const ledgerPageSize = 20;
const dayMs = 86_400_000;

export const timeRanges = ['7d', '30d', '90d', 'all'] as const;
export type TimeRange = (typeof timeRanges)[number];
const rangeDays: Record<TimeRange, number | undefined> = { '7d': 7, '30d': 30, '90d': 90, all: undefined };
const rangeLabels: Record<TimeRange, MessageDescriptor> = {
  '7d': msg`Last 7 days`, '30d': msg`Last 30 days`, '90d': msg`Last 90 days`, all: msg`All time`,
};

/** `details`: every raw entry instead of one line per business event. */
export interface LedgerFilters { type: string; currency: string; range: TimeRange; details?: boolean }

/** A line of the list: a business event (the default view) or one raw entry (Details). */
type LedgerRecord = { key: string; event: BalanceLogEvent; entry?: undefined } | { key: string; entry: BalanceLogEntry; event?: undefined };

/** The query of one page: empty filters are left out; the range starts `now` less its days. */
export function ledgerQuery(filters: LedgerFilters, pageNo: number, now: number): BalanceLogArgs {
  const days = rangeDays[filters.range];
  return {
    pageNo, pageSize: ledgerPageSize,
    ...(filters.type ? { type: filters.type } : {}),
    ...(filters.currency ? { currency: filters.currency } : {}),
    ...(days === undefined ? {} : { startTime: now - days * dayMs }),
  };
}

const currencyParam = (value: string | null) => (value && /^[A-Z0-9]{2,12}$/.test(value) ? value : '');

type Status = 'loading' | 'ready' | 'error';

export default function LedgerPage() {
  const { t, i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  const [filters, setFilters] = useState<LedgerFilters>(() => ({ type: '', currency: currencyParam(params.get('currency')), range: 'all' }));
  const currencies = useCurrencyListQuery();
  const [fetchEntries] = useLazyBalanceLogQuery();
  const [fetchEvents] = useLazyBalanceEventsQuery();
  const [records, setRecords] = useState<LedgerRecord[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [status, setStatus] = useState<Status>('loading');
  const [failure, setFailure] = useState('');
  const dropdown = useRef<DropdownRef>(null);
  // Which listing the answers belong to: a change of filter starts a new one, and the answers of
  // the old one that arrive late are dropped. The range's start is fixed for a listing's pages.
  const listing = useRef({ id: 0, filters, now: Date.now(), loaded: 0 });

  const fetchPage = useCallback(async (filters: LedgerFilters, pageNo: number, now: number): Promise<{ data?: PageOf<LedgerRecord>; error?: unknown }> => {
    const query = ledgerQuery(filters, pageNo, now);
    if (filters.details) {
      const answer = await fetchEntries(query);
      return { error: answer.error, data: answer.data && { ...answer.data, records: answer.data.records.map((entry) => ({ key: entry.id + entry.account, entry })) } };
    }
    const answer = await fetchEvents(query);
    return { error: answer.error, data: answer.data && { ...answer.data, records: answer.data.records.map((event) => ({ key: event.id, event })) } };
  }, [fetchEntries, fetchEvents]);

  const reload = useCallback(async (next: LedgerFilters) => {
    const id = listing.current.id + 1;
    listing.current = { id, filters: next, now: Date.now(), loaded: 0 };
    const answer = await fetchPage(next, 1, listing.current.now);
    if (listing.current.id !== id) return;
    if (answer.data) {
      setRecords(answer.data.records);
      setHasMore(answer.data.current < answer.data.pages);
      listing.current.loaded = 1;
      setStatus('ready');
    } else {
      setFailure(failureText(answer.error));
      setStatus('error');
    }
  }, [fetchPage]);

  useEffect(() => {
    void reload(filters);
  }, [filters, reload]);

  const loadMore = async () => {
    const { id, filters: current, now, loaded } = listing.current;
    const answer = await fetchPage(current, loaded + 1, now);
    if (listing.current.id !== id) return;
    // A failure shows InfiniteScroll's retry under the list.
    if (!answer.data) throw new Error(failureText(answer.error));
    listing.current.loaded = loaded + 1;
    const more = answer.data.records;
    setRecords((before) => {
      // Entries written since the first page push the pages down (and an event that grew moves
      // to the top): one may come twice.
      const known = new Set(before.map((record) => record.key));
      return [...before, ...more.filter((record) => !known.has(record.key))];
    });
    setHasMore(answer.data.current < answer.data.pages);
  };

  const change = (patch: Partial<LedgerFilters>) => {
    dropdown.current?.close();
    const next = { ...filters, ...patch };
    if (next.type === filters.type && next.currency === filters.currency && next.range === filters.range
      && Boolean(next.details) === Boolean(filters.details)) return;
    setStatus('loading');
    setRecords([]);
    setFilters(next);
    if (patch.currency !== undefined) {
      const copy = new URLSearchParams(params);
      if (patch.currency) copy.set('currency', patch.currency);
      else copy.delete('currency');
      setParams(copy, { replace: true });
    }
  };

  // The bar names each filter until one is chosen, then shows the choice (short enough for 320 px).
  const typeTitle = filters.type ? ledgerTypeLabel(i18n, filters.type) : t`Type`;
  const currencyTitle = filters.currency || t`Currency`;
  const rangeTitle = filters.range === 'all' ? t`Time` : i18n._(rangeLabels[filters.range]);
  const codes = (currencies.data ?? []).map((currency) => currency.currency);
  if (filters.currency && !codes.includes(filters.currency)) codes.push(filters.currency);

  return (
    <div className="ledger">
      <PageHeader title={t`Account ledger`} fallback="/zichanCenter" />
      <div className="ledger-filters">
        <Dropdown ref={dropdown} closeOnClickAway>
          <Dropdown.Item key="type" title={<FilterTitle name={t`Type`} value={typeTitle} testId="ledger-filter-type" />}>
            <CheckList value={[filters.type]} onChange={(value) => change({ type: String(value[0] ?? '') })}
              aria-label={t`Type`}>
              <CheckList.Item value="">{t`All types`}</CheckList.Item>
              {ledgerTypes.map((type) => <CheckList.Item key={type} value={type}>{ledgerTypeLabel(i18n, type)}</CheckList.Item>)}
            </CheckList>
          </Dropdown.Item>
          <Dropdown.Item key="currency"
            title={<FilterTitle name={t`Currency`} value={currencyTitle} testId="ledger-filter-currency" />}>
            <CheckList value={[filters.currency]} onChange={(value) => change({ currency: String(value[0] ?? '') })}
              aria-label={t`Currency`}>
              <CheckList.Item value="">{t`All currencies`}</CheckList.Item>
              {codes.map((code) => <CheckList.Item key={code} value={code}>{code}</CheckList.Item>)}
            </CheckList>
          </Dropdown.Item>
          <Dropdown.Item key="range"
            title={<FilterTitle name={t`Time`} value={rangeTitle} testId="ledger-filter-range" />}>
            <CheckList value={[filters.range]} onChange={(value) => value[0] && change({ range: value[0] as TimeRange })}
              aria-label={t`Time`}>
              {timeRanges.map((range) => <CheckList.Item key={range} value={range}>{i18n._(rangeLabels[range])}</CheckList.Item>)}
            </CheckList>
          </Dropdown.Item>
        </Dropdown>
        <button type="button" className={`ledger-details${filters.details ? ' on' : ''}`} aria-pressed={Boolean(filters.details)}
          data-testid="ledger-details" onClick={() => change({ details: !filters.details })}>
          {t`Details`}
        </button>
      </div>
      <PullToRefresh onRefresh={() => reload(filters)} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
        refreshingText={t`Loading...`} completeText={t`Updated`}>
        {status === 'loading' && (
          <div className="ledger-skeleton" role="status" aria-label={t`Loading...`} data-testid="ledger-skeleton">
            {[0, 1, 2, 3, 4].map((row) => <Skeleton.Paragraph key={row} lineCount={2} animated />)}
          </div>
        )}
        {status === 'error' && (
          <ErrorBlock status="disconnected" title={t`Could not load the ledger`} description={failure}>
            <Button color="primary" onClick={() => { setStatus('loading'); void reload(filters); }}>{t`Retry`}</Button>
          </ErrorBlock>
        )}
        {status === 'ready' && records.length === 0 && (
          <div data-testid="ledger-empty">
            <ErrorBlock status="empty" title={t`No records`}
              description={filters.type || filters.currency || filters.range !== 'all'
                ? t`Nothing matches these filters.` : t`Deposits, withdrawals and every other movement of your balances show here.`} />
          </div>
        )}
        {status === 'ready' && records.length > 0 && (
          <ul className="ledger-list" aria-label={t`Account ledger`}>
            {records.map(({ key, event, entry }) => {
              if (event) return <LedgerEventRow key={key} event={event} />;
              const decimals = decimalsOf(entry.amount);
              const direction = entry.amount.startsWith('-') ? 'down' : /[1-9]/.test(entry.amount) ? 'up' : 'flat';
              return (
                <li key={key} className="ledger-row" data-testid="ledger-row">
                  <div className="ledger-line">
                    <span className="ledger-type">
                      <strong>{ledgerEntryLabel(i18n, entry)}</strong>
                      <span className="ledger-currency">{entry.currency}</span>
                      {entry.account !== 'spot' && <span className="ledger-account">{ledgerAccountLabel(i18n, entry.account)}</span>}
                    </span>
                    <span className={`ledger-amount ${direction}`} data-testid="ledger-amount">
                      <Amount value={entry.amount} asset={entry.currency} scale={decimals} exact signed />
                    </span>
                  </div>
                  <div className="ledger-line ledger-sub">
                    <time dateTime={isoOfEpochMs(entry.time)}>{formatEpochMs(entry.time)}</time>
                    {/* Only where the spot balance moved: a reservation or an internal account's balance would read as spot's. */}
                    {entryMovedBalance(entry) && (
                      <span className="ledger-balance">
                        {t`Balance`} <Amount value={entry.balanceAfter} asset={entry.currency} scale={decimalsOf(entry.balanceAfter)} />
                      </span>
                    )}
                  </div>
                  {entry.remark && <p className="ledger-remark">{entry.remark}</p>}
                </li>
              );
            })}
          </ul>
        )}
        {status === 'ready' && records.length > 0 && (
          <InfiniteScroll loadMore={loadMore} hasMore={hasMore}>
            {(more, failed, retry) => (failed
              ? <button type="button" className="link-button" onClick={() => void retry()}>{t`Could not load more. Tap to retry.`}</button>
              : more ? <span>{t`Loading...`}</span> : <span>{t`No more records`}</span>)}
          </InfiniteScroll>
        )}
      </PullToRefresh>
    </div>
  );
}

/**
 * The title of a filter in the bar: a button, so the keyboard reaches it (antd-mobile's title is a
 * plain div that only a pointer opens); its click reaches the Dropdown's own handler.
 */
function FilterTitle({ name, value, testId }: { name: string; value: string; testId: string }) {
  return (
    <button type="button" className="ledger-filter-title" data-testid={testId} aria-label={name === value ? name : `${name}: ${value}`}>
      {value}
    </button>
  );
}
