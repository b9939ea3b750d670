// chongzhitixianResult: what became of a deposit or withdrawal request just made
// (?kind=deposit|withdrawal&id=…): its status in large, its amounts, what happens next, and the
// way on to the records or the asset centre. The record is read from the newest of the user's
// records (recordsApi findMyRecord); while it is under review it is read again every 15 s as long
// as the page is on screen, and on pull to refresh. No review time is promised: none is set.
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { Button, PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { recordStatus } from '../../api/contract/wallet.ts';
import type { RechargeRecord } from '../../api/contract/wallet.ts';
import type { Withdrawal } from '../../api/contract/withdrawals.ts';
import { failureText } from '../../api/errorMessages.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Amount } from '../../components/Amount.tsx';
import PushOffer from '../../components/PushOffer.tsx';
import { isRecordKind, isUnderReview, statusView, StatusIcon, type RecordKind } from './recordStatus.tsx';
import { decimalsOf, RecordFields, RecordProof, RecordReason, type KindRecord } from './recordParts.tsx';
import { useFindMyRecordQuery } from './recordsApi.ts';
import { prepareWalletTexts } from './walletTexts.ts';
import './records.css';

/** The router awaits this before the page shows: its texts. */
export const prepare = prepareWalletTexts;

/** How often a record under review is read again while the page is on screen. */
export const reviewPollMs = 15_000;

/** The kind and id of the address, or undefined when either is missing or malformed. */
export function readResultParams(params: URLSearchParams): { kind: RecordKind; id: string } | undefined {
  const kind = params.get('kind');
  const id = params.get('id') ?? '';
  return isRecordKind(kind) && /^[1-9][0-9]{0,17}$/.test(id) ? { kind, id } : undefined;
}

/** The navigation state the deposit page sends along with a request it just made (not set from the records). */
export type ResultState = { justSubmitted?: boolean };

export default function ResultPage() {
  const { t } = useLingui();
  const [params] = useSearchParams();
  const wanted = readResultParams(params);
  const justSubmitted = (useLocation().state as ResultState | null)?.justSubmitted === true;
  return (
    <div className="result-page">
      <PageHeader title={t`Deposit or withdrawal result`} fallback="/zichanCenter" />
      {wanted ? <ResultOf kind={wanted.kind} id={wanted.id} justSubmitted={justSubmitted} /> : (
        <div className="result-content">
          <ResultMessage kind={undefined} title={t`This result cannot be shown`}
            text={t`The link does not name a deposit or withdrawal request. Your records list every request and its outcome.`} />
        </div>
      )}
    </div>
  );
}

function ResultOf({ kind, id, justSubmitted }: { kind: RecordKind; id: string; justSubmitted: boolean }) {
  const { t } = useLingui();
  const found = useFindMyRecordQuery({ kind, id });
  const status = found.data?.record?.status;
  // Polled only while an operator has still to decide; skipped while the page is hidden.
  useFindMyRecordQuery({ kind, id }, {
    pollingInterval: status !== undefined && isUnderReview(status) ? reviewPollMs : 0, skipPollingIfUnfocused: true,
  });
  const refresh = async () => {
    await found.refetch().unwrap().catch(() => undefined);
  };
  let content;
  if (found.isLoading) {
    content = <div className="result-skeleton" role="status" aria-label={t`Loading`}><span className="skeleton-circle" /><span className="skeleton-line short" /><span className="skeleton-line" /></div>;
  } else if (!found.data) {
    content = (
      <ResultMessage kind={kind} title={t`The result could not be loaded`} text={failureText(found.error)}
        retry={() => void refresh()} />
    );
  } else if (!found.data.record) {
    content = (
      <ResultMessage kind={kind} title={t`This request was not found`}
        text={t`It is not among your latest requests. Your records list every request and its outcome.`} />
    );
  } else {
    const item = (kind === 'deposit'
      ? { kind, record: found.data.record as RechargeRecord }
      : { kind, record: found.data.record as Withdrawal }) as KindRecord;
    content = <ResultBody item={item} stale={found.isError ? failureText(found.error) : undefined} justSubmitted={justSubmitted} />;
  }
  return (
    <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
      refreshingText={t`Loading...`} completeText={t`Updated`}>
      <div className="result-content">{content}</div>
    </PullToRefresh>
  );
}

/** What happens next, for each status; no review time is promised, since none is set. */
function useNextStep() {
  const { t } = useLingui();
  return (item: KindRecord): string => {
    const { status } = item.record;
    if (item.kind === 'deposit') {
      if (status === recordStatus.underReview) return t`An operator checks your deposit against the proof you attached. Once it is approved, the amount is added to your balance. This page updates by itself, and your records show the outcome and, if it is rejected, the reason.`;
      if (status === recordStatus.delivered) return t`The amount has been added to your balance.`;
      if (status === recordStatus.rejected) return t`Nothing was added to your balance. Read the reason above; you can make a new deposit request with the right details.`;
    } else {
      if (status === recordStatus.underReview) return t`The amount and the fee are held in your frozen balance while an operator reviews the withdrawal. This page updates by itself, and your records show the outcome and, if it is rejected, the reason.`;
      if (status === recordStatus.paidOut || status === recordStatus.delivered) return t`The withdrawal has been paid out to your destination.`;
      if (status === recordStatus.rejected || status === recordStatus.failed) return t`The amount and the fee are back in your available balance.`;
    }
    return t`Your records show the latest state of this request.`;
  };
}

function ResultBody({ item, stale, justSubmitted }: { item: KindRecord; stale: string | undefined; justSubmitted: boolean }) {
  const { t, i18n } = useLingui();
  const nextStep = useNextStep();
  const view = statusView(item.kind, item.record.status);
  const { record } = item;
  return (
    <>
      <section className={`result-hero tone-${view.tone}`} aria-live="polite">
        <StatusIcon tone={view.tone} size={56} />
        <h2 className="result-title">{i18n._(view.title)}</h2>
        <p className="result-amount">
          <Amount value={record.amount} asset={record.currency} scale={decimalsOf(record.amount)} exact /> <span>{record.currency}</span>
        </p>
      </section>
      {stale && <p className="records-stale" role="alert">{t`The result could not be updated.`} {stale}</p>}
      <RecordReason kind={item.kind} status={record.status} reason={record.reason} />
      <div className="result-details">
        <RecordFields item={item} withCurrency />
        {item.kind === 'deposit' && (
          <div className="result-proof">
            <span>{t`Payment proof`}</span>
            <RecordProof item={item} />
          </div>
        )}
      </div>
      <div className="result-next">
        <h3>{t`What happens next`}</h3>
        <p>{nextStep(item)}</p>
      </div>
      {/* A deposit just made waits for an operator: the first one on this device offers push. */}
      {justSubmitted && item.kind === 'deposit' && isUnderReview(record.status) && <PushOffer reason="deposit" />}
      <ResultButtons kind={item.kind} />
    </>
  );
}

function ResultMessage({ kind, title, text, retry }: { kind: RecordKind | undefined; title: string; text: string; retry?: () => void }) {
  const { t } = useLingui();
  return (
    <>
      <section className="result-hero tone-unknown" role="alert">
        <StatusIcon tone="unknown" size={56} />
        <h2 className="result-title">{title}</h2>
        <p className="result-message">{text}</p>
        {retry && <Button color="primary" fill="outline" onClick={retry}>{t`Retry`}</Button>}
      </section>
      <ResultButtons kind={kind} />
    </>
  );
}

function ResultButtons({ kind }: { kind: RecordKind | undefined }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  return (
    <div className="result-buttons">
      <Button block color="primary" size="large" onClick={() => navigate(kind ? `/chongzhitixianRecord?tab=${kind}` : '/chongzhitixianRecord')}>
        {t`View records`}
      </Button>
      <Button block fill="outline" size="large" onClick={() => navigate('/zichanCenter')}>{t`Back to asset centre`}</Button>
    </div>
  );
}
