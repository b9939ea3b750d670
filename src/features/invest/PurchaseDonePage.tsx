// taoliOk (`?id=<orderId>`): the confirmation of a purchase: the order's amount, start, end,
// expected return and status, with the way on to the orders or back to the products.
import { useNavigate, useSearchParams } from 'react-router-dom';
import { Button, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useFindMyOrderQuery } from './investApi.ts';
import { FrozenReason, OrderFigures, OrderStatusChip } from './orderParts.tsx';
import { LoadFailure } from '../../entities/invest/parts.tsx';
import { prepareInvestTexts } from '../../entities/invest/investTexts.ts';
import '../../entities/invest/invest.css';

export const prepare = prepareInvestTexts;

/** Where "Back to products" goes for an order's product type. */
export const listOfType = (type: string | undefined) =>
  type === 'quant' ? '/taolilicai?type=quant' : type === 'mining' ? '/kuangchi' : type === 'bond' ? '/zhaiquan' : '/taolilicai?type=arbitrage';

export default function PurchaseDonePage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const query = useFindMyOrderQuery(id, { skip: !id });
  const order = query.data?.order;
  const header = <PageHeader title={t`Purchase confirmed`} fallback="/taoliOrder" />;
  let content;
  if (query.isLoading) content = <div className="invest-card" aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={6} animated /></div>;
  else if (query.isError) content = <LoadFailure title={t`The order could not be loaded.`} error={query.error} onRetry={() => void query.refetch()} />;
  else if (!order) content = <p className="invest-empty">{t`This order was not found among your orders.`}</p>;
  else {
    content = (
      <>
        <section className="invest-card done-hero" aria-labelledby="done-title">
          <h2 id="done-title" className="done-title">{order.status === 'cancelled' ? t`Order cancelled` : t`Your order is placed`}</h2>
          <p className="done-product">{order.productName}</p>
          <OrderStatusChip status={order.status} />
          {order.status === 'not_started' && <p className="buy-note">{t`Income starts on the start date below.`}</p>}
        </section>
        <section className="invest-card" aria-label={t`Order`}>
          <OrderFigures order={order} />
          <FrozenReason order={order} />
        </section>
      </>
    );
  }
  return (
    <div className="invest-page">
      {header}
      {content}
      <div className="done-actions">
        <Button block color="primary" onClick={() => navigate('/taoliOrder')}>{t`View my orders`}</Button>
        <Button block fill="outline" onClick={() => navigate(listOfType(order?.productType))}>{t`Back to products`}</Button>
      </div>
    </div>
  );
}
