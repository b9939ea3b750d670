// What the wallet offers: per currency, on or off, the USDT rate used where the feed has no price,
// and the amount above which a withdrawal needs two different operators (raised only once a second
// admin approves it in Setting changes; lowered at once); per network, deposits and withdrawals on
// or off, the platform's deposit address, the minimums and the fee. Every change is audited by the
// server. Amounts go as typed and the server checks them.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Form, Input, Modal, Space, Switch, Table, Tag, Typography } from 'antd';
import type { AdminCurrency } from '../../api/contract/wallet.ts';
import {
  useCurrenciesQuery, useSetThresholdMutation, useThresholdsQuery, useUpdateCurrencyMutation, useUpdateNetworkMutation,
} from '../api.ts';
import { failureMessage } from '../errors.ts';
import { formatAmount, formatTime } from '../format.ts';
import { waitsForSecondAdmin } from '../settingChangesApi.ts';
import { useSavedAsRequestNotice } from './savedAsRequest.tsx';

type AdminNetwork = AdminCurrency['networks'][number];

interface CurrencyFields { enabled: boolean; usdtRate: string; dualApprovalAbove: string }
interface NetworkFields {
  depositEnabled: boolean; withdrawalEnabled: boolean; depositAddress: string; depositMin: string; withdrawalMin: string; withdrawalFee: string;
}

const decimalRule = /^[0-9]+(\.[0-9]+)?$/;

function CurrencyModal({ currency, threshold, onClose }: { currency?: AdminCurrency; threshold?: string; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [form] = Form.useForm<CurrencyFields>();
  const [updateCurrency] = useUpdateCurrencyMutation();
  const [setThreshold] = useSetThresholdMutation();
  const savedAsRequest = useSavedAsRequestNotice();
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (currency) {
      form.setFieldsValue({ enabled: currency.enabled, usdtRate: currency.usdtRate ?? '', dualApprovalAbove: threshold ?? '' });
      setFailure('');
    }
  }, [currency, threshold, form]);
  const save = async () => {
    const fields = await form.validateFields();
    setBusy(true);
    setFailure('');
    const rate = fields.usdtRate.trim();
    const answer = await updateCurrency({ code: currency!.currency, body: { enabled: fields.enabled, usdtRate: rate === '' ? null : rate } });
    let error = 'error' in answer ? failureMessage(answer.error) : '';
    let waits = false;
    if (!error && fields.dualApprovalAbove.trim() !== (threshold ?? '')) {
      const set = await setThreshold({ currency: currency!.currency, dualApprovalAbove: fields.dualApprovalAbove.trim() });
      if ('error' in set) error = failureMessage(set.error);
      else waits = waitsForSecondAdmin(set.data);
    }
    setBusy(false);
    if (error) {
      setFailure(error);
      return;
    }
    // A raised threshold is kept as a request (issue 38): the rest of the form is saved.
    if (waits) savedAsRequest();
    else void message.success(t`Settings saved.`);
    onClose();
  };
  const code = currency?.currency ?? '';
  return (
    <Modal open={!!currency} title={t`Currency ${code}`} okText={t`Save`} onOk={() => void save().catch(() => undefined)}
      okButtonProps={{ loading: busy }} onCancel={onClose} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="enabled" label={t`Enabled`} valuePropName="checked"><Switch /></Form.Item>
        <Form.Item name="usdtRate" label={t`USDT rate (used where the price feed has none; empty to clear)`}
          rules={[{ pattern: decimalRule, message: t`Enter a positive decimal number.` }]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="dualApprovalAbove" label={t`Two operators must approve withdrawals above`}
          rules={[{ required: true, message: t`This field is required.` }, { pattern: decimalRule, message: t`Enter a positive decimal number.` }]}>
          <Input inputMode="decimal" suffix={code} />
        </Form.Item>
      </Form>
      {failure && <Alert type="error" showIcon role="alert" title={failure} />}
    </Modal>
  );
}

function NetworkModal({ target, onClose }: { target?: { currency: AdminCurrency; network: AdminNetwork }; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [form] = Form.useForm<NetworkFields>();
  const [updateNetwork, { isLoading }] = useUpdateNetworkMutation();
  const [failure, setFailure] = useState('');
  useEffect(() => {
    if (target) {
      const { network } = target;
      form.setFieldsValue({
        depositEnabled: network.depositEnabled, withdrawalEnabled: network.withdrawalEnabled, depositAddress: network.depositAddress ?? '',
        depositMin: network.depositMin, withdrawalMin: network.withdrawalMin, withdrawalFee: network.withdrawalFee,
      });
      setFailure('');
    }
  }, [target, form]);
  const save = async () => {
    const fields = await form.validateFields();
    const address = fields.depositAddress.trim();
    const answer = await updateNetwork({
      code: target!.currency.currency, network: target!.network.network,
      body: { ...fields, depositAddress: address === '' ? null : address, depositMin: fields.depositMin.trim(),
        withdrawalMin: fields.withdrawalMin.trim(), withdrawalFee: fields.withdrawalFee.trim() },
    });
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    void message.success(t`Settings saved.`);
    onClose();
  };
  const code = target?.currency.currency ?? '';
  const name = target?.network.network ?? '';
  const amountRules = [{ required: true, message: t`This field is required.` }, { pattern: decimalRule, message: t`Enter a positive decimal number.` }];
  return (
    <Modal open={!!target} title={t`${code} on ${name}`} okText={t`Save`} onOk={() => void save().catch(() => undefined)}
      okButtonProps={{ loading: isLoading }} onCancel={onClose} destroyOnHidden forceRender width={560}>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Space size="large">
          <Form.Item name="depositEnabled" label={t`Deposits enabled`} valuePropName="checked"><Switch /></Form.Item>
          <Form.Item name="withdrawalEnabled" label={t`Withdrawals enabled`} valuePropName="checked"><Switch /></Form.Item>
        </Space>
        <Form.Item name="depositAddress" label={t`Platform deposit address (empty stops deposits)`}
          rules={[{ pattern: /^[A-Za-z0-9]{10,128}$/, message: t`10 to 128 letters and digits.` }]}>
          <Input className="admin-mono" />
        </Form.Item>
        <Form.Item name="depositMin" label={t`Minimum deposit`} rules={amountRules}><Input inputMode="decimal" suffix={code} /></Form.Item>
        <Form.Item name="withdrawalMin" label={t`Minimum withdrawal`} rules={amountRules}><Input inputMode="decimal" suffix={code} /></Form.Item>
        <Form.Item name="withdrawalFee" label={t`Withdrawal fee`} rules={amountRules}><Input inputMode="decimal" suffix={code} /></Form.Item>
      </Form>
      {failure && <Alert type="error" showIcon role="alert" title={failure} />}
    </Modal>
  );
}

export function SettingsScreen() {
  const { t } = useLingui();
  const { data: currencies, isFetching, isError } = useCurrenciesQuery();
  const { data: thresholds } = useThresholdsQuery();
  const [editing, setEditing] = useState<AdminCurrency>();
  const [editingNetwork, setEditingNetwork] = useState<{ currency: AdminCurrency; network: AdminNetwork }>();
  const thresholdOf = (code: string) => thresholds?.find((item) => item.currency === code)?.dualApprovalAbove;
  const onOff = (on: boolean) => (on ? <Tag color="success">{t`On`}</Tag> : <Tag>{t`Off`}</Tag>);
  return (
    <Card>
      {isError && <Alert type="error" showIcon title={t`The settings could not be loaded.`} style={{ marginBottom: 16 }} />}
      <Table<AdminCurrency> rowKey="currency" loading={isFetching} dataSource={currencies ?? []} pagination={false}
        expandable={{ defaultExpandAllRows: true, expandedRowRender: (currency) => (
          <Table<AdminNetwork> rowKey="network" size="small" pagination={false} dataSource={currency.networks}
            columns={[
              { key: 'network', title: t`Network`, render: (_, network) => (network.network === 'BANK' ? t`Bank transfer` : network.network) },
              { key: 'deposit', title: t`Deposits`, render: (_, network) => onOff(network.depositEnabled) },
              { key: 'withdrawal', title: t`Withdrawals`, render: (_, network) => onOff(network.withdrawalEnabled) },
              { key: 'address', title: t`Deposit address`, render: (_, network) => (network.depositAddress
                ? <span className="admin-mono">{network.depositAddress}</span> : <Typography.Text type="warning">{t`None`}</Typography.Text>) },
              { key: 'depositMin', title: t`Minimum deposit`, align: 'right', render: (_, network) => <span className="admin-amount">{formatAmount(network.depositMin)}</span> },
              { key: 'withdrawalMin', title: t`Minimum withdrawal`, align: 'right', render: (_, network) => <span className="admin-amount">{formatAmount(network.withdrawalMin)}</span> },
              { key: 'fee', title: t`Withdrawal fee`, align: 'right', render: (_, network) => <span className="admin-amount">{formatAmount(network.withdrawalFee)}</span> },
              { key: 'edit', title: '', render: (_, network) => <Button size="small" onClick={() => setEditingNetwork({ currency, network })}>{t`Edit`}</Button> },
            ]} />
        ) }}
        columns={[
          { key: 'currency', title: t`Currency`, render: (_, currency) => <span><strong>{currency.currency}</strong> <Typography.Text type="secondary">{currency.name}</Typography.Text></span> },
          { key: 'enabled', title: t`Enabled`, render: (_, currency) => onOff(currency.enabled) },
          { key: 'rate', title: t`USDT rate`, render: (_, currency) => (currency.usdtRate
            ? <span><span className="admin-amount">{formatAmount(currency.usdtRate)}</span> <Typography.Text type="secondary">{formatTime(currency.usdtRateTime)}</Typography.Text></span>
            : '—') },
          { key: 'threshold', title: t`Two operators above`, render: (_, currency) => <span className="admin-amount">{formatAmount(thresholdOf(currency.currency))}</span> },
          { key: 'edit', title: '', render: (_, currency) => <Button size="small" onClick={() => setEditing(currency)}>{t`Edit`}</Button> },
        ]} />
      <CurrencyModal currency={editing} threshold={editing ? thresholdOf(editing.currency) : undefined} onClose={() => setEditing(undefined)} />
      <NetworkModal target={editingNetwork} onClose={() => setEditingNetwork(undefined)} />
    </Card>
  );
}
