// Rewards (issue 23): the balances of the rewards pool (welfare tasks, VIP bonuses, red envelopes)
// and the prize pool (competitions), funding either from the house (above the currency's
// dual-approval threshold a second, different operator approves here, or rejects with a reason),
// the welfare tasks and their rewards, and each VIP level's one-time bonus and weekly red
// envelope. Writes need an administrator; every action is in the audit trail.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Input, Select, Space, Switch, Table, Typography } from 'antd';
import type { AdminWelfareTask, RewardFunding, RewardPool, VipRewardRow, WelfareKind } from '../../../api/contract/rewards.ts';
import { welfareKinds } from '../../../api/contract/rewards.ts';
import { useMeQuery } from '../../api.ts';
import { failureMessage } from '../../errors.ts';
import { formatAmount, formatTime } from '../../format.ts';
import { Approvals } from '../Approvals.tsx';
import { ReasonModal } from '../ReasonModal.tsx';
import { VipHoldingSetting } from './VipHoldingSetting.tsx';
import { useSavedAsRequestNotice } from '../savedAsRequest.tsx';
import { waitsForSecondAdmin } from '../../settingChangesApi.ts';
import {
  useApproveRewardFundingMutation, useCreateWelfareTaskMutation, useFundRewardPoolMutation, useRejectRewardFundingMutation, useRewardFundingsQuery,
  useRewardPoolsQuery, useSetVipRewardMutation, useUpdateWelfareTaskMutation, useVipRewardRowsQuery, useWelfareTasksAdminQuery,
} from '../../rewardsApi.ts';

const amountPattern = /^[0-9]{1,20}(\.[0-9]{1,18})?$/;
const idPattern = /^[1-9][0-9]{0,17}$/;

function Pools({ admin }: { admin: boolean }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const pools = useRewardPoolsQuery();
  const fundings = useRewardFundingsQuery();
  const [fund, funding] = useFundRewardPoolMutation();
  const [approve] = useApproveRewardFundingMutation();
  const [reject] = useRejectRewardFundingMutation();
  const [pool, setPool] = useState<RewardPool>('rewards');
  const [asset, setAsset] = useState('USDT');
  const [amount, setAmount] = useState('');
  const [competitionId, setCompetitionId] = useState('');
  const [failure, setFailure] = useState('');
  const [rejecting, setRejecting] = useState<RewardFunding>();
  const valid = amountPattern.test(amount) && /^[A-Z0-9]{2,12}$/.test(asset) && (competitionId === '' || (pool === 'prizes' && idPattern.test(competitionId)));
  const poolName = (name: RewardPool) => (name === 'rewards' ? t`Rewards pool` : t`Prize pool`);
  const send = async () => {
    setFailure('');
    const answer = await fund({ pool, asset, amount, ...(competitionId ? { competitionId } : {}) });
    if ('error' in answer) { setFailure(failureMessage(answer.error)); return; }
    setAmount('');
    void message.success(answer.data.status === 'done' ? t`Pool funded.` : t`Funding recorded: waiting for a second operator.`);
  };
  const pending = (fundings.data ?? []).filter((row) => row.status === 'pending');
  return (
    <Card title={t`Reward pools`} style={{ marginBottom: 16 }}>
      {pools.error && <Alert type="error" showIcon role="alert" title={failureMessage(pools.error)} style={{ marginBottom: 12 }} />}
      <Table rowKey={(row) => `${row.pool}-${row.asset}`} dataSource={pools.data ?? []} loading={pools.isFetching} size="small" pagination={false}
        data-testid="reward-pools" locale={{ emptyText: t`No pool has been funded yet.` }}
        columns={[
          { key: 'pool', title: t`Pool`, render: (_, row) => poolName(row.pool) },
          { key: 'balance', title: t`Balance`, align: 'right', render: (_, row) => <span className="admin-amount">{formatAmount(row.balance)} {row.asset}</span> },
        ]} />
      {admin && (
        <Space wrap align="end" style={{ marginTop: 16 }}>
          <Select<RewardPool> value={pool} onChange={setPool} style={{ width: 150 }} aria-label={t`Pool`}
            options={[{ value: 'rewards', label: poolName('rewards') }, { value: 'prizes', label: poolName('prizes') }]} />
          <Input value={asset} onChange={(event) => setAsset(event.target.value.trim().toUpperCase())} style={{ width: 100 }} aria-label={t`Asset`} />
          <Input value={amount} onChange={(event) => setAmount(event.target.value.trim())} inputMode="decimal" placeholder={t`Amount`} aria-label={t`Amount`} style={{ width: 160 }} />
          {pool === 'prizes' && (
            <Input value={competitionId} onChange={(event) => setCompetitionId(event.target.value.trim())} placeholder={t`Competition id (optional)`}
              aria-label={t`Competition id (optional)`} style={{ width: 200 }} />
          )}
          <Button type="primary" disabled={!valid} loading={funding.isLoading} onClick={() => void send()}>{t`Fund from the house`}</Button>
        </Space>
      )}
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
        {t`Funding moves the house's money into the pool. Above the currency's dual-approval threshold a second, different operator must approve it below.`}
      </Typography.Paragraph>
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginBottom: 12 }} />}
      <Typography.Title level={5}>{t`Waiting for a second operator`}</Typography.Title>
      {fundings.error && <Alert type="error" showIcon role="alert" title={failureMessage(fundings.error)} style={{ marginBottom: 12 }} />}
      <Table<RewardFunding> rowKey="id" dataSource={pending} loading={fundings.isFetching} size="small" pagination={false} data-testid="reward-fundings"
        locale={{ emptyText: t`Nothing is waiting.` }}
        columns={[
          { key: 'pool', title: t`Pool`, render: (_, row) => poolName(row.pool) },
          { key: 'amount', title: t`Amount`, align: 'right', render: (_, row) => <span className="admin-amount">{formatAmount(row.amount)} {row.asset}</span> },
          { key: 'competition', title: t`Competition`, render: (_, row) => row.competitionId ? `#${row.competitionId}` : '—' },
          { key: 'approvals', title: t`Approvals`, render: (_, row) => <Approvals record={row} /> },
          { key: 'time', title: t`Asked`, render: (_, row) => <span className="admin-time">{formatTime(row.createdAt)}</span> },
          { key: 'actions', title: '', render: (_, row) => admin && (
            <Space>
              <Button size="small" danger onClick={() => setRejecting(row)}>{t`Reject`}</Button>
              <Button size="small" type="primary" onClick={async () => {
                setFailure('');
                const answer = await approve(row.id);
                if ('error' in answer) setFailure(failureMessage(answer.error));
                else void message.success(answer.data.status === 'done' ? t`Pool funded.` : t`Approval recorded: waiting for a second operator.`);
              }}>{t`Approve`}</Button>
            </Space>
          ) },
        ]} />
      <ReasonModal open={!!rejecting} title={t`Reject this funding`} label={t`Reason`} okText={t`Reject`} maxLength={300}
        onCancel={() => setRejecting(undefined)} onSubmit={async (reason) => {
          const answer = await reject({ id: rejecting!.id, reason });
          if ('error' in answer) return failureMessage(answer.error);
          void message.success(t`Funding rejected: nothing moved.`);
          setRejecting(undefined);
          return undefined;
        }} />
    </Card>
  );
}

function TaskEditor({ task, admin }: { task: AdminWelfareTask; admin: boolean }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [update, saving] = useUpdateWelfareTaskMutation();
  const savedAsRequest = useSavedAsRequestNotice();
  const [reward, setReward] = useState(task.rewardAmount);
  const [failure, setFailure] = useState('');
  useEffect(() => setReward(task.rewardAmount), [task.rewardAmount]);
  const save = async (body: { rewardAmount?: string; enabled?: boolean }) => {
    setFailure('');
    const answer = await update({ id: task.id, body });
    if ('error' in answer) setFailure(failureMessage(answer.error));
    else if (waitsForSecondAdmin(answer.data)) savedAsRequest();
    else void message.success(t`Task saved.`);
  };
  const name = task.name;
  return (
    <Space wrap>
      <Input value={reward} disabled={!admin} onChange={(event) => setReward(event.target.value.trim())} style={{ width: 120 }}
        status={amountPattern.test(reward) ? undefined : 'error'} aria-label={t`Reward of ${name}`} />
      {admin && <Button size="small" disabled={!amountPattern.test(reward) || reward === task.rewardAmount} loading={saving.isLoading}
        onClick={() => void save({ rewardAmount: reward })}>{t`Save`}</Button>}
      <Switch checked={task.enabled} disabled={!admin} onChange={(enabled) => void save({ enabled })} aria-label={t`${name} enabled`} />
      {failure && <Typography.Text type="danger">{failure}</Typography.Text>}
    </Space>
  );
}

function Tasks({ admin }: { admin: boolean }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const tasks = useWelfareTasksAdminQuery();
  const [create, creating] = useCreateWelfareTaskMutation();
  const savedAsRequest = useSavedAsRequestNotice();
  const [kind, setKind] = useState<WelfareKind>('checkin_streak');
  const [name, setName] = useState('');
  const [target, setTarget] = useState('1');
  const [reward, setReward] = useState('');
  const [failure, setFailure] = useState('');
  const kindNames: Record<WelfareKind, string> = {
    first_deposit: t`First deposit`, kyc_basic: t`Basic verification`, first_trade: t`First trade`, first_product: t`First product`,
    invite_deposit: t`Invited friends who deposit`, checkin_streak: t`Check-in streak (days)`,
  };
  const valid = name.trim().length > 0 && /^[1-9][0-9]{0,2}$/.test(target) && amountPattern.test(reward);
  const send = async () => {
    setFailure('');
    const answer = await create({ kind, name: name.trim(), target: Number(target), rewardAsset: 'USDT', rewardAmount: reward });
    if ('error' in answer) { setFailure(failureMessage(answer.error)); return; }
    setName(''); setReward('');
    if (waitsForSecondAdmin(answer.data)) savedAsRequest();
    else void message.success(t`Task created.`);
  };
  return (
    <Card title={t`Welfare tasks`} style={{ marginBottom: 16 }}>
      {tasks.error && <Alert type="error" showIcon role="alert" title={failureMessage(tasks.error)} style={{ marginBottom: 12 }} />}
      <Table<AdminWelfareTask> rowKey="id" dataSource={tasks.data ?? []} loading={tasks.isFetching} size="small" pagination={false} data-testid="welfare-tasks"
        columns={[
          { key: 'name', title: t`Task`, render: (_, row) => row.name },
          { key: 'kind', title: t`Condition`, render: (_, row) => `${kindNames[row.kind]} ≥ ${row.target}` },
          { key: 'reward', title: t`Reward (USDT)`, render: (_, row) => <TaskEditor task={row} admin={admin} /> },
          { key: 'claims', title: t`Claims`, align: 'right', render: (_, row) => row.claims },
          { key: 'paid', title: t`Paid`, align: 'right', render: (_, row) => <span className="admin-amount">{formatAmount(row.paid)} {row.rewardAsset}</span> },
        ]} />
      {admin && (
        <Space wrap align="end" style={{ marginTop: 16 }}>
          <Select<WelfareKind> value={kind} onChange={setKind} style={{ width: 220 }} aria-label={t`Condition`}
            options={welfareKinds.map((value) => ({ value, label: kindNames[value] }))} />
          <Input value={name} onChange={(event) => setName(event.target.value)} placeholder={t`Name shown to users`} aria-label={t`Name shown to users`} style={{ width: 220 }} maxLength={80} />
          <Input value={target} onChange={(event) => setTarget(event.target.value.trim())} aria-label={t`Target`} style={{ width: 80 }} />
          <Input value={reward} onChange={(event) => setReward(event.target.value.trim())} placeholder={t`Reward (USDT)`} aria-label={t`Reward (USDT)`} style={{ width: 140 }} />
          <Button type="primary" disabled={!valid} loading={creating.isLoading} onClick={() => void send()}>{t`Add task`}</Button>
        </Space>
      )}
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginTop: 12 }} />}
    </Card>
  );
}

function VipRow({ row, admin }: { row: VipRewardRow; admin: boolean }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [save, saving] = useSetVipRewardMutation();
  const savedAsRequest = useSavedAsRequestNotice();
  const [bonus, setBonus] = useState(row.bonus);
  const [weekly, setWeekly] = useState(row.weeklyEnvelope);
  const [failure, setFailure] = useState('');
  useEffect(() => { setBonus(row.bonus); setWeekly(row.weeklyEnvelope); }, [row.bonus, row.weeklyEnvelope]);
  const valid = amountPattern.test(bonus) && amountPattern.test(weekly);
  const level = row.level;
  return (
    <Space wrap>
      <Input value={bonus} disabled={!admin} onChange={(event) => setBonus(event.target.value.trim())} style={{ width: 120 }} aria-label={t`Bonus of level ${level}`}
        status={amountPattern.test(bonus) ? undefined : 'error'} />
      <Input value={weekly} disabled={!admin} onChange={(event) => setWeekly(event.target.value.trim())} style={{ width: 120 }} aria-label={t`Weekly envelope of level ${level}`}
        status={amountPattern.test(weekly) ? undefined : 'error'} />
      {admin && <Button size="small" disabled={!valid} loading={saving.isLoading} onClick={async () => {
        setFailure('');
        const answer = await save({ level: row.level, asset: row.asset, bonus, weeklyEnvelope: weekly });
        if ('error' in answer) setFailure(failureMessage(answer.error));
        else if (waitsForSecondAdmin(answer.data)) savedAsRequest();
        else void message.success(t`Level ${level} saved.`);
      }}>{t`Save`}</Button>}
      {failure && <Typography.Text type="danger">{failure}</Typography.Text>}
    </Space>
  );
}

function VipRewards({ admin }: { admin: boolean }) {
  const { t } = useLingui();
  const rows = useVipRewardRowsQuery();
  return (
    <Card title={t`VIP rewards`}>
      <Typography.Paragraph type="secondary">
        {t`The one-time bonus of a level is paid from the rewards pool once a verified user has held it for the holding period below, never twice. Every Monday the red-envelopes job gives each user an envelope of their level's weekly amount, to open within seven days. Zero turns either off.`}
      </Typography.Paragraph>
      <VipHoldingSetting admin={admin} />
      {rows.error && <Alert type="error" showIcon role="alert" title={failureMessage(rows.error)} style={{ marginBottom: 12 }} />}
      <Table<VipRewardRow> rowKey="level" dataSource={rows.data ?? []} loading={rows.isFetching} size="small" pagination={false} data-testid="vip-rewards"
        columns={[
          { key: 'level', title: t`Level`, render: (_, row) => row.name },
          { key: 'amounts', title: t`Bonus and weekly envelope`, render: (_, row) => <VipRow row={row} admin={admin} /> },
          { key: 'asset', title: t`Asset`, render: (_, row) => row.asset },
        ]} />
    </Card>
  );
}

export function RewardsScreen() {
  const { t } = useLingui();
  const { data: me } = useMeQuery();
  const admin = me?.role === 'admin';
  return (
    <>
      {!admin && me && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t`Only administrators can change these settings.`} />}
      <Pools admin={admin} />
      <Tasks admin={admin} />
      <VipRewards admin={admin} />
    </>
  );
}
