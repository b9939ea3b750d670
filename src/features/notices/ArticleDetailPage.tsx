// articleDetail?id=: one news item or article, with its cover.
import { useSearchParams } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useArticleByIdQuery } from '../../entities/content/contentApi.ts';
import { prepareContentTexts } from './contentTexts.ts';
import { ContentDetail, idOf } from './ContentDetail.tsx';
import { ContentEmpty } from './parts.tsx';
import './notices.css';

export const prepare = prepareContentTexts;

export default function ArticleDetailPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const id = idOf(params);
  const query = useArticleByIdQuery(id, { skip: !id });
  return (
    <div className="content-page">
      <PageHeader title={t`Article`} fallback="/xinwen" />
      {id ? <ContentDetail query={query} /> : <ContentEmpty>{t`This item was not found. It may have been withdrawn.`}</ContentEmpty>}
    </div>
  );
}
