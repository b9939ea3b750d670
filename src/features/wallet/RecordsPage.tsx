// chongzhitixianRecord: the user's deposits and withdrawals (spec §2), one tab each, filtered by
// status, newest first, 20 at a time as the list scrolls, with pull to refresh. Each row shows
// the amount, the status, the times, the operator's reason in full when there is one, and for a
// deposit its proof picture. The tab and the filter live in the address (?tab=withdrawal&status=-1,
// replaced, not pushed), so back and a link from the result page land on the same view.
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { PageOf } from '../../api/contract/wallet.ts';
import { failureText } from '../../api/errorMessages.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ScrollHint } from '../../components/ScrollHint.tsx';
import { isRecordKind, recordKinds, statusesOf, statusView, StatusChip, type RecordKind } from './recordStatus.tsx';
import { RecordFields, RecordProof, RecordReason, type KindRecord } from './recordParts.tsx';
import { useMyRechargesInfiniteQuery, useMyWithdrawalsInfiniteQuery } from './recordsApi.ts';
import { prepareWalletTexts } from './walletTexts.ts';
import './records.css';

/** The router awaits this before the page shows: its texts. */
export const prepare = prepareWalletTexts;

/** The tab and the status filter of the address; a status the tab's records never have is no filter. */
export function readRecordView(params: URLSearchParams): { kind: RecordKind; status: number | undefined } {
  const tab = params.get('tab');
  const kind: RecordKind = isRecordKind(tab) ? tab : 'deposit';
  const text = params.get('status');
  const status = text !== null && /^-?\d$/.test(text) ? Number(text) : undefined;
  return { kind, status: status !== undefined && statusesOf[kind].includes(status) ? status : undefined };
}

/** The records of every page read so far, each once: a record made meanwhile shifts the pages by one. */
export function flattenPages<T extends { id: string }>(pages: readonly PageOf<T>[] | undefined): T[] {
  const seen = new Set<string>();
  const rows: T[] = [];
  for (const page of pages ?? []) {
    for (const row of page.records) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  }
  return rows;
}

export default function RecordsPage() {
  const { t, i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  const { kind, status } = readRecordView(params);
  const show = (next: { kind: RecordKind; status?: number }) => {
    const search = new URLSearchParams(params);
    search.set('tab', next.kind);
    if (next.status === undefined) search.delete('status');
    else search.set('status', String(next.status));
    setParams(search, { replace: true });
  };
  const tabTitle = (key: RecordKind) => (key === 'deposit' ? t`Deposits` : t`Withdrawals`);

  return (
    <div className="records-page">
      <PageHeader title={t`Deposit and withdrawal records`} fallback="/zichanCenter" />
      <div className="records-tools">
        <div className="records-tabs" role="tablist" aria-label={t`Record type`}>
          {recordKinds.map((key) => (
            <button key={key} type="button" role="tab" id={`records-tab-${key}`} aria-selected={kind === key}
              aria-controls="records-list" className={`records-tab${kind === key ? ' active' : ''}`}
              onClick={() => show({ kind: key })}>
              {tabTitle(key)}
            </button>
          ))}
        </div>
        <ScrollHint className="records-filter-row">
          <div className="records-filter" role="group" aria-label={t`Filter by status`}>
            <button type="button" className={`filter-chip${status === undefined ? ' active' : ''}`} aria-pressed={status === undefined}
              onClick={() => show({ kind })}>{t`All`}</button>
            {statusesOf[kind].map((value) => (
              <button key={value} type="button" className={`filter-chip${status === value ? ' active' : ''}`}
                aria-pressed={status === value} onClick={() => show({ kind, status: value })}>
                {i18n._(statusView(kind, value).label)}
              </button>
            ))}
          </div>
        </ScrollHint>
      </div>
      <div id="records-list" role="tabpanel" aria-labelledby={`records-tab-${kind}`}>
        {kind === 'deposit'
          ? <DepositList key={`deposit${status ?? ''}`} status={status} onShowAll={() => show({ kind })} />
          : <WithdrawalList key={`withdrawal${status ?? ''}`} status={status} onShowAll={() => show({ kind })} />}
      </div>
    </div>
  );
}

interface ListProps { status: number | undefined; onShowAll: () => void }

function DepositList({ status, onShowAll }: ListProps) {
  const query = useMyRechargesInfiniteQuery({ status });
  const items = flattenPages(query.data?.pages).map((record): KindRecord => ({ kind: 'deposit', record }));
  return <RecordList kind="deposit" status={status} items={items} query={query} onShowAll={onShowAll} />;
}

function WithdrawalList({ status, onShowAll }: ListProps) {
  const query = useMyWithdrawalsInfiniteQuery({ status });
  const items = flattenPages(query.data?.pages).map((record): KindRecord => ({ kind: 'withdrawal', record }));
  return <RecordList kind="withdrawal" status={status} items={items} query={query} onShowAll={onShowAll} />;
}

/** What RecordList needs of an infinite query's hook result. */
interface ListQuery {
  isLoading: boolean;
  isError: boolean;
  error?: unknown;
  hasNextPage: boolean;
  fetchNextPage: () => { unwrap: () => Promise<unknown> };
  refetch: () => { unwrap: () => Promise<unknown> };
}

function RecordList({ kind, status, items, query, onShowAll }: {
  kind: RecordKind; status: number | undefined; items: KindRecord[]; query: ListQuery; onShowAll: () => void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const refresh = async () => {
    // A failed refresh keeps the rows shown and says so above them (query.isError).
    await query.refetch().unwrap().catch(() => undefined);
  };

  let content;
  if (query.isLoading) {
    content = <RecordSkeleton label={t`Loading records`} />;
  } else if (items.length === 0 && query.isError) {
    content = (
      <div className="records-failed" role="alert">
        <p>{t`The records could not be loaded.`} {failureText(query.error)}</p>
        <Button color="primary" fill="outline" onClick={() => void refresh()}>{t`Retry`}</Button>
      </div>
    );
  } else if (items.length === 0) {
    content = (
      <div className="records-empty">
        <p>{status !== undefined ? t`No records with this status.`
          : kind === 'deposit' ? t`You have made no deposits yet.` : t`You have made no withdrawals yet.`}</p>
        {status !== undefined
          ? <Button color="primary" fill="outline" onClick={onShowAll}>{t`Show all`}</Button>
          : (
            <Button color="primary" onClick={() => navigate(kind === 'deposit' ? '/chongzhi' : '/tixian')}>
              {kind === 'deposit' ? t`Deposit` : t`Withdraw`}
            </Button>
          )}
      </div>
    );
  } else {
    content = (
      <>
        {query.isError && <p className="records-stale" role="alert">{t`The records could not be updated.`} {failureText(query.error)}</p>}
        <ul className="record-list" aria-label={kind === 'deposit' ? t`Deposits` : t`Withdrawals`}>
          {items.map((item) => <RecordRow key={item.record.id} item={item} />)}
        </ul>
        <InfiniteScroll hasMore={query.hasNextPage} loadMore={async () => { await query.fetchNextPage().unwrap(); }}>
          {(hasMore, failed, retry) => <ListEnd hasMore={hasMore} failed={failed} retry={retry} />}
        </InfiniteScroll>
      </>
    );
  }
  return (
    <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
      refreshingText={t`Loading...`} completeText={t`Updated`}>
      <div className="records-content">{content}</div>
    </PullToRefresh>
  );
}

function ListEnd({ hasMore, failed, retry }: { hasMore: boolean; failed: boolean; retry: () => void }) {
  const { t } = useLingui();
  if (failed) {
    return (
      <span className="records-end">
        {t`More records could not be loaded.`}{' '}
        <button type="button" className="link-button" onClick={retry}>{t`Retry`}</button>
      </span>
    );
  }
  return <span className="records-end" role="status">{hasMore ? t`Loading more…` : t`No more records`}</span>;
}

function RecordRow({ item }: { item: KindRecord }) {
  const { record } = item;
  return (
    <li className="record-row" data-record-id={record.id}>
      <div className="record-head">
        <span className="record-title">
          <strong>{record.currency}</strong>
          <span className="record-network">{record.network}</span>
        </span>
        <StatusChip kind={item.kind} status={record.status} />
      </div>
      <div className="record-body">
        <RecordFields item={item} />
        <RecordProof item={item} />
      </div>
      <RecordReason kind={item.kind} status={record.status} reason={record.reason} />
    </li>
  );
}

function RecordSkeleton({ label }: { label: string }) {
  return (
    <div className="record-skeleton" role="status" aria-label={label}>
      {[0, 1, 2, 3].map((index) => (
        <div key={index} className="skeleton-row" aria-hidden="true">
          <span className="skeleton-line short" />
          <span className="skeleton-line" />
          <span className="skeleton-line" />
        </div>
      ))}
    </div>
  );
}
