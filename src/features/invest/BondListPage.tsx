// zhaiquan (public): the debt crowdfunding raises: each with its coupon, term, target, what is
// raised so far and the deadline, and the promise that a raise short of its target by the
// deadline is refunded in full.
import { Link } from 'react-router-dom';
import { PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { Product } from '../../api/contract/products.ts';
import { Amount } from '../../components/Amount.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { formatEpochMs } from '../../lib/time.ts';
import { useProductsQuery } from './investApi.ts';
import { atomicOf, scaleOf } from '../../entities/invest/investMath.ts';
import { CoverageBadge, Figure, LoadFailure, LoadingCards, statusLabel, usePullTexts, useRateText } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

/** Raised ÷ target in whole percent, capped at 100, exact (bigint); 0 without a target. */
export function raisedPercent(sold: string, target: string | undefined): number {
  const scale = Math.max(scaleOf(sold), scaleOf(target));
  const goal = atomicOf(target, scale);
  if (goal <= 0n) return 0;
  const percent = (atomicOf(sold, scale) * 100n) / goal;
  return Number(percent > 100n ? 100n : percent);
}

export default function BondListPage() {
  const { t } = useLingui();
  const query = useProductsQuery({ type: 'bond' });
  const pull = usePullTexts();
  const bonds = query.data?.records ?? [];
  let content;
  if (query.isLoading) content = <LoadingCards label={t`Loading raises`} />;
  else if (bonds.length === 0 && query.isError) content = <LoadFailure title={t`The raises could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} />;
  else if (bonds.length === 0) content = <p className="invest-empty">{t`No raises open at the moment.`}</p>;
  else content = <ul className="product-list" aria-label={t`Raises`}>{bonds.map((bond) => <BondCard key={bond.id} bond={bond} />)}</ul>;
  return (
    <div className="invest-page">
      <PageHeader title={t`Debt crowdfunding`} fallback="/home" />
      <p className="invest-honesty">{t`If a raise does not reach its target by the deadline, every subscriber is refunded in full.`}</p>
      <div className="invest-content">
        <PullToRefresh onRefresh={async () => { await query.refetch(); }} {...pull}>
          {content}
        </PullToRefresh>
      </div>
    </div>
  );
}

export function BondProgress({ bond }: { bond: Product }) {
  const { t } = useLingui();
  const percent = raisedPercent(bond.sold, bond.target);
  return (
    <>
      <div className="bond-progress" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} aria-label={t`Raised`}>
        <span style={{ width: `${percent}%` }} />
      </div>
      <dl className="invest-figures compact">
        <Figure label={t`Raised`}>
          <span className="amount-range"><Amount value={bond.sold} asset={bond.asset} /> / <Amount value={bond.target ?? '0'} asset={bond.asset} withAsset /></span>
        </Figure>
        {bond.closesAt !== undefined && <Figure label={t`Deadline`}>{formatEpochMs(bond.closesAt)}</Figure>}
      </dl>
    </>
  );
}

function BondCard({ bond }: { bond: Product }) {
  const { t, i18n } = useLingui();
  const rate = useRateText();
  const days = bond.days;
  return (
    <li className="product-card">
      <Link to={`/zhaiquanDetail?id=${encodeURIComponent(bond.id)}`} className="product-card-link">
        <div className="product-card-head"><h2 className="product-name">{bond.name}</h2><CoverageBadge coverage={bond.coverage} /></div>
        <div className="product-rate">
          <span className="product-rate-figure">{rate(bond.dailyRate)}</span>
          <span className="product-rate-label">{t`Coupon per day`}</span>
        </div>
        <dl className="invest-figures compact"><Figure label={t`Term`}>{t`${days} days`}</Figure></dl>
        <BondProgress bond={bond} />
        {bond.status !== 'open' && <p className="product-closed">{i18n._(statusLabel(bond.status))}</p>}
      </Link>
    </li>
  );
}
