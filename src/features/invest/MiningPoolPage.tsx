// kuangchiPool: the mining pool's totals (machines running, hashrate, output today and in all)
// and the caller's share (their machines, hashrate and output), per mined asset when machines mine
// more than one, then their machine orders with
// their daily receipts (orderParts.tsx), on the route's #2c3e50 background.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { Amount } from '../../components/Amount.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useMiningPoolQuery, useMyProductOrdersInfiniteQuery, useProductsQuery } from './investApi.ts';
import { FrozenReason, OrderFigures, OrderReceipts, OrderStatusChip } from './orderParts.tsx';
import { LoadFailure, usePullTexts } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

/** The mined asset the pool page totals first (the others, if machines mine them, one tap away). */
export const poolAsset = 'BTC';

/** The assets the mining products pay out, the default first. */
export function minedAssets(products: ReadonlyArray<{ payoutAsset: string }>): string[] {
  const assets = [...new Set(products.map((product) => product.payoutAsset))].sort();
  return [poolAsset, ...assets.filter((asset) => asset !== poolAsset)];
}

export default function MiningPoolPage() {
  const { t } = useLingui();
  const machines = useProductsQuery({ type: 'mining' });
  const assets = minedAssets(machines.data?.records ?? []);
  const [asset, setAsset] = useState(poolAsset);
  const pool = useMiningPoolQuery({ asset });
  const orders = useMyProductOrdersInfiniteQuery({ type: 'mining' });
  const pull = usePullTexts();
  const mine = orders.data?.pages.flatMap((page) => page.records) ?? [];
  const data = pool.data;
  const hashrate = data?.hashrateThs ?? '0';
  const myHashrate = data?.my?.hashrateThs ?? '0';
  return (
    <div className="invest-page invest-dark mining">
      <PageHeader title={t`Mining pool`} fallback="/kuangchi" />
      <PullToRefresh onRefresh={async () => { await Promise.all([pool.refetch(), orders.refetch()]); }} {...pull}>
        {pool.isError && !data && <LoadFailure title={t`The pool could not be loaded.`} error={pool.error} onRetry={() => void pool.refetch()} />}
        {assets.length > 1 && (
          <div className="pool-assets" role="radiogroup" aria-label={t`Asset`}>
            {assets.map((code) => (
              <button key={code} type="button" role="radio" aria-checked={code === asset}
                className={`pool-asset${code === asset ? ' active' : ''}`} onClick={() => setAsset(code)}>{code}</button>
            ))}
          </div>
        )}
        {data && (
          <>
            <dl className="pool-totals" aria-label={t`Pool totals`}>
              <div className="pool-total"><dt>{t`Machines running`}</dt><dd>{data.machinesRunning}</dd></div>
              <div className="pool-total"><dt>{t`Hashrate`}</dt><dd>{t`${hashrate} TH/s`}</dd></div>
              <div className="pool-total"><dt>{t`Output today`}</dt><dd><Amount value={data.outputToday} asset={data.asset} exact withAsset /></dd></div>
              <div className="pool-total"><dt>{t`Output in all`}</dt><dd><Amount value={data.outputTotal} asset={data.asset} exact withAsset /></dd></div>
            </dl>
            {data.my && (
              <dl className="pool-totals" aria-label={t`My mining`}>
                <div className="pool-total"><dt>{t`My machines`}</dt><dd>{data.my.machines}</dd></div>
                <div className="pool-total"><dt>{t`My hashrate`}</dt><dd>{t`${myHashrate} TH/s`}</dd></div>
                <div className="pool-total"><dt>{t`My output in all`}</dt><dd><Amount value={data.my.outputTotal} asset={data.asset} exact withAsset /></dd></div>
              </dl>
            )}
          </>
        )}
        <div className="invest-content">
          <h2 className="invest-card-title">{t`My machine orders`}</h2>
          {orders.isLoading && <p className="buy-note">{t`Loading...`}</p>}
          {!orders.isLoading && mine.length === 0 && (
            <p className="invest-empty">{t`You rent no machines yet.`} <Link to="/kuangchi">{t`See the machines`}</Link></p>
          )}
          <ul className="order-list" aria-label={t`My machine orders`}>
            {mine.map((order) => (
              <li key={order.id} className="order-card">
                <div className="order-head"><h3 className="order-name">{order.productName}</h3><OrderStatusChip status={order.status} /></div>
                <OrderFigures order={order} />
                <FrozenReason order={order} />
                <OrderReceipts order={order} />
              </li>
            ))}
          </ul>
        </div>
      </PullToRefresh>
    </div>
  );
}
