// Withdrawal review: requests by status with their approvals, the full destination for the
// payout, and the four decisions: approve (two different operators above the currency's
// threshold), reject with a reason, and once approved mark paid (with the payout reference) or
// failed (with a reason). The server's refusals show in the drawer, in the operator's language;
// beside a request under review, the user's context (ReviewContextPanel).
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Descriptions, Drawer, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { AdminWithdrawal } from '../../api/contract/withdrawals.ts';
import { useDecideWithdrawalMutation, useMeQuery, useWithdrawalsQuery, type WithdrawalDecision } from '../api.ts';
import { failureMessage } from '../errors.ts';
import { formatAmount, formatTime } from '../format.ts';
import { EmailText } from './EmailText.tsx';
import { Approvals } from './Approvals.tsx';
import { ReasonModal } from './ReasonModal.tsx';
import { ReviewContextPanel } from './ReviewContextPanel.tsx';

type Status = 0 | 2 | -1 | -2;
type Asking = 'reject' | 'paid' | 'failed';

function WithdrawalStatusTag({ record }: { record: AdminWithdrawal }) {
  const { t } = useLingui();
  if (record.status === 2) return <Tag color="success">{t`Paid out`}</Tag>;
  if (record.status === -1) return <Tag color="error">{t`Rejected`}</Tag>;
  if (record.status === -2) return <Tag color="warning">{t`Failed`}</Tag>;
  if (record.approvedTime) return <Tag color="blue">{t`Approved, awaiting payout`}</Tag>;
  if (record.approvals.length > 0) return <Tag color="gold" data-testid="waiting-second-operator">{t`Waiting for a second operator`}</Tag>;
  return <Tag color="processing">{t`Under review`}</Tag>;
}


function Destination({ record }: { record: AdminWithdrawal }) {
  const { t } = useLingui();
  const { destination } = record;
  if (destination.type === 'bank') {
    return (
      <Space orientation="vertical" size={0}>
        <span>{t`Bank`}: {destination.bankName}</span>
        <span>{t`Account holder`}: {destination.realName}</span>
        <span>{t`Card number`}: <Typography.Text className="admin-mono" copyable>{record.cardNumber ?? destination.cardNumber}</Typography.Text></span>
      </Space>
    );
  }
  return <Typography.Text className="admin-mono" copyable>{destination.address}</Typography.Text>;
}

function WithdrawalDrawer({ record, onClose }: { record: AdminWithdrawal | undefined; onClose(): void }) {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const { data: me } = useMeQuery();
  const [decide, { isLoading }] = useDecideWithdrawalMutation();
  const [asking, setAsking] = useState<Asking>();
  const [failure, setFailure] = useState('');
  const close = () => {
    setFailure('');
    setAsking(undefined);
    onClose();
  };
  const send = async (decision: WithdrawalDecision): Promise<string | undefined> => {
    const answer = await decide({ id: record!.id, decision });
    if ('error' in answer) return failureMessage(answer.error);
    const done = {
      approve: answer.data.approvedTime ? t`Withdrawal approved: it can now be paid out.` : t`Approval recorded: a second operator must approve.`,
      reject: t`Withdrawal rejected: the amount is back in the user's balance.`,
      paid: t`Withdrawal marked as paid.`,
      failed: t`Withdrawal marked as failed: the amount is back in the user's balance.`,
    }[decision.action];
    void message.success(done);
    close();
    return undefined;
  };
  const confirmApprove = () => {
    const amount = formatAmount(record!.amount);
    const currency = record!.currency;
    modal.confirm({
      title: t`Approve this withdrawal?`,
      content: t`${amount} ${currency} to the destination shown.`,
      okText: t`Approve`,
      onOk: async () => {
        const error = await send({ action: 'approve' });
        if (error) setFailure(error);
      },
    });
  };
  const approvedByMe = !!me && !!record?.approvals.some((approval) => approval.operatorId === me.id);
  const modalTexts: Record<Asking, { title: string; label: string; okText: string; max: number; danger: boolean }> = {
    reject: { title: t`Reject this withdrawal`, label: t`Reason (the user reads it)`, okText: t`Reject`, max: 200, danger: true },
    paid: { title: t`Mark as paid`, label: t`Payout reference (transaction hash or bank reference)`, okText: t`Mark paid`, max: 128, danger: false },
    failed: { title: t`Mark as failed`, label: t`Reason (the user reads it)`, okText: t`Mark failed`, max: 200, danger: true },
  };
  const texts = asking ? modalTexts[asking] : undefined;
  return (
    <Drawer open={!!record} onClose={close} size={Math.min(760, window.innerWidth - 48)} title={t`Withdrawal review`} destroyOnHidden rootClassName="admin-drawer"
      extra={record?.status === 0 && (
        <Space>
          {!record.approvedTime && <Button danger onClick={() => setAsking('reject')}>{t`Reject`}</Button>}
          {!record.approvedTime && <Button type="primary" loading={isLoading} onClick={confirmApprove}>{t`Approve`}</Button>}
          {record.approvedTime && <Button danger onClick={() => setAsking('failed')}>{t`Mark failed`}</Button>}
          {record.approvedTime && <Button type="primary" onClick={() => setAsking('paid')}>{t`Mark paid`}</Button>}
        </Space>
      )}>
      {record && (
        <>
          {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} data-testid="decision-error" />}
          {approvedByMe && !record.approvedTime && (
            <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t`You have approved this withdrawal; it waits for a second operator.`} />
          )}
          <Descriptions column={1} bordered size="small" items={[
            { key: 'id', label: t`Request`, children: record.id },
            { key: 'status', label: t`Status`, children: <WithdrawalStatusTag record={record} /> },
            { key: 'user', label: t`User`, children: <span>{record.account} <Typography.Text type="secondary">#{record.userId}</Typography.Text></span> },
            { key: 'amount', label: t`Amount to pay out`, children: <strong className="admin-amount">{formatAmount(record.amount)} {record.currency}</strong> },
            { key: 'fee', label: t`Fee`, children: <span className="admin-amount">{formatAmount(record.fee)} {record.currency}</span> },
            { key: 'total', label: t`Total debited`, children: <span className="admin-amount">{formatAmount(record.total)} {record.currency}</span> },
            { key: 'network', label: t`Network`, children: record.network === 'BANK' ? t`Bank transfer` : record.network },
            { key: 'destination', label: t`Destination`, children: <Destination record={record} /> },
            { key: 'approvals', label: t`Approvals`, children: <Approvals record={record} /> },
            { key: 'time', label: t`Submitted`, children: formatTime(record.createTime) },
            ...(record.approvedTime ? [{ key: 'approved', label: t`Approved`, children: formatTime(record.approvedTime) }] : []),
            ...(record.decideTime ? [{ key: 'decided', label: t`Decided`, children: formatTime(record.decideTime) }] : []),
            ...(record.payoutReference ? [{ key: 'reference', label: t`Payout reference`, children: <span className="admin-mono">{record.payoutReference}</span> }] : []),
            ...(record.reason ? [{ key: 'reason', label: t`Reason`, children: record.reason }] : []),
          ]} />
          {record.status === 0 && <ReviewContextPanel userId={record.userId} />}
        </>
      )}
      <ReasonModal open={!!asking} title={texts?.title ?? ''} label={texts?.label ?? ''} okText={texts?.okText ?? ''}
        maxLength={texts?.max ?? 200} minLength={1} danger={texts?.danger} onCancel={() => setAsking(undefined)}
        onSubmit={(text) => send(asking === 'paid' ? { action: 'paid', reference: text } : { action: asking!, reason: text })} />
    </Drawer>
  );
}

export function WithdrawalsScreen() {
  const { t } = useLingui();
  const [status, setStatus] = useState<Status>(0);
  const [pageNo, setPageNo] = useState(1);
  const [openId, setOpenId] = useState<string>();
  const { data, isFetching, isError, refetch } = useWithdrawalsQuery({ status, pageNo });
  // The drawer follows the list: after a decision it shows the record as it is now.
  const open = data?.records.find((record) => record.id === openId);
  return (
    <>
      <Tabs activeKey={String(status)} onChange={(key) => {
        setStatus(Number(key) as Status);
        setPageNo(1);
      }} items={[
        { key: '0', label: t`Under review` },
        { key: '2', label: t`Paid out` },
        { key: '-1', label: t`Rejected` },
        { key: '-2', label: t`Failed` },
      ]} tabBarExtraContent={<Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>} />
      {isError && <Alert type="error" showIcon title={t`The withdrawals could not be loaded.`} style={{ marginBottom: 16 }} />}
      <Table<AdminWithdrawal> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} size="middle" data-testid="withdrawals-table"
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        onRow={(record) => ({ onClick: () => setOpenId(record.id), style: { cursor: 'pointer' } })}
        columns={[
          { key: 'user', title: t`User`, render: (_, record) => <EmailText email={record.account} /> },
          { key: 'currency', title: t`Currency`, dataIndex: 'currency' },
          { key: 'network', title: t`Network`, render: (_, record) => (record.network === 'BANK' ? t`Bank transfer` : record.network) },
          { key: 'amount', title: t`Amount`, align: 'right', render: (_, record) => <span className="admin-amount">{formatAmount(record.amount)}</span> },
          { key: 'status', title: t`Status`, render: (_, record) => <WithdrawalStatusTag record={record} /> },
          { key: 'approvals', title: t`Approvals`, render: (_, record) => <Approvals record={record} /> },
          { key: 'time', title: t`Submitted`, render: (_, record) => <span className="admin-time">{formatTime(record.createTime)}</span> },
          { key: 'action', title: '', render: (_, record) => <Button size="small" onClick={() => setOpenId(record.id)}>{status === 0 ? t`Review` : t`Details`}</Button> },
        ]} />
      <WithdrawalDrawer record={open} onClose={() => setOpenId(undefined)} />
    </>
  );
}
