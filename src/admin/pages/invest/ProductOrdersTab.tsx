// The orders of the products, across users, by product, state and user: freeze a running order with
// a reason the user reads (no return accrues while frozen) or unfreeze it (behind a confirmation).
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Input, Select, Table, Tag, Typography } from 'antd';
import { orderStatuses, type OrderStatus } from '../../../api/contract/products.ts';
import { useFreezeOrderMutation, useProductOrdersQuery, useUnfreezeOrderMutation, type AdminProduct, type AdminProductOrder } from '../../investApi.ts';
import { formatAmount, formatTime } from '../../format.ts';
import { EmailText } from '../EmailText.tsx';
import { ReasonModal } from '../ReasonModal.tsx';
import { investFailure } from './investTexts.ts';

export function OrderStatusTag({ status }: { status: OrderStatus }) {
  const { t } = useLingui();
  switch (status) {
    case 'not_started': return <Tag>{t`Not started`}</Tag>;
    case 'running': return <Tag color="processing">{t`Running`}</Tag>;
    case 'ended': return <Tag color="success">{t`Ended`}</Tag>;
    case 'frozen': return <Tag color="error">{t`Frozen`}</Tag>;
    case 'cancelled': return <Tag color="default">{t`Cancelled`}</Tag>;
  }
}

export function ProductOrdersTab({ products, productId, onProduct }: {
  products: AdminProduct[]; productId?: string; onProduct(id: string | undefined): void;
}) {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const [status, setStatus] = useState<OrderStatus>();
  const [userId, setUserId] = useState('');
  const [pageNo, setPageNo] = useState(1);
  const { data, isFetching, error } = useProductOrdersQuery({ pageNo, productId, status, userId: userId || undefined });
  const [freeze] = useFreezeOrderMutation();
  const [unfreeze] = useUnfreezeOrderMutation();
  const [freezing, setFreezing] = useState<AdminProductOrder>();
  const [failure, setFailure] = useState('');
  const statusLabel: Record<OrderStatus, string> = {
    not_started: t`Not started`, running: t`Running`, ended: t`Ended`, frozen: t`Frozen`, cancelled: t`Cancelled`,
  };
  const sendFreeze = async (reason: string) => {
    const answer = await freeze({ id: freezing!.id, reason });
    if ('error' in answer) return investFailure(answer.error);
    void message.success(t`Order frozen: the user reads the reason; no return accrues until it is unfrozen.`);
    setFreezing(undefined);
    return undefined;
  };
  const confirmUnfreeze = (order: AdminProductOrder) => {
    const id = order.id;
    modal.confirm({
      title: t`Unfreeze order ${id}?`,
      content: t`Its returns accrue again from the next run.`,
      okText: t`Unfreeze`,
      onOk: async () => {
        setFailure('');
        const answer = await unfreeze(order.id);
        if ('error' in answer) setFailure(investFailure(answer.error));
        else void message.success(t`Order unfrozen.`);
      },
    });
  };
  return (
    <>
      <div className="admin-invest-filters">
        <Select<string> allowClear placeholder={t`Every product`} value={productId} style={{ minWidth: 240 }} aria-label={t`Product`}
          onChange={(value) => {
            onProduct(value);
            setPageNo(1);
          }} options={products.map((product) => ({ value: product.id, label: product.name }))} />
        <Select<OrderStatus> allowClear placeholder={t`Every state`} value={status} style={{ minWidth: 160 }} aria-label={t`State`}
          onChange={(value) => {
            setStatus(value);
            setPageNo(1);
          }} options={orderStatuses.map((value) => ({ value, label: statusLabel[value] }))} />
        <Input.Search allowClear placeholder={t`User id`} style={{ width: 200 }} aria-label={t`User id`} onSearch={(value) => {
          setUserId(value.trim());
          setPageNo(1);
        }} />
      </div>
      {error && <Alert type="error" showIcon role="alert" title={investFailure(error)} style={{ marginBottom: 16 }} />}
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} data-testid="order-error" />}
      <Table<AdminProductOrder> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} size="middle" scroll={{ x: 'max-content' }}
        data-testid="product-orders-table"
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        columns={[
          { key: 'id', title: t`Order`, dataIndex: 'id' },
          { key: 'user', title: t`User`, render: (_, item) => <EmailText email={item.account} /> },
          { key: 'product', title: t`Product`, dataIndex: 'productName' },
          { key: 'amount', title: t`Amount`, align: 'right', render: (_, item) => (
            <span className="admin-amount">{formatAmount(item.amount)} {item.asset}{item.quantity > 1 ? ` · ×${item.quantity}` : ''}</span>
          ) },
          { key: 'status', title: t`State`, render: (_, item) => (
            <div>
              <OrderStatusTag status={item.status} />
              {item.frozenReason && <Typography.Text type="secondary" className="admin-cut" title={item.frozenReason}>{item.frozenReason}</Typography.Text>}
            </div>
          ) },
          { key: 'income', title: t`Paid so far`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.accumulatedIncome)} {item.payoutAsset}</span> },
          { key: 'owed', title: t`Still owed`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.owed)} {item.payoutAsset}</span> },
          { key: 'term', title: t`Term`, render: (_, item) => <span className="admin-time">{formatTime(item.startsAt)} → {formatTime(item.endsAt)}</span> },
          { key: 'actions', title: '', fixed: 'right', render: (_, item) => {
            const id = item.id;
            if (item.status === 'frozen') return <Button size="small" onClick={() => confirmUnfreeze(item)} aria-label={t`Unfreeze order ${id}`}>{t`Unfreeze`}</Button>;
            if (item.status === 'running' || item.status === 'not_started') {
              return <Button size="small" danger onClick={() => setFreezing(item)} aria-label={t`Freeze order ${id}`}>{t`Freeze`}</Button>;
            }
            return null;
          } },
        ]} />
      <ReasonModal open={!!freezing} title={t`Freeze this order`} label={t`Reason (the user reads it)`} okText={t`Freeze`} maxLength={300}
        onCancel={() => setFreezing(undefined)} onSubmit={(text) => sendFreeze(text)}>
        <Typography.Paragraph type="secondary">{t`No return accrues while the order is frozen. The user sees the order frozen with this reason.`}</Typography.Paragraph>
      </ReasonModal>
    </>
  );
}
