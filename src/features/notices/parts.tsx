// Pieces every content page shares: the loading skeleton, the failure with a retry, the empty
// state, the note that what is shown is a saved copy (with its age) and the end of a list.
import { useEffect, useState, type ReactNode } from 'react';
import { Button, InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { failureText } from '../../api/errorMessages.ts';
import { formatAge } from '../../lib/age.ts';
import { intlOf } from '../../lib/locales.ts';
import type { PageOf } from '../../api/contract/wallet.ts';
import type { Fetched } from '../../entities/content/contentApi.ts';

const ageRefreshMs = 30_000;

/** The rows of every page read so far, each once (an item published meanwhile shifts the pages). */
export function rowsOf<T extends { id: string }>(pages: readonly Fetched<PageOf<T>>[] | undefined): T[] {
  const seen = new Set<string>();
  const rows: T[] = [];
  for (const page of pages ?? []) {
    for (const row of page.value.records) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      rows.push(row);
    }
  }
  return rows;
}

/** When the oldest saved copy among the pages was made, if any page is one. */
export function cachedAtOf(pages: readonly { cachedAtMs?: number }[] | undefined): number | undefined {
  const times = (pages ?? []).map((page) => page.cachedAtMs).filter((ms): ms is number => ms !== undefined);
  return times.length > 0 ? Math.min(...times) : undefined;
}

/** "Offline copy, saved 5 min ago": what is shown is the copy kept from an earlier visit. */
export function SavedCopyNote({ cachedAtMs }: { cachedAtMs: number | undefined }) {
  const { t, i18n } = useLingui();
  const [nowMs, setNowMs] = useState(() => Date.now());
  useEffect(() => {
    if (cachedAtMs === undefined) return undefined;
    const timer = setInterval(() => setNowMs(Date.now()), ageRefreshMs);
    return () => clearInterval(timer);
  }, [cachedAtMs]);
  if (cachedAtMs === undefined) return null;
  const age = formatAge(cachedAtMs, Math.max(nowMs, Date.now()), intlOf(i18n.locale));
  return (
    <p className="content-saved" role="status" data-testid="content-saved" data-saved-at={new Date(cachedAtMs).toISOString()}>
      {t`Offline copy, saved ${age}.`}
    </p>
  );
}

export function ContentSkeleton({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <div className="content-skeleton" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="content-skeleton-row" aria-hidden="true">
          <span className="content-skeleton-line short" />
          <span className="content-skeleton-line" />
        </div>
      ))}
    </div>
  );
}

export function ContentFailed({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useLingui();
  return (
    <div className="content-failed" role="alert">
      <p>{t`This could not be loaded.`} {failureText(error)}</p>
      <Button color="primary" fill="outline" onClick={onRetry}>{t`Retry`}</Button>
    </div>
  );
}

export function ContentEmpty({ children }: { children: ReactNode }) {
  return <div className="content-empty"><p>{children}</p></div>;
}

/** What a list page needs of an infinite query's hook result. */
export interface ListQuery {
  isLoading: boolean;
  isError: boolean;
  error?: unknown;
  hasNextPage: boolean;
  fetchNextPage: () => { unwrap: () => Promise<unknown> };
  refetch: () => { unwrap: () => Promise<unknown> };
}

/**
 * A list with pull to refresh and more on scroll: the skeleton while the first page loads, the
 * failure when nothing could be read, the empty text when there is nothing, else the rows (with
 * the failure of a refresh above them, and the saved copy's age).
 */
export function ContentList({ query, count, cachedAtMs, loadingLabel, empty, children }: {
  query: ListQuery; count: number; cachedAtMs: number | undefined; loadingLabel: string; empty: ReactNode; children: ReactNode;
}) {
  const { t } = useLingui();
  const refresh = async () => {
    await query.refetch().unwrap().catch(() => undefined);
  };
  let content;
  if (query.isLoading) content = <ContentSkeleton label={loadingLabel} />;
  else if (count === 0 && query.isError) content = <ContentFailed error={query.error} onRetry={() => void refresh()} />;
  else if (count === 0) content = <ContentEmpty>{empty}</ContentEmpty>;
  else {
    content = (
      <>
        {query.isError && <p className="content-stale" role="alert">{t`This could not be updated.`} {failureText(query.error)}</p>}
        <SavedCopyNote cachedAtMs={cachedAtMs} />
        {children}
        <InfiniteScroll hasMore={query.hasNextPage} loadMore={async () => { await query.fetchNextPage().unwrap(); }}>
          {(hasMore, failed, retry) => <ListEnd hasMore={hasMore} failed={failed} retry={retry} />}
        </InfiniteScroll>
      </>
    );
  }
  return (
    <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
      refreshingText={t`Loading...`} completeText={t`Updated`}>
      <div className="content-list-body">{content}</div>
    </PullToRefresh>
  );
}

function ListEnd({ hasMore, failed, retry }: { hasMore: boolean; failed: boolean; retry: () => void }) {
  const { t } = useLingui();
  if (failed) {
    return (
      <span className="content-end">
        {t`More could not be loaded.`}{' '}
        <button type="button" className="link-button" onClick={retry}>{t`Retry`}</button>
      </span>
    );
  }
  return <span className="content-end" role="status">{hasMore ? t`Loading more…` : t`That is all.`}</span>;
}
