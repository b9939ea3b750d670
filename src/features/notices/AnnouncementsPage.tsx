// announcements: the announcements meant for the signed-in user (all users, their VIP or KYC
// level, or them by name), unread ones marked; opening one marks it read.
import { useLingui } from '@lingui/react/macro';
import { PullToRefresh } from 'antd-mobile';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useMyAnnouncementsQuery } from '../../entities/content/contentApi.ts';
import { prepareContentTexts } from './contentTexts.ts';
import { ItemRows } from './ItemRows.tsx';
import { ContentEmpty, ContentFailed, ContentSkeleton, SavedCopyNote } from './parts.tsx';
import './notices.css';

export const prepare = prepareContentTexts;

export default function AnnouncementsPage() {
  const { t } = useLingui();
  const query = useMyAnnouncementsQuery();
  const items = query.data?.value ?? [];
  let content;
  if (query.isLoading) content = <ContentSkeleton label={t`Loading announcements`} />;
  else if (!query.data && query.isError) content = <ContentFailed error={query.error} onRetry={() => void query.refetch()} />;
  else if (items.length === 0) content = <ContentEmpty>{t`There are no announcements for you yet.`}</ContentEmpty>;
  else {
    content = (
      <>
        <SavedCopyNote cachedAtMs={query.data?.cachedAtMs} />
        <ItemRows items={items} label={t`Announcements`} detailPath="/noticeDetail" showRead />
      </>
    );
  }
  return (
    <div className="content-page">
      <PageHeader title={t`Announcements`} fallback="/my" />
      <PullToRefresh onRefresh={async () => { await query.refetch(); }} pullingText={t`Pull to refresh`}
        canReleaseText={t`Release to refresh`} refreshingText={t`Loading...`} completeText={t`Updated`}>
        <div className="content-list-body">{content}</div>
      </PullToRefresh>
    </div>
  );
}
