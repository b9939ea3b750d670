// Trading settings: each symbol's contract settings (leverage choices, size and margin bounds, fee
// and maintenance rates, spread), each symbol's second-contract durations with their payout rates
// and stake bounds, and the flash swap's fee, spread and quote life. Only admins change them; the
// server checks every rule again and audits each change. The form checks the same rules first, so
// an operator reads what is wrong in their language before anything is sent. Nothing here sets a
// price or decides an outcome: every price and result comes from recorded market ticks.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Drawer, Form, Input, InputNumber, Space, Switch, Table, Tabs, Tag, Typography } from 'antd';
import { parseAmount } from '../../api/contract/amounts.ts';
import { marginScale, parseRate } from '../../api/contract/tradingMath.ts';
import type { SecondSetBody, SymbolSettingsBody } from '../../api/contract/trading.ts';
import { failureMessage } from '../errors.ts';
import { formatAmount, formatTime } from '../format.ts';
import { useMeQuery } from '../api.ts';
import {
  useSecondSetsQuery, useSwapSettingsQuery, useTradeSymbolsQuery, useUpdateSecondSetMutation, useUpdateSwapSettingsMutation,
  useUpdateTradeSymbolMutation, type AdminSecondSet, type AdminSymbolSettings,
} from '../tradeApi.ts';

// ─── The rules (the server's, settingsAdmin.ts), answering a problem or undefined ────────────────

export type Problem =
  | 'leverages_format' | 'leverages_range' | 'leverages_repeated' | 'amount_format' | 'amount_decimals' | 'amount_positive'
  | 'max_below_min' | 'rate_format' | 'fee_too_high' | 'maintenance_too_high' | 'payout_range' | 'duration_range' | 'duration_repeated';

/** "1, 5, 10" → [1, 5, 10], or the problem. */
export function parseLeverages(text: string): number[] | Problem {
  const parts = text.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0 || parts.length > 20 || parts.some((part) => !/^\d{1,4}$/.test(part))) return 'leverages_format';
  const values = parts.map(Number);
  if (values.some((value) => value < 1 || value > 1000)) return 'leverages_range';
  if (new Set(values).size !== values.length) return 'leverages_repeated';
  return values;
}

export function amountProblem(text: string, scale: number, zeroAllowed = false): Problem | undefined {
  const parsed = parseAmount(text.trim(), scale);
  if (!parsed.ok) return parsed.refusal === 'amount_too_many_decimals' ? 'amount_decimals' : 'amount_format';
  if (!zeroAllowed && parsed.atomic <= 0n) return 'amount_positive';
  return undefined;
}

export function boundsProblem(min: string, max: string, scale: number): Problem | undefined {
  const low = parseAmount(min.trim(), scale);
  const high = parseAmount(max.trim(), scale);
  return low.ok && high.ok && low.atomic > high.atomic ? 'max_below_min' : undefined;
}

export function rateProblem(text: string, maxPpm: number): Problem | undefined {
  const ppm = parseRate(text.trim());
  if (ppm === undefined) return 'rate_format';
  return ppm > maxPpm ? 'fee_too_high' : undefined;
}

/** At leverage L the margin is 1/L of the notional: maintenance must stay below it (and at most 0.5). */
export function maintenanceProblem(text: string, leverages: number[] | Problem): Problem | undefined {
  const ppm = parseRate(text.trim());
  if (ppm === undefined) return 'rate_format';
  const largest = Array.isArray(leverages) ? Math.max(...leverages) : 1;
  return ppm * largest >= 1_000_000 || ppm > 500_000 ? 'maintenance_too_high' : undefined;
}

function useProblemText() {
  const { t } = useLingui();
  return (problem: Problem, extra: { decimals?: number; leverage?: number } = {}): string => {
    const decimals = extra.decimals ?? 0;
    const leverage = extra.leverage ?? 1;
    switch (problem) {
      case 'leverages_format': return t`Enter whole numbers separated by commas, such as 1, 5, 10 (at most 20).`;
      case 'leverages_range': return t`Each leverage must be from 1 to 1000.`;
      case 'leverages_repeated': return t`Each leverage may be offered only once.`;
      case 'amount_format': return t`Enter a plain decimal number, such as 12.5.`;
      case 'amount_decimals': return t`At most ${decimals} decimals.`;
      case 'amount_positive': return t`Must be more than zero.`;
      case 'max_below_min': return t`The maximum cannot be below the minimum.`;
      case 'rate_format': return t`Enter a rate as a decimal with at most 6 decimals, such as 0.0005 for 0.05 %.`;
      case 'fee_too_high': return t`At most 0.1 (10 %).`;
      case 'maintenance_too_high': return t`Must be below 1 / ${leverage} (the largest leverage offered) and at most 0.5.`;
      case 'payout_range': return t`More than 0 and at most 10 (a win pays the stake × (1 + rate)).`;
      case 'duration_range': return t`A whole number of seconds from 5 to 86400.`;
      case 'duration_repeated': return t`Each duration may be offered only once.`;
    }
  };
}

/** A rate "0.0005" as a percentage "0.05 %" beside the field (exact: a ppm count). */
export function ratePercent(text: string): string {
  const ppm = parseRate(text.trim());
  if (ppm === undefined) return '';
  const hundredths = String(ppm).padStart(5, '0');
  const whole = hundredths.slice(0, -4);
  const fraction = hundredths.slice(-4).replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} %`;
}

const useIsAdmin = () => useMeQuery().data?.role === 'admin';

// ─── Contracts ───────────────────────────────────────────────────────────────────────────────

interface SymbolFields {
  enabled: boolean; leverages: string; quantityMin: string; quantityMax: string; marginMin: string; marginMax: string;
  feeRate: string; maintenanceMarginRate: string; spread: string; simulatedFeedRealTrading: boolean;
}

export function SymbolDrawer({ item, onClose }: { item?: AdminSymbolSettings; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const problemText = useProblemText();
  const [form] = Form.useForm<SymbolFields>();
  const [update, { isLoading }] = useUpdateTradeSymbolMutation();
  const [failure, setFailure] = useState('');
  const feeRate = Form.useWatch('feeRate', form) ?? '';
  const maintenance = Form.useWatch('maintenanceMarginRate', form) ?? '';
  useEffect(() => {
    if (item) {
      form.setFieldsValue({
        enabled: item.enabled, leverages: item.leverages.join(', '), quantityMin: item.quantityMin, quantityMax: item.quantityMax,
        marginMin: item.marginMin, marginMax: item.marginMax, feeRate: item.feeRate, maintenanceMarginRate: item.maintenanceMarginRate,
        spread: item.spread, simulatedFeedRealTrading: item.simulatedFeedRealTrading,
      });
      setFailure('');
    }
  }, [item, form]);
  if (!item) return <Drawer open={false} />;
  const qp = item.quantityPrecision;
  const pp = item.pricePrecision;
  const check = (problem: Problem | undefined, extra?: { decimals?: number; leverage?: number }) =>
    (problem ? Promise.reject(new Error(problemText(problem, extra))) : Promise.resolve());
  const amountRule = (scale: number, zeroAllowed = false) => ({
    validator: (_: unknown, value: string | undefined) => check(amountProblem(value ?? '', scale, zeroAllowed), { decimals: scale }),
  });
  const maxRule = (minField: keyof SymbolFields, scale: number) => ({
    validator: (_: unknown, value: string | undefined) => check(boundsProblem(form.getFieldValue(minField) ?? '', value ?? '', scale)),
  });
  const save = async () => {
    const fields = await form.validateFields();
    const leverages = parseLeverages(fields.leverages);
    if (!Array.isArray(leverages)) return;
    const body: SymbolSettingsBody = {
      enabled: fields.enabled, leverages, quantityMin: fields.quantityMin.trim(), quantityMax: fields.quantityMax.trim(),
      marginMin: fields.marginMin.trim(), marginMax: fields.marginMax.trim(), feeRate: fields.feeRate.trim(),
      maintenanceMarginRate: fields.maintenanceMarginRate.trim(), spread: fields.spread.trim(),
      simulatedFeedRealTrading: fields.simulatedFeedRealTrading,
    };
    setFailure('');
    const answer = await update({ symbol: item.symbol, body });
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    void message.success(t`Settings saved.`);
    onClose();
  };
  const symbol = item.symbol;
  return (
    <Drawer open title={t`Contract settings of ${symbol}`} onClose={onClose} size={Math.min(560, window.innerWidth - 48)} destroyOnHidden
      rootClassName="admin-drawer" extra={<Button type="primary" loading={isLoading} onClick={() => void save().catch(() => undefined)}
        data-testid="symbol-save">{t`Save`}</Button>}>
      {!item.contractCapable && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }}
          title={t`This symbol is not quoted in USD or USDT: contracts settle in USDT, so they cannot be enabled on it.`} />
      )}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void save()}>
        <Form.Item name="enabled" label={t`Contracts enabled`} valuePropName="checked"><Switch disabled={!item.contractCapable} /></Form.Item>
        <Form.Item name="leverages" label={t`Leverage choices`} extra={t`Whole numbers separated by commas, such as 1, 5, 10.`}
          rules={[{ validator: (_, value: string | undefined) => {
            const parsed = parseLeverages(value ?? '');
            return check(Array.isArray(parsed) ? undefined : parsed);
          } }]}>
          <Input data-testid="symbol-leverages" />
        </Form.Item>
        <Space size="middle" style={{ display: 'flex' }} align="start">
          <Form.Item name="quantityMin" label={t`Minimum quantity`} rules={[amountRule(qp)]}><Input inputMode="decimal" /></Form.Item>
          <Form.Item name="quantityMax" label={t`Maximum quantity`} dependencies={['quantityMin']} rules={[amountRule(qp), maxRule('quantityMin', qp)]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </Space>
        <Space size="middle" style={{ display: 'flex' }} align="start">
          <Form.Item name="marginMin" label={t`Minimum margin (USDT)`} rules={[amountRule(marginScale)]}><Input inputMode="decimal" /></Form.Item>
          <Form.Item name="marginMax" label={t`Maximum margin (USDT)`} dependencies={['marginMin']}
            rules={[amountRule(marginScale), maxRule('marginMin', marginScale)]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </Space>
        <Form.Item name="feeRate" label={t`Fee rate (of the notional, at open and at close)`} extra={ratePercent(feeRate)}
          rules={[{ validator: (_, value: string | undefined) => check(rateProblem(value ?? '', 100_000)) }]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="maintenanceMarginRate" label={t`Maintenance margin rate (of the entry notional)`} extra={ratePercent(maintenance)}
          dependencies={['leverages']} rules={[{ validator: (_, value: string | undefined) => {
            const leverages = parseLeverages(form.getFieldValue('leverages') ?? '');
            return check(maintenanceProblem(value ?? '', leverages), { leverage: Array.isArray(leverages) ? Math.max(...leverages) : 1 });
          } }]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="spread" label={t`Spread (in the symbol's price; half on each side)`} rules={[amountRule(pp, true)]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="simulatedFeedRealTrading" label={t`Real trading on simulated prices`} valuePropName="checked"
          extra={t`While this symbol's prices come from the simulator: whether real contracts, second contracts and swaps may use them. Demo trading stays open either way.`}>
          <Switch aria-label={t`Real trading on simulated prices`} data-testid="symbol-simulated-feed" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary">{t`Running positions keep the rates they opened with; a change applies to new positions.`}</Typography.Paragraph>
      {failure && <Alert type="error" showIcon role="alert" title={failure} data-testid="symbol-error" />}
    </Drawer>
  );
}

function ContractsTab() {
  const { t } = useLingui();
  const admin = useIsAdmin();
  const { data, isFetching, error } = useTradeSymbolsQuery();
  const [editing, setEditing] = useState<string>();
  const current = data?.find((item) => item.symbol === editing);
  const editLabel = (symbol: string) => t`Edit ${symbol}`;
  const onOff = (item: AdminSymbolSettings) => (!item.contractCapable ? <Tag>{t`Not available`}</Tag>
    : item.enabled ? <Tag color="success">{t`On`}</Tag> : <Tag>{t`Off`}</Tag>);
  return (
    <>
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Table<AdminSymbolSettings> rowKey="symbol" loading={isFetching} dataSource={data ?? []} pagination={false} size="middle"
        data-testid="trade-symbols-table" scroll={{ x: 'max-content' }}
        columns={[
          { key: 'symbol', title: t`Symbol`, fixed: 'left', render: (_, item) => <strong>{item.symbol}</strong> },
          { key: 'enabled', title: t`Contracts`, render: (_, item) => onOff(item) },
          { key: 'market', title: t`Market`, render: (_, item) => (item.open ? t`Open` : t`Closed`) },
          { key: 'simulatedFeed', title: t`Real trading on simulated prices`, render: (_, item) => (item.simulatedFeedRealTrading
            ? <Tag color="success">{t`Allowed`}</Tag> : <Tag color="warning">{t`Not allowed`}</Tag>) },
          { key: 'leverages', title: t`Leverage choices`, render: (_, item) => <span data-testid="leverages">{item.leverages.map((value) => `${value}×`).join(' ')}</span> },
          { key: 'quantity', title: t`Quantity`, render: (_, item) => <span className="admin-amount">{formatAmount(item.quantityMin)} – {formatAmount(item.quantityMax)}</span> },
          { key: 'margin', title: t`Margin (USDT)`, render: (_, item) => <span className="admin-amount">{formatAmount(item.marginMin)} – {formatAmount(item.marginMax)}</span> },
          { key: 'fee', title: t`Fee rate`, align: 'right', render: (_, item) => ratePercent(item.feeRate) },
          { key: 'maintenance', title: t`Maintenance rate`, align: 'right', render: (_, item) => ratePercent(item.maintenanceMarginRate) },
          { key: 'spread', title: t`Spread`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.spread)}</span> },
          { key: 'time', title: t`Changed`, render: (_, item) => <span className="admin-time">{item.updateTime > 0 ? formatTime(item.updateTime) : '—'}</span> },
          { key: 'edit', title: '', fixed: 'right', render: (_, item) => (admin
            ? <Button size="small" onClick={() => setEditing(item.symbol)} aria-label={editLabel(item.symbol)}>{t`Edit`}</Button> : null) },
        ]} />
      <SymbolDrawer item={current} onClose={() => setEditing(undefined)} />
    </>
  );
}

// ─── Second contracts ────────────────────────────────────────────────────────────────────────

interface SecondFields { enabled: boolean; durations: Array<{ seconds: number | null; payoutRate: string }>; amountMin: string; amountMax: string }

function SecondDrawer({ item, onClose }: { item?: AdminSecondSet; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const problemText = useProblemText();
  const [form] = Form.useForm<SecondFields>();
  const [update, { isLoading }] = useUpdateSecondSetMutation();
  const [failure, setFailure] = useState('');
  useEffect(() => {
    if (item) {
      form.setFieldsValue({
        enabled: item.enabled, durations: item.durations.map((duration) => ({ seconds: duration.seconds, payoutRate: duration.payoutRate })),
        amountMin: item.amountMin, amountMax: item.amountMax,
      });
      setFailure('');
    }
  }, [item, form]);
  if (!item) return <Drawer open={false} />;
  const check = (problem: Problem | undefined, decimals?: number) =>
    (problem ? Promise.reject(new Error(problemText(problem, { decimals }))) : Promise.resolve());
  const save = async () => {
    const fields = await form.validateFields();
    const body: SecondSetBody = {
      enabled: fields.enabled, amountMin: fields.amountMin.trim(), amountMax: fields.amountMax.trim(),
      durations: fields.durations.map((duration) => ({ seconds: Number(duration.seconds), payoutRate: duration.payoutRate.trim() })),
    };
    setFailure('');
    const answer = await update({ symbol: item.symbol, body });
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    void message.success(t`Settings saved.`);
    onClose();
  };
  const symbol = item.symbol;
  return (
    <Drawer open title={t`Second contracts on ${symbol}`} onClose={onClose} size={Math.min(560, window.innerWidth - 48)} destroyOnHidden
      rootClassName="admin-drawer" extra={<Button type="primary" loading={isLoading} onClick={() => void save().catch(() => undefined)}>{t`Save`}</Button>}>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="enabled" label={t`Second contracts enabled`} valuePropName="checked"><Switch disabled={!item.contractCapable} /></Form.Item>
        <Typography.Text strong>{t`Durations and payout rates`}</Typography.Text>
        <Typography.Paragraph type="secondary">{t`A win pays the stake × (1 + payout rate); a loss keeps the stake; equal prices refund it.`}</Typography.Paragraph>
        <Form.List name="durations" rules={[{ validator: (_, value: SecondFields['durations'] | undefined) => {
          const list = value ?? [];
          if (list.length === 0) return Promise.reject(new Error(t`Offer at least one duration.`));
          const seconds = list.map((duration) => duration?.seconds);
          return check(new Set(seconds).size !== seconds.length ? 'duration_repeated' : undefined);
        } }]}>
          {(fields, { add, remove }, { errors }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="start" style={{ display: 'flex' }}>
                  <Form.Item name={[field.name, 'seconds']} label={t`Seconds`} rules={[{ validator: (_, value: number | null | undefined) =>
                    check(typeof value === 'number' && Number.isInteger(value) && value >= 5 && value <= 86_400 ? undefined : 'duration_range') }]}>
                    <InputNumber min={5} max={86_400} precision={0} style={{ width: 120 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'payoutRate']} label={t`Payout rate`} rules={[{ validator: (_, value: string | undefined) => {
                    const ppm = parseRate((value ?? '').trim());
                    return check(ppm === undefined ? 'rate_format' : ppm <= 0 || ppm > 10_000_000 ? 'payout_range' : undefined);
                  } }]}>
                    <Input inputMode="decimal" style={{ width: 140 }} />
                  </Form.Item>
                  <Button style={{ marginTop: 30 }} onClick={() => remove(field.name)} disabled={fields.length <= 1}>{t`Remove`}</Button>
                </Space>
              ))}
              <Form.ErrorList errors={errors} />
              <Button onClick={() => add({ seconds: null, payoutRate: '' })} disabled={fields.length >= 12} style={{ marginBottom: 16 }}>
                {t`Add a duration`}
              </Button>
            </>
          )}
        </Form.List>
        <Space size="middle" style={{ display: 'flex' }} align="start">
          <Form.Item name="amountMin" label={t`Minimum stake (USDT)`}
            rules={[{ validator: (_, value: string | undefined) => check(amountProblem(value ?? '', marginScale), marginScale) }]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="amountMax" label={t`Maximum stake (USDT)`} dependencies={['amountMin']}
            rules={[{ validator: (_, value: string | undefined) =>
              check(amountProblem(value ?? '', marginScale) ?? boundsProblem(form.getFieldValue('amountMin') ?? '', value ?? '', marginScale), marginScale) }]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </Space>
      </Form>
      {failure && <Alert type="error" showIcon role="alert" title={failure} />}
    </Drawer>
  );
}

function SecondTab() {
  const { t } = useLingui();
  const admin = useIsAdmin();
  const { data, isFetching, error } = useSecondSetsQuery();
  const [editing, setEditing] = useState<string>();
  const current = data?.find((item) => item.symbol === editing);
  return (
    <>
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Table<AdminSecondSet> rowKey="symbol" loading={isFetching} dataSource={data ?? []} pagination={false} size="middle" data-testid="second-sets-table"
        columns={[
          { key: 'symbol', title: t`Symbol`, render: (_, item) => <strong>{item.symbol}</strong> },
          { key: 'enabled', title: t`Second contracts`, render: (_, item) => (item.enabled ? <Tag color="success">{t`On`}</Tag> : <Tag>{t`Off`}</Tag>) },
          { key: 'durations', title: t`Durations and payout rates`, render: (_, item) => (
            <Space size={[4, 4]} wrap>
              {item.durations.map(({ seconds, payoutRate }) => <Tag key={seconds}>{t`${seconds} s: ${payoutRate}`}</Tag>)}
            </Space>
          ) },
          { key: 'amount', title: t`Stake (USDT)`, render: (_, item) => <span className="admin-amount">{formatAmount(item.amountMin)} – {formatAmount(item.amountMax)}</span> },
          { key: 'time', title: t`Changed`, render: (_, item) => <span className="admin-time">{item.updateTime > 0 ? formatTime(item.updateTime) : '—'}</span> },
          { key: 'edit', title: '', render: (_, item) => (admin ? <Button size="small" onClick={() => setEditing(item.symbol)}>{t`Edit`}</Button> : null) },
        ]} />
      <SecondDrawer item={current} onClose={() => setEditing(undefined)} />
    </>
  );
}

// ─── Flash swap ──────────────────────────────────────────────────────────────────────────────

interface SwapFields { enabled: boolean; feeRate: string; spreadRate: string; quoteTtlSeconds: number }

function SwapTab() {
  const { t } = useLingui();
  const { message } = App.useApp();
  const admin = useIsAdmin();
  const problemText = useProblemText();
  const { data, isFetching, error } = useSwapSettingsQuery();
  const [update, { isLoading }] = useUpdateSwapSettingsMutation();
  const [form] = Form.useForm<SwapFields>();
  const [failure, setFailure] = useState('');
  const feeRate = Form.useWatch('feeRate', form) ?? '';
  const spreadRate = Form.useWatch('spreadRate', form) ?? '';
  useEffect(() => {
    if (data) form.setFieldsValue({ enabled: data.enabled, feeRate: data.feeRate, spreadRate: data.spreadRate, quoteTtlSeconds: data.quoteTtlSeconds });
  }, [data, form]);
  const check = (problem: Problem | undefined) => (problem ? Promise.reject(new Error(problemText(problem))) : Promise.resolve());
  const changed = data && data.updateTime > 0 ? formatTime(data.updateTime) : '';
  const save = async (fields: SwapFields) => {
    setFailure('');
    const answer = await update({ enabled: fields.enabled, feeRate: fields.feeRate.trim(), spreadRate: fields.spreadRate.trim(), quoteTtlSeconds: fields.quoteTtlSeconds });
    if ('error' in answer) {
      setFailure(failureMessage(answer.error));
      return;
    }
    void message.success(t`Settings saved.`);
  };
  return (
    <div style={{ maxWidth: 520 }}>
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" requiredMark={false} disabled={!admin || isFetching} onFinish={(fields) => void save(fields)}>
        <Form.Item name="enabled" label={t`Flash swap enabled`} valuePropName="checked"><Switch /></Form.Item>
        <Form.Item name="feeRate" label={t`Fee rate (of the amount swapped)`} extra={ratePercent(feeRate)}
          rules={[{ validator: (_, value: string | undefined) => check(rateProblem(value ?? '', 100_000)) }]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="spreadRate" label={t`Spread rate (taken off the mid price)`} extra={ratePercent(spreadRate)}
          rules={[{ validator: (_, value: string | undefined) => check(rateProblem(value ?? '', 100_000)) }]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="quoteTtlSeconds" label={t`A quote is valid for (seconds)`}
          rules={[{ validator: (_, value: number | null | undefined) => (typeof value === 'number' && Number.isInteger(value) && value >= 3 && value <= 120
            ? Promise.resolve() : Promise.reject(new Error(t`A whole number of seconds from 3 to 120.`))) }]}>
          <InputNumber min={3} max={120} precision={0} style={{ width: 160 }} />
        </Form.Item>
        {admin && <Button type="primary" htmlType="submit" loading={isLoading}>{t`Save`}</Button>}
      </Form>
      {changed && <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>{t`Changed ${changed}`}</Typography.Paragraph>}
      {failure && <Alert type="error" showIcon role="alert" title={failure} style={{ marginTop: 16 }} />}
    </div>
  );
}

export function TradeSettingsScreen() {
  const { t } = useLingui();
  const admin = useIsAdmin();
  return (
    <Card>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="trade-settings-help"
        title={t`There is deliberately no setting here that sets a price or decides an outcome: every entry, exit and result follows from the recorded market ticks, which users can check in their receipts. Every change is in the audit trail.`} />
      {!admin && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t`Only administrators can change these settings.`} />}
      <Tabs items={[
        { key: 'contracts', label: t`Contracts`, children: <ContractsTab /> },
        { key: 'second', label: t`Second contracts`, children: <SecondTab /> },
        { key: 'swap', label: t`Flash swap`, children: <SwapTab /> },
      ]} />
    </Card>
  );
}
