// Pieces every investment page shares: the rate and coverage as they read, a product's card, the
// figures list, and the loading, failure and empty states of a page. Rates are percent strings
// per day from the server ("0.05"); they are shown with their own digits, never through a float.
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { Product } from '../../api/contract/products.ts';
import { failureText } from '../../api/errorMessages.ts';
import { Amount } from '../../components/Amount.tsx';
import { formatDecimal } from '../../lib/number.ts';
import { intlOf } from '../../lib/locales.ts';
import { coverageView } from './investMath.ts';

/** Decimals a rate shows: its own significant ones, at least two, at most four ("0.05" → 2, "0.0375" → 4). */
export function rateDecimals(rate: string): number {
  const fraction = (rate.split('.')[1] ?? '').replace(/0+$/, '');
  return Math.min(4, Math.max(2, fraction.length));
}

/** "0.05 %" as the language writes the number; the sign of percent follows it. */
export function useRateText() {
  const { i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  return (rate: string) => `${formatDecimal(rate, rateDecimals(rate), intl)}\u00a0%`;
}

/** Coverage of what a product owes by its reserve and the principal it holds: a badge with words. */
export function CoverageBadge({ coverage }: { coverage: string }) {
  const { t, i18n } = useLingui();
  const view = coverageView(coverage);
  const figure = view.infinite ? '∞' : `${formatDecimal(view.percent, 2, intlOf(i18n.locale))}\u00a0%`;
  return (
    <span className={`coverage-badge${view.low ? ' low' : ''}`} title={t`Reserve and principal held ÷ principal and returns owed`}>
      {t`Coverage ${figure}`}
    </span>
  );
}

/** A label and its value, in a definition list. */
export function Figure({ label, children, testId, strong }: { label: ReactNode; children: ReactNode; testId?: string; strong?: boolean }) {
  return (
    <div className={`invest-figure${strong ? ' strong' : ''}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** The card of a product in a list: name, days, daily rate, level limit, limits and coverage. */
export function ProductCard({ product, to }: { product: Product; to: string }) {
  const { t, i18n } = useLingui();
  const rate = useRateText();
  const days = product.days;
  const level = product.minLevel;
  return (
    <li className="product-card">
      <Link to={to} className="product-card-link">
        <div className="product-card-head">
          <h2 className="product-name">{product.name}</h2>
          <CoverageBadge coverage={product.coverage} />
        </div>
        <div className="product-rate">
          <span className="product-rate-figure">{product.type === 'mining' ? '—' : rate(product.dailyRate)}</span>
          <span className="product-rate-label">{product.type === 'bond' ? t`Coupon per day` : t`Daily rate`}</span>
        </div>
        <dl className="invest-figures compact">
          <Figure label={t`Term`}>{t`${days} days`}</Figure>
          <Figure label={t`Level limit`}>{level > 0 ? t`VIP ${level}` : t`Everyone`}</Figure>
          {product.type === 'mining' && product.unitPrice ? (
            <Figure label={t`Price per machine`}><Amount value={product.unitPrice} asset={product.asset} withAsset /></Figure>
          ) : (
            <Figure label={t`Purchase limits`}>
              <span className="amount-range"><Amount value={product.minAmount} asset={product.asset} /> – <Amount value={product.maxAmount} asset={product.asset} withAsset /></span>
            </Figure>
          )}
        </dl>
        {product.status !== 'open' && <p className="product-closed">{i18n._(statusLabel(product.status))}</p>}
      </Link>
    </li>
  );
}

/** What a product's status says to a buyer (descriptors: `t` of useLingui is a macro of its own scope only). */
export function statusLabel(status: string): MessageDescriptor {
  if (status === 'open') return msg`On sale`;
  if (status === 'raised') return msg`Target reached`;
  if (status === 'failed') return msg`Target not met: refunded`;
  return msg`Not on sale`;
}

export function LoadingCards({ label }: { label: string }) {
  return (
    <div className="invest-loading" aria-busy="true" aria-label={label}>
      {[0, 1, 2].map((key) => <div key={key} className="product-card skeleton"><Skeleton.Title animated /><Skeleton.Paragraph lineCount={3} animated /></div>)}
    </div>
  );
}

export function LoadFailure({ error, onRetry, title }: { error: unknown; onRetry: () => void; title: string }) {
  const { t } = useLingui();
  return (
    <div className="invest-failed" role="alert">
      <p><strong>{title}</strong> {failureText(error)}</p>
      <Button color="primary" fill="outline" onClick={onRetry}>{t`Retry`}</Button>
    </div>
  );
}

/** PullToRefresh's words, translated. */
export function usePullTexts() {
  const { t } = useLingui();
  return { pullingText: t`Pull to refresh`, canReleaseText: t`Release to refresh`, refreshingText: t`Loading...`, completeText: t`Updated` };
}
