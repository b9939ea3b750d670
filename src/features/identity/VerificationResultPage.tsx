// renzhengResult: the verification result (spec §2; issue 11). Each level with its status (not
// applied, under review, approved, rejected with the operator's reason and a way to apply again)
// and what it unlocks (the levels call: daily withdrawal limit; loans and products once they have
// pages), the current level highlighted, and how long a review usually takes while one runs. Pull
// to refresh reads the state again while a review is running.
import { Link } from 'react-router-dom';
import { Button, ErrorBlock, PullToRefresh, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { KycLevel, KycState, KycStatus } from '../../api/contract/identity.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { intlOf } from '../../lib/locales.ts';
import { formatDecimal } from '../../lib/number.ts';
import { useKycLevelsQuery, useKycStateQuery } from '../../entities/session/kycApi.ts';
import { prepareIdentityTexts } from '../../entities/session/identityTexts.ts';
import { reviewTimeExpectation } from './reviewTime.ts';
import './identity.css';

export const prepare = prepareIdentityTexts;

/**
 * What the app offers today beyond withdrawals (issue 19): the levels call carries loan limits and
 * whether products are open, but loans (/jiedai) and investment products (/taolilicai, /kuangchi,
 * /zhaiquan) have no pages yet (app/routes.ts), so the cards do not promise them. Turn each on
 * with its page.
 */
const offered = { loans: false, products: false } as const;

/** The status of a level as this page shows it: level 0 is everyone's. */
export function levelStatus(state: KycState, level: number): KycStatus | 'base' {
  if (level === 0) return 'base';
  return level === 1 ? state.basic : state.advanced;
}

/** "1000.000000" → "1,000" in the reader's language; limits are whole USDT in practice, cents shown when present. */
export function spellLimit(value: string, intl: string): string {
  const cents = /\.\d*[1-9]/.test(value) ? 2 : 0;
  return formatDecimal(value, cents, intl);
}

export default function VerificationResultPage() {
  const { t, i18n } = useLingui();
  const state = useKycStateQuery();
  const levels = useKycLevelsQuery();
  const header = <PageHeader title={t`Verification result`} fallback="/my" />;
  const intl = intlOf(i18n.locale);

  if (state.isLoading || levels.isLoading) {
    return <div className="identity-page">{header}
      <div className="identity-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Title animated /><Skeleton.Paragraph lineCount={6} animated /></div>
    </div>;
  }
  if (!state.data || !levels.data) {
    return <div className="identity-page">{header}
      <ErrorBlock status="disconnected" title={t`Could not load your verification`} description={t`Check your connection and try again.`}>
        <Button color="primary" onClick={() => void Promise.all([state.refetch(), levels.refetch()])}>{t`Retry`}</Button>
      </ErrorBlock>
    </div>;
  }
  const current = state.data.level;
  const names = [t`Unverified`, t`Basic verification`, t`Advanced verification`];
  const statusText: Record<KycStatus | 'base', string> = {
    base: t`Every account`, none: t`Not applied`, pending: t`Under review`, approved: t`Approved`, rejected: t`Rejected`,
  };
  const sorted = [...levels.data].sort((a, b) => a.level - b.level);
  const unlocks = (entry: KycLevel) => [
    entry.withdrawDailyLimit === undefined
      ? t`Withdrawals: no daily limit`
      : t`Withdrawals: up to ${spellLimit(entry.withdrawDailyLimit, intl)} USDT a day`,
    ...(offered.loans ? [t`Loan limit: ${spellLimit(entry.loanLimit, intl)} USDT`] : []),
    ...(offered.products ? [entry.productsOpen ? t`Investment products: open` : t`Investment products: not available`] : []),
  ];

  return (
    <div className="identity-page">
      {header}
      <PullToRefresh onRefresh={async () => { await Promise.all([state.refetch(), levels.refetch()]); }}
        pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`} refreshingText={t`Loading...`} completeText={t`Updated`}>
        <div className="identity-body">
          <p className="identity-current" data-testid="kyc-level">{t`Your verification level: ${current}`}</p>
          <ol className="level-list">
            {sorted.map((entry) => {
              const status = levelStatus(state.data!, entry.level);
              const reason = entry.level === 1 ? state.data!.basicReason : state.data!.advancedReason;
              const here = entry.level === current;
              return (
                <li key={entry.level} className={`identity-card level-card${here ? ' current' : ''}`} aria-current={here ? 'true' : undefined}
                  aria-labelledby={`level-${entry.level}`}>
                  <div className="level-head">
                    <h2 id={`level-${entry.level}`}>{names[entry.level] ?? t`Level ${entry.level}`}</h2>
                    <span className={`level-status ${status}`}>{here ? t`Your level` : statusText[status]}</span>
                  </div>
                  {here && status !== 'base' && <p className="level-status-line">{statusText[status]}</p>}
                  {status === 'pending' && <p className="level-review-time" data-testid="kyc-review-time">{i18n._(reviewTimeExpectation)}</p>}
                  <ul className="level-unlocks">{unlocks(entry).map((line) => <li key={line}>{line}</li>)}</ul>
                  {status === 'rejected' && (
                    <div className="level-rejected" role="note">
                      {reason && <p>{t`Reason: ${reason}`}</p>}
                      <Link className="prompt-link" to={entry.level === 1 ? '/shenfenRenzheng' : '/shenfenRenzhengAd'}>{t`Apply again`}</Link>
                    </div>
                  )}
                  {status === 'none' && (entry.level === 1 || state.data!.basic === 'approved') && (
                    <Link className="prompt-link" to={entry.level === 1 ? '/shenfenRenzheng' : '/shenfenRenzhengAd'}>{t`Apply now`}</Link>
                  )}
                </li>
              );
            })}
          </ol>
        </div>
      </PullToRefresh>
    </div>
  );
}
