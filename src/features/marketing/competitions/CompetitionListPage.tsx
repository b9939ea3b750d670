// bisai: trading competitions in three tabs (to be started, in progress, ended), each card with
// its dates, entry funds, participants and prize money; a link to the caller's entries.
import { PullToRefresh, Tabs } from 'antd-mobile';
import { Link, useSearchParams } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { Competition } from '../../../api/contract/competitions.ts';
import { Amount } from '../../../components/Amount.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { formatEpochMs } from '../../../lib/time.ts';
import { prepareMarketingTexts } from '../marketingTexts.ts';
import { useCompetitionsQuery } from '../../../entities/competitions/competitionsApi.ts';
import { LoadFailed, Loading, StatusTag, usePullTexts } from './parts.tsx';
import './competitions.css';

export const prepare = prepareMarketingTexts;

const tabs = ['1', '0', '-2'] as const;

function CompetitionCard({ competition }: { competition: Competition }) {
  const { t } = useLingui();
  return (
    <li className="cmp-card" data-testid={`competition-${competition.id}`}>
      <Link to={`/bisaiDetail?id=${encodeURIComponent(competition.id)}`} className="cmp-card-link">
        <div className="cmp-card-head"><strong>{competition.name}</strong> <StatusTag status={competition.status} />
          {competition.joined && <span className="cmp-tag cmp-tag-joined">{t`Joined`}</span>}</div>
        <dl className="cmp-facts">
          <div><dt>{t`Dates`}</dt><dd>{formatEpochMs(competition.startTime, 'date')} – {formatEpochMs(competition.endTime, 'date')}</dd></div>
          <div><dt>{t`Entry funds`}</dt><dd><Amount value={competition.entryAmount} asset={competition.asset} withAsset /></dd></div>
          <div><dt>{t`Participants`}</dt><dd>{competition.maxParticipants > 0 ? `${competition.participants} / ${competition.maxParticipants}` : competition.participants}</dd></div>
          <div><dt>{t`Prize money`}</dt><dd><Amount value={competition.prizeTotal} asset={competition.prizeAsset} withAsset /></dd></div>
        </dl>
      </Link>
    </li>
  );
}

function CompetitionTab({ status }: { status: 0 | 1 | -2 }) {
  const { t } = useLingui();
  const query = useCompetitionsQuery({ status });
  const pull = usePullTexts();
  if (query.isLoading) return <Loading />;
  if (!query.data) return <LoadFailed error={query.error} retry={() => void query.refetch()} what={t`The competitions could not be loaded.`} />;
  return (
    <PullToRefresh onRefresh={async () => { await query.refetch(); }} {...pull}>
      {query.data.records.length === 0
        ? <p className="cmp-empty">{t`No competitions here right now.`}</p>
        : <ul className="cmp-list">{query.data.records.map((competition) => <CompetitionCard key={competition.id} competition={competition} />)}</ul>}
    </PullToRefresh>
  );
}

export default function CompetitionListPage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const active = tabs.includes(params.get('status') as (typeof tabs)[number]) ? params.get('status')! : '1';
  const titles: Record<(typeof tabs)[number], string> = { 1: t`In progress`, 0: t`To be started`, [-2]: t`Ended` };
  return (
    <div className="cmp-page">
      <PageHeader title={t`Competitions`} fallback="/" right={<Link to="/bisaiMycansai" className="cmp-header-link">{t`My entries`}</Link>} />
      <Tabs activeKey={active} onChange={(key) => setParams({ status: key }, { replace: true })}>
        {tabs.map((key) => (
          <Tabs.Tab key={key} title={titles[key]}>
            {active === key && <CompetitionTab status={Number(key) as 0 | 1 | -2} />}
          </Tabs.Tab>
        ))}
      </Tabs>
    </div>
  );
}
