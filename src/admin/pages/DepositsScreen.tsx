// Deposit review: requests by status, the proof beside the details in a drawer with the user's
// context, and the two decisions: approve (the ledger credits the user; above the currency's
// threshold, counting the user's last 24 hours, only once a second, different operator approves
// too) or reject with the reason the user reads.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Col, Descriptions, Drawer, Row, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { AdminRechargeRecord } from '../../api/contract/wallet.ts';
import { useApproveRechargeMutation, useMeQuery, useRechargesQuery, useRejectRechargeMutation } from '../api.ts';
import { failureMessage } from '../errors.ts';
import { formatAmount, formatTime } from '../format.ts';
import { EmailText } from './EmailText.tsx';
import { ProofImage } from './ProofImage.tsx';
import { Approvals } from './Approvals.tsx';
import { ReasonModal } from './ReasonModal.tsx';
import { ReviewContextPanel } from './ReviewContextPanel.tsx';

type Status = 0 | 1 | -1;

function RechargeStatusTag({ record }: { record: AdminRechargeRecord }) {
  const { t } = useLingui();
  if (record.status === 1) return <Tag color="success">{t`Delivered`}</Tag>;
  if (record.status === -1) return <Tag color="error">{t`Rejected`}</Tag>;
  if (record.approvals.length > 0) return <Tag color="gold" data-testid="waiting-second-operator">{t`Waiting for a second operator`}</Tag>;
  return <Tag color="processing">{t`Under review`}</Tag>;
}


function DepositDrawer({ record, onClose }: { record: AdminRechargeRecord | undefined; onClose(): void }) {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const [approve, { isLoading: approving }] = useApproveRechargeMutation();
  const [reject] = useRejectRechargeMutation();
  const { data: me } = useMeQuery();
  const [rejecting, setRejecting] = useState(false);
  const [failure, setFailure] = useState('');
  const close = () => {
    setFailure('');
    onClose();
  };
  // A refusal (decided meanwhile by someone else: the list refreshes through the invalidation)
  // shows in the drawer.
  const afterRefusal = (error: unknown) => setFailure(failureMessage(error));
  const confirmApprove = (item: AdminRechargeRecord) => {
    const amount = formatAmount(item.amount);
    const { currency, userAccount: user } = item;
    return modal.confirm({
    title: t`Approve this deposit?`,
    content: t`${amount} ${currency} will be credited to ${user}.`,
    okText: t`Approve`,
    onOk: async () => {
      const answer = await approve(item.id);
      if ('error' in answer) {
        afterRefusal(answer.error);
        return;
      }
      if (answer.data.status === 1) {
        void message.success(t`Deposit approved.`);
        close();
      } else {
        // The first of two: the drawer stays open on the record, now waiting for a second operator.
        void message.success(t`Approval recorded: a second operator must approve.`);
      }
    },
  });
  };
  const approvedByMe = !!me && !!record?.approvals.some((approval) => approval.operatorId === me.id);
  return (
    <Drawer open={!!record} onClose={close} size={Math.min(980, window.innerWidth - 48)} title={t`Deposit review`} destroyOnHidden rootClassName="admin-drawer"
      extra={record?.status === 0 && (
        <Space>
          <Button danger onClick={() => setRejecting(true)}>{t`Reject`}</Button>
          <Button type="primary" loading={approving} onClick={() => confirmApprove(record)}>{t`Approve`}</Button>
        </Space>
      )}>
      {record && (
        <Row gutter={24}>
          <Col span={10}>
            {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} data-testid="decision-error" />}
            {approvedByMe && record.status === 0 && (
              <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="approved-by-me" title={t`You have approved this deposit; it waits for a second operator.`} />
            )}
            <Descriptions column={1} bordered size="small" items={[
              { key: 'id', label: t`Request`, children: record.id },
              { key: 'status', label: t`Status`, children: <RechargeStatusTag record={record} /> },
              { key: 'user', label: t`User`, children: <span>{record.userAccount} <Typography.Text type="secondary">#{record.userId}</Typography.Text></span> },
              { key: 'amount', label: t`Amount`, children: <strong className="admin-amount">{formatAmount(record.amount)} {record.currency}</strong> },
              { key: 'network', label: t`Network`, children: record.network },
              { key: 'address', label: t`Deposit address`, children: <span className="admin-mono">{record.depositAddress}</span> },
              { key: 'hash', label: t`Transaction hash`, children: <span className="admin-mono">{record.txHash ?? '—'}</span> },
              { key: 'approvals', label: t`Approvals`, children: <Approvals record={record} /> },
              { key: 'time', label: t`Submitted`, children: formatTime(record.createTime) },
              ...(record.decideTime ? [{ key: 'decided', label: t`Decided`, children: formatTime(record.decideTime) }] : []),
              ...(record.reason ? [{ key: 'reason', label: t`Reason`, children: record.reason }] : []),
            ]} />
            {record.status === 0 && <ReviewContextPanel userId={record.userId} />}
          </Col>
          <Col span={14}>
            <Typography.Title level={5}>{t`Proof`}</Typography.Title>
            <ProofImage url={record.proofAdminUrl} />
          </Col>
        </Row>
      )}
      <ReasonModal open={rejecting} title={t`Reject this deposit`} label={t`Reason (the user reads it)`} okText={t`Reject`}
        minLength={2} maxLength={200} onCancel={() => setRejecting(false)}
        onSubmit={async (reason) => {
          const answer = await reject({ id: record!.id, reason });
          if ('error' in answer) return failureMessage(answer.error);
          setRejecting(false);
          void message.success(t`Deposit rejected.`);
          close();
          return undefined;
        }} />
    </Drawer>
  );
}

export function DepositsScreen() {
  const { t } = useLingui();
  const [status, setStatus] = useState<Status>(0);
  const [pageNo, setPageNo] = useState(1);
  const [openId, setOpenId] = useState<string>();
  const { data, isFetching, isError, refetch } = useRechargesQuery({ status, pageNo });
  // The drawer follows the list: after a first approval it shows the record waiting for a second.
  const open = data?.records.find((record) => record.id === openId);
  return (
    <>
      <Tabs activeKey={String(status)} onChange={(key) => {
        setStatus(Number(key) as Status);
        setPageNo(1);
      }} items={[
        { key: '0', label: t`Under review` },
        { key: '1', label: t`Delivered` },
        { key: '-1', label: t`Rejected` },
      ]} tabBarExtraContent={<Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>} />
      {isError && <Alert type="error" showIcon title={t`The deposits could not be loaded.`} style={{ marginBottom: 16 }} />}
      <Table<AdminRechargeRecord> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} size="middle" data-testid="deposits-table"
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        onRow={(record) => ({ onClick: () => setOpenId(record.id), style: { cursor: 'pointer' } })}
        columns={[
          { key: 'user', title: t`User`, render: (_, record) => <EmailText email={record.userAccount} /> },
          { key: 'currency', title: t`Currency`, dataIndex: 'currency' },
          { key: 'network', title: t`Network`, dataIndex: 'network' },
          { key: 'amount', title: t`Amount`, align: 'right', render: (_, record) => <span className="admin-amount">{formatAmount(record.amount)}</span> },
          { key: 'hash', title: t`Transaction hash`, render: (_, record) => <span className="admin-mono admin-cut admin-hash" title={record.txHash ?? undefined}>{record.txHash ?? '—'}</span> },
          { key: 'time', title: t`Submitted`, render: (_, record) => <span className="admin-time">{formatTime(record.createTime)}</span> },
          ...(status === 0 ? [
            { key: 'status', title: t`Status`, render: (_: unknown, record: AdminRechargeRecord) => <RechargeStatusTag record={record} /> },
            { key: 'approvals', title: t`Approvals`, render: (_: unknown, record: AdminRechargeRecord) => <Approvals record={record} /> },
          ] : [{ key: 'reason', title: t`Reason`, render: (_: unknown, record: AdminRechargeRecord) => <span className="admin-cut" title={record.reason ?? undefined}>{record.reason ?? '—'}</span> }]),
          { key: 'action', title: '', render: (_, record) => <Button size="small" onClick={() => setOpenId(record.id)}>{status === 0 ? t`Review` : t`Details`}</Button> },
        ]} />
      <DepositDrawer record={open} onClose={() => setOpenId(undefined)} />
    </>
  );
}
