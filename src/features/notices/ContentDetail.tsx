// One notice, announcement, help article or news item: its title, date, cover and body (drawn by
// RichText), or the failure, or "not found". A signed-in reader's notice or announcement is
// marked read once it has been shown.
import { useEffect, useRef } from 'react';
import { useSelector } from 'react-redux';
import { useLingui } from '@lingui/react/macro';
import type { ContentItem } from '../../api/contract/content.ts';
import type { ApiError } from '../../api/baseQuery.ts';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import type { UserState } from '../../entities/session/userSlice.ts';
import { useReadAnnouncementMutation, type Fetched } from '../../entities/content/contentApi.ts';
import { ContentEmpty, ContentFailed, ContentSkeleton, SavedCopyNote } from './parts.tsx';
import { RichText } from './RichText.tsx';

interface DetailQuery { data?: Fetched<ContentItem>; isLoading: boolean; isError: boolean; error?: unknown; refetch: () => unknown }

const isNotFound = (error: unknown) => (error as ApiError | undefined)?.kind === 'api' && (error as { error?: string }).error === 'not_found';

export function ContentDetail({ query, markRead = false }: { query: DetailQuery; markRead?: boolean }) {
  const { t } = useLingui();
  const item = query.data?.value;
  const signedIn = useSelector((state: { user: UserState }) => Boolean(state.user.token));
  const [readAnnouncement] = useReadAnnouncementMutation();
  const marked = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!markRead || !signedIn || !item || item.readAt !== undefined || marked.current === item.id || query.data?.cachedAtMs) return;
    marked.current = item.id;
    void readAnnouncement({ id: item.id });
  }, [markRead, signedIn, item, readAnnouncement, query.data?.cachedAtMs]);

  if (query.isLoading) return <ContentSkeleton label={t`Loading`} rows={2} />;
  if (!item && isNotFound(query.error)) return <ContentEmpty>{t`This item was not found. It may have been withdrawn.`}</ContentEmpty>;
  if (!item) return <ContentFailed error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <article className="content-detail" aria-labelledby="content-detail-title" data-item-id={item.id}>
      <SavedCopyNote cachedAtMs={query.data?.cachedAtMs} />
      <h2 id="content-detail-title" className="content-detail-title">{item.title}</h2>
      <p className="content-detail-date"><time dateTime={isoOfEpochMs(item.publishAt)}>{formatEpochMs(item.publishAt)}</time></p>
      {item.coverUrl && <img className="content-cover" src={item.coverUrl} alt="" loading="lazy" decoding="async" />}
      {item.bodyHtml ? <RichText html={item.bodyHtml} /> : <p>{item.summary}</p>}
    </article>
  );
}

/** The id of the address (?id=123), or '' when it is no id. */
export const idOf = (params: URLSearchParams) => {
  const id = params.get('id') ?? '';
  return /^\d{1,20}$/.test(id) ? id : '';
};
