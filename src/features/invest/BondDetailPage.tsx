// zhaiquanDetail (`?id=`): one raise: its target, what is raised, the deadline and the full-refund
// promise, the coupon and term, the reserve's coverage, and subscribing (debitBuy, BuyForm.tsx).
import { useSearchParams } from 'react-router-dom';
import { Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useProductQuery } from './investApi.ts';
import { BuyForm } from './BuyForm.tsx';
import { BondProgress } from './BondListPage.tsx';
import { CoverageFacts, TermsFacts } from './ProductFacts.tsx';
import { LoadFailure, statusLabel } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

export default function BondDetailPage() {
  const { t, i18n } = useLingui();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const valid = /^[0-9]{1,19}$/.test(id);
  const query = useProductQuery(id, { skip: !valid });
  const bond = query.data;
  const header = <PageHeader title={bond?.name ?? t`Bond`} fallback="/zhaiquan" />;
  if (!valid || (query.error as { error?: string } | undefined)?.error === 'product_not_found') {
    return <div className="invest-page">{header}<p className="invest-empty">{t`This product was not found.`}</p></div>;
  }
  if (query.isLoading) return <div className="invest-page">{header}<div className="invest-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={8} animated /></div></div>;
  if (!bond) return <div className="invest-page">{header}<LoadFailure title={t`The raise could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} /></div>;
  return (
    <div className="invest-page">
      {header}
      <section className="invest-card" aria-labelledby="raise-title">
        <h2 id="raise-title" className="invest-card-title">{t`The raise`}</h2>
        <BondProgress bond={bond} />
        <p className="invest-source">{t`Refunded in full if the target is not met by the deadline. Coupons accrue daily and are paid at maturity with the principal.`}</p>
        {bond.status !== 'open' && <p className="product-closed">{i18n._(statusLabel(bond.status))}</p>}
      </section>
      <TermsFacts product={bond} />
      <CoverageFacts product={bond} />
      <BuyForm product={bond} />
    </div>
  );
}
