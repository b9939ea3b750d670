// Trades across users, read-only: contract positions, second contracts and flash swaps, filtered
// by user id, symbol (a currency for swaps), status and real or demo funds; a row opens its
// receipt: the recorded ticks it used (id, price, time, source) and the figures of its
// arithmetic, as the user reads them. No operator call closes, settles or prices a trade.
import { useState, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Card, Descriptions, Drawer, Input, Select, Space, Switch, Table, Tabs, Tag, Typography } from 'antd';
import type { TickRef } from '../../api/contract/trading.ts';
import { failureMessage } from '../errors.ts';
import { formatAmount, formatTime } from '../format.ts';
import {
  useAdminPositionsQuery, useAdminSecondOrdersQuery, useAdminSwapsQuery, type AdminPosition, type AdminSecondOrder, type AdminSwap,
  type TradeListArgs,
} from '../tradeApi.ts';

type Kind = 'positions' | 'second' | 'swaps';
interface Filters { userId: string; symbol: string; status: string; demo: boolean }
const emptyFilters: Filters = { userId: '', symbol: '', status: '', demo: false };

function TickText({ tick }: { tick: TickRef | null }) {
  const { t } = useLingui();
  if (!tick) return <Typography.Text type="secondary">{t`Not yet recorded`}</Typography.Text>;
  const { id, source } = tick;
  return (
    <span>
      <strong className="admin-amount">{formatAmount(tick.price)}</strong> · {formatTime(tick.time)}
      <br /><Typography.Text type="secondary" className="admin-mono">{t`Tick ${id}, source ${source}`}</Typography.Text>
    </span>
  );
}

function Owner({ record }: { record: { account: string; userId: string } }) {
  return <span>{record.account} <Typography.Text type="secondary">#{record.userId}</Typography.Text></span>;
}

function PositionStatusTag({ record }: { record: AdminPosition }) {
  const { t } = useLingui();
  if (record.status === 'running') return <Tag color="processing">{t`Running`}</Tag>;
  if (record.status === 'settling') return <Tag color="warning">{t`Settling`}</Tag>;
  return <Tag>{t`Closed`}</Tag>;
}

function SecondStatusTag({ record }: { record: AdminSecondOrder }) {
  const { t } = useLingui();
  if (record.status === 'open') return <Tag color="processing">{t`Open`}</Tag>;
  if (record.status === 'won') return <Tag color="success">{t`Won`}</Tag>;
  if (record.status === 'lost') return <Tag color="error">{t`Lost`}</Tag>;
  return <Tag>{t`Draw (refunded)`}</Tag>;
}

type Item = { key: string; label: string; children: ReactNode };

function PositionReceipt({ record }: { record: AdminPosition }) {
  const { t } = useLingui();
  const usdt = (value: string | null) => <span className="admin-amount">{formatAmount(value)} USDT</span>;
  const reasons = { user: t`Closed by the user`, take_profit: t`Take-profit reached`, stop_loss: t`Stop-loss reached`, liquidation: t`Liquidated`,
    competition_end: t`Closed at the competition's end` };
  const receipt = record.receipt;
  const items: Item[] = [
    { key: 'id', label: t`Position`, children: record.id },
    { key: 'user', label: t`User`, children: <Owner record={record} /> },
    { key: 'status', label: t`Status`, children: <PositionStatusTag record={record} /> },
    { key: 'side', label: t`Direction`, children: `${record.symbol} · ${record.direction === 'long' ? t`Long` : t`Short`} · ${record.leverage}×` },
    { key: 'quantity', label: t`Quantity`, children: <span className="admin-amount">{formatAmount(record.quantity)}</span> },
    { key: 'margin', label: t`Margin`, children: usdt(record.margin) },
    { key: 'open', label: t`Entry price`, children: <span className="admin-amount">{formatAmount(record.openPrice)}</span> },
    { key: 'entryTick', label: t`Entry tick`, children: <TickText tick={record.entryTick} /> },
    { key: 'levels', label: t`Take-profit / stop-loss`, children: `${formatAmount(record.takeProfit)} / ${formatAmount(record.stopLoss)}` },
    { key: 'liquidation', label: t`Liquidation price`, children: formatAmount(record.liquidationPrice) },
    { key: 'rates', label: t`Fee rate / maintenance rate / spread`, children: `${record.feeRate} / ${record.maintenanceMarginRate} / ${formatAmount(record.spread)}` },
    { key: 'openFee', label: t`Opening fee`, children: usdt(record.openFee) },
    { key: 'time', label: t`Opened`, children: formatTime(record.createTime) },
  ];
  if (receipt) {
    items.push(
      { key: 'reason', label: t`Closed because`, children: reasons[receipt.reason] },
      { key: 'exit', label: t`Exit price`, children: <span className="admin-amount">{formatAmount(receipt.exitPrice)}</span> },
      { key: 'exitTick', label: t`Exit tick`, children: <TickText tick={receipt.exitTick} /> },
      { key: 'gross', label: t`Gross profit or loss`, children: usdt(receipt.grossPnl) },
      { key: 'pnl', label: t`Profit or loss (never beyond the margin)`, children: usdt(receipt.pnl) },
      { key: 'shortfall', label: t`Borne by the house`, children: usdt(receipt.shortfall) },
      { key: 'fees', label: t`Fees (open + close)`, children: <span className="admin-amount">{formatAmount(receipt.openFee)} + {formatAmount(receipt.closeFee)} = {formatAmount(receipt.fee)} USDT</span> },
      { key: 'payout', label: t`Paid back at close`, children: usdt(receipt.payout) },
      { key: 'change', label: t`Balance change (profit or loss − fees)`, children: <strong>{usdt(receipt.balanceChange)}</strong> },
      { key: 'closed', label: t`Closed`, children: formatTime(record.closeTime) },
    );
  }
  return <Descriptions column={1} bordered size="small" items={items} data-testid="position-receipt" />;
}

function SecondReceipt({ record }: { record: AdminSecondOrder }) {
  const { t } = useLingui();
  const usdt = (value: string | null) => <span className="admin-amount">{formatAmount(value)} USDT</span>;
  const duration = record.duration;
  return (
    <Descriptions column={1} bordered size="small" items={[
      { key: 'id', label: t`Order`, children: record.id },
      { key: 'user', label: t`User`, children: <Owner record={record} /> },
      { key: 'status', label: t`Status`, children: <SecondStatusTag record={record} /> },
      { key: 'side', label: t`Direction`, children: `${record.symbol} · ${record.direction === 'up' ? t`Up` : t`Down`} · ${t`${duration} s`}` },
      { key: 'amount', label: t`Stake`, children: usdt(record.amount) },
      { key: 'rate', label: t`Payout rate`, children: record.payoutRate },
      { key: 'accepted', label: t`Accepted`, children: formatTime(record.acceptTime) },
      { key: 'entry', label: t`Entry tick (first at or after acceptance)`, children: <TickText tick={record.entryTick} /> },
      { key: 'expires', label: t`Expires`, children: formatTime(record.expireTime) },
      { key: 'exit', label: t`Exit tick (first at or after expiry)`, children: <TickText tick={record.exitTick} /> },
      { key: 'payout', label: t`Paid back`, children: usdt(record.payout) },
      { key: 'pnl', label: t`Profit or loss`, children: usdt(record.pnl) },
      { key: 'settled', label: t`Settled`, children: formatTime(record.settleTime) },
    ]} />
  );
}

function SwapReceipt({ record }: { record: AdminSwap }) {
  const { t } = useLingui();
  return (
    <Descriptions column={1} bordered size="small" items={[
      { key: 'id', label: t`Swap`, children: record.id },
      { key: 'user', label: t`User`, children: <Owner record={record} /> },
      { key: 'amount', label: t`Swapped`, children: <span className="admin-amount">{formatAmount(record.amount)} {record.from}</span> },
      { key: 'fee', label: t`Fee`, children: <span className="admin-amount">{formatAmount(record.fee)} {record.from}</span> },
      { key: 'rate', label: t`Rate`, children: <span className="admin-amount">{record.rate}</span> },
      { key: 'receive', label: t`Received`, children: <strong className="admin-amount">{formatAmount(record.receive)} {record.to}</strong> },
      { key: 'ticks', label: t`Ticks used`, children: record.ticks.length === 0 ? t`None (stablecoins at par)`
        : <Space orientation="vertical">{record.ticks.map((tick) => <span key={tick.id}>{tick.symbol}: <TickText tick={tick} /></span>)}</Space> },
      { key: 'quote', label: t`Quote`, children: <span className="admin-mono">{record.quoteId}</span> },
      { key: 'time', label: t`Time`, children: formatTime(record.createTime) },
    ]} />
  );
}

function FilterBar({ kind, filters, onChange, onRefresh, busy }: {
  kind: Kind; filters: Filters; onChange(filters: Filters): void; onRefresh(): void; busy: boolean;
}) {
  const { t } = useLingui();
  const [userId, setUserId] = useState(filters.userId);
  const [symbol, setSymbol] = useState(filters.symbol);
  const statusOptions = kind === 'positions'
    ? [{ value: 'running', label: t`Running` }, { value: 'closed', label: t`Closed` }]
    : [{ value: 'open', label: t`Open` }, { value: 'settled', label: t`Settled` }, { value: 'won', label: t`Won` }, { value: 'lost', label: t`Lost` }, { value: 'draw', label: t`Draw (refunded)` }];
  const apply = () => onChange({ ...filters, userId: userId.trim(), symbol: symbol.trim().toUpperCase() });
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Input aria-label={t`User id`} placeholder={t`User id`} value={userId} onChange={(event) => setUserId(event.target.value.replace(/\D/g, ''))}
        onPressEnter={apply} style={{ width: 140 }} allowClear />
      <Input aria-label={kind === 'swaps' ? t`Currency` : t`Symbol`} placeholder={kind === 'swaps' ? t`Currency` : t`Symbol`} value={symbol}
        onChange={(event) => setSymbol(event.target.value)} onPressEnter={apply} style={{ width: 140 }} allowClear />
      {kind !== 'swaps' && (
        <Select allowClear aria-label={t`Status`} placeholder={t`Every status`} style={{ width: 180 }} value={filters.status || undefined}
          options={statusOptions} onChange={(value?: string) => onChange({ ...filters, status: value ?? '' })} />
      )}
      {kind !== 'swaps' && (
        <Space><Switch checked={filters.demo} onChange={(demo) => onChange({ ...filters, demo })} aria-label={t`Demo funds`} />{t`Demo funds`}</Space>
      )}
      <Button type="primary" onClick={apply}>{t`Search`}</Button>
      <Button onClick={onRefresh} loading={busy}>{t`Refresh`}</Button>
    </Space>
  );
}

const argsOf = (filters: Filters, pageNo: number): TradeListArgs => ({
  pageNo, userId: filters.userId || undefined, symbol: filters.symbol || undefined, status: filters.status || undefined, demo: filters.demo,
});

function PositionsTab() {
  const { t } = useLingui();
  const [filters, setFilters] = useState(emptyFilters);
  const [pageNo, setPageNo] = useState(1);
  const [openId, setOpenId] = useState<string>();
  const { data, isFetching, error, refetch } = useAdminPositionsQuery(argsOf(filters, pageNo));
  const open = data?.records.find((record) => record.id === openId);
  return (
    <>
      <FilterBar kind="positions" filters={filters} busy={isFetching} onRefresh={() => void refetch()} onChange={(next) => {
        setFilters(next);
        setPageNo(1);
      }} />
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Table<AdminPosition> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} size="middle" data-testid="positions-table" scroll={{ x: 'max-content' }}
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        onRow={(record) => ({ onClick: () => setOpenId(record.id), style: { cursor: 'pointer' } })}
        columns={[
          { key: 'id', title: t`Position`, dataIndex: 'id' },
          { key: 'user', title: t`User`, render: (_, record) => <Owner record={record} /> },
          { key: 'symbol', title: t`Symbol`, dataIndex: 'symbol' },
          { key: 'side', title: t`Direction`, render: (_, record) => `${record.direction === 'long' ? t`Long` : t`Short`} ${record.leverage}×` },
          { key: 'margin', title: t`Margin`, align: 'right', render: (_, record) => <span className="admin-amount">{formatAmount(record.margin)}</span> },
          { key: 'open', title: t`Entry price`, align: 'right', render: (_, record) => <span className="admin-amount">{formatAmount(record.openPrice)}</span> },
          { key: 'pnl', title: t`Profit or loss`, align: 'right', render: (_, record) => <span className="admin-amount">{formatAmount(record.pnl)}</span> },
          { key: 'status', title: t`Status`, render: (_, record) => <PositionStatusTag record={record} /> },
          { key: 'time', title: t`Opened`, render: (_, record) => <span className="admin-time">{formatTime(record.createTime)}</span> },
        ]} />
      <Drawer open={!!open} onClose={() => setOpenId(undefined)} title={t`Position receipt`} size={Math.min(720, window.innerWidth - 48)} rootClassName="admin-drawer" destroyOnHidden>
        {open && <PositionReceipt record={open} />}
      </Drawer>
    </>
  );
}

function SecondOrdersTab() {
  const { t } = useLingui();
  const [filters, setFilters] = useState(emptyFilters);
  const [pageNo, setPageNo] = useState(1);
  const [openId, setOpenId] = useState<string>();
  const { data, isFetching, error, refetch } = useAdminSecondOrdersQuery(argsOf(filters, pageNo));
  const open = data?.records.find((record) => record.id === openId);
  return (
    <>
      <FilterBar kind="second" filters={filters} busy={isFetching} onRefresh={() => void refetch()} onChange={(next) => {
        setFilters(next);
        setPageNo(1);
      }} />
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Table<AdminSecondOrder> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} size="middle" data-testid="second-orders-table" scroll={{ x: 'max-content' }}
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        onRow={(record) => ({ onClick: () => setOpenId(record.id), style: { cursor: 'pointer' } })}
        columns={[
          { key: 'id', title: t`Order`, dataIndex: 'id' },
          { key: 'user', title: t`User`, render: (_, record) => <Owner record={record} /> },
          { key: 'symbol', title: t`Symbol`, dataIndex: 'symbol' },
          { key: 'side', title: t`Direction`, render: (_, record) => { const duration = record.duration; return `${record.direction === 'up' ? t`Up` : t`Down`} · ${t`${duration} s`}`; } },
          { key: 'amount', title: t`Stake`, align: 'right', render: (_, record) => <span className="admin-amount">{formatAmount(record.amount)}</span> },
          { key: 'pnl', title: t`Profit or loss`, align: 'right', render: (_, record) => <span className="admin-amount">{formatAmount(record.pnl)}</span> },
          { key: 'status', title: t`Status`, render: (_, record) => <SecondStatusTag record={record} /> },
          { key: 'time', title: t`Accepted`, render: (_, record) => <span className="admin-time">{formatTime(record.acceptTime)}</span> },
        ]} />
      <Drawer open={!!open} onClose={() => setOpenId(undefined)} title={t`Second contract receipt`} size={Math.min(720, window.innerWidth - 48)} rootClassName="admin-drawer" destroyOnHidden>
        {open && <SecondReceipt record={open} />}
      </Drawer>
    </>
  );
}

function SwapsTab() {
  const { t } = useLingui();
  const [filters, setFilters] = useState(emptyFilters);
  const [pageNo, setPageNo] = useState(1);
  const [openId, setOpenId] = useState<string>();
  const { data, isFetching, error, refetch } = useAdminSwapsQuery(argsOf(filters, pageNo));
  const open = data?.records.find((record) => record.id === openId);
  return (
    <>
      <FilterBar kind="swaps" filters={filters} busy={isFetching} onRefresh={() => void refetch()} onChange={(next) => {
        setFilters(next);
        setPageNo(1);
      }} />
      {error && <Alert type="error" showIcon role="alert" title={failureMessage(error)} style={{ marginBottom: 16 }} />}
      <Table<AdminSwap> rowKey="id" loading={isFetching} dataSource={data?.records ?? []} size="middle" data-testid="swaps-table" scroll={{ x: 'max-content' }}
        pagination={{ current: data?.current ?? pageNo, pageSize: data?.size ?? 20, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNo }}
        onRow={(record) => ({ onClick: () => setOpenId(record.id), style: { cursor: 'pointer' } })}
        columns={[
          { key: 'id', title: t`Swap`, dataIndex: 'id' },
          { key: 'user', title: t`User`, render: (_, record) => <Owner record={record} /> },
          { key: 'amount', title: t`Swapped`, align: 'right', render: (_, record) => <span className="admin-amount">{formatAmount(record.amount)} {record.from}</span> },
          { key: 'receive', title: t`Received`, align: 'right', render: (_, record) => <span className="admin-amount">{formatAmount(record.receive)} {record.to}</span> },
          { key: 'rate', title: t`Rate`, align: 'right', render: (_, record) => <span className="admin-amount">{record.rate}</span> },
          { key: 'time', title: t`Time`, render: (_, record) => <span className="admin-time">{formatTime(record.createTime)}</span> },
        ]} />
      <Drawer open={!!open} onClose={() => setOpenId(undefined)} title={t`Swap receipt`} size={Math.min(720, window.innerWidth - 48)} rootClassName="admin-drawer" destroyOnHidden>
        {open && <SwapReceipt record={open} />}
      </Drawer>
    </>
  );
}

export function TradesScreen() {
  const { t } = useLingui();
  return (
    <Card>
      <Alert type="info" showIcon style={{ marginBottom: 16 }}
        title={t`Read-only: no operator can close, settle or price a trade. Each receipt shows the recorded ticks it used and its arithmetic, as the user reads it.`} />
      <Tabs items={[
        { key: 'positions', label: t`Positions`, children: <PositionsTab /> },
        { key: 'second', label: t`Second contracts`, children: <SecondOrdersTab /> },
        { key: 'swaps', label: t`Swaps`, children: <SwapsTab /> },
      ]} />
    </Card>
  );
}
