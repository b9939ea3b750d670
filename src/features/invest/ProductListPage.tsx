// taolilicai: the arbitrage and AI quantitative products (spec §2, `?type=arbitrage|quant`), one tab
// each, on the route's dark background. Each card shows the name, term, daily rate, VIP level
// limit, purchase limits and the reserve's coverage; a tap opens the detail. Pull to refresh; the
// orders page is one tap away in the header.
import { Link, useSearchParams } from 'react-router-dom';
import { PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { ProductType } from '../../api/contract/products.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useProductsQuery } from './investApi.ts';
import { LoadFailure, LoadingCards, ProductCard, usePullTexts } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

export type FundType = Extract<ProductType, 'arbitrage' | 'quant'>;
/** The tab of the address; anything else is arbitrage. */
export const fundTypeOf = (value: string | null): FundType => (value === 'quant' ? 'quant' : 'arbitrage');

export default function ProductListPage() {
  const { t } = useLingui();
  const [params, setParams] = useSearchParams();
  const type = fundTypeOf(params.get('type'));
  const query = useProductsQuery({ type });
  const pull = usePullTexts();
  const products = query.data?.records ?? [];
  const tabs: Array<{ key: FundType; label: string }> = [
    { key: 'arbitrage', label: t`Arbitrage` },
    { key: 'quant', label: t`AI quantitative` },
  ];

  let content;
  if (query.isLoading) content = <LoadingCards label={t`Loading products`} />;
  else if (products.length === 0 && query.isError) {
    content = <LoadFailure title={t`The products could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} />;
  } else if (products.length === 0) content = <p className="invest-empty">{t`No products on sale at the moment.`}</p>;
  else {
    content = (
      <ul className="product-list" aria-label={t`Products`}>
        {products.map((product) => <ProductCard key={product.id} product={product} to={`/taolilicaiDetail?id=${encodeURIComponent(product.id)}`} />)}
      </ul>
    );
  }

  return (
    <div className="invest-page invest-dark">
      <PageHeader title={type === 'quant' ? t`AI quantitative` : t`Arbitrage`} fallback="/home"
        right={<Link className="header-link" to="/taoliOrder">{t`My orders`}</Link>} />
      <div className="invest-tabs" role="tablist" aria-label={t`Product type`}>
        {tabs.map((tab) => (
          <button key={tab.key} type="button" role="tab" aria-selected={type === tab.key} aria-controls="invest-products"
            className={`invest-tab${type === tab.key ? ' active' : ''}`}
            onClick={() => setParams({ type: tab.key }, { replace: true })}>{tab.label}</button>
        ))}
      </div>
      <p className="invest-honesty">{t`A fixed rate paid by the platform from its reserve; not a trading result.`}</p>
      <div id="invest-products" role="tabpanel" className="invest-content">
        <PullToRefresh onRefresh={async () => { await query.refetch(); }} {...pull}>
          {query.isError && products.length > 0 && <p className="invest-stale" role="status">{t`Could not refresh. Showing the last list.`}</p>}
          {content}
        </PullToRefresh>
      </div>
    </div>
  );
}
