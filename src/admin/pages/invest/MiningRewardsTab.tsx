// The mining reward figure (issue 22): what the network pays per TH/s per day in the mined asset,
// from a given UTC day, with the electricity price per kWh and where the figure comes from. The
// daily output of every machine is worked out from the figure in force, and each receipt cites it.
// Published figures are never changed: a new one applies from its day on.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Form, Input, Table, Typography } from 'antd';
import { useMiningRewardsQuery, usePublishMiningRewardMutation, type MiningRewardInput, type MiningRewardRecord } from '../../investApi.ts';
import { formatAmount, formatTime } from '../../format.ts';
import { amountProblem, investFailure, ruleOf } from './investTexts.ts';

/** Today as a UTC day, YYYY-MM-DD. */
const utcToday = () => new Date().toISOString().slice(0, 10);

export function MiningRewardsTab({ admin }: { admin: boolean }) {
  const { t } = useLingui();
  const { modal, message } = App.useApp();
  const [form] = Form.useForm<MiningRewardInput>();
  const { data, isFetching, error } = useMiningRewardsQuery(undefined);
  const [publish, { isLoading }] = usePublishMiningRewardMutation();
  const [failure, setFailure] = useState('');
  const send = async () => {
    const fields = await form.validateFields();
    const body: MiningRewardInput = {
      asset: fields.asset.trim().toUpperCase(), day: fields.day.trim(), rewardPerThsDay: fields.rewardPerThsDay.trim(),
      electricityPerKwh: fields.electricityPerKwh.trim(), source: fields.source.trim(),
    };
    const { asset, day } = body;
    modal.confirm({
      title: t`Publish this reward figure?`,
      content: t`Mining output in ${asset} is paid from ${day} on at this figure; every receipt cites it.`,
      okText: t`Publish`,
      onOk: async () => {
        setFailure('');
        const answer = await publish(body);
        if ('error' in answer) {
          setFailure(investFailure(answer.error));
          return;
        }
        void message.success(t`Reward figure published.`);
        form.resetFields();
      },
    });
  };
  const required = { required: true, whitespace: true, message: t`This field is required.` };
  return (
    <>
      {admin && (
        <Card size="small" title={t`Publish a reward figure`}>
          <Form<MiningRewardInput> form={form} layout="vertical" requiredMark={false} className="admin-invest-form"
            initialValues={{ asset: 'BTC', day: utcToday() }}>
            <div className="admin-invest-row">
              <Form.Item name="asset" label={t`Mined asset`} rules={[required, { pattern: /^[A-Za-z0-9]{2,12}$/, message: t`A currency code, such as USDT.` }]}>
                <Input maxLength={12} />
              </Form.Item>
              <Form.Item name="day" label={t`From day (UTC, YYYY-MM-DD)`}
                rules={[required, { pattern: /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/, message: t`A day as YYYY-MM-DD.` }]}>
                <Input maxLength={10} />
              </Form.Item>
            </div>
            <div className="admin-invest-row">
              <Form.Item name="rewardPerThsDay" label={t`Reward per TH/s per day (mined asset)`} rules={[ruleOf((value) => amountProblem(value))]}>
                <Input inputMode="decimal" placeholder="0.00000045" />
              </Form.Item>
              <Form.Item name="electricityPerKwh" label={t`Electricity price per kWh (USDT)`} rules={[ruleOf((value) => amountProblem(value, { zeroAllowed: true }))]}>
                <Input inputMode="decimal" placeholder="0.06" />
              </Form.Item>
            </div>
            <Form.Item name="source" label={t`Source`} extra={t`Where the figure comes from, such as the public network difficulty of that day.`}
              rules={[required, { min: 3, max: 200, message: t`From 3 to 200 characters.` }]}>
              <Input maxLength={200} />
            </Form.Item>
            <Button type="primary" loading={isLoading} onClick={() => void send().catch(() => undefined)}>{t`Publish`}</Button>
          </Form>
          {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginTop: 16 }} data-testid="reward-error" />}
        </Card>
      )}
      <Typography.Title level={5}>{t`Published figures`}</Typography.Title>
      {error && <Alert type="error" showIcon role="alert" title={investFailure(error)} style={{ marginBottom: 16 }} />}
      <Table<MiningRewardRecord> rowKey="id" loading={isFetching} dataSource={data ?? []} size="middle" pagination={{ pageSize: 20, showSizeChanger: false }}
        data-testid="mining-rewards-table" scroll={{ x: 'max-content' }}
        columns={[
          { key: 'asset', title: t`Asset`, dataIndex: 'asset' },
          { key: 'day', title: t`From day`, dataIndex: 'day' },
          { key: 'reward', title: t`Reward per TH/s per day`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.rewardPerThsDay)}</span> },
          { key: 'power', title: t`Electricity per kWh (USDT)`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.electricityPerKwh)}</span> },
          { key: 'source', title: t`Source`, render: (_, item) => <span className="admin-cut" title={item.source}>{item.source}</span> },
          { key: 'time', title: t`Published`, render: (_, item) => <span className="admin-time">{formatTime(item.createdAt)}</span> },
        ]} />
    </>
  );
}
