// What a product states, for its detail page: the terms, the limits, what is sold, and the
// reserve's coverage with the figures it is made of, and the caller's own orders in it (hosted
// amount, today's and accumulated income, remaining period).
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { Product, ProductOrder } from '../../api/contract/products.ts';
import { Amount } from '../../components/Amount.tsx';
import { formatAmount } from '../../api/contract/amounts.ts';
import { formatEpochMs } from '../../lib/time.ts';
import { atomicOf, scaleOf } from '../../entities/invest/investMath.ts';
import { CoverageBadge, Figure, useRateText } from '../../entities/invest/parts.tsx';

export function TermsFacts({ product }: { product: Product }) {
  const { t } = useLingui();
  const rate = useRateText();
  const days = product.days;
  const level = product.minLevel;
  const asset = product.asset;
  const redeemFee = product.earlyRedeemFee;
  return (
    <section className="invest-card" aria-label={t`Terms`}>
      <dl className="invest-figures">
        <Figure label={t`Term`}>{t`${days} days`}</Figure>
        {product.type !== 'mining' && <Figure label={product.type === 'bond' ? t`Coupon per day` : t`Daily rate`}>{rate(product.dailyRate)}</Figure>}
        <Figure label={t`VIP level limit`}>{level > 0 ? t`VIP ${level} and above` : t`Everyone`}</Figure>
        {product.type !== 'mining' && (
          <Figure label={t`Purchase limits`}>
            <span className="amount-range"><Amount value={product.minAmount} asset={asset} /> – <Amount value={product.maxAmount} asset={asset} withAsset /></span>
          </Figure>
        )}
        {atomicOf(product.perUserMax, scaleOf(product.perUserMax)) > 0n && (
          <Figure label={t`Most per person`}><Amount value={product.perUserMax} asset={asset} withAsset /></Figure>
        )}
        {product.type !== 'bond' && atomicOf(product.totalCap, scaleOf(product.totalCap)) > 0n && (
          <Figure label={t`Sold`}><span className="amount-range"><Amount value={product.sold} asset={asset} /> / <Amount value={product.totalCap} asset={asset} withAsset /></span></Figure>
        )}
        {product.type !== 'mining' && (
          <Figure label={t`Interest starts`}>{product.firstDayRule === 'full' ? t`On the day of purchase` : t`The next day (UTC)`}</Figure>
        )}
        {product.type !== 'mining' && (
          <Figure label={t`Early redemption`}>
            {product.earlyRedeem ? t`Allowed, fee ${redeemFee} % of the principal` : t`Not allowed`}
          </Figure>
        )}
      </dl>
    </section>
  );
}

export function CoverageFacts({ product }: { product: Product }) {
  const { t, i18n } = useLingui();
  const payout = product.payoutAsset;
  return (
    <section className="invest-card" aria-labelledby="coverage-title">
      <div className="invest-card-head">
        <h2 id="coverage-title" className="invest-card-title">{t`Where the return comes from`}</h2>
        <CoverageBadge coverage={product.coverage} />
      </div>
      <p className="invest-source">{i18n._(sourceLabel(product.returnSource))}</p>
      <dl className="invest-figures">
        <Figure label={t`Reserve`} testId="product-reserve"><Amount value={product.reserve} asset={payout} withAsset /></Figure>
        <Figure label={t`Returns still owed`} testId="product-owed"><Amount value={product.owed} asset={payout} withAsset /></Figure>
      </dl>
      <p className="buy-note">{t`Coverage is the reserve and the principal held, divided by the principal and all returns still owed. A purchase that would take it under 100 % is refused: the product sells out instead.`}</p>
    </section>
  );
}

/** Where a product's return comes from, in plain words (descriptors: `t` of useLingui is a macro of its own scope only). */
export function sourceLabel(source: string): MessageDescriptor {
  if (source === 'mining_formula') return msg`Output follows a stated formula: hashrate × the network's reward per TH/s per day − power × the electricity price.`;
  if (source === 'bond_coupon') return msg`A fixed coupon paid by the platform from its reserve at maturity, with the principal; not a trading result.`;
  return msg`A fixed rate paid by the platform from its reserve; not a trading result.`;
}

/** The caller's orders in one product: hosted amount, today's and accumulated income, remaining period. */
export function MyHoldings({ product, orders }: { product: Product; orders: ProductOrder[] }) {
  const { t } = useLingui();
  const mine = orders.filter((order) => order.productId === product.id && (order.status === 'running' || order.status === 'not_started' || order.status === 'frozen'));
  if (mine.length === 0) return null;
  const scale = scaleOf(mine[0]!.amount);
  const payoutScale = scaleOf(mine[0]!.accumulatedIncome);
  const sum = (pick: (order: ProductOrder) => string, places: number) => formatAmount(mine.reduce((total, order) => total + atomicOf(pick(order), places), 0n), places);
  const nearest = mine.reduce((a, b) => (a.endsAt <= b.endsAt ? a : b));
  const remaining = nearest.remainingDays;
  const ends = formatEpochMs(nearest.endsAt, 'date');
  return (
    <section className="invest-card" aria-labelledby="holdings-title">
      <h2 id="holdings-title" className="invest-card-title">{t`My holdings`}</h2>
      <dl className="invest-figures">
        <Figure label={t`Hosted amount`} testId="holding-hosted"><Amount value={sum((order) => order.amount, scale)} asset={product.asset} withAsset /></Figure>
        <Figure label={t`Today's income`} testId="holding-today"><Amount value={sum((order) => order.todayIncome, payoutScale)} asset={product.payoutAsset} exact withAsset /></Figure>
        <Figure label={t`Accumulated income`}><Amount value={sum((order) => order.accumulatedIncome, payoutScale)} asset={product.payoutAsset} exact withAsset /></Figure>
        <Figure label={t`Remaining period`}>{t`${remaining} days (ends ${ends})`}</Figure>
      </dl>
    </section>
  );
}
