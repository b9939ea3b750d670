// Investment products (issue 22): the products of the four kinds by kind and status with their
// figures (rate, term, sold, the reserve, what is still owed and the coverage: reserve and principal
// over principal and all returns owed), a new product per kind, a product's status and limits,
// funding its reserve (behind a confirmation; at once, or waiting for a second operator above the
// threshold), the fundings waiting, the orders (freeze with a reason, unfreeze) and the mining
// reward figure with its history. The returns are paid from the reserve: a purchase that would
// take coverage under 100 % is refused by the server, so a product sells out instead of promising
// what it cannot pay.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, App, Button, Card, Drawer, Form, Input, InputNumber, Modal, Select, Table, Tabs, Tag, Typography } from 'antd';
import { productTypes, type ProductType } from '../../api/contract/products.ts';
import { useMeQuery } from '../api.ts';
import {
  useAdminProductsQuery, useFundReserveMutation, useUpdateProductMutation, type AdminProduct, type ProductChange, type ProductStatusValue,
} from '../investApi.ts';
import { formatAmount } from '../format.ts';
import { waitsForSecondAdmin } from '../settingChangesApi.ts';
import { useSavedAsRequestNotice } from './savedAsRequest.tsx';
import { ProductCreateDrawer } from './invest/ProductForm.tsx';
import { FundingsTab } from './invest/FundingsTab.tsx';
import { ProductOrdersTab } from './invest/ProductOrdersTab.tsx';
import { MiningRewardsTab } from './invest/MiningRewardsTab.tsx';
import { amountProblem, compareDecimal, investFailure, ruleOf } from './invest/investTexts.ts';
import './invest/invest.css';

const statuses: ProductStatusValue[] = ['draft', 'open', 'closed', 'raised', 'failed'];

function useTypeLabels(): Record<ProductType, string> {
  const { t } = useLingui();
  return { arbitrage: t`Arbitrage`, quant: t`AI quantitative`, mining: t`Mining machine`, bond: t`Bond (crowdfunding)` };
}

export function useStatusLabels(): Record<ProductStatusValue, string> {
  const { t } = useLingui();
  return { draft: t`Draft`, open: t`On sale`, closed: t`Closed`, raised: t`Raised`, failed: t`Failed, refunded` };
}

export function ProductStatusTag({ status }: { status: ProductStatusValue }) {
  const labels = useStatusLabels();
  const color = { draft: 'default', open: 'success', closed: 'default', raised: 'blue', failed: 'error' }[status];
  return <Tag color={color}>{labels[status] ?? status}</Tag>;
}

/** Coverage "135.20" as "135.20 %", red under 100 %; "∞" when nothing is owed. */
export function Coverage({ value }: { value: string }) {
  if (!/^[0-9]+(\.[0-9]+)?$/.test(value)) return <span className="admin-amount" data-testid="coverage">{value || '—'}</span>;
  const low = compareDecimal(value, '100') < 0;
  return <Tag color={low ? 'error' : 'success'} className="admin-amount" data-testid="coverage">{value} %</Tag>;
}

interface EditFields { status: 'draft' | 'open' | 'closed'; minLevel: number; maxAmount: string; perUserMax: string; totalCap: string }

/** The change the edit form asks for: only what differs from the product. */
export function productChange(product: AdminProduct, fields: EditFields): ProductChange {
  const change: ProductChange = {};
  if (fields.status !== product.status) change.status = fields.status;
  if (fields.minLevel !== product.minLevel) change.minLevel = fields.minLevel;
  const same = (a: string, b: string) => !amountProblem(a, { zeroAllowed: true }) && !amountProblem(b, { zeroAllowed: true }) && compareDecimal(a, b) === 0;
  for (const key of ['maxAmount', 'perUserMax', 'totalCap'] as const) {
    const value = (fields[key] ?? '').trim() || '0';
    if (!same(value, product[key] || '0')) change[key] = value;
  }
  return change;
}

function EditDrawer({ product, onClose }: { product?: AdminProduct; onClose(): void }) {
  const { t } = useLingui();
  const { message } = App.useApp();
  const [form] = Form.useForm<EditFields>();
  const [update, { isLoading }] = useUpdateProductMutation();
  const savedAsRequest = useSavedAsRequestNotice();
  const [failure, setFailure] = useState('');
  const statusLabels = useStatusLabels();
  useEffect(() => {
    if (product) {
      form.setFieldsValue({
        status: (['draft', 'open', 'closed'].includes(product.status) ? product.status : 'closed') as EditFields['status'],
        minLevel: product.minLevel, maxAmount: product.maxAmount, perUserMax: product.perUserMax, totalCap: product.totalCap,
      });
      setFailure('');
    }
  }, [product, form]);
  if (!product) return <Drawer open={false} />;
  const asset = product.asset;
  const save = async () => {
    const fields = await form.validateFields();
    const change = productChange(product, fields);
    if (Object.keys(change).length === 0) {
      onClose();
      return;
    }
    setFailure('');
    const answer = await update({ id: product.id, body: change });
    if ('error' in answer) {
      setFailure(investFailure(answer.error));
      return;
    }
    if (waitsForSecondAdmin(answer.data)) savedAsRequest();
    else void message.success(t`Product saved.`);
    onClose();
  };
  const name = product.name;
  return (
    <Drawer open title={t`Edit ${name}`} onClose={onClose} size={Math.min(520, window.innerWidth - 48)} destroyOnHidden rootClassName="admin-drawer"
      extra={<Button type="primary" loading={isLoading} onClick={() => void save().catch(() => undefined)} data-testid="product-edit-save">{t`Save`}</Button>}>
      <Form form={form} layout="vertical" requiredMark={false} className="admin-invest-form">
        <Form.Item name="status" label={t`Status`}>
          <Select options={(['draft', 'open', 'closed'] as const).map((value) => ({ value, label: statusLabels[value] }))} />
        </Form.Item>
        <Form.Item name="minLevel" label={t`VIP level needed`} rules={[{ required: true, type: 'integer', min: 0, max: 20, message: t`A level from 0 to 20.` }]}>
          <InputNumber min={0} max={20} precision={0} />
        </Form.Item>
        <Form.Item name="maxAmount" label={t`Maximum purchase (${asset})`} rules={[ruleOf((value) => amountProblem(value))]}><Input inputMode="decimal" /></Form.Item>
        <Form.Item name="perUserMax" label={t`Most one user may hold (0: no cap)`} rules={[ruleOf((value) => amountProblem(value, { zeroAllowed: true }))]}>
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="totalCap" label={t`Most sold in all (0: no cap)`} rules={[ruleOf((value) => amountProblem(value, { zeroAllowed: true }))]}>
          <Input inputMode="decimal" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary">{t`Orders already bought keep their rate and term. Rates and terms cannot change: close the product and create a new one.`}</Typography.Paragraph>
      {failure && <Alert type="error" showIcon role="alert" title={failure} data-testid="product-edit-error" />}
    </Drawer>
  );
}

type FundOutcome = { product: string; amount: string; asset: string; done: boolean };

function FundModal({ product, onClose, onDone }: { product?: AdminProduct; onClose(): void; onDone(outcome: FundOutcome): void }) {
  const { t } = useLingui();
  const { modal } = App.useApp();
  const [form] = Form.useForm<{ amount: string }>();
  const [fund, { isLoading }] = useFundReserveMutation();
  const [failure, setFailure] = useState('');
  useEffect(() => {
    if (product) {
      form.resetFields();
      setFailure('');
    }
  }, [product, form]);
  const asset = product?.payoutAsset ?? '';
  const name = product?.name ?? '';
  const submit = async () => {
    const { amount } = await form.validateFields();
    const value = amount.trim();
    const shown = formatAmount(value);
    modal.confirm({
      title: t`Fund the reserve?`,
      content: t`${shown} ${asset} moves from the house to the reserve of ${name}. Above the threshold a second operator must approve it.`,
      okText: t`Fund reserve`,
      onOk: async () => {
        setFailure('');
        const answer = await fund({ id: product!.id, amount: value });
        if ('error' in answer) {
          setFailure(investFailure(answer.error));
          return;
        }
        onDone({ product: name, amount: value, asset: answer.data.asset || asset, done: answer.data.status === 'done' });
        onClose();
      },
    });
  };
  const reserve = formatAmount(product?.reserve);
  const owed = formatAmount(product?.owed);
  return (
    <Modal open={!!product} title={t`Fund the reserve of ${name}`} okText={t`Fund reserve`} okButtonProps={{ loading: isLoading }}
      onOk={() => void submit().catch(() => undefined)} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t`Reserve now: ${reserve} ${asset}. Returns still owed: ${owed} ${asset}.`}</Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="amount" label={t`Amount (${asset})`} rules={[ruleOf((value) => amountProblem(value))]}>
          <Input inputMode="decimal" autoFocus data-testid="fund-amount" />
        </Form.Item>
      </Form>
      {failure && <Alert type="error" showIcon role="alert" title={failure} data-testid="fund-error" />}
    </Modal>
  );
}

function ProductsTab({ admin, onOrders }: { admin: boolean; onOrders(id: string): void }) {
  const { t } = useLingui();
  const typeLabels = useTypeLabels();
  const statusLabels = useStatusLabels();
  const [type, setType] = useState<ProductType>();
  const [status, setStatus] = useState<ProductStatusValue>();
  const [pageNo, setPageNo] = useState(1);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string>();
  const [funding, setFunding] = useState<string>();
  const [funded, setFunded] = useState<FundOutcome>();
  const { data, isFetching, error, refetch } = useAdminProductsQuery({ pageNo, type, status });
  // The server filters by kind; the status filter also applies here, in case it answers every status.
  const shown = data?.records ?? [];
  const find = (id: string | undefined) => data?.records.find((product) => product.id === id);
  return (
    <>
      <div className="admin-invest-filters">
        <Select<ProductType> allowClear placeholder={t`Every kind`} value={type} style={{ minWidth: 200 }} aria-label={t`Kind`}
          onChange={(value) => {
            setType(value);
            setPageNo(1);
          }} options={productTypes.map((value) => ({ value, label: typeLabels[value] }))} data-testid="product-type-filter" />
        <Select<ProductStatusValue> allowClear placeholder={t`Every status`} value={status} style={{ minWidth: 160 }} aria-label={t`Status`}
          onChange={(value) => {
            setStatus(value);
            setPageNo(1);
          }} options={statuses.map((value) => ({ value, label: statusLabels[value] }))} data-testid="product-status-filter" />
        <Button onClick={() => void refetch()} loading={isFetching}>{t`Refresh`}</Button>
        {admin && <Button type="primary" onClick={() => setCreating(true)}>{t`New product`}</Button>}
      </div>
      {funded && (
        <Alert type={funded.done ? 'success' : 'info'} showIcon closable onClose={() => setFunded(undefined)} style={{ marginBottom: 16 }} data-testid="fund-outcome"
          title={(() => {
            const { product, asset } = funded;
            const amount = formatAmount(funded.amount);
            return funded.done
              ? t`The reserve of ${product} was funded with ${amount} ${asset}.`
              : t`Funding of ${amount} ${asset} for ${product} recorded: waiting for a second operator.`;
          })()} />
      )}
      {error && <Alert type="error" showIcon role="alert" title={investFailure(error)} style={{ marginBottom: 16 }} />}
      <Table<AdminProduct> rowKey="id" loading={isFetching} dataSource={shown} size="middle" scroll={{ x: 'max-content' }} data-testid="products-table"
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        columns={[
          { key: 'name', title: t`Name`, fixed: 'left', render: (_, item) => <strong>{item.name}</strong> },
          { key: 'type', title: t`Kind`, render: (_, item) => typeLabels[item.type] ?? item.type },
          { key: 'status', title: t`Status`, render: (_, item) => <ProductStatusTag status={item.status} /> },
          { key: 'rate', title: t`Rate (% a day)`, align: 'right', render: (_, item) => (item.type === 'mining' ? '—' : `${item.dailyRate} %`) },
          { key: 'days', title: t`Days`, align: 'right', dataIndex: 'days' },
          { key: 'level', title: t`VIP`, align: 'right', dataIndex: 'minLevel' },
          { key: 'sold', title: t`Sold`, align: 'right', render: (_, item) => (
            <span className="admin-amount">{formatAmount(item.sold)}{item.target ? ` / ${formatAmount(item.target)}` : ''} {item.asset}</span>
          ) },
          { key: 'reserve', title: t`Reserve`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.reserve)} {item.payoutAsset}</span> },
          { key: 'owed', title: t`Returns owed`, align: 'right', render: (_, item) => <span className="admin-amount">{formatAmount(item.owed)} {item.payoutAsset}</span> },
          { key: 'coverage', title: t`Coverage`, align: 'right', render: (_, item) => <Coverage value={item.coverage} /> },
          { key: 'actions', title: '', fixed: 'right', render: (_, item) => {
            const name = item.name;
            return (
              <span style={{ display: 'inline-flex', gap: 8 }}>
                {admin && <Button size="small" onClick={() => setEditing(item.id)} aria-label={t`Edit ${name}`}>{t`Edit`}</Button>}
                {admin && <Button size="small" onClick={() => setFunding(item.id)} aria-label={t`Fund reserve of ${name}`}>{t`Fund reserve`}</Button>}
                <Button size="small" onClick={() => onOrders(item.id)} aria-label={t`Orders of ${name}`}>{t`Orders`}</Button>
              </span>
            );
          } },
        ]} />
      <ProductCreateDrawer open={creating} onClose={() => setCreating(false)} />
      <EditDrawer product={find(editing)} onClose={() => setEditing(undefined)} />
      <FundModal product={find(funding)} onClose={() => setFunding(undefined)} onDone={setFunded} />
    </>
  );
}

export function ProductsScreen() {
  const { t } = useLingui();
  const { data: me } = useMeQuery();
  const admin = me?.role === 'admin';
  const [tab, setTab] = useState('products');
  const [orderProduct, setOrderProduct] = useState<string>();
  // The names for the fundings and orders tabs (the first page of every product).
  const { data: all } = useAdminProductsQuery({ pageNo: 1 });
  const products = all?.records ?? [];
  return (
    <Card>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="products-help"
        title={t`Returns are paid by the platform from each product's reserve, never from other users' money. Coverage is the reserve and principal held over the principal and every return still owed; a purchase that would take it under 100 % is refused. Every change is in the audit trail.`} />
      {!admin && me && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t`Only administrators can change products.`} />}
      <Tabs activeKey={tab} onChange={setTab} destroyOnHidden items={[
        { key: 'products', label: t`Products`, children: <ProductsTab admin={admin} onOrders={(id) => {
          setOrderProduct(id);
          setTab('orders');
        }} /> },
        { key: 'fundings', label: t`Reserve fundings`, children: <FundingsTab products={products} /> },
        { key: 'orders', label: t`Orders`, children: <ProductOrdersTab products={products} productId={orderProduct} onProduct={setOrderProduct} /> },
        { key: 'mining', label: t`Mining reward`, children: <MiningRewardsTab admin={admin} /> },
      ]} />
    </Card>
  );
}
