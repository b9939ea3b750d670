// The login history in the security centre (issue 11): every login attempt of the account, newest
// first, 20 at a time as the list scrolls, with pull to refresh. Each entry shows when, how, whether
// it succeeded, the device and the IP address (no geolocation), and marks a device's first login.
import { Button, InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { LoginHistoryEntry, LoginHistoryPage, LoginMethod } from '../../api/contract/security.ts';
import { failureText } from '../../api/errorMessages.ts';
import { formatEpochMs } from '../../lib/time.ts';
import { useLoginHistoryInfiniteQuery } from './sessionApi.ts';
import './sessions.css';

/** The entries of every page read so far, each once: a login meanwhile shifts the pages by one. */
export function historyEntries(pages: readonly LoginHistoryPage[] | undefined): LoginHistoryEntry[] {
  const seen = new Set<string>();
  const entries: LoginHistoryEntry[] = [];
  for (const page of pages ?? []) {
    for (const entry of page.records) {
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      entries.push(entry);
    }
  }
  return entries;
}

/** The name of a login method, and of a device the server could not read. */
export function useSessionWords() {
  const { t } = useLingui();
  const method = (value: LoginMethod | ''): string => {
    switch (value) {
      case 'password': return t`Password`;
      case 'code': return t`Verification code`;
      // A password and the code of an authenticator app (googleSecretLogin), not a Google sign-in.
      case 'google': return t`Password + authenticator app`;
      case 'wallet': return t`Wallet`;
      case 'oidc': return t`Single sign-on`;
      case 'passkey': return t`Passkey`;
      case 'guest': return t`Guest`;
      case 'register': return t`Registration`;
      default: return t`Unknown`;
    }
  };
  const device = (item: { device: string; browser: string; os: string }): string =>
    item.device || [item.browser, item.os].filter(Boolean).join(' · ') || t`Unknown device`;
  return { method, device };
}

export function LoginHistoryList() {
  const { t } = useLingui();
  const query = useLoginHistoryInfiniteQuery();
  const entries = historyEntries(query.data?.pages);
  const refresh = async () => {
    // A failed refresh keeps the entries shown and says so above them.
    await query.refetch().unwrap().catch(() => undefined);
  };

  let content;
  if (query.isLoading) {
    content = <p className="sessions-empty" role="status">{t`Loading…`}</p>;
  } else if (entries.length === 0 && query.isError) {
    content = (
      <div className="sessions-failed" role="alert">
        <p>{t`The login history could not be loaded.`} {failureText(query.error)}</p>
        <Button size="small" color="primary" fill="outline" onClick={() => void refresh()}>{t`Retry`}</Button>
      </div>
    );
  } else if (entries.length === 0) {
    content = <p className="sessions-empty">{t`No logins recorded yet.`}</p>;
  } else {
    content = (
      <>
        {query.isError && (
          <p className="sessions-stale" role="alert">{t`The login history could not be updated.`} {failureText(query.error)}</p>
        )}
        <ul className="sessions-list" aria-label={t`Login history`}>
          {entries.map((entry) => <HistoryRow key={entry.id} entry={entry} />)}
        </ul>
        <InfiniteScroll hasMore={query.hasNextPage} loadMore={async () => { await query.fetchNextPage().unwrap(); }}>
          {(hasMore, failed, retry) => <ListEnd hasMore={hasMore} failed={failed} retry={retry} />}
        </InfiniteScroll>
      </>
    );
  }

  return (
    <section className="sessions login-history" aria-busy={query.isLoading} aria-labelledby="login-history-title">
      <h2 id="login-history-title" className="sessions-title">{t`Login history`}</h2>
      <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
        refreshingText={t`Loading…`} completeText={t`Updated`}>
        {content}
      </PullToRefresh>
    </section>
  );
}

function ListEnd({ hasMore, failed, retry }: { hasMore: boolean; failed: boolean; retry: () => void }) {
  const { t } = useLingui();
  if (failed) {
    return (
      <span className="sessions-end">
        {t`More entries could not be loaded.`}{' '}
        <button type="button" className="link-button" onClick={retry}>{t`Retry`}</button>
      </span>
    );
  }
  return <span className="sessions-end" role="status">{hasMore ? t`Loading more…` : t`No more entries`}</span>;
}

function HistoryRow({ entry }: { entry: LoginHistoryEntry }) {
  const { t } = useLingui();
  const words = useSessionWords();
  const time = formatEpochMs(entry.createdAt);
  const method = words.method(entry.method);
  const ip = entry.ip || t`not recorded`;
  return (
    <li className="sessions-item" data-testid={`login-${entry.id}`}>
      <div className="sessions-item-text">
        <span className="sessions-item-name">
          {words.device(entry)}
          {entry.newDevice && <span className="sessions-badge sessions-badge-new">{t`New device`}</span>}
        </span>
        <span className="sessions-item-meta">{time}{' · '}{method}</span>
        <span className="sessions-item-meta">{t`IP address: ${ip}`}</span>
      </div>
      <span className={entry.success ? 'sessions-result sessions-result-ok' : 'sessions-result sessions-result-failed'}>
        {entry.success ? t`Succeeded` : t`Failed`}
      </span>
    </li>
  );
}
