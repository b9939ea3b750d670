// A new product, with the fields of its kind (contract CreateProductBody): arbitrage and AI quant
// (a fixed daily rate paid from the product's reserve, the first-day rule, early redemption and its
// fee), mining (the machine's specification, its unit price, the mined asset) and bond (a raise
// with a target, a deadline and a daily coupon). Common to all: the name, the asset, the term,
// the purchase limits, the VIP level needed, and whether it goes on sale at once or stays a draft.
// The form checks what it can first; the server checks again and its refusal shows in the drawer.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Drawer, Form, Input, InputNumber, Radio, Select, Switch, Typography } from 'antd';
import type { CreateProductBody, ProductType } from '../../../api/contract/products.ts';
import { useCreateProductMutation } from '../../investApi.ts';
import { waitsForSecondAdmin } from '../../settingChangesApi.ts';
import { useSavedAsRequestNotice } from '../savedAsRequest.tsx';
import { fromLocalInput } from '../ContentDraft.ts';
import { amountProblem, compareDecimal, fieldProblemText, investFailure, rateProblem, ruleOf } from './investTexts.ts';

export interface ProductFields {
  type: ProductType;
  name: string;
  asset: string;
  payoutAsset?: string;
  days: number;
  dailyRate?: string;
  firstDayRule?: 'full' | 'next_day';
  minLevel?: number;
  minAmount: string;
  maxAmount: string;
  perUserMax?: string;
  totalCap?: string;
  earlyRedeem?: boolean;
  earlyRedeemFee?: string;
  target?: string;
  opensAt?: string;
  closesAt?: string;
  unitPrice?: string;
  manufacturer?: string;
  hashrateThs?: string;
  powerW?: number;
  size?: string;
  weightKg?: string;
  temperature?: string;
  humidity?: string;
  network?: string;
  status: 'draft' | 'open';
}

const optional = (value: string | undefined) => {
  const trimmed = (value ?? '').trim();
  return trimmed ? trimmed : undefined;
};

/** The contract's body for the form's fields: only the fields of the product's kind, trimmed. */
export function productBody(fields: ProductFields): CreateProductBody {
  const { type } = fields;
  const body: CreateProductBody = {
    type, name: fields.name.trim(), asset: fields.asset.trim().toUpperCase(), days: fields.days,
    minAmount: fields.minAmount.trim(), maxAmount: fields.maxAmount.trim(), minLevel: fields.minLevel ?? 0, status: fields.status,
  };
  const perUserMax = optional(fields.perUserMax);
  if (perUserMax) body.perUserMax = perUserMax;
  const totalCap = optional(fields.totalCap);
  if (totalCap) body.totalCap = totalCap;
  const opensAt = fromLocalInput(fields.opensAt ?? '');
  if (opensAt !== undefined) body.opensAt = opensAt;
  if (type === 'arbitrage' || type === 'quant' || type === 'bond') body.dailyRate = (fields.dailyRate ?? '').trim();
  if (type === 'arbitrage' || type === 'quant') {
    body.firstDayRule = fields.firstDayRule ?? 'next_day';
    body.earlyRedeem = fields.earlyRedeem === true;
    if (body.earlyRedeem) body.earlyRedeemFee = (fields.earlyRedeemFee ?? '').trim() || '0';
  }
  if (type === 'bond') {
    body.target = (fields.target ?? '').trim();
    const closesAt = fromLocalInput(fields.closesAt ?? '');
    if (closesAt !== undefined) body.closesAt = closesAt;
  }
  if (type === 'mining') {
    body.payoutAsset = (fields.payoutAsset ?? '').trim().toUpperCase();
    body.unitPrice = (fields.unitPrice ?? '').trim();
    body.machine = {
      manufacturer: (fields.manufacturer ?? '').trim(), hashrateThs: (fields.hashrateThs ?? '').trim(), powerW: fields.powerW ?? 0,
      size: (fields.size ?? '').trim(), weightKg: (fields.weightKg ?? '').trim(), temperature: (fields.temperature ?? '').trim(),
      humidity: (fields.humidity ?? '').trim(), network: (fields.network ?? '').trim(),
    };
  }
  return body;
}

const assetRule = { pattern: /^[A-Za-z0-9]{2,12}$/ };

export function ProductCreateDrawer({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [form] = Form.useForm<ProductFields>();
  const [create, { isLoading }] = useCreateProductMutation();
  const savedAsRequest = useSavedAsRequestNotice();
  const [failure, setFailure] = useState('');
  const type = Form.useWatch('type', form) ?? 'arbitrage';
  const earlyRedeem = Form.useWatch('earlyRedeem', form) ?? false;
  const asset = (Form.useWatch('asset', form) ?? '').toUpperCase() || 'USDT';
  const required = { required: true, whitespace: true, message: t`This field is required.` };
  const save = async () => {
    const fields = await form.validateFields();
    setFailure('');
    const answer = await create(productBody(fields));
    if ('error' in answer) {
      setFailure(investFailure(answer.error));
      return;
    }
    const name = answer.data.name;
    // Created as a draft; asked on sale, it goes on sale once a second operator approves (issue 38).
    if (waitsForSecondAdmin(answer.data)) savedAsRequest();
    else void message.success(t`Product ${name} created.`);
    form.resetFields();
    onClose();
  };
  const maxRule = {
    validator: (_: unknown, value: string | undefined) => {
      const min = ((form.getFieldValue('minAmount') as string | undefined) ?? '').trim();
      const max = (value ?? '').trim();
      const problem = amountProblem(max) ?? (!amountProblem(min) && compareDecimal(min, max) > 0 ? 'max_below_min' : undefined);
      return problem ? Promise.reject(new Error(fieldProblemText(problem))) : Promise.resolve();
    },
  };
  const timeRule = (isRequired: boolean) => ({
    validator: (_: unknown, value: string | undefined) => {
      if (!value) return isRequired ? Promise.reject(new Error(t`This field is required.`)) : Promise.resolve();
      return fromLocalInput(value) === undefined ? Promise.reject(new Error(t`Enter a date and time.`)) : Promise.resolve();
    },
  });
  const rated = type === 'arbitrage' || type === 'quant';
  return (
    <Drawer open={open} title={t`New product`} onClose={onClose} size={Math.min(640, window.innerWidth - 48)} rootClassName="admin-drawer"
      extra={<Button type="primary" loading={isLoading} onClick={() => void save().catch(() => undefined)} data-testid="product-create-save">{t`Create`}</Button>}>
      <Form<ProductFields> form={form} layout="vertical" requiredMark={false} className="admin-invest-form" initialValues={{
        type: 'arbitrage', asset: 'USDT', days: 30, firstDayRule: 'next_day', minLevel: 0, earlyRedeem: false, status: 'draft', powerW: 3500,
      }}>
        <Form.Item name="type" label={t`Kind`}>
          <Radio.Group optionType="button" options={[
            { value: 'arbitrage', label: t`Arbitrage` }, { value: 'quant', label: t`AI quantitative` },
            { value: 'mining', label: t`Mining machine` }, { value: 'bond', label: t`Bond (crowdfunding)` },
          ]} />
        </Form.Item>
        <Typography.Paragraph type="secondary" data-testid="product-source-help">
          {type === 'mining'
            ? t`Output follows the published formula: hashrate × the network reward per TH/s per day − power × the electricity price. Fund the reserve in the mined asset before selling.`
            : type === 'bond'
              ? t`If the target is not met by the deadline, every subscriber is refunded in full. Coupons accrue daily and are paid at maturity with the principal, from the reserve.`
              : t`A fixed rate paid by the platform from the product's reserve; not a trading result. A purchase that would take coverage under 100 % is refused.`}
        </Typography.Paragraph>
        <Form.Item name="name" label={t`Name (English)`} rules={[required, { max: 80 }]}><Input maxLength={80} /></Form.Item>
        <div className="admin-invest-row">
          <Form.Item name="asset" label={type === 'mining' ? t`Paid in` : t`Asset`} rules={[required, { ...assetRule, message: t`A currency code, such as USDT.` }]}>
            <Input maxLength={12} />
          </Form.Item>
          {type === 'mining' && (
            <Form.Item name="payoutAsset" label={t`Mined asset`} rules={[required, { ...assetRule, message: t`A currency code, such as USDT.` }]}>
              <Input maxLength={12} placeholder="BTC" />
            </Form.Item>
          )}
          <Form.Item name="days" label={t`Term (days)`} rules={[{ required: true, type: 'integer', min: 1, max: 3650, message: t`A whole number of days from 1 to 3650.` }]}>
            <InputNumber min={1} max={3650} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </div>
        {(rated || type === 'bond') && (
          <div className="admin-invest-row">
            <Form.Item name="dailyRate" label={type === 'bond' ? t`Coupon (% a day)` : t`Daily rate (% a day)`}
              rules={[ruleOf((value) => rateProblem(value))]}>
              <Input inputMode="decimal" placeholder="0.05" data-testid="product-rate" />
            </Form.Item>
            {rated && (
              <Form.Item name="firstDayRule" label={t`First day`}>
                <Select options={[
                  { value: 'next_day', label: t`Earns from the next UTC day` },
                  { value: 'full', label: t`The purchase day earns a full day` },
                ]} />
              </Form.Item>
            )}
          </div>
        )}
        {type === 'mining' && (
          <>
            <Typography.Title level={5}>{t`Machine`}</Typography.Title>
            <div className="admin-invest-row">
              <Form.Item name="manufacturer" label={t`Manufacturer and model`} rules={[required]}><Input maxLength={80} /></Form.Item>
              <Form.Item name="hashrateThs" label={t`Hashrate (TH/s)`} rules={[ruleOf((value) => amountProblem(value))]}><Input inputMode="decimal" /></Form.Item>
              <Form.Item name="powerW" label={t`Power (W)`} rules={[{ required: true, type: 'integer', min: 0, max: 100_000, message: t`A whole number of watts.` }]}>
                <InputNumber min={0} max={100_000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </div>
            <div className="admin-invest-row">
              <Form.Item name="size" label={t`Size`}><Input maxLength={60} /></Form.Item>
              <Form.Item name="weightKg" label={t`Weight (kg)`}><Input maxLength={20} /></Form.Item>
              <Form.Item name="network" label={t`Network`}><Input maxLength={40} /></Form.Item>
            </div>
            <div className="admin-invest-row">
              <Form.Item name="temperature" label={t`Operating temperature`}><Input maxLength={40} /></Form.Item>
              <Form.Item name="humidity" label={t`Operating humidity`}><Input maxLength={40} /></Form.Item>
              <Form.Item name="unitPrice" label={t`Price per machine for the term (${asset})`} rules={[ruleOf((value) => amountProblem(value))]}>
                <Input inputMode="decimal" />
              </Form.Item>
            </div>
          </>
        )}
        {type === 'bond' && (
          <div className="admin-invest-row">
            <Form.Item name="target" label={t`Raise target (${asset})`} rules={[ruleOf((value) => amountProblem(value))]}><Input inputMode="decimal" /></Form.Item>
            <Form.Item name="closesAt" label={t`Deadline of the raise`} rules={[timeRule(true)]}><Input type="datetime-local" data-testid="product-closes" /></Form.Item>
          </div>
        )}
        <Typography.Title level={5}>{t`Limits`}</Typography.Title>
        <div className="admin-invest-row">
          <Form.Item name="minAmount" label={t`Minimum purchase (${asset})`} rules={[ruleOf((value) => amountProblem(value))]}><Input inputMode="decimal" /></Form.Item>
          <Form.Item name="maxAmount" label={t`Maximum purchase (${asset})`} dependencies={['minAmount']} rules={[maxRule]}><Input inputMode="decimal" /></Form.Item>
        </div>
        <div className="admin-invest-row">
          <Form.Item name="perUserMax" label={t`Most one user may hold (empty: no cap)`} rules={[ruleOf((value) => amountProblem(value, { optional: true }))]}>
            <Input inputMode="decimal" />
          </Form.Item>
          <Form.Item name="totalCap" label={t`Most sold in all (empty: no cap)`} rules={[ruleOf((value) => amountProblem(value, { optional: true }))]}>
            <Input inputMode="decimal" />
          </Form.Item>
        </div>
        <div className="admin-invest-row">
          <Form.Item name="minLevel" label={t`VIP level needed`} rules={[{ type: 'integer', min: 0, max: 20, message: t`A level from 0 to 20.` }]}>
            <InputNumber min={0} max={20} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="opensAt" label={t`On sale from (empty: at once)`} rules={[timeRule(false)]}><Input type="datetime-local" /></Form.Item>
        </div>
        {rated && (
          <div className="admin-invest-row">
            <Form.Item name="earlyRedeem" label={t`Early redemption allowed`} valuePropName="checked"><Switch /></Form.Item>
            {earlyRedeem && (
              <Form.Item name="earlyRedeemFee" label={t`Early redemption fee (% of the principal)`} rules={[ruleOf((value) => rateProblem(value))]}>
                <Input inputMode="decimal" />
              </Form.Item>
            )}
          </div>
        )}
        <Form.Item name="status" label={t`When created`} extra={t`A new product is saved as a draft: putting it on sale waits for a second operator's approval in Setting changes.`}>
          <Radio.Group options={[{ value: 'draft', label: t`Keep as a draft (not shown)` }, { value: 'open', label: t`Put on sale` }]} />
        </Form.Item>
      </Form>
      {failure && <Alert type="error" showIcon role="alert" title={failure} data-testid="product-create-error" />}
    </Drawer>
  );
}
