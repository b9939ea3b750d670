// The loan offers' settings (issue 22): for each offer the daily and penalty rates (percent a day),
// the term and amount bounds, on or off, and for a pledge loan the three loan-to-values (initial,
// margin call, liquidation: rising, all under 100) and the liquidation fee. The form checks the
// same rules first; the server checks again and its refusal shows in the drawer. Loans already
// running keep their terms: a change applies to new applications.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Drawer, Form, Input, InputNumber, Switch, Table, Tag, Typography } from 'antd';
import type { LoanSetting } from '../../../api/contract/loans.ts';
import { useLoanSettingsQuery, useUpdateLoanSettingMutation, type LoanSettingChange } from '../../investApi.ts';
import { formatAmount } from '../../format.ts';
import { amountProblem, compareDecimal, fieldProblemText, investFailure, rateProblem, ruleOf, type FieldProblem } from './investTexts.ts';

interface Fields {
  enabled: boolean; dailyRate: string; penaltyRate: string; minDays: number; maxDays: number; minAmount: string; maxAmount: string;
  initialLtv?: string; marginCallLtv?: string; liquidationLtv?: string; liquidationFee?: string;
}

/** The pledge loan-to-values must rise, initial < margin call < liquidation < 100. */
export function ltvProblem(initial: string, marginCall: string, liquidation: string): FieldProblem | undefined {
  if (rateProblem(initial) || rateProblem(marginCall) || rateProblem(liquidation)) return undefined;
  const rising = compareDecimal(initial.trim(), marginCall.trim()) < 0 && compareDecimal(marginCall.trim(), liquidation.trim()) < 0
    && compareDecimal(liquidation.trim(), '100') < 0 && compareDecimal(initial.trim(), '0') > 0;
  return rising ? undefined : 'ltv_order';
}

/** The body of a change: every field of the form, trimmed; the LTVs only for a pledge offer. */
export function settingChange(fields: Fields, pledge: boolean): LoanSettingChange {
  return {
    enabled: fields.enabled, dailyRate: fields.dailyRate.trim(), penaltyRate: fields.penaltyRate.trim(), minDays: fields.minDays,
    maxDays: fields.maxDays, minAmount: fields.minAmount.trim(), maxAmount: fields.maxAmount.trim(),
    ...(pledge ? {
      initialLtv: (fields.initialLtv ?? '').trim(), marginCallLtv: (fields.marginCallLtv ?? '').trim(),
      liquidationLtv: (fields.liquidationLtv ?? '').trim(), liquidationFee: (fields.liquidationFee ?? '').trim(),
    } : {}),
  };
}

function SettingDrawer({ item, onClose }: { item?: LoanSetting; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [form] = Form.useForm<Fields>();
  const [update, { isLoading }] = useUpdateLoanSettingMutation();
  const [failure, setFailure] = useState('');
  useEffect(() => {
    if (item) {
      form.setFieldsValue({
        enabled: item.enabled, dailyRate: item.dailyRate, penaltyRate: item.penaltyRate, minDays: item.minDays, maxDays: item.maxDays,
        minAmount: item.minAmount, maxAmount: item.maxAmount, initialLtv: item.initialLtv, marginCallLtv: item.marginCallLtv,
        liquidationLtv: item.liquidationLtv, liquidationFee: item.liquidationFee,
      });
      setFailure('');
    }
  }, [item, form]);
  if (!item) return <Drawer open={false} />;
  const pledge = item.type === 'pledge';
  const save = async () => {
    const fields = await form.validateFields();
    setFailure('');
    const answer = await update({ id: item.id, body: settingChange(fields, pledge) });
    if ('error' in answer) {
      setFailure(investFailure(answer.error));
      return;
    }
    void message.success(t`Settings saved.`);
    onClose();
  };
  const maxAmountRule = {
    validator: (_: unknown, value: string | undefined) => {
      const min = (form.getFieldValue('minAmount') as string | undefined ?? '').trim();
      const max = (value ?? '').trim();
      const problem = amountProblem(max) ?? (!amountProblem(min) && compareDecimal(min, max) > 0 ? 'max_below_min' : undefined);
      return problem ? Promise.reject(new Error(fieldProblemText(problem))) : Promise.resolve();
    },
  };
  const maxDaysRule = {
    validator: (_: unknown, value: number | null | undefined) => {
      const min = form.getFieldValue('minDays') as number | undefined;
      if (typeof value !== 'number' || !Number.isInteger(value)) return Promise.reject(new Error(fieldProblemText('whole_number')));
      return typeof min === 'number' && value < min ? Promise.reject(new Error(fieldProblemText('max_below_min'))) : Promise.resolve();
    },
  };
  const ltvRule = {
    validator: () => {
      const problem = ltvProblem(form.getFieldValue('initialLtv') ?? '', form.getFieldValue('marginCallLtv') ?? '', form.getFieldValue('liquidationLtv') ?? '');
      return problem ? Promise.reject(new Error(fieldProblemText(problem))) : Promise.resolve();
    },
  };
  const asset = item.asset;
  const title = pledge ? t`Pledge loan in ${asset}` : t`Credit loan in ${asset}`;
  return (
    <Drawer open title={title} onClose={onClose} size={Math.min(560, window.innerWidth - 48)} destroyOnHidden rootClassName="admin-drawer"
      extra={<Button type="primary" loading={isLoading} onClick={() => void save().catch(() => undefined)} data-testid="loan-setting-save">{t`Save`}</Button>}>
      <Form form={form} layout="vertical" requiredMark={false} className="admin-invest-form">
        <Form.Item name="enabled" label={t`Offered`} valuePropName="checked"><Switch /></Form.Item>
        <div className="admin-invest-row">
          <Form.Item name="dailyRate" label={t`Daily rate (% a day)`} rules={[ruleOf((value) => rateProblem(value))]}><Input inputMode="decimal" /></Form.Item>
          <Form.Item name="penaltyRate" label={t`Penalty rate once overdue (% a day)`} rules={[ruleOf((value) => rateProblem(value))]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </div>
        <div className="admin-invest-row">
          <Form.Item name="minDays" label={t`Shortest term (days)`}
            rules={[{ required: true, type: 'integer', min: 1, max: 3650, message: t`A whole number of days from 1 to 3650.` }]}>
            <InputNumber min={1} max={3650} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="maxDays" label={t`Longest term (days)`} dependencies={['minDays']} rules={[maxDaysRule]}>
            <InputNumber min={1} max={3650} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </div>
        <div className="admin-invest-row">
          <Form.Item name="minAmount" label={t`Minimum amount (${asset})`} rules={[ruleOf((value) => amountProblem(value))]}><Input inputMode="decimal" /></Form.Item>
          <Form.Item name="maxAmount" label={t`Maximum amount (${asset})`} dependencies={['minAmount']} rules={[maxAmountRule]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </div>
        {pledge && (
          <>
            <div className="admin-invest-row">
              <Form.Item name="initialLtv" label={t`Initial loan-to-value (%)`} rules={[ruleOf((value) => rateProblem(value)), ltvRule]}>
                <Input inputMode="decimal" data-testid="ltv-initial" />
              </Form.Item>
              <Form.Item name="marginCallLtv" label={t`Margin call at (%)`} dependencies={['initialLtv']} rules={[ruleOf((value) => rateProblem(value)), ltvRule]}>
                <Input inputMode="decimal" data-testid="ltv-margin-call" />
              </Form.Item>
              <Form.Item name="liquidationLtv" label={t`Liquidation at (%)`} dependencies={['initialLtv', 'marginCallLtv']}
                rules={[ruleOf((value) => rateProblem(value)), ltvRule]}>
                <Input inputMode="decimal" data-testid="ltv-liquidation" />
              </Form.Item>
            </div>
            <Form.Item name="liquidationFee" label={t`Liquidation fee (% of the proceeds)`} rules={[ruleOf((value) => rateProblem(value))]}>
              <Input inputMode="decimal" style={{ maxWidth: 200 }} />
            </Form.Item>
          </>
        )}
      </Form>
      <Typography.Paragraph type="secondary">{t`Loans already running keep their terms; a change applies to new applications.`}</Typography.Paragraph>
      {failure && <Alert type="error" showIcon role="alert" title={failure} data-testid="loan-setting-error" />}
    </Drawer>
  );
}

export function LoanSettingsTab({ admin }: { admin: boolean }) {
  const { t } = useLingui();
  const { data, isFetching, error } = useLoanSettingsQuery();
  const [editing, setEditing] = useState<string>();
  const current = data?.find((item) => item.id === editing);
  return (
    <>
      {!admin && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t`Only administrators can change these settings.`} />}
      {error && <Alert type="error" showIcon role="alert" title={investFailure(error)} style={{ marginBottom: 16 }} />}
      <Table<LoanSetting> rowKey="id" loading={isFetching} dataSource={data ?? []} pagination={false} size="middle" scroll={{ x: 'max-content' }}
        data-testid="loan-settings-table"
        columns={[
          { key: 'type', title: t`Offer`, render: (_, item) => (
            <strong>{item.type === 'credit' ? t`Credit` : t`Pledge`} · {item.asset}{item.collateralAsset ? ` / ${item.collateralAsset}` : ''}</strong>
          ) },
          { key: 'enabled', title: t`Offered`, render: (_, item) => (item.enabled ? <Tag color="success">{t`On`}</Tag> : <Tag>{t`Off`}</Tag>) },
          { key: 'rate', title: t`Daily rate`, align: 'right', render: (_, item) => `${item.dailyRate} %` },
          { key: 'penalty', title: t`Penalty rate`, align: 'right', render: (_, item) => `${item.penaltyRate} %` },
          { key: 'days', title: t`Days`, render: (_, item) => `${item.minDays} – ${item.maxDays}` },
          { key: 'amount', title: t`Amount`, render: (_, item) => <span className="admin-amount">{formatAmount(item.minAmount)} – {formatAmount(item.maxAmount)}</span> },
          { key: 'ltv', title: t`Loan-to-value (initial / margin call / liquidation)`, render: (_, item) => (item.initialLtv
            ? `${item.initialLtv} / ${item.marginCallLtv ?? '—'} / ${item.liquidationLtv ?? '—'} %` : '—') },
          { key: 'fee', title: t`Liquidation fee`, align: 'right', render: (_, item) => (item.liquidationFee ? `${item.liquidationFee} %` : '—') },
          { key: 'edit', title: '', render: (_, item) => (admin ? <Button size="small" onClick={() => setEditing(item.id)}>{t`Edit`}</Button> : null) },
        ]} />
      <SettingDrawer item={current} onClose={() => setEditing(undefined)} />
    </>
  );
}
