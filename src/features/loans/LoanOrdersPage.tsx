// jiedaiOrder (spec §2 loan orders): the user's loans, newest first, 10 at a time as the list
// scrolls, with pull to refresh. Each says where it stands: under review; rejected with the
// operator's reason and Apply again; active with its due date, interest so far, what is owed and an
// overdue marker, early repayment (part or all, with the interest of the days started) and, for a
// pledge, its live loan-to-value at the feed price, a margin-call warning and Add collateral;
// repaid; liquidated with its receipt citing the recorded tick. The signed agreement downloads as a PDF.
import { useEffect, useState } from 'react';
import { useSelector } from 'react-redux';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, InfiniteScroll, Popup, PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { apiPrefix } from '../../api/contract/paths.ts';
import { loanPaths, type Loan, type LoanSetting } from '../../api/contract/loans.ts';
import type { Ticker } from '../../api/contract/market.ts';
import { failureText, networkErrorText } from '../../api/errorMessages.ts';
import type { SessionView } from '../../api/session.ts';
import { serverNow } from '../../api/serverClock.ts';
import { Amount } from '../../components/Amount.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { SimulatedPricesLabel } from '../../components/SimulatedPricesLabel.tsx';
import { confirmDialog, showToast } from '../../components/feedback.tsx';
import { FormError } from '../../components/form/FormError.tsx';
import { useLinkedRecord } from '../../components/share/useLinkedRecord.ts';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { formatDecimal, decimalsOf } from '../../lib/number.ts';
import { intlOf } from '../../lib/locales.ts';
import { useTickers } from '../../entities/market/useMarketData.ts';
import { useAddCollateralMutation, useLoanSettingsQuery, useMyLoanPagesInfiniteQuery, useRepayLoanMutation } from './loansApi.ts';
import { atomicAt, chargesAtomic, checkRepayment, ltvPercent, ltvZone, payoffAtomic, plainAmount, scaleOf, startedDays } from './loanMath.ts';
import { formatAmount } from '../../api/contract/amounts.ts';
import { prepareLoanTexts } from './loansTexts.ts';
import { LoanFailure, LoanSkeleton, LoanStatusTag, LtvMeter, RatePercent } from './parts.tsx';
import './loans.css';


export const prepare = prepareLoanTexts;

/** The loans of every page read so far, each once (a new application shifts the pages by one). */
export function flattenLoans(pages: readonly { records: Loan[] }[] | undefined): Loan[] {
  const seen = new Set<string>();
  return (pages ?? []).flatMap((page) => page.records).filter((row) => (seen.has(row.id) ? false : (seen.add(row.id), true)));
}

export default function LoanOrdersPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const query = useMyLoanPagesInfiniteQuery({});
  const settings = useLoanSettingsQuery();
  const view = useTickers();
  const rows = flattenLoans(query.data?.pages);
  const [params] = useSearchParams();
  useLinkedRecord('data-loan-id', params.get('id'), rows.length);
  const refresh = async () => {
    await Promise.all([query.refetch().unwrap().catch(() => undefined), settings.refetch()]);
  };

  let content;
  if (query.isLoading) {
    content = <LoanSkeleton label={t`Loading loans`} />;
  } else if (rows.length === 0 && query.isError) {
    content = <LoanFailure text={t`Your loans could not be loaded.`} error={query.error} onRetry={() => void refresh()} />;
  } else if (rows.length === 0) {
    content = (
      <div className="loan-failure">
        <p>{t`You have no loans yet.`}</p>
        <Button color="primary" onClick={() => navigate('/jiedai')}>{t`Borrow now`}</Button>
      </div>
    );
  } else {
    content = (
      <>
        {query.isError && <p className="loan-note" role="alert">{t`Your loans could not be updated.`} {failureText(query.error)}</p>}
        <ul className="loan-list" aria-label={t`Your loans`}>
          {rows.map((loan) => (
            <LoanCard key={loan.id} loan={loan} setting={settings.data?.find((one) => one.id === loan.settingId)} tickers={view.tickers} />
          ))}
        </ul>
        <InfiniteScroll hasMore={query.hasNextPage} loadMore={async () => { await query.fetchNextPage().unwrap(); }}>
          {(hasMore, failed, retry) => (failed
            ? <span className="loan-end">{t`More loans could not be loaded.`} <button type="button" className="link-button" onClick={retry}>{t`Retry`}</button></span>
            : <span className="loan-end" role="status">{hasMore ? t`Loading more…` : t`No more loans`}</span>)}
        </InfiniteScroll>
      </>
    );
  }
  return (
    <div className="loan-page">
      <PageHeader title={t`Loan orders`} fallback="/jiedai" />
      <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
        refreshingText={t`Loading...`} completeText={t`Updated`}>
        <div className="loan-list-content">{content}</div>
      </PullToRefresh>
    </div>
  );
}

function LoanCard({ loan, setting, tickers }: { loan: Loan; setting: LoanSetting | undefined; tickers: Ticker[] | undefined }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [sheet, setSheet] = useState<'repay' | 'collateral'>();
  const scale = scaleOf(loan.amount);
  const amount = (value: string | undefined, asset = loan.asset) => (value === undefined ? '—' : <Amount value={value} asset={asset} scale={scaleOf(value)} exact withAsset />);
  const ticker = loan.collateralAsset ? tickers?.find((one) => one.symbol === `${loan.collateralAsset}${loan.asset}`) : undefined;
  // Live: what is owed over the collateral at the newest price the app has; the server's figure until a ticker comes.
  const price = ticker?.last ?? loan.price;
  const liveLtv = loan.type === 'pledge' && loan.status === 'active' && loan.collateral && price
    ? ltvPercent(loan.owed, loan.collateral, price) ?? loan.ltv : loan.ltv;
  // The thresholds the loan was signed with; a loan from before they were kept reads its offer's.
  const marginCallLtv = loan.marginCallLtv ?? setting?.marginCallLtv;
  const liquidationLtv = loan.liquidationLtv ?? setting?.liquidationLtv;
  const zone = liveLtv ? ltvZone(liveLtv, marginCallLtv, liquidationLtv) : 'safe';
  return (
    <li className={`loan-card loan-row${loan.overdue && loan.status === 'active' ? ' overdue' : ''}`} data-loan-id={loan.id} data-testid="loan-row">
      <div className="loan-row-head">
        <strong>{loan.type === 'pledge' ? t`Pledge loan` : t`Credit loan`} · {amount(loan.amount)}</strong>
        <LoanStatusTag status={loan.status} overdue={loan.overdue} />
      </div>
      <dl className="loan-figures">
        <div><dt>{t`Days`}</dt><dd>{loan.days}</dd></div>
        <div><dt>{t`Daily rate`}</dt><dd><RatePercent rate={loan.dailyRate} /></dd></div>
        <div><dt>{t`Total interest`}</dt><dd>{amount(loan.totalInterest)}</dd></div>
        <div><dt>{t`Applied`}</dt><dd><time dateTime={isoOfEpochMs(loan.createdAt)}>{formatEpochMs(loan.createdAt)}</time></dd></div>
        {loan.startsAt !== undefined && <div><dt>{t`Start`}</dt><dd><time dateTime={isoOfEpochMs(loan.startsAt)}>{formatEpochMs(loan.startsAt)}</time></dd></div>}
        {loan.dueAt !== undefined && <div><dt>{t`Due`}</dt><dd data-testid="loan-due"><time dateTime={isoOfEpochMs(loan.dueAt)}>{formatEpochMs(loan.dueAt)}</time></dd></div>}
        {(loan.status === 'active' || loan.status === 'repaid' || loan.status === 'liquidated') && (
          <>
            <div><dt>{t`Interest so far`}</dt><dd>{amount(loan.interest)}</dd></div>
            <div><dt>{t`Repaid`}</dt><dd>{amount(loan.repaid)}</dd></div>
          </>
        )}
        {loan.status === 'active' && <div className="loan-owed"><dt>{t`Owed now`}</dt><dd data-testid="loan-owed">{amount(loan.owed)}</dd></div>}
        {loan.collateral && <div><dt>{t`Collateral`}</dt><dd>{amount(loan.collateral, loan.collateralAsset)}</dd></div>}
        {loan.closedAt !== undefined && <div><dt>{t`Closed`}</dt><dd><time dateTime={isoOfEpochMs(loan.closedAt)}>{formatEpochMs(loan.closedAt)}</time></dd></div>}
      </dl>
      {loan.status === 'pending' && <p className="loan-note">{t`Your application is under review. You will get a message when it is decided.`}</p>}
      {loan.status === 'rejected' && (
        <div className="loan-rejected">
          <p role="note"><strong>{t`Reason`}:</strong> {loan.rejectReason ?? t`No reason given.`}</p>
          <Button size="small" color="primary" fill="outline" onClick={() => navigate(`/jiedai?type=${loan.type}`)}>{t`Apply again`}</Button>
        </div>
      )}
      {loan.status === 'active' && loan.overdue && (
        <p className="loan-warning danger" role="alert">{t`Overdue: a penalty of ${loan.penaltyRate}% per day is added until it is repaid.`}</p>
      )}
      {loan.type === 'pledge' && loan.status === 'active' && (
        <div className="loan-row-ltv">
          <p className="loan-ltv-now">{t`Loan-to-value`}: <strong data-testid="loan-live-ltv">{liveLtv ? `${liveLtv}%` : '—'}</strong>
            {price && <span className="loan-muted"> · {loan.collateralAsset} <Amount value={price} scale={decimalsOf(price)} exact /></span>}</p>
          <LtvMeter ltv={liveLtv} zone={zone}
            initial={setting?.initialLtv} marginCall={marginCallLtv} liquidation={liquidationLtv} />
          {ticker?.source && <SimulatedPricesLabel sources={[ticker.source]} />}
        </div>
      )}
      {loan.status === 'liquidated' && loan.liquidation && <LiquidationReceipt loan={loan} />}
      <div className="loan-row-actions">
        <AgreementLink loan={loan} />
        {loan.status === 'active' && loan.type === 'pledge' && (
          <Button size="small" fill="outline" onClick={() => setSheet('collateral')}>{t`Add collateral`}</Button>
        )}
        {loan.status === 'active' && <Button size="small" color="primary" onClick={() => setSheet('repay')}>{t`Repay`}</Button>}
      </div>
      {loan.status === 'active' && (
        <Popup visible={sheet !== undefined} onMaskClick={() => setSheet(undefined)} onClose={() => setSheet(undefined)} position="bottom" destroyOnClose
          bodyStyle={{ borderTopLeftRadius: 12, borderTopRightRadius: 12, maxHeight: '90vh', overflowY: 'auto' }}>
          {sheet === 'repay' && <RepaySheet loan={loan} scale={scale} onDone={() => setSheet(undefined)} />}
          {sheet === 'collateral' && <CollateralSheet loan={loan} onDone={() => setSheet(undefined)} />}
        </Popup>
      )}
    </li>
  );
}

/** The receipt of a liquidation as the server wrote it: the tick (time, price), what was sold, the fee, what was repaid and returned. */
function LiquidationReceipt({ loan }: { loan: Loan }) {
  const { t, i18n } = useLingui();
  const receipt = loan.liquidation ?? {};
  const text = (key: string) => (receipt[key] === undefined ? undefined : String(receipt[key]));
  // The receipt's figures with the language's separators, every decimal the server wrote kept.
  const figure = (key: string, asset: string | null | undefined) => {
    const value = text(key);
    return value === undefined ? undefined : `${formatDecimal(value, decimalsOf(value), intlOf(i18n.locale))} ${asset ?? ''}`.trim();
  };
  const tickTime = typeof receipt.tickTime === 'number' ? receipt.tickTime : Number(receipt.tickTime);
  const rows: [string, string | undefined][] = [
    [t`Tick`, text('tickId') ? `#${text('tickId')}` : undefined],
    [t`Tick time`, Number.isFinite(tickTime) ? formatEpochMs(tickTime) : undefined],
    [t`Price`, figure('price', loan.asset)],
    [t`Collateral sold`, figure('collateralSold', loan.collateralAsset)],
    [t`Proceeds`, figure('proceeds', loan.asset)],
    [t`Liquidation fee`, figure('fee', loan.asset)],
    [t`Loan repaid`, figure('repaid', loan.asset)],
    [t`Returned to you`, figure('returned', loan.asset)],
    [t`Price source`, text('source')],
  ];
  return (
    <details className="loan-receipt" open>
      <summary>{t`Liquidation receipt`}</summary>
      <dl className="loan-figures">
        {rows.filter(([, value]) => value).map(([label, value]) => <div key={label}><dt>{label}</dt><dd>{value}</dd></div>)}
      </dl>
    </details>
  );
}

/**
 * The signed agreement as a PDF: fetched with the session's token (a plain link cannot send the
 * header), then offered as a file link of the blob, which is released when the card goes.
 */
function AgreementLink({ loan }: { loan: Loan }) {
  const { t } = useLingui();
  const token = useSelector((state: SessionView) => state.user.token);
  const [url, setUrl] = useState<string>();
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');
  useEffect(() => () => { if (url) URL.revokeObjectURL(url); }, [url]);
  const fileName = `loan-agreement-${loan.id}.pdf`;
  const fetchPdf = async () => {
    setState('loading');
    try {
      const response = await fetch(`${apiPrefix}${loanPaths.agreementPdf}?id=${encodeURIComponent(loan.id)}`, { headers: { 'X-Access-Token': token } });
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || !type.includes('pdf')) throw new Error(`agreement PDF: HTTP ${response.status}`);
      const blob = await response.blob();
      const next = URL.createObjectURL(blob);
      setUrl(next);
      setState('idle');
      const link = document.createElement('a');
      link.href = next;
      link.download = fileName;
      link.click();
    } catch (error) {
      console.warn('[loans] agreement PDF', error);
      setState('failed');
      void showToast(networkErrorText());
    }
  };
  if (url) return <a className="loan-pdf-link" href={url} download={fileName}>{t`Agreement (PDF)`}</a>;
  return (
    <Button size="small" fill="none" className="loan-pdf-button" loading={state === 'loading'} onClick={() => void fetchPdf()}>
      {state === 'failed' ? t`Agreement (PDF) — try again` : t`Agreement (PDF)`}
    </Button>
  );
}

function RepaySheet({ loan, scale, onDone }: { loan: Loan; scale: number; onDone: () => void }) {
  const { t } = useLingui();
  const [amount, setAmount] = useState('');
  const [failure, setFailure] = useState<string>();
  const [repay, repaying] = useRepayLoanMutation();
  const used = loan.startsAt !== undefined ? startedDays(loan.startsAt, serverNow()) : 1;
  const principal = atomicAt(loan.amount, scale) ?? 0n;
  // The server charges the started days first, then takes the repayment: "all" is what is owed plus what that adds.
  const dueNow = chargesAtomic(principal, loan.dailyRate, loan.penaltyRate, loan.days, used);
  const payoff = formatAmount(payoffAtomic(atomicAt(loan.owed, scale) ?? 0n, atomicAt(loan.interest, scale) ?? 0n, dueNow), scale);
  const check = checkRepayment(amount, payoff, scale);
  const all = amount.trim() === '';
  const message = { ok: undefined, invalid: t`Please enter an amount with at most ${scale} decimals.`, above_owed: t`The amount is more than you owe.` }[check];
  const submit = async () => {
    setFailure(undefined);
    const shown = all ? plainAmount(payoff) : amount.trim();
    const confirmed = await confirmDialog({
      title: all ? t`Repay everything?` : t`Repay part of the loan?`,
      content: t`${shown} ${loan.asset} will be taken from your spot balance.`,
      confirmText: t`Repay`, cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    try {
      await repay(all ? { id: loan.id } : { id: loan.id, amount: amount.trim().replace(',', '.') }).unwrap();
      void showToast(t`Repayment received`);
      onDone();
    } catch (error) {
      setFailure(failureText(error));
    }
  };
  return (
    <div className="loan-sheet">
      <h2 className="popup-title">{t`Repay early`}</h2>
      <dl className="loan-figures">
        <div><dt>{t`Days started`}</dt><dd>{used}</dd></div>
        <div><dt>{t`Interest for the days started`}</dt><dd data-testid="loan-used-interest">{plainAmount(formatAmount(dueNow, scale))} {loan.asset}</dd></div>
        <div><dt>{t`Repaid`}</dt><dd>{plainAmount(loan.repaid)} {loan.asset}</dd></div>
        <div className="loan-owed"><dt>{t`To repay everything now`}</dt><dd data-testid="loan-payoff">{plainAmount(payoff)} {loan.asset}</dd></div>
      </dl>
      <p className="loan-explain">{t`Repaying early, you pay interest only for the days started: a day that has begun counts as a whole day.`}</p>
      <label className="loan-field">
        <span>{t`Amount to repay (${loan.asset})`}</span>
        <input inputMode="decimal" autoComplete="off" value={amount} placeholder={t`All: ${plainAmount(payoff)}`}
          aria-invalid={message ? true : undefined} onChange={(event) => setAmount(event.target.value)} />
      </label>
      <p className={`loan-help${message ? ' error' : ''}`}>{message ?? (all ? t`Leave empty to repay everything owed.` : '')}</p>
      <FormError message={failure} />
      <Button block color="primary" size="large" loading={repaying.isLoading} disabled={check !== 'ok'} onClick={() => void submit()}>
        {all ? t`Repay all` : t`Repay`}
      </Button>
    </div>
  );
}

function CollateralSheet({ loan, onDone }: { loan: Loan; onDone: () => void }) {
  const { t } = useLingui();
  const [amount, setAmount] = useState('');
  const [failure, setFailure] = useState<string>();
  const [add, adding] = useAddCollateralMutation();
  const scale = loan.collateral ? scaleOf(loan.collateral) : 8;
  const atomic = atomicAt(amount, scale);
  const ok = atomic !== undefined && atomic > 0n;
  const submit = async () => {
    setFailure(undefined);
    const confirmed = await confirmDialog({
      title: t`Add collateral?`,
      content: t`${amount.trim()} ${loan.collateralAsset ?? ''} will be locked from your spot balance until the loan is repaid.`,
      confirmText: t`Add`, cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    try {
      await add({ id: loan.id, amount: amount.trim().replace(',', '.') }).unwrap();
      void showToast(t`Collateral added`);
      onDone();
    } catch (error) {
      setFailure(failureText(error));
    }
  };
  return (
    <div className="loan-sheet">
      <h2 className="popup-title">{t`Add collateral`}</h2>
      <label className="loan-field">
        <span>{t`Collateral to add (${loan.collateralAsset ?? ''})`}</span>
        <input inputMode="decimal" autoComplete="off" value={amount} placeholder="0" aria-invalid={amount && !ok ? true : undefined}
          onChange={(event) => setAmount(event.target.value)} />
      </label>
      <p className={`loan-help${amount && !ok ? ' error' : ''}`}>{amount && !ok ? t`Please enter an amount with at most ${scale} decimals.` : ''}</p>
      <FormError message={failure} />
      <Button block color="primary" size="large" loading={adding.isLoading} disabled={!ok} onClick={() => void submit()}>{t`Add collateral`}</Button>
    </div>
  );
}
