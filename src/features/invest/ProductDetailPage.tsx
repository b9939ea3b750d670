// taolilicaiDetail (`?id=`): one arbitrage or AI quantitative product with every figure it states
// (term, daily rate, VIP level limit, purchase limits), the caller's holdings in it, where its
// return comes from and the reserve's coverage, and the buy form (BuyForm.tsx).
import { useSearchParams } from 'react-router-dom';
import { PullToRefresh, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useMyProductOrdersInfiniteQuery, useProductQuery } from './investApi.ts';
import { BuyForm } from './BuyForm.tsx';
import { CoverageFacts, MyHoldings, TermsFacts } from './ProductFacts.tsx';
import { LoadFailure, statusLabel, usePullTexts, useRateText } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

export default function ProductDetailPage() {
  const { t, i18n } = useLingui();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const query = useProductQuery(id, { skip: !/^[0-9]{1,19}$/.test(id) });
  const product = query.data;
  const orders = useMyProductOrdersInfiniteQuery({ type: product?.type }, { skip: !product });
  const rate = useRateText();
  const pull = usePullTexts();
  const back = product?.type === 'quant' ? '/taolilicai?type=quant' : '/taolilicai?type=arbitrage';
  const header = <PageHeader title={product?.name ?? t`Product`} fallback={back} />;

  if (!/^[0-9]{1,19}$/.test(id) || (query.isError && (query.error as { error?: string }).error === 'product_not_found')) {
    return <div className="invest-page">{header}<p className="invest-empty">{t`This product was not found.`}</p></div>;
  }
  if (query.isLoading) {
    return <div className="invest-page">{header}<div className="invest-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Title animated /><Skeleton.Paragraph lineCount={6} animated /></div></div>;
  }
  if (!product) {
    return <div className="invest-page">{header}<LoadFailure title={t`The product could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} /></div>;
  }
  return (
    <div className="invest-page">
      {header}
      <PullToRefresh onRefresh={async () => { await Promise.all([query.refetch(), orders.refetch()]); }} {...pull}>
        <section className="invest-hero" aria-label={t`Summary`}>
          <p className="invest-hero-rate">{rate(product.dailyRate)}</p>
          <p className="invest-hero-label">{t`Daily rate`}</p>
          <p className="invest-honesty">{t`A fixed rate paid by the platform from its reserve; not a trading result.`}</p>
          {product.status !== 'open' && <p className="product-closed">{i18n._(statusLabel(product.status))}</p>}
        </section>
        <TermsFacts product={product} />
        <MyHoldings product={product} orders={orders.data?.pages.flatMap((page) => page.records) ?? []} />
        <CoverageFacts product={product} />
        <BuyForm product={product} />
      </PullToRefresh>
    </div>
  );
}
