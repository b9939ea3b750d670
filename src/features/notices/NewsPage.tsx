// xinwen (news) and articleList: the platform's news and articles, newest first with their cover
// images (news) or as a compact list (?category= narrows it); each opens articleDetail.
import { useSearchParams } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useArticlesInfiniteQuery } from '../../entities/content/contentApi.ts';
import { prepareContentTexts } from './contentTexts.ts';
import { ItemRows } from './ItemRows.tsx';
import { cachedAtOf, ContentList, rowsOf } from './parts.tsx';
import './notices.css';

export const prepare = prepareContentTexts;

export function ArticlesPage({ covers }: { covers: boolean }) {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const category = params.get('category') ?? '';
  const query = useArticlesInfiniteQuery({ category: /^[a-z0-9_-]{1,32}$/.test(category) ? category : undefined });
  const items = rowsOf(query.data?.pages);
  const title = covers ? t`News` : t`Articles`;
  return (
    <div className="content-page">
      <PageHeader title={title} />
      <ContentList query={query} count={items.length} cachedAtMs={cachedAtOf(query.data?.pages)}
        loadingLabel={t`Loading articles`} empty={t`There are no articles yet.`}>
        <ItemRows items={items} label={title} detailPath="/articleDetail" covers={covers} />
      </ContentList>
    </div>
  );
}

export default function NewsPage() {
  return <ArticlesPage covers />;
}
