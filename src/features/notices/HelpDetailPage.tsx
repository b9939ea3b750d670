// helpDetail?id=: one help article.
import { useSearchParams } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useHelpByIdQuery } from '../../entities/content/contentApi.ts';
import { prepareContentTexts } from './contentTexts.ts';
import { ContentDetail, idOf } from './ContentDetail.tsx';
import { ContentEmpty } from './parts.tsx';
import './notices.css';

export const prepare = prepareContentTexts;

export default function HelpDetailPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const id = idOf(params);
  const query = useHelpByIdQuery(id, { skip: !id });
  return (
    <div className="content-page">
      <PageHeader title={t`Help centre`} fallback="/helpCentre" />
      {id ? <ContentDetail query={query} /> : <ContentEmpty>{t`This item was not found. It may have been withdrawn.`}</ContentEmpty>}
    </div>
  );
}
