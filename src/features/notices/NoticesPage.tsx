// notice: the platform's notices (the home shortcut "platform notice" and the notice strip lead
// here), newest first, 20 at a time, with pull to refresh; seen before, they open offline.
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useNoticesInfiniteQuery } from '../../entities/content/contentApi.ts';
import { prepareContentTexts } from './contentTexts.ts';
import { ItemRows } from './ItemRows.tsx';
import { cachedAtOf, ContentList, rowsOf } from './parts.tsx';
import './notices.css';

export const prepare = prepareContentTexts;

export default function NoticesPage() {
  const { t } = useLingui();
  const query = useNoticesInfiniteQuery();
  const items = rowsOf(query.data?.pages);
  return (
    <div className="content-page">
      <PageHeader title={t`Platform notices`} />
      <ContentList query={query} count={items.length} cachedAtMs={cachedAtOf(query.data?.pages)}
        loadingLabel={t`Loading notices`} empty={t`There are no notices yet.`}>
        <ItemRows items={items} label={t`Notices`} detailPath="/noticeDetail" />
      </ContentList>
    </div>
  );
}
