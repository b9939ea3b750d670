// noticeDetail?id=: one notice or announcement; a signed-in reader's copy is marked read.
import { useSearchParams } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useNoticeByIdQuery } from '../../entities/content/contentApi.ts';
import { prepareContentTexts } from './contentTexts.ts';
import { ContentDetail, idOf } from './ContentDetail.tsx';
import { ContentEmpty } from './parts.tsx';
import './notices.css';

export const prepare = prepareContentTexts;

export default function NoticeDetailPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const id = idOf(params);
  const query = useNoticeByIdQuery(id, { skip: !id });
  return (
    <div className="content-page">
      <PageHeader title={t`Notice`} fallback="/notice" />
      {id ? <ContentDetail query={query} markRead /> : <ContentEmpty>{t`This item was not found. It may have been withdrawn.`}</ContentEmpty>}
    </div>
  );
}
