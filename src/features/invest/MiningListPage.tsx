// kuangchi: the mining machines for rent (spec §2, on the route's #2c3e50 background): each card
// with the machine, its hashrate and power, the price for the term and the estimated output per
// day at the published reward figure; the mining pool page is one tap away.
import { Link } from 'react-router-dom';
import { PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { Product } from '../../api/contract/products.ts';
import { Amount } from '../../components/Amount.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useProductsQuery } from './investApi.ts';
import { CoverageBadge, Figure, LoadFailure, LoadingCards, statusLabel, usePullTexts } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

export default function MiningListPage() {
  const { t } = useLingui();
  const query = useProductsQuery({ type: 'mining' });
  const pull = usePullTexts();
  const machines = query.data?.records ?? [];
  let content;
  if (query.isLoading) content = <LoadingCards label={t`Loading machines`} />;
  else if (machines.length === 0 && query.isError) content = <LoadFailure title={t`The machines could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} />;
  else if (machines.length === 0) content = <p className="invest-empty">{t`No mining machines for rent at the moment.`}</p>;
  else content = <ul className="product-list" aria-label={t`Mining machines`}>{machines.map((product) => <MachineCard key={product.id} product={product} />)}</ul>;
  return (
    <div className="invest-page invest-dark mining">
      <PageHeader title={t`Mining`} fallback="/home" right={<Link className="header-link" to="/kuangchiPool">{t`Mining pool`}</Link>} />
      <p className="invest-honesty">{t`Output follows a stated formula: hashrate × the network's reward per TH/s per day − power × the electricity price.`}</p>
      <div className="invest-content">
        <PullToRefresh onRefresh={async () => { await query.refetch(); }} {...pull}>
          {query.isError && machines.length > 0 && <p className="invest-stale" role="status">{t`Could not refresh. Showing the last list.`}</p>}
          {content}
        </PullToRefresh>
      </div>
    </div>
  );
}

function MachineCard({ product }: { product: Product }) {
  const { t, i18n } = useLingui();
  const machine = product.machine;
  const days = product.days;
  const hashrate = machine?.hashrateThs ?? '—';
  const power = machine?.powerW ?? 0;
  return (
    <li className="product-card">
      <Link to={`/kuangchiDetail?id=${encodeURIComponent(product.id)}`} className="product-card-link">
        <div className="product-card-head">
          <h2 className="product-name">{product.name}</h2>
          <CoverageBadge coverage={product.coverage} />
        </div>
        <dl className="invest-figures compact">
          {machine && <Figure label={t`Manufacturer`}>{machine.manufacturer}</Figure>}
          <Figure label={t`Hashrate`}>{t`${hashrate} TH/s`}</Figure>
          <Figure label={t`Power`}>{t`${power} W`}</Figure>
          <Figure label={t`Term`}>{t`${days} days`}</Figure>
          {product.unitPrice && <Figure label={t`Price per machine`}><Amount value={product.unitPrice} asset={product.asset} withAsset /></Figure>}
          {product.miningReward && (
            <Figure label={t`Estimated output per day`}><Amount value={product.miningReward.estimatedDailyOutput} asset={product.payoutAsset} exact withAsset /></Figure>
          )}
        </dl>
        {product.status !== 'open' && <p className="product-closed">{i18n._(statusLabel(product.status))}</p>}
      </Link>
    </li>
  );
}
