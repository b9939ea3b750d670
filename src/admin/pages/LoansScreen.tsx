// Loans (issue 22): applications by status (pending first) with a review drawer — the borrower's
// context (e-mail, KYC and VIP levels, balances, earlier loans), the figures, the hash of the terms
// they signed, their signature and the signed agreement (PDF) — approve (behind a confirmation: the
// funds go to the user's spot balance) or reject with a reason the user reads (they may apply
// again); the loan offers' settings (rates, terms, amounts, loan-to-values); and the liquidations
// with their receipts.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Collapse, Descriptions, Drawer, Space, Spin, Table, Tabs, Tag, Typography } from 'antd';
import type { LoanStatus } from '../../api/contract/loans.ts';
import { useMeQuery } from '../api.ts';
import {
  useAdminLoanQuery, useAdminLoansQuery, useApproveLoanMutation, useRejectLoanMutation, type AdminLoan, type AdminLoanDetail, type EarlierLoan,
} from '../investApi.ts';
import { formatAmount, formatTime } from '../format.ts';
import { EmailText } from './EmailText.tsx';
import { ReasonModal } from './ReasonModal.tsx';
import { AgreementLink, LoanSignature } from './invest/LoanFiles.tsx';
import { LoanSettingsTab } from './invest/LoanSettingsTab.tsx';
import { investFailure } from './invest/investTexts.ts';
import './invest/invest.css';

export function LoanStatusTag({ status }: { status: LoanStatus }) {
  const { t } = useLingui();
  switch (status) {
    case 'pending': return <Tag color="processing">{t`Under review`}</Tag>;
    case 'rejected': return <Tag color="error">{t`Rejected`}</Tag>;
    case 'active': return <Tag color="blue">{t`Active`}</Tag>;
    case 'repaid': return <Tag color="success">{t`Repaid`}</Tag>;
    case 'liquidated': return <Tag color="warning">{t`Liquidated`}</Tag>;
  }
}

export function LoanTypeText({ type }: { type: AdminLoan['type'] }) {
  const { t } = useLingui();
  return <>{type === 'credit' ? t`Credit` : t`Pledge`}</>;
}

const levelText = (level: number | undefined) => (level === undefined ? '—' : String(level));
const isZero = (value: string) => /^-?0*(\.0*)?$/.test(value);

/** A ledger account kind as the operator reads it; an unknown one as the server names it. */
function useKindText() {
  const { t } = useLingui();
  const kinds: Record<string, string> = {
    spot: t`Spot`, frozen: t`Frozen`, margin: t`Margin`, loan: t`Loan owed`, collateral: t`Collateral`, product_holdings: t`In products`,
  };
  return (kind: string | undefined) => (kind ? kinds[kind] ?? kind : '');
}

/** The user: e-mail when known, else the id. */
const userLabel = (loan: Pick<AdminLoan, 'userEmail' | 'userId'>) => (loan.userEmail ? <EmailText email={loan.userEmail} /> : <span>#{loan.userId}</span>);

function BorrowerContext({ loan }: { loan: AdminLoanDetail }) {
  const { t } = useLingui();
  const kindText = useKindText();
  const { context } = loan;
  const held = context.balances.filter((row) => !isZero(row.amount));
  return (
    <Card size="small" title={t`The user's context`} style={{ marginTop: 16 }} data-testid="loan-context">
      <Descriptions column={1} size="small" items={[
        { key: 'email', label: t`E-mail`, children: context.email ? <EmailText email={context.email} /> : '—' },
        { key: 'kyc', label: t`Verification level`, children: levelText(context.kycLevel) },
        { key: 'vip', label: t`VIP level`, children: levelText(context.vipLevel) },
        { key: 'balances', label: t`Balances`, children: held.length === 0 ? <Typography.Text type="secondary">{t`None`}</Typography.Text> : (
          <span>{held.map((row) => (
            <div key={`${row.currency}:${row.kind ?? ''}`} className="admin-amount">
              {row.currency} {formatAmount(row.amount)}
              {row.kind && <Typography.Text type="secondary"> · {kindText(row.kind)}</Typography.Text>}
            </div>
          ))}</span>
        ) },
      ]} />
      <Typography.Title level={5} style={{ marginTop: 8 }}>{t`Earlier loans`}</Typography.Title>
      {context.earlierLoans.length === 0 ? <Typography.Text type="secondary">{t`None`}</Typography.Text> : (
        <Table<EarlierLoan> rowKey="id" size="small" pagination={false} dataSource={context.earlierLoans} data-testid="loan-earlier"
          columns={[
            { key: 'type', title: t`Type`, render: (_, item) => <LoanTypeText type={item.type} /> },
            { key: 'amount', title: t`Amount`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.amount)} {item.asset}</span> },
            { key: 'status', title: t`Status`, render: (_, item) => <LoanStatusTag status={item.status} /> },
            { key: 'created', title: t`Applied`, render: (_, item) => <span className="admin-time">{formatTime(item.createdAt)}</span> },
            { key: 'reason', title: t`Reason`, render: (_, item) => item.rejectReason ?? '' },
          ]} />
      )}
      {context.terms && (
        <Collapse size="small" style={{ marginTop: 12 }} items={[{
          key: 'terms', label: t`The terms as signed`, forceRender: true,
          children: <pre className="admin-json" data-testid="loan-terms">{context.terms}</pre>,
        }]} />
      )}
    </Card>
  );
}

function LoanFigures({ loan }: { loan: AdminLoan }) {
  const { t } = useLingui();
  const asset = loan.asset;
  const dailyRate = loan.dailyRate;
  const penaltyRate = loan.penaltyRate;
  return (
    <Descriptions column={1} bordered size="small" data-testid="loan-figures" items={[
      { key: 'id', label: t`Application`, children: loan.id },
      { key: 'status', label: t`Status`, children: <LoanStatusTag status={loan.status} /> },
      { key: 'type', label: t`Type`, children: <LoanTypeText type={loan.type} /> },
      { key: 'user', label: t`User`, children: <span>{userLabel(loan)} <Typography.Text type="secondary">#{loan.userId}</Typography.Text></span> },
      { key: 'amount', label: t`Amount`, children: <strong className="admin-amount">{formatAmount(loan.amount)} {asset}</strong> },
      { key: 'days', label: t`Term (days)`, children: loan.days },
      { key: 'rate', label: t`Daily rate`, children: t`${dailyRate} % a day` },
      { key: 'interest', label: t`Total interest for the term`, children: <span className="admin-amount">{formatAmount(loan.totalInterest)} {asset}</span> },
      { key: 'penalty', label: t`Penalty rate once overdue`, children: t`${penaltyRate} % a day` },
      ...(loan.collateralAsset ? [
        { key: 'collateral', label: t`Collateral`, children: <span className="admin-amount">{formatAmount(loan.collateral)} {loan.collateralAsset}</span> },
        ...(loan.ltv ? [{ key: 'ltv', label: t`Loan-to-value now`, children: <span className="admin-amount">{loan.ltv} %</span> }] : []),
      ] : []),
      ...(loan.status !== 'pending' && loan.status !== 'rejected' ? [
        { key: 'owed', label: t`Owed now`, children: <span className="admin-amount">{formatAmount(loan.owed)} {asset}</span> },
        { key: 'repaid', label: t`Repaid`, children: <span className="admin-amount">{formatAmount(loan.repaid)} {asset}</span> },
      ] : []),
      { key: 'hash', label: t`Terms hash (SHA-256)`, children: <span className="admin-invest-hash" data-testid="loan-terms-hash">{loan.termsHash}</span> },
      { key: 'signed', label: t`Signed`, children: <span className="admin-time">{formatTime(loan.signedAt)}</span> },
      { key: 'created', label: t`Applied`, children: <span className="admin-time">{formatTime(loan.createdAt)}</span> },
      ...(loan.rejectReason ? [{ key: 'reason', label: t`Reason for the user`, children: loan.rejectReason }] : []),
    ]} />
  );
}

function LoanDrawer({ id, onClose }: { id: string | undefined; onClose(): void }) {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const { data: loan, error, isFetching } = useAdminLoanQuery(id ?? '', { skip: !id });
  const [approve, { isLoading: approving }] = useApproveLoanMutation();
  const [reject] = useRejectLoanMutation();
  const [asking, setAsking] = useState(false);
  const [failure, setFailure] = useState('');
  const close = () => {
    setFailure('');
    setAsking(false);
    onClose();
  };
  const shown = loan && loan.id === id ? loan : undefined;
  const confirmApprove = () => {
    if (!shown) return;
    const amount = formatAmount(shown.amount);
    const asset = shown.asset;
    const days = shown.days;
    modal.confirm({
      title: t`Approve this loan?`,
      content: t`${amount} ${asset} for ${days} days goes to the user's spot balance now.`,
      okText: t`Approve`,
      onOk: async () => {
        setFailure('');
        const answer = await approve(shown.id);
        if ('error' in answer) {
          setFailure(investFailure(answer.error));
          return;
        }
        void message.success(t`Loan approved: the funds are in the user's balance.`);
        close();
      },
    });
  };
  const sendReject = async (reason: string): Promise<string | undefined> => {
    const answer = await reject({ id: shown!.id, reason });
    if ('error' in answer) return investFailure(answer.error);
    void message.success(t`Application rejected: the user reads the reason and may apply again.`);
    close();
    return undefined;
  };
  const pending = shown?.status === 'pending';
  return (
    <Drawer open={!!id} onClose={close} size={Math.min(780, window.innerWidth - 48)} title={t`Loan review`} destroyOnHidden rootClassName="admin-drawer"
      extra={pending && (
        <Space>
          <Button danger onClick={() => setAsking(true)}>{t`Reject`}</Button>
          <Button type="primary" loading={approving} onClick={confirmApprove}>{t`Approve`}</Button>
        </Space>
      )}>
      {isFetching && !shown && <Spin />}
      {error && <Alert type="error" showIcon role="alert" title={investFailure(error)} />}
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 16 }} data-testid="loan-decision-error" />}
      {shown && (
        <>
          <LoanFigures loan={shown} />
          <Card size="small" title={t`Signed agreement`} style={{ marginTop: 16 }}>
            <Space orientation="vertical" style={{ width: '100%' }}>
              <LoanSignature id={shown.id} />
              <AgreementLink id={shown.id} />
            </Space>
          </Card>
          <BorrowerContext loan={shown} />
          {shown.liquidation && <LiquidationReceipt loan={shown} />}
        </>
      )}
      <ReasonModal open={asking} title={t`Reject this application`} label={t`Reason for the user`} okText={t`Reject`} maxLength={300}
        onCancel={() => setAsking(false)} onSubmit={(text) => sendReject(text)}>
        <Typography.Paragraph type="secondary">{t`The user reads this reason and may apply again.`}</Typography.Paragraph>
      </ReasonModal>
    </Drawer>
  );
}

/** A liquidation's receipt: the tick, the collateral sold, the fee, what was repaid and returned. */
function LiquidationReceipt({ loan }: { loan: AdminLoan }) {
  const { t } = useLingui();
  const receipt = loan.liquidation ?? {};
  const labels: Record<string, string> = {
    tickTime: t`Tick time`, price: t`Tick price`, collateralSold: t`Collateral sold`, proceeds: t`Proceeds`, fee: t`Liquidation fee`,
    repaid: t`Repaid`, returned: t`Returned to the user`,
  };
  return (
    <Card size="small" title={t`Liquidation receipt`} style={{ marginTop: 16 }} data-testid="liquidation-receipt">
      <Descriptions column={1} size="small" items={Object.entries(receipt).map(([key, value]) => ({
        key, label: labels[key] ?? key,
        children: key === 'tickTime' && typeof value === 'number' ? formatTime(value) : <span className="admin-amount">{String(value)}</span>,
      }))} />
    </Card>
  );
}

const statusFilters: LoanStatus[] = ['pending', 'active', 'rejected', 'repaid', 'liquidated'];

function ApplicationsTab({ liquidations = false }: { liquidations?: boolean }) {
  const { t } = useLingui();
  const [status, setStatus] = useState<LoanStatus>(liquidations ? 'liquidated' : 'pending');
  const [pageNo, setPageNo] = useState(1);
  const [openId, setOpenId] = useState<string>();
  const { data, isFetching, error, refetch } = useAdminLoansQuery({ status, pageNo });
  const statusLabel: Record<LoanStatus, string> = {
    pending: t`Under review`, active: t`Active`, rejected: t`Rejected`, repaid: t`Repaid`, liquidated: t`Liquidated`,
  };
  return (
    <>
      {!liquidations && (
        <Tabs activeKey={status} onChange={(key) => {
          setStatus(key as LoanStatus);
          setPageNo(1);
        }} items={statusFilters.map((key) => ({ key, label: statusLabel[key] }))}
        tabBarExtraContent={<Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>} />
      )}
      {error && <Alert type="error" showIcon role="alert" title={investFailure(error)} style={{ marginBottom: 16 }} />}
      <Table<AdminLoan> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} size="middle" scroll={{ x: 'max-content' }}
        data-testid={liquidations ? 'liquidations-table' : 'loans-table'}
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        columns={[
          { key: 'user', title: t`User`, render: (_, item) => userLabel(item) },
          { key: 'type', title: t`Type`, render: (_, item) => <LoanTypeText type={item.type} /> },
          { key: 'amount', title: t`Amount`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.amount)} {item.asset}</span> },
          { key: 'days', title: t`Days`, align: 'right', dataIndex: 'days' },
          ...(liquidations ? [
            { key: 'collateral', title: t`Collateral`, align: 'right' as const,
              render: (_: unknown, item: AdminLoan) => <span className="admin-amount">{formatAmount(item.collateral)} {item.collateralAsset}</span> },
            { key: 'price', title: t`Tick price`, align: 'right' as const,
              render: (_: unknown, item: AdminLoan) => <span className="admin-amount">{String(item.liquidation?.price ?? '—')}</span> },
            { key: 'returned', title: t`Returned to the user`, align: 'right' as const,
              render: (_: unknown, item: AdminLoan) => <span className="admin-amount">{String(item.liquidation?.returned ?? '—')}</span> },
            { key: 'closed', title: t`Liquidated`, render: (_: unknown, item: AdminLoan) => <span className="admin-time">{formatTime(item.closedAt)}</span> },
          ] : [
            { key: 'status', title: t`Status`, render: (_: unknown, item: AdminLoan) => <LoanStatusTag status={item.status} /> },
            { key: 'created', title: t`Applied`, render: (_: unknown, item: AdminLoan) => <span className="admin-time">{formatTime(item.createdAt)}</span> },
          ]),
          { key: 'action', title: '', render: (_, item) => (
            <Button size="small" onClick={() => setOpenId(item.id)}>{item.status === 'pending' ? t`Review` : t`Details`}</Button>
          ) },
        ]} />
      <LoanDrawer id={openId} onClose={() => setOpenId(undefined)} />
    </>
  );
}

export function LoansScreen() {
  const { t } = useLingui();
  const { data: me } = useMeQuery();
  return (
    <Card>
      <Tabs destroyOnHidden items={[
        { key: 'applications', label: t`Applications`, children: <ApplicationsTab /> },
        { key: 'settings', label: t`Loan settings`, children: <LoanSettingsTab admin={me?.role === 'admin'} /> },
        { key: 'liquidations', label: t`Liquidations`, children: <ApplicationsTab liquidations /> },
      ]} />
    </Card>
  );
}
