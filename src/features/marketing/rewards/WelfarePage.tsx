// fuliCenter: the welfare centre. The caller's unopened weekly red envelopes (opened here with a
// small animation, none when the system asks for reduced motion, then the amount), today's
// check-in and streak, and the tasks with their progress and reward: claim one when it is done,
// once. Every amount comes from the server; refusals are shown where they happen, translated.
// Issue 38: rewards go to verified accounts only; until the caller's basic verification is
// approved the page says so at the top, with the way to the verification page.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, PullToRefresh, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { RedEnvelope, WelfareTask } from '../../../api/contract/rewards.ts';
import { failureText } from '../../../api/errorMessages.ts';
import { Amount } from '../../../components/Amount.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { formatEpochMs } from '../../../lib/time.ts';
import { prepareMarketingTexts } from '../marketingTexts.ts';
import {
  useCheckInMutation, useClaimTaskMutation, useMyEnvelopesQuery, useOpenEnvelopeMutation, useWelfareTasksQuery,
} from '../../../entities/rewards/rewardsApi.ts';
import './rewards.css';

export const prepare = prepareMarketingTexts;

function usePullTexts() {
  const { t } = useLingui();
  return { pullingText: t`Pull to refresh`, canReleaseText: t`Release to refresh`, refreshingText: t`Loading...`, completeText: t`Updated` };
}

function Envelopes() {
  const { t } = useLingui();
  const query = useMyEnvelopesQuery();
  const [open, opening] = useOpenEnvelopeMutation();
  const [shown, setShown] = useState<RedEnvelope | null>(null);
  const unopened = (query.data ?? []).filter((envelope) => envelope.status === 'unopened');
  if (query.isLoading) return <section className="rw-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={2} animated /></section>;
  if (query.isError) {
    return (
      <section className="rw-card" role="alert">
        <p className="rw-error">{t`Your red envelopes could not be loaded.`} {failureText(query.error)}</p>
        <Button size="mini" onClick={() => void query.refetch()}>{t`Try again`}</Button>
      </section>
    );
  }
  return (
    <section className="rw-card" aria-labelledby="rw-envelopes-title">
      <h2 id="rw-envelopes-title" className="rw-card-title">{t`Weekly red envelopes`}</h2>
      {shown && (
        <div className="rw-envelope-opened" role="status" data-testid="envelope-amount">
          <div className="rw-envelope-art" aria-hidden="true" />
          <p>{t`You received`} <strong><Amount value={shown.amount ?? '0'} asset={shown.asset} withAsset /></strong></p>
          <Button size="small" onClick={() => setShown(null)}>{t`Done`}</Button>
        </div>
      )}
      {unopened.length === 0 && !shown && <p className="rw-empty">{t`No red envelope to open. VIP members receive one every Monday.`}</p>}
      <ul className="rw-envelopes">
        {unopened.map((envelope) => {
          const expires = formatEpochMs(envelope.expiresAt);
          const level = envelope.level;
          return (
            <li key={envelope.id} className="rw-envelope" data-testid="envelope">
              <div className="rw-envelope-face" aria-hidden="true" />
              <div className="rw-envelope-text">
                <strong>{t`VIP ${level} red envelope`}</strong>
                <span>{t`Open before ${expires}`}</span>
              </div>
              <Button size="small" color="danger" loading={opening.isLoading && opening.originalArgs?.id === envelope.id}
                data-testid={`open-envelope-${envelope.id}`}
                onClick={async () => {
                  const answer = await open({ id: envelope.id });
                  if ('data' in answer && answer.data) setShown(answer.data);
                }}>{t`Open`}</Button>
            </li>
          );
        })}
      </ul>
      {opening.isError && <p className="rw-error" role="alert">{failureText(opening.error)}</p>}
    </section>
  );
}

function TaskRow({ task }: { task: WelfareTask }) {
  const { t } = useLingui();
  const [claim, claiming] = useClaimTaskMutation();
  const progress = task.progress;
  const target = task.target;
  const percent = Math.round((Math.min(progress, target) * 100) / target);
  return (
    <li className="rw-task" data-testid={`task-${task.kind}`} data-state={task.state}>
      <div className="rw-task-head">
        <strong>{task.name}</strong>
        <span className="rw-reward">+<Amount value={task.rewardAmount} asset={task.rewardAsset} withAsset /></span>
      </div>
      <div className="rw-progress" role="progressbar" aria-valuemin={0} aria-valuemax={target} aria-valuenow={progress} aria-label={t`Progress ${progress} of ${target}`}>
        <span style={{ width: `${percent}%` }} />
      </div>
      <div className="rw-task-foot">
        <span>{t`${progress} / ${target}`}</span>
        {task.state === 'claimed' && <span className="rw-claimed">{t`Claimed`}</span>}
        {task.state === 'in_progress' && <span className="rw-muted">{t`In progress`}</span>}
        {task.state === 'claimable' && (
          <Button size="mini" color="primary" loading={claiming.isLoading} data-testid={`claim-${task.kind}`} onClick={() => void claim({ taskId: task.id })}>{t`Claim`}</Button>
        )}
      </div>
      {claiming.isError && <p className="rw-error" role="alert">{failureText(claiming.error)}</p>}
    </li>
  );
}

/** Shown while the caller's basic verification is not approved: no reward is paid before it. */
function VerificationNeeded() {
  const { t } = useLingui();
  return (
    <section className="rw-card rw-verify" role="note" data-testid="verification-needed">
      <p className="rw-note">{t`Rewards are paid to verified accounts: tasks, red envelopes and VIP bonuses wait until your basic identity verification is approved.`}</p>
      <Link className="rw-verify-link" to="/shenfenRenzheng">{t`Verify my identity`}</Link>
    </section>
  );
}

export default function WelfarePage() {
  const { t } = useLingui();
  const tasks = useWelfareTasksQuery();
  const envelopes = useMyEnvelopesQuery();
  const [checkIn, checking] = useCheckInMutation();
  const pull = usePullTexts();
  const header = <PageHeader title={t`Welfare centre`} fallback="/my" />;
  const data = tasks.data;
  const streak = data?.checkinStreak ?? 0;
  return (
    <div className="rw-page">
      {header}
      <PullToRefresh onRefresh={async () => { await Promise.all([tasks.refetch(), envelopes.refetch()]); }} {...pull}>
        {data?.verified === false && <VerificationNeeded />}
        <Envelopes />
        {tasks.isLoading && <section className="rw-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={6} animated /></section>}
        {!tasks.isLoading && !data && (
          <section className="rw-card" role="alert">
            <p className="rw-error">{t`The tasks could not be loaded.`} {failureText(tasks.error)}</p>
            <Button size="mini" onClick={() => void tasks.refetch()}>{t`Try again`}</Button>
          </section>
        )}
        {data && (
          <>
            <section className="rw-card rw-checkin" aria-labelledby="rw-checkin-title">
              <h2 id="rw-checkin-title" className="rw-card-title">{t`Daily check-in`}</h2>
              <p>{t`Days in a row: ${streak}`}</p>
              <Button size="small" color="primary" disabled={data.checkedInToday} loading={checking.isLoading} onClick={() => void checkIn()}>
                {data.checkedInToday ? t`Checked in today` : t`Check in`}
              </Button>
              {checking.isError && <p className="rw-error" role="alert">{failureText(checking.error)}</p>}
            </section>
            <section className="rw-card" aria-labelledby="rw-tasks-title">
              <h2 id="rw-tasks-title" className="rw-card-title">{t`Tasks`}</h2>
              {data.tasks.length === 0
                ? <p className="rw-empty">{t`There are no tasks at the moment.`}</p>
                : <ul className="rw-tasks">{data.tasks.map((task) => <TaskRow key={task.id} task={task} />)}</ul>}
              <p className="rw-muted rw-note">{t`Rewards are credited to your spot account, once per task.`}</p>
            </section>
          </>
        )}
      </PullToRefresh>
    </div>
  );
}
