// bisaiDetail (`?id=`): a competition's dates, entry funds, participants, symbols and prize table,
// the live ranking by rate of return (its formula stated), and join / exit buttons, each behind a
// confirmation that repeats what moves. Joining sends one clientOrderId per confirmation.
import { Button, PullToRefresh } from 'antd-mobile';
import { Link, useSearchParams } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { CompetitionDetail } from '../../../api/contract/competitions.ts';
import { failureText } from '../../../api/errorMessages.ts';
import { Amount } from '../../../components/Amount.tsx';
import { alertDialog, confirmDialog, showToast } from '../../../components/feedback.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { formatEpochMs } from '../../../lib/time.ts';
import { prepareMarketingTexts } from '../marketingTexts.ts';
import { newJoinOrderId, useCompetitionQuery, useExitCompetitionMutation, useJoinCompetitionMutation } from '../../../entities/competitions/competitionsApi.ts';
import { LoadFailed, Loading, StatusTag, usePullTexts } from './parts.tsx';
import './competitions.css';

export const prepare = prepareMarketingTexts;

function Actions({ competition }: { competition: CompetitionDetail }) {
  const { t } = useLingui();
  const [join, joining] = useJoinCompetitionMutation();
  const [exit, exiting] = useExitCompetitionMutation();
  const entry = competition.myEntry;
  const open = competition.status === 0 || competition.status === 1;
  if (!open) return null;
  const askJoin = async () => {
    const clientOrderId = newJoinOrderId();
    const yes = await confirmDialog({
      title: t`Join ${competition.name}?`,
      content: t`${competition.entryAmount} ${competition.asset} move from your spot balance into your competition account. You trade contracts on it during the competition; at the end, or when you exit, everything in it comes back.`,
      confirmText: t`Join`, cancelText: t`Cancel`,
    });
    if (!yes) return;
    const result = await join({ id: competition.id, clientOrderId });
    if (result.data) void showToast(t`Joined`);
    else await alertDialog({ content: failureText(result.error), confirmText: t`OK` });
  };
  const askExit = async () => {
    const yes = await confirmDialog({
      title: t`Exit the competition?`,
      content: t`Your open competition positions are closed at the last price and your competition account comes back to spot. You leave the ranking and cannot win a prize or join this competition again.`,
      confirmText: t`Exit`, cancelText: t`Cancel`,
    });
    if (!yes) return;
    const result = await exit({ id: competition.id });
    if (result.data) void showToast(t`Exited`);
    else await alertDialog({ content: failureText(result.error), confirmText: t`OK` });
  };
  if (!entry) {
    return <Button block color="primary" loading={joining.isLoading} onClick={() => void askJoin()} data-testid="cmp-join">{t`Join`}</Button>;
  }
  if (entry.state !== 'joined') return null;
  return (
    <div className="cmp-actions">
      {competition.status === 1 && <Link to={`/heyue?competitionId=${encodeURIComponent(competition.id)}`} className="cmp-trade-link">{t`Trade in the competition`}</Link>}
      <Button block color="danger" fill="outline" loading={exiting.isLoading} onClick={() => void askExit()} data-testid="cmp-exit">{t`Exit`}</Button>
    </div>
  );
}

function MyEntry({ competition }: { competition: CompetitionDetail }) {
  const { t } = useLingui();
  const entry = competition.myEntry;
  if (!entry) return null;
  return (
    <section className="cmp-card" aria-labelledby="cmp-mine-title" data-testid="cmp-my-entry">
      <h2 id="cmp-mine-title" className="cmp-card-title">{t`My result`} <StatusTag status={entry.status} /></h2>
      <dl className="cmp-facts">
        <div><dt>{t`Rank`}</dt><dd data-testid="cmp-my-rank">{entry.rank ?? '—'}</dd></div>
        <div><dt>{t`Rate of return`}</dt><dd data-testid="cmp-my-return">{entry.returnRate} %</dd></div>
        <div><dt>{t`Equity`}</dt><dd><Amount value={entry.equity} asset={entry.asset} withAsset /></dd></div>
        <div><dt>{t`Reward`}</dt><dd><Amount value={entry.reward} asset={competition.prizeAsset} withAsset /></dd></div>
      </dl>
    </section>
  );
}

export default function CompetitionDetailPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const query = useCompetitionQuery(id, { skip: !id, pollingInterval: 15_000 });
  const pull = usePullTexts();
  const header = <PageHeader title={t`Competition detail`} fallback="/bisai" />;
  if (!id) return <div className="cmp-page">{header}<p className="cmp-empty" role="alert">{t`No competition was chosen.`}</p></div>;
  if (query.isLoading) return <div className="cmp-page">{header}<Loading /></div>;
  if (!query.data) {
    return <div className="cmp-page">{header}<LoadFailed error={query.error} retry={() => void query.refetch()} what={t`The competition could not be loaded.`} /></div>;
  }
  const competition = query.data;
  return (
    <div className="cmp-page">
      {header}
      <PullToRefresh onRefresh={async () => { await query.refetch(); }} {...pull}>
        <section className="cmp-card" aria-labelledby="cmp-title">
          <h2 id="cmp-title" className="cmp-card-title">{competition.name} <StatusTag status={competition.status} /></h2>
          <dl className="cmp-facts">
            <div><dt>{t`Starts`}</dt><dd>{formatEpochMs(competition.startTime)}</dd></div>
            <div><dt>{t`Ends`}</dt><dd>{formatEpochMs(competition.endTime)}</dd></div>
            <div><dt>{t`Entry funds`}</dt><dd><Amount value={competition.entryAmount} asset={competition.asset} withAsset /></dd></div>
            <div><dt>{t`Participants`}</dt><dd data-testid="cmp-participants">{competition.maxParticipants > 0 ? `${competition.participants} / ${competition.maxParticipants}` : competition.participants}</dd></div>
            <div><dt>{t`Symbols`}</dt><dd>{competition.symbols.join(', ')}</dd></div>
          </dl>
          <Actions competition={competition} />
        </section>
        <MyEntry competition={competition} />
        <section className="cmp-card" aria-labelledby="cmp-prizes-title">
          <h2 id="cmp-prizes-title" className="cmp-card-title">{t`Prizes`}</h2>
          {competition.prizes.length === 0 ? <p className="cmp-empty">{t`This competition has no prizes.`}</p> : (
            <table className="cmp-table">
              <thead><tr><th scope="col">{t`Rank`}</th><th scope="col">{t`Prize each`}</th></tr></thead>
              <tbody>
                {competition.prizes.map((prize) => (
                  <tr key={prize.fromRank}>
                    <th scope="row">{prize.fromRank === prize.toRank ? prize.fromRank : `${prize.fromRank}–${prize.toRank}`}</th>
                    <td><Amount value={prize.amount} asset={competition.prizeAsset} withAsset /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
        <section className="cmp-card" aria-labelledby="cmp-ranking-title">
          <h2 id="cmp-ranking-title" className="cmp-card-title">{competition.status === 1 ? t`Live ranking` : t`Ranking`}</h2>
          <p className="cmp-note" data-testid="cmp-formula">{t`Equity = competition account balance + margin of open competition positions + their unrealised profit or loss at the last price. Rate of return = (equity − entry funds) ÷ entry funds. Ranked by rate of return; on a tie, the earlier entrant ranks first.`}</p>
          {competition.ranking.length === 0 ? <p className="cmp-empty">{t`No one is ranked yet.`}</p> : (
            <table className="cmp-table" data-testid="cmp-ranking">
              <thead><tr><th scope="col">{t`Rank`}</th><th scope="col">{t`Trader`}</th><th scope="col">{t`Rate of return`}</th><th scope="col">{t`Reward`}</th></tr></thead>
              <tbody>
                {competition.ranking.map((row) => (
                  <tr key={`${row.rank}-${row.joinTime}`} className={row.mine ? 'cmp-mine' : undefined} data-testid={row.mine ? 'cmp-ranking-mine' : undefined}>
                    <th scope="row">{row.rank}</th><td>{row.name}{row.mine ? ` (${t`you`})` : ''}</td>
                    <td>{row.returnRate} %</td><td><Amount value={row.reward} asset={competition.prizeAsset} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      </PullToRefresh>
    </div>
  );
}
