// /ieo: token offerings (issue 23). Tab "Offerings": each project with its status, estimated and
// winning price, subscription window, lot size and cost, supply and cap; apply for lots while it is
// issuing (issue 38: applying needs basic verification and holds the cost of the lots until the
// draw, which pays the won lots from it and releases the rest: both said before confirming, the
// held amount shown on the application); pay the won lots of an application made before holds
// existed before the deadline, and "Verify
// the draw": the published commitment, list and seed fetched and the draw recomputed in the
// browser (src/api/ieoDraw.ts, docs/fairness.md), showing "verified" or exactly what does not
// match, and the caller's lots. Tab "My subscriptions": subscription records and lottery results.
// The tab lives in the address (?tab=records, replaced).
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { ApiError } from '../../../api/baseQuery.ts';
import type { IeoApplication, IeoApplicationStatus, IeoProject, IeoProjectStatus } from '../../../api/contract/ieo.ts';
import { formatAmount, parseAmount } from '../../../api/contract/amounts.ts';
import { failureText } from '../../../api/errorMessages.ts';
import { verifyDraw } from '../../../api/ieoDraw.ts';
import { Amount } from '../../../components/Amount.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { confirmDialog, showToast } from '../../../components/feedback.tsx';
import { formatEpochMs } from '../../../lib/time.ts';
import { Figure, LoadFailure, LoadingCards, usePullTexts } from '../../../entities/invest/parts.tsx';
import { prepareMarketingTexts } from '../marketingTexts.ts';
import { prepareInvestTexts } from '../../../entities/invest/investTexts.ts';
import { useApplyIeoMutation, useIeoDrawQuery, useIeoProjectsQuery, useMyIeoApplicationsInfiniteQuery, usePayIeoMutation } from './ieoApi.ts';
import '../../../entities/invest/invest.css';
import './ieo.css';

// The investment pages' cards and states it borrows (entities/invest/parts.tsx) speak from the invest catalog.
export const prepare = () => Promise.all([prepareMarketingTexts(), prepareInvestTexts()]);

const projectStatusLabels: Record<IeoProjectStatus, MessageDescriptor> = {
  upcoming: msg`Coming soon`,
  issuing: msg`Issuing`,
  closed: msg`Subscription closed`,
  drawn: msg`Drawn`,
  listed: msg`Listed`,
  cancelled: msg`Cancelled`,
};

export const applicationStatusLabels: Record<IeoApplicationStatus, MessageDescriptor> = {
  applied: msg`Applied`,
  won: msg`Won`,
  lost: msg`Not drawn`,
  paid: msg`Paid`,
  lapsed: msg`Lapsed`,
  completed: msg`Completed`,
};

/** A refusal that verifying one's identity answers (issue 38: applying needs basic verification). */
export function needsVerification(error: unknown): boolean {
  const failure = error as Partial<ApiError> & { error?: string } | undefined;
  return failure?.kind === 'api' && failure.error === 'verification_required';
}

/** Whether an amount text is above zero ("0.000000" is not). */
const positive = (amount: string | undefined) => amount !== undefined && /[1-9]/.test(amount);

/** lots × the cost of one lot, exact, in the lot cost's own decimals. */
export function lotsAmount(lotAmount: string, lots: number): string {
  const scale = (lotAmount.split('.')[1] ?? '').length;
  const parsed = parseAmount(lotAmount, scale);
  if (!parsed.ok || !Number.isInteger(lots) || lots < 0) return '0';
  return formatAmount(parsed.atomic * BigInt(lots), scale);
}

export default function IeoPage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const records = params.get('tab') === 'records';
  const choose = (tab: 'records' | undefined) => setParams(tab ? { tab } : {}, { replace: true });
  return (
    <div className="invest-page ieo-page">
      <PageHeader title={t`Token offering`} fallback="/home" />
      <div className="order-tabs" role="tablist" aria-label={t`Token offering`}>
        <button type="button" role="tab" aria-selected={!records} className={`filter-chip${!records ? ' active' : ''}`} onClick={() => choose(undefined)}>
          {t`Offerings`}
        </button>
        <button type="button" role="tab" aria-selected={records} className={`filter-chip${records ? ' active' : ''}`} onClick={() => choose('records')}>
          {t`My subscriptions`}
        </button>
      </div>
      <div className="invest-content" role="tabpanel">{records ? <Records /> : <Projects />}</div>
    </div>
  );
}

function Projects() {
  const { t } = useLingui();
  const query = useIeoProjectsQuery();
  const pull = usePullTexts();
  const projects = query.data?.records ?? [];
  let content;
  if (query.isLoading) content = <LoadingCards label={t`Loading offerings`} />;
  else if (projects.length === 0 && query.isError) content = <LoadFailure title={t`The offerings could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} />;
  else if (projects.length === 0) content = <p className="invest-empty">{t`There are no token offerings at the moment.`}</p>;
  else content = <ul className="ieo-list" aria-label={t`Offerings`}>{projects.map((project) => <ProjectCard key={project.id} project={project} />)}</ul>;
  return (
    <PullToRefresh onRefresh={async () => { await query.refetch(); }} {...pull}>
      {query.isError && projects.length > 0 && <p className="invest-stale" role="status">{t`Could not refresh. Showing the last offerings.`}</p>}
      {content}
    </PullToRefresh>
  );
}

function ProjectCard({ project }: { project: IeoProject }) {
  const { t, i18n } = useLingui();
  const [verifying, setVerifying] = useState(false);
  const my = project.my;
  const opens = formatEpochMs(project.opensAt);
  const closes = formatEpochMs(project.closesAt);
  const supply = project.supplyLots;
  const cap = project.perUserMaxLots;
  const applicants = project.applicants;
  const drawable = project.status === 'closed' || project.status === 'drawn' || project.status === 'listed';
  return (
    <li className="product-card ieo-card" data-testid={`ieo-${project.id}`}>
      <div className="product-card-head">
        <h2 className="product-name">{project.name}</h2>
        <span className="ieo-status" data-status={project.status}>{i18n._(projectStatusLabels[project.status])}</span>
      </div>
      <dl className="invest-figures compact">
        <Figure label={t`Estimated price`}><Amount value={project.estimatedPrice} asset={project.payAsset} exact withAsset /></Figure>
        {project.winningPrice !== undefined && <Figure label={t`Winning price`}><Amount value={project.winningPrice} asset={project.payAsset} exact withAsset /></Figure>}
        <Figure label={t`Subscription window`}><span className="ieo-window">{opens} – {closes}</span></Figure>
        <Figure label={t`Lot size`}><Amount value={project.lotSize} asset={project.token} withAsset /></Figure>
        <Figure label={t`Cost of one lot`}><Amount value={project.lotAmount} asset={project.payAsset} exact withAsset /></Figure>
        <Figure label={t`Lots on offer`}>{t`${supply} lots, at most ${cap} per person`}</Figure>
        <Figure label={t`Applications`}>{t`${applicants} so far`}</Figure>
        <Figure label={t`Payment deadline`}>{formatEpochMs(project.payDeadline)}</Figure>
      </dl>
      {my && <MyApplication application={my} />}
      {project.status === 'issuing' && !my && Date.now() < project.closesAt && <ApplyForm project={project} />}
      {my?.status === 'won' && my.heldAmount === undefined && Date.now() < project.payDeadline && <PayButton project={project} application={my} />}
      <p className="ieo-commitment">{t`Commitment (SHA-256 of the draw's seed):`} <code>{project.seedHash}</code></p>
      {drawable && (
        <Button size="small" fill="outline" onClick={() => setVerifying((open) => !open)} aria-expanded={verifying} data-testid="ieo-verify">{t`Verify the draw`}</Button>
      )}
      {verifying && <DrawCheck projectId={project.id} myApplicationId={my?.id} />}
    </li>
  );
}

function MyApplication({ application }: { application: IeoApplication }) {
  const { t, i18n } = useLingui();
  const lots = application.lots;
  const won = application.wonLots;
  return (
    <dl className="invest-figures compact ieo-mine" data-testid="ieo-my-application" data-status={application.status}>
      <Figure label={t`My subscription`} strong>{i18n._(applicationStatusLabels[application.status])}</Figure>
      <Figure label={t`Subscription quantity`}>{t`${lots} lots`} · <Amount value={application.quantity} asset={application.token} withAsset /></Figure>
      {application.status !== 'applied' && <Figure label={t`Winning lots`} testId="ieo-won-lots">{t`${won} lots`}</Figure>}
      {won > 0 && <Figure label={t`Amount`}><Amount value={application.amount} asset={application.payAsset} exact withAsset /></Figure>}
      {positive(application.heldAmount) && (
        <Figure label={t`Held until the draw`} testId="ieo-held"><Amount value={application.heldAmount!} asset={application.payAsset} exact withAsset /></Figure>
      )}
    </dl>
  );
}

function ApplyForm({ project }: { project: IeoProject }) {
  const { t } = useLingui();
  const [text, setText] = useState('1');
  const [apply, applying] = useApplyIeoMutation();
  const [problem, setProblem] = useState<{ message: string; verify: boolean }>();
  const lots = Number(text);
  const valid = /^[1-9][0-9]*$/.test(text) && lots <= project.perUserMaxLots;
  const amount = valid ? lotsAmount(project.lotAmount, lots) : '0';
  const max = project.perUserMaxLots;
  const payAsset = project.payAsset;
  const submit = async () => {
    setProblem(undefined);
    const yes = await confirmDialog({
      title: t`Apply for ${lots} lots?`,
      content: t`${amount} ${payAsset} is held from your balance now, until the draw. The lots you win are paid from it; the rest is released to your balance.`,
      confirmText: t`Apply`, cancelText: t`Cancel`,
    });
    if (!yes) return;
    const answer = await apply({ id: project.id, lots });
    if ('error' in answer) {
      const verify = needsVerification(answer.error);
      setProblem({ message: verify ? t`Applying needs basic identity verification. Verify your identity, then apply.` : failureText(answer.error), verify });
    } else void showToast(t`Application received`);
  };
  return (
    <form className="ieo-apply" onSubmit={(event) => { event.preventDefault(); if (valid) void submit(); }}>
      <label className="ieo-lots">
        <span>{t`Lots to apply for`}</span>
        <input type="number" inputMode="numeric" data-testid="ieo-lots" min={1} max={max} step={1} value={text} onChange={(event) => setText(event.target.value)} />
      </label>
      <p className="buy-note" data-testid="ieo-apply-amount" data-amount={valid ? `${amount} ${payAsset}` : undefined}>{valid ? t`Held when you apply: ${amount} ${payAsset}` : t`Enter 1 to ${max} lots.`}</p>
      <p className="buy-note" data-testid="ieo-apply-terms">{t`Applying needs basic identity verification, one application per person. The cost of the lots you apply for is held from your balance until the draw; the lots you do not win are released.`}</p>
      {problem && (
        <div className="ieo-problem" role="alert">
          <p>{problem.message}</p>
          {problem.verify && <Link to="/shenfenRenzheng">{t`Verify your identity`}</Link>}
        </div>
      )}
      <Button color="primary" type="submit" disabled={!valid} loading={applying.isLoading} data-testid="ieo-apply">{t`Apply`}</Button>
    </form>
  );
}

function PayButton({ project, application }: { project: IeoProject; application: IeoApplication }) {
  const { t } = useLingui();
  const [pay, paying] = usePayIeoMutation();
  const [problem, setProblem] = useState<string>();
  const amount = application.amount;
  const payAsset = project.payAsset;
  const submit = async () => {
    setProblem(undefined);
    const yes = await confirmDialog({ title: t`Pay ${amount} ${payAsset}?`, content: t`The tokens are credited to your balance at listing.`,
      confirmText: t`Pay`, cancelText: t`Cancel` });
    if (!yes) return;
    const answer = await pay({ id: project.id });
    if ('error' in answer) setProblem(failureText(answer.error));
    else void showToast(t`Paid`);
  };
  return (
    <div className="ieo-pay">
      {problem && <p className="ieo-problem" role="alert">{problem}</p>}
      <Button color="primary" onClick={() => void submit()} loading={paying.isLoading}>{t`Pay ${amount} ${payAsset}`}</Button>
    </div>
  );
}

/** "Verify the draw": everything recomputed here from what the server published. */
function DrawCheck({ projectId, myApplicationId }: { projectId: string; myApplicationId?: string }) {
  const { t } = useLingui();
  const query = useIeoDrawQuery(projectId);
  const draw = query.data;
  const check = useMemo(() => (draw?.seed !== undefined && draw.list !== undefined && draw.listHash !== undefined && draw.winners
    ? verifyDraw({ seed: draw.seed, seedHash: draw.seedHash, list: draw.list, listHash: draw.listHash, supplyLots: draw.supplyLots, winners: draw.winners })
    : undefined), [draw]);
  if (query.isLoading) return <p className="buy-note" aria-busy="true">{t`Loading the draw...`}</p>;
  if (!draw) return <LoadFailure title={t`The draw could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} />;
  const verified = check && check.seedMatches && check.listMatches && check.winnersDiffer.length === 0 && !check.error;
  const mineInList = myApplicationId !== undefined && draw.list !== undefined && draw.list.split('\n').some((line) => line.startsWith(`${myApplicationId}:`));
  const myWon = check?.winners.find((winner) => winner.id === myApplicationId)?.won ?? 0;
  const applications = draw.applications ?? 0;
  const totalLots = draw.totalLots ?? 0;
  const supply = draw.supplyLots;
  const differ = check?.winnersDiffer.join(', ') ?? '';
  const problem = check?.error;
  return (
    <section className="ieo-draw" aria-label={t`Verify the draw`} data-testid="ieo-draw">
      {!check ? (
        <p className="buy-note">{t`The seed is revealed after the draw; then the draw can be checked here.`}</p>
      ) : verified ? (
        <p className="ieo-verified" role="status" data-testid="ieo-verified">{t`Verified: the seed matches the commitment, the list matches its hash, and the winners recomputed in your browser are the published ones.`}</p>
      ) : (
        <ul className="ieo-mismatch" role="alert" data-testid="ieo-mismatch">
          {problem && <li>{t`The published draw could not be recomputed: ${problem}`}</li>}
          {!check.error && !check.seedMatches && <li>{t`The seed does not match the commitment.`}</li>}
          {!check.error && !check.listMatches && <li>{t`The application list does not match its hash.`}</li>}
          {check.winnersDiffer.length > 0 && <li>{t`The published winning lots differ for applications ${differ}.`}</li>}
        </ul>
      )}
      <dl className="invest-figures compact">
        {draw.list !== undefined && <Figure label={t`Published list`}>{t`${applications} applications, ${totalLots} lots, ${supply} on offer`}</Figure>}
        {draw.listHash && <Figure label={t`List hash`}><code>{draw.listHash}</code></Figure>}
        {draw.seed && <Figure label={t`Seed`}><code>{draw.seed}</code></Figure>}
        {myApplicationId !== undefined && check && (
          <Figure label={t`Your lots`} strong testId="ieo-draw-mine">
            <span data-won={mineInList ? myWon : undefined} data-application={myApplicationId}>
              {mineInList ? t`Application ${myApplicationId}: ${myWon} lots won` : t`Your application is not in the published list.`}
            </span>
          </Figure>
        )}
      </dl>
      <p className="buy-note">{t`How the draw works and how to check it yourself: docs/fairness.md in the project's source.`}</p>
    </section>
  );
}

function Records() {
  const { t } = useLingui();
  const query = useMyIeoApplicationsInfiniteQuery();
  const pull = usePullTexts();
  const seen = new Set<string>();
  const records = (query.data?.pages ?? []).flatMap((page) => page.records).filter((row) => (seen.has(row.id) ? false : (seen.add(row.id), true)));
  let content;
  if (query.isLoading) content = <LoadingCards label={t`Loading subscriptions`} />;
  else if (records.length === 0 && query.isError) content = <LoadFailure title={t`The subscriptions could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} />;
  else if (records.length === 0) content = <p className="invest-empty">{t`You have not applied to any token offering yet.`}</p>;
  else {
    content = (
      <>
        <ul className="ieo-list" aria-label={t`My subscriptions`}>{records.map((record) => <RecordCard key={record.id} record={record} />)}</ul>
        <InfiniteScroll hasMore={query.hasNextPage} loadMore={async () => { await query.fetchNextPage().unwrap(); }}>
          {query.hasNextPage ? t`Loading...` : t`No more subscriptions`}
        </InfiniteScroll>
      </>
    );
  }
  return (
    <PullToRefresh onRefresh={async () => { await query.refetch(); }} {...pull}>
      {query.isError && records.length > 0 && <p className="invest-stale" role="status">{t`Could not refresh. Showing the last subscriptions.`}</p>}
      {content}
    </PullToRefresh>
  );
}

function RecordCard({ record }: { record: IeoApplication }) {
  const { t, i18n } = useLingui();
  const lots = record.lots;
  const won = record.wonLots;
  const id = record.id;
  return (
    <li className="product-card ieo-card" data-testid={`ieo-record-${record.id}`}>
      <div className="product-card-head">
        <h2 className="product-name">{record.name}</h2>
        <span className="ieo-status">{i18n._(applicationStatusLabels[record.status])}</span>
      </div>
      <dl className="invest-figures compact">
        <Figure label={t`Application`}>{t`No. ${id}`} · {formatEpochMs(record.createdAt)}</Figure>
        <Figure label={t`Estimated price`}><Amount value={record.estimatedPrice} asset={record.payAsset} exact withAsset /></Figure>
        {record.winningPrice !== undefined && <Figure label={t`Winning price`}><Amount value={record.winningPrice} asset={record.payAsset} exact withAsset /></Figure>}
        <Figure label={t`Subscription quantity`}>{t`${lots} lots`} · <Amount value={record.quantity} asset={record.token} withAsset /></Figure>
        {record.status !== 'applied' && <Figure label={t`Winning lots`}>{t`${won} lots`} · <Amount value={record.wonQuantity} asset={record.token} withAsset /></Figure>}
        <Figure label={t`Amount`}><Amount value={record.status === 'applied' ? record.appliedAmount : record.amount} asset={record.payAsset} exact withAsset /></Figure>
        {positive(record.heldAmount) && <Figure label={t`Held until the draw`}><Amount value={record.heldAmount!} asset={record.payAsset} exact withAsset /></Figure>}
        {record.paidAt !== undefined && <Figure label={t`Paid at`}>{formatEpochMs(record.paidAt)}</Figure>}
      </dl>
    </li>
  );
}
