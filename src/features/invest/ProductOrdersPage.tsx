// taoliOrder: the caller's investment orders (arbitrage, AI quant, mining, bonds) with the totals
// of orderStat on top (hosted amount, today's and accumulated income per asset), status tabs (the
// spec's five states), and for each order its figures, the operator's reason when frozen, its
// daily receipts, and early redemption where the product allows it, with its stated cost and a
// confirmation. The tab lives in the address (?status=, replaced), so back lands on the same view.
import { useSearchParams } from 'react-router-dom';
import { Button, InfiniteScroll, PullToRefresh } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { orderStatuses, type OrderStatus, type ProductOrder } from '../../api/contract/products.ts';
import { failureText } from '../../api/errorMessages.ts';
import { formatAmount } from '../../api/contract/amounts.ts';
import { Amount } from '../../components/Amount.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ScrollHint } from '../../components/ScrollHint.tsx';
import { alertDialog, confirmDialog, showToast } from '../../components/feedback.tsx';
import { useMyProductOrdersInfiniteQuery, useOrderStatQuery, useProductQuery, useRedeemOrderMutation } from './investApi.ts';
import { atomicOf, ppmOfPercent, redemptionFee, scaleOf } from '../../entities/invest/investMath.ts';
import { FrozenReason, OrderFigures, OrderReceipts, OrderStatusChip, orderStatusLabels } from './orderParts.tsx';
import { LoadFailure, LoadingCards, usePullTexts } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

/** The status tab of the address; anything else is all orders. */
export function statusOf(value: string | null): OrderStatus | undefined {
  return (orderStatuses as readonly string[]).includes(value ?? '') ? value as OrderStatus : undefined;
}

/** The orders of every page read so far, each once: an order made meanwhile shifts the pages by one. */
function flatten(pages: ReadonlyArray<{ records: ProductOrder[] }> | undefined): ProductOrder[] {
  const seen = new Set<string>();
  return (pages ?? []).flatMap((page) => page.records).filter((order) => (seen.has(order.id) ? false : (seen.add(order.id), true)));
}

export default function ProductOrdersPage() {
  const { t, i18n } = useLingui();
  const [params, setParams] = useSearchParams();
  const status = statusOf(params.get('status'));
  const stat = useOrderStatQuery({});
  const query = useMyProductOrdersInfiniteQuery({ status });
  const orders = flatten(query.data?.pages);
  const pull = usePullTexts();
  const choose = (next: OrderStatus | undefined) => setParams(next ? { status: next } : {}, { replace: true });
  const refresh = async () => { await Promise.all([stat.refetch(), query.refetch()]); };

  let content;
  if (query.isLoading) content = <LoadingCards label={t`Loading orders`} />;
  else if (orders.length === 0 && query.isError) content = <LoadFailure title={t`The orders could not be loaded.`} error={query.error} onRetry={() => void refresh()} />;
  else if (orders.length === 0) content = <p className="invest-empty">{status ? t`No orders with this status.` : t`You have no investment orders yet.`}</p>;
  else {
    content = (
      <>
        <ul className="order-list" aria-label={t`Orders`}>
          {orders.map((order) => <OrderCard key={order.id} order={order} />)}
        </ul>
        <InfiniteScroll hasMore={query.hasNextPage} loadMore={async () => { await query.fetchNextPage().unwrap(); }}>
          {query.hasNextPage ? t`Loading...` : t`No more orders`}
        </InfiniteScroll>
      </>
    );
  }

  return (
    <div className="invest-page">
      <PageHeader title={t`Investment orders`} fallback="/my" />
      <section className="order-stat" aria-label={t`Totals`}>
        {stat.data ? <StatTotals running={stat.data.running} ended={stat.data.ended} totals={stat.data.totals} />
          : stat.isError ? <p className="buy-note">{failureText(stat.error)}</p> : <p className="buy-note">{t`Loading...`}</p>}
      </section>
      <ScrollHint className="order-tabs-row">
        <div className="order-tabs" role="tablist" aria-label={t`Order status`}>
          <button type="button" role="tab" aria-selected={status === undefined} className={`filter-chip${status === undefined ? ' active' : ''}`}
            onClick={() => choose(undefined)}>{t`All`}</button>
          {orderStatuses.map((value) => (
            <button key={value} type="button" role="tab" aria-selected={status === value} className={`filter-chip${status === value ? ' active' : ''}`}
              onClick={() => choose(value)}>{i18n._(orderStatusLabels[value])}</button>
          ))}
        </div>
      </ScrollHint>
      <div className="invest-content" role="tabpanel">
        <PullToRefresh onRefresh={refresh} {...pull}>
          {query.isError && orders.length > 0 && <p className="invest-stale" role="status">{t`Could not refresh. Showing the last orders.`}</p>}
          {content}
        </PullToRefresh>
      </div>
    </div>
  );
}

function StatTotals({ running, ended, totals }: { running: number; ended: number; totals: Array<{ asset: string; hosted: string; todayIncome: string; accumulatedIncome: string }> }) {
  const { t } = useLingui();
  return (
    <>
      <p className="order-stat-counts">{t`Running: ${running}`} · {t`Ended: ${ended}`}</p>
      {totals.length === 0 ? <p className="buy-note">{t`Nothing hosted yet.`}</p> : (
        <table className="stat-table">
          <thead><tr><th scope="col">{t`Asset`}</th><th scope="col">{t`Hosted amount`}</th><th scope="col">{t`Today's income`}</th><th scope="col">{t`Accumulated income`}</th></tr></thead>
          <tbody>
            {totals.map((row) => (
              <tr key={row.asset}>
                <th scope="row">{row.asset}</th>
                <td><Amount value={row.hosted} asset={row.asset} /></td>
                <td data-testid={`stat-today-${row.asset}`}><Amount value={row.todayIncome} asset={row.asset} exact /></td>
                <td><Amount value={row.accumulatedIncome} asset={row.asset} exact /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function OrderCard({ order }: { order: ProductOrder }) {
  return (
    <li className="order-card" data-testid={`order-${order.id}`}>
      <div className="order-head">
        <h2 className="order-name">{order.productName}</h2>
        <OrderStatusChip status={order.status} />
      </div>
      <OrderFigures order={order} />
      <FrozenReason order={order} />
      <OrderReceipts order={order} />
      {(order.status === 'running' || order.status === 'not_started') && order.productType !== 'mining' && <Redeem order={order} />}
    </li>
  );
}

/** Early redemption, where the product allows it: the stated fee and what comes back, confirmed first. */
function Redeem({ order }: { order: ProductOrder }) {
  const { t } = useLingui();
  const product = useProductQuery(order.productId);
  const [redeem, redeeming] = useRedeemOrderMutation();
  if (!product.data?.earlyRedeem) return null;
  const scale = scaleOf(order.amount);
  const principal = atomicOf(order.amount, scale);
  const fee = redemptionFee(principal, ppmOfPercent(product.data.earlyRedeemFee));
  const back = principal - fee;
  const rate = product.data.earlyRedeemFee;
  const ask = async () => {
    const yes = await confirmDialog({
      title: t`Redeem early?`,
      content: (
        <div className="redeem-confirm">
          <p>{t`The fee is ${rate} % of the principal. Returns not yet paid are given up.`}</p>
          <dl className="invest-figures">
            <div className="invest-figure"><dt>{t`Principal`}</dt><dd><Amount value={order.amount} asset={order.asset} exact withAsset /></dd></div>
            <div className="invest-figure"><dt>{t`Fee`}</dt><dd><Amount value={formatAmount(fee, scale)} asset={order.asset} exact withAsset /></dd></div>
            <div className="invest-figure strong"><dt>{t`Back to your balance`}</dt><dd><Amount value={formatAmount(back, scale)} asset={order.asset} exact withAsset /></dd></div>
          </dl>
        </div>
      ),
      confirmText: t`Redeem`, cancelText: t`Cancel`,
    });
    if (!yes) return;
    const result = await redeem({ id: order.id });
    if (result.data) void showToast(t`Redeemed`);
    else await alertDialog({ content: failureText(result.error), confirmText: t`OK` });
  };
  return (
    <Button size="small" fill="outline" loading={redeeming.isLoading} onClick={() => void ask()} className="redeem-button">
      {t`Redeem early`}
    </Button>
  );
}
