// The proof-of-liabilities card of the asset centre: fetches the user's leaf and path in the newest
// published total and verifies it here, in the browser (liabilityProof.ts). It says plainly
// whether the user's balances are included in the published total, warns when they are not or
// when the proof does not verify, and shows the details on demand: the root, the user's balances
// in it, the totals per asset, and the path length.
import { useMemo } from 'react';
import { Button, Skeleton } from 'antd-mobile';
import { CheckCircleFill, ExclamationCircleFill, InformationCircleOutline } from 'antd-mobile-icons';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import type { ProofFailure } from '../../api/contract/liabilityTree.ts';
import type { LiabilityRoot } from '../../api/contract/liabilities.ts';
import { formatDecimal } from '../../lib/number.ts';
import { intlOf } from '../../lib/locales.ts';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { useGetMyUserInfoQuery } from '../../entities/session/authApi.ts';
import { proofStateOf, useLiabilityProofQuery, type ProofState } from './liabilityProof.ts';
import './liabilityProof.css';

const failureTexts: Record<ProofFailure, MessageDescriptor> = {
  shape: msg`The proof does not match the published total's format.`,
  leaf_id: msg`The proof is not for your account.`,
  sum: msg`The proof contains an impossible amount.`,
  totals: msg`The proof adds up to other totals than the published ones.`,
  root: msg`The proof does not lead to the published root.`,
};

/** `hidden`: the asset centre's amounts are hidden (its eye toggle), so the table's are too. */
export default function LiabilityProofCard({ hidden = false }: { hidden?: boolean }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const query = useLiabilityProofQuery();
  const user = useGetMyUserInfoQuery();
  const userId = user.data?.id;
  const state = useMemo<ProofState | undefined>(
    () => (query.data && userId !== undefined ? proofStateOf(query.data, userId) : undefined), [query.data, userId]);

  const timeOf = (root: LiabilityRoot) => formatEpochMs(root.time);

  let body;
  if (!state && (query.isError || user.isError)) {
    body = (
      <div className="liability-status liability-status-error" role="alert">
        <ExclamationCircleFill className="liability-icon" aria-hidden />
        <div className="liability-text">
          <p>{t`Could not load the proof of your balances.`}</p>
          <Button size="small" fill="outline" color="primary" className="liability-retry"
            onClick={() => { void query.refetch(); if (user.isError) void user.refetch(); }}>{t`Try again`}</Button>
        </div>
      </div>
    );
  } else if (!state) {
    body = (
      <div className="liability-status" role="status" data-testid="liability-verifying">
        <Skeleton animated className="liability-skeleton" />
        <p className="liability-text">{t`Verifying that your balances are included in the published total…`}</p>
      </div>
    );
  } else if (state.status === 'none') {
    body = (
      <div className="liability-status liability-status-none" data-testid="liability-none">
        <InformationCircleOutline className="liability-icon" aria-hidden />
        <p className="liability-text">{t`No total of user balances has been published yet.`}</p>
      </div>
    );
  } else if (state.status === 'verified') {
    const time = timeOf(state.root);
    body = (
      <div className="liability-status liability-status-ok" role="status" data-testid="liability-verified">
        <CheckCircleFill className="liability-icon" aria-hidden />
        <p className="liability-text">{t`Your balances are included in the published total of ${time}.`}</p>
      </div>
    );
  } else if (state.status === 'absent' && state.absence !== null) {
    const time = timeOf(state.root);
    body = (
      <div className="liability-status liability-status-none" role="status" data-testid="liability-later">
        <InformationCircleOutline className="liability-icon" aria-hidden />
        <p className="liability-text">
          {state.absence === 'account_newer'
            ? t`Your account was opened after the latest published total (of ${time}). It will be included in the next one.`
            : t`Guest accounts hold only virtual funds, so they are not part of the published total of ${time}.`}
        </p>
      </div>
    );
  } else if (state.status === 'absent') {
    const time = timeOf(state.root);
    body = (
      <div className="liability-status liability-status-warn" role="alert" data-testid="liability-absent">
        <ExclamationCircleFill className="liability-icon" aria-hidden />
        <p className="liability-text">
          {t`Your balances are not in the total published on ${time}. An account opened after it is included in the next one; if yours is older, please contact support.`}
        </p>
      </div>
    );
  } else {
    const time = timeOf(state.root);
    body = (
      <div className="liability-status liability-status-bad" role="alert" data-testid="liability-mismatch">
        <ExclamationCircleFill className="liability-icon" aria-hidden />
        <div className="liability-text">
          <p className="liability-warning">{t`Warning: the proof of your balances in the total published on ${time} does not verify.`}</p>
          <p>{i18n._(failureTexts[state.failure])} {t`Please contact support.`}</p>
        </div>
      </div>
    );
  }

  const root = state && state.status !== 'none' ? state.root : undefined;
  const proof = state && (state.status === 'verified' || state.status === 'mismatch') ? state.proof : undefined;
  const amount = (text: string, scale: number) => (hidden ? '****' : formatDecimal(text, scale, intl));
  const scaleOf = (currency: string) => root?.totals.find((total) => total.currency === currency)?.scale ?? 0;

  return (
    <section className="liability-card" aria-labelledby="liability-title" data-testid="liability-card">
      <h2 id="liability-title" className="liability-title">{t`Proof of liabilities`}</h2>
      {body}
      {root && (
        <details className="liability-details">
          <summary className="liability-summary">{t`Details`}</summary>
          <p className="liability-explain">
            {t`Every day the platform publishes a fingerprint (root) of all users' balances and their totals per asset. Your browser checked your own balances against it; other users' balances stay private.`}
          </p>
          <p className="liability-explain">
            {t`The tree is filled up with empty leaves to a power of two, so its size does not tell how many users there are.`}
          </p>
          <dl className="liability-facts">
            <div className="liability-fact liability-fact-wide">
              <dt>{t`Published root`}</dt>
              <dd className="liability-hash" data-testid="liability-root">{root.root}</dd>
            </div>
            <div className="liability-fact">
              <dt>{t`Published`}</dt>
              <dd><time dateTime={isoOfEpochMs(root.time)}>{timeOf(root)}</time></dd>
            </div>
            <div className="liability-fact">
              <dt>{t`Leaves in the tree`}</dt>
              <dd>{formatDecimal(root.leafCount, 0, intl)}</dd>
            </div>
            {proof && (
              <div className="liability-fact">
                <dt>{t`Path length`}</dt>
                <dd data-testid="liability-path-length">{formatDecimal(proof.path.length, 0, intl)}</dd>
              </div>
            )}
          </dl>
          <table className="liability-table">
            <caption className="liability-caption">{t`Balances per asset`}</caption>
            <thead>
              <tr>
                <th scope="col">{t`Asset`}</th>
                {proof && <th scope="col">{t`Yours in the total`}</th>}
                <th scope="col">{t`Total of all users`}</th>
              </tr>
            </thead>
            <tbody>
              {root.totals.map((total) => {
                const mine = proof?.balances.find((balance) => balance.currency === total.currency);
                return (
                  <tr key={total.currency} data-testid={`liability-asset-${total.currency}`}>
                    <th scope="row">{total.currency}</th>
                    {proof && <td>{mine ? amount(mine.amount, scaleOf(mine.currency)) : '—'}</td>}
                    <td>{amount(total.total, total.scale)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </details>
      )}
    </section>
  );
}
