// bisaiMycansai: the caller's competition entries with rank, rate of return, reward and status.
import { PullToRefresh } from 'antd-mobile';
import { Link } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import { Amount } from '../../../components/Amount.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { formatEpochMs } from '../../../lib/time.ts';
import { prepareMarketingTexts } from '../marketingTexts.ts';
import { useMyCompetitionEntriesQuery } from '../../../entities/competitions/competitionsApi.ts';
import { LoadFailed, Loading, StatusTag, usePullTexts } from './parts.tsx';
import './competitions.css';

export const prepare = prepareMarketingTexts;

export default function MyEntriesPage() {
  const { t } = useLingui();
  const query = useMyCompetitionEntriesQuery();
  const pull = usePullTexts();
  const header = <PageHeader title={t`My competition entries`} fallback="/bisai" />;
  if (query.isLoading) return <div className="cmp-page">{header}<Loading /></div>;
  if (!query.data) {
    return <div className="cmp-page">{header}<LoadFailed error={query.error} retry={() => void query.refetch()} what={t`Your entries could not be loaded.`} /></div>;
  }
  return (
    <div className="cmp-page">
      {header}
      <PullToRefresh onRefresh={async () => { await query.refetch(); }} {...pull}>
        {query.data.records.length === 0 ? (
          <p className="cmp-empty">{t`You have not joined a competition yet.`} <Link to="/bisai">{t`See the competitions`}</Link></p>
        ) : (
          <ul className="cmp-list">
            {query.data.records.map((entry) => (
              <li key={entry.id} className="cmp-card" data-testid={`entry-${entry.id}`}>
                <Link to={`/bisaiDetail?id=${encodeURIComponent(entry.competitionId)}`} className="cmp-card-link">
                  <div className="cmp-card-head"><strong>{entry.name}</strong> <StatusTag status={entry.status} /></div>
                  <dl className="cmp-facts">
                    <div><dt>{t`Rank`}</dt><dd>{entry.rank ?? '—'}</dd></div>
                    <div><dt>{t`Rate of return`}</dt><dd>{entry.returnRate} %</dd></div>
                    <div><dt>{t`Reward`}</dt><dd><Amount value={entry.reward} asset={entry.asset} withAsset /></dd></div>
                    <div><dt>{t`Entry funds`}</dt><dd><Amount value={entry.entryAmount} asset={entry.asset} withAsset /></dd></div>
                    <div><dt>{t`Joined`}</dt><dd>{formatEpochMs(entry.joinTime)}</dd></div>
                    {entry.exitTime !== null && <div><dt>{t`Exited`}</dt><dd>{formatEpochMs(entry.exitTime)}</dd></div>}
                  </dl>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </PullToRefresh>
    </div>
  );
}
