// Reserve fundings waiting for a second operator (above the currency's dual-approval threshold):
// approve (behind a confirmation; the operator who asked for it, or who approved it already, is
// refused) or reject with a reason. A funding moves the house's money into the product's reserve,
// from which the returns are paid.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Space, Table, Typography } from 'antd';
import type { ReserveFunding } from '../../../api/contract/products.ts';
import { useApproveFundingMutation, useRejectFundingMutation, useReserveFundingsQuery, type AdminProduct } from '../../investApi.ts';
import { formatAmount, formatTime } from '../../format.ts';
import { Approvals } from '../Approvals.tsx';
import { ReasonModal } from '../ReasonModal.tsx';
import { investFailure } from './investTexts.ts';

export function FundingsTab({ products }: { products: AdminProduct[] }) {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const { data, isFetching, error, refetch } = useReserveFundingsQuery();
  const [approve] = useApproveFundingMutation();
  const [reject] = useRejectFundingMutation();
  const [rejecting, setRejecting] = useState<ReserveFunding>();
  const [failure, setFailure] = useState('');
  const productName = (id: string) => products.find((product) => product.id === id)?.name ?? `#${id}`;
  const pending = (data ?? []).filter((funding) => funding.status === 'pending');
  const confirmApprove = (funding: ReserveFunding) => {
    const amount = formatAmount(funding.amount);
    const asset = funding.asset;
    const product = productName(funding.productId);
    modal.confirm({
      title: t`Approve this reserve funding?`,
      content: t`${amount} ${asset} moves from the house to the reserve of ${product}.`,
      okText: t`Approve`,
      onOk: async () => {
        setFailure('');
        const answer = await approve(funding.id);
        if ('error' in answer) {
          setFailure(investFailure(answer.error));
          return;
        }
        void message.success(answer.data.status === 'done' ? t`Reserve funded.` : t`Approval recorded: waiting for a second operator.`);
      },
    });
  };
  const sendReject = async (reason: string) => {
    const answer = await reject({ fundingId: rejecting!.id, reason });
    if ('error' in answer) return investFailure(answer.error);
    void message.success(t`Funding rejected: nothing moved.`);
    setRejecting(undefined);
    return undefined;
  };
  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">{t`Fundings above the currency's dual-approval threshold wait here for a second, different operator.`}</Typography.Text>
        <Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>
      </Space>
      {error && <Alert type="error" showIcon role="alert" title={investFailure(error)} style={{ marginBottom: 16 }} />}
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} data-testid="funding-error" />}
      <Table<ReserveFunding> rowKey="id" loading={isFetching} dataSource={pending} size="middle" pagination={false} data-testid="fundings-table"
        columns={[
          { key: 'product', title: t`Product`, render: (_, item) => productName(item.productId) },
          { key: 'amount', title: t`Amount`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.amount)} {item.asset}</span> },
          { key: 'approvals', title: t`Approvals`, render: (_, item) => <Approvals record={item} /> },
          { key: 'by', title: t`Asked by`, render: (_, item) => {
            const operator = item.requestedBy;
            return t`Operator #${operator}`;
          } },
          { key: 'time', title: t`Asked`, render: (_, item) => <span className="admin-time">{formatTime(item.createdAt)}</span> },
          { key: 'actions', title: '', render: (_, item) => (
            <Space>
              <Button size="small" danger onClick={() => setRejecting(item)}>{t`Reject`}</Button>
              <Button size="small" type="primary" onClick={() => confirmApprove(item)}>{t`Approve`}</Button>
            </Space>
          ) },
        ]} />
      <ReasonModal open={!!rejecting} title={t`Reject this funding`} label={t`Reason`} okText={t`Reject`} maxLength={300}
        onCancel={() => setRejecting(undefined)} onSubmit={(text) => sendReject(text)} />
    </>
  );
}
