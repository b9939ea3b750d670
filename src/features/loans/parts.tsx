// Pieces the three loan pages share: the loading and failure states, a daily rate, the
// loan-to-value bar with its three thresholds, and a loan's status as the user reads it.
import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { LoanStatus } from '../../api/contract/loans.ts';
import { failureText } from '../../api/errorMessages.ts';
import { compareDecimal, type LtvZone } from './loanMath.ts';

export function LoanSkeleton({ label }: { label: string }) {
  return (
    <div className="loan-skeleton" role="status" aria-label={label}>
      <span className="loan-skeleton-block" /><span className="loan-skeleton-block" />
    </div>
  );
}

/** What could not be loaded, why (a network error says so; a refusal says its message), and Retry. */
export function LoanFailure({ text, error, onRetry }: { text: string; error: unknown; onRetry: () => void }) {
  const { t } = useLingui();
  return (
    <div className="loan-failure" role="alert">
      <p>{text} {failureText(error)}</p>
      <Button color="primary" fill="outline" onClick={onRetry}>{t`Retry`}</Button>
    </div>
  );
}

/** "0.05% per day". */
export function RatePercent({ rate }: { rate: string }) {
  const { t } = useLingui();
  return <>{t`${rate}% per day`}</>;
}

/** The bar runs from 0 to 100 %; the three thresholds are marked on it, the LTV fills it in its zone's colour. */
export function LtvMeter({ ltv, zone, initial, marginCall, liquidation }: {
  ltv: string | undefined; zone: LtvZone; initial?: string; marginCall?: string; liquidation?: string;
}) {
  const { t } = useLingui();
  const percentOf = (text: string | undefined) => {
    if (!text) return 0;
    if (compareDecimal(text, '100') >= 0) return 100;
    return Number(text.split('.')[0]);
  };
  const marks = [
    { key: 'initial', label: t`Initial`, value: initial },
    { key: 'margin', label: t`Margin call`, value: marginCall },
    { key: 'liquidation', label: t`Liquidation`, value: liquidation },
  ].filter((mark) => mark.value);
  return (
    <div className="loan-ltv">
      <div className="loan-ltv-bar" aria-hidden="true">
        <span className={`loan-ltv-fill ${zone}`} style={{ width: `${percentOf(ltv)}%` }} />
        {marks.map((mark) => <span key={mark.key} className={`loan-ltv-mark ${mark.key}`} style={{ left: `${percentOf(mark.value)}%` }} />)}
      </div>
      <dl className="loan-ltv-legend">
        {marks.map((mark) => <div key={mark.key} className={mark.key}><dt>{mark.label}</dt><dd>{mark.value}%</dd></div>)}
      </dl>
      {zone === 'margin_call' && <p className="loan-warning" role="alert">{t`Margin call: add collateral or repay to lower the loan-to-value.`}</p>}
      {zone === 'liquidation' && <p className="loan-warning danger" role="alert">{t`At the liquidation level: the collateral will be sold.`}</p>}
    </div>
  );
}

export function LoanStatusTag({ status, overdue }: { status: LoanStatus; overdue?: boolean }) {
  const { t } = useLingui();
  const labels: Record<LoanStatus, string> = {
    pending: t`Under review`,
    rejected: t`Rejected`,
    active: t`Active`,
    repaid: t`Repaid`,
    liquidated: t`Liquidated`,
  };
  return (
    <span className="loan-status-tags">
      <span className={`loan-status ${status}`} data-testid="loan-status">{labels[status]}</span>
      {status === 'active' && overdue && <span className="loan-status overdue">{t`Overdue`}</span>}
    </span>
  );
}
