// An order as the confirmation and orders pages show it: its status chip (the spec's five
// states), its figures (amount, start, end, expected return, income so far), the operator's
// reason when frozen, and its daily receipts with the inputs each was computed from, so a user
// can recompute every payment.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { AccrualReceipt, OrderStatus, ProductOrder } from '../../api/contract/products.ts';
import { formatAmount } from '../../api/contract/amounts.ts';
import { Amount } from '../../components/Amount.tsx';
import { formatCalendarDate, formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { useOrderReceiptsQuery } from './investApi.ts';
import { atomicOf, scaleOf } from '../../entities/invest/investMath.ts';
import { Figure, useRateText } from '../../entities/invest/parts.tsx';

/** The spec's five order states in words (descriptors: `t` of useLingui is a macro of its own scope only). */
export const orderStatusLabels: Record<OrderStatus, MessageDescriptor> = {
  running: msg`Running`, ended: msg`Ended`, frozen: msg`Frozen`, not_started: msg`Not started`, cancelled: msg`Cancelled`,
};

const toneOf: Record<OrderStatus, string> = { running: 'done', ended: 'unknown', frozen: 'refused', not_started: 'pending', cancelled: 'unknown' };

export function OrderStatusChip({ status }: { status: OrderStatus }) {
  const { i18n } = useLingui();
  return <span className={`order-chip tone-${toneOf[status]}`}>{i18n._(orderStatusLabels[status])}</span>;
}

/** Expected return of an order: what was paid so far and what is still owed. */
export function expectedOf(order: ProductOrder): string {
  const scale = scaleOf(order.owed);
  return formatAmount(atomicOf(order.accumulatedIncome, scale) + atomicOf(order.owed, scale), scale);
}

function When({ ms }: { ms: number }) {
  return <time dateTime={isoOfEpochMs(ms)}>{formatEpochMs(ms)}</time>;
}

export function OrderFigures({ order }: { order: ProductOrder }) {
  const { t } = useLingui();
  const rate = useRateText();
  const days = order.days;
  const quantity = order.quantity;
  const remaining = order.remainingDays;
  return (
    <dl className="invest-figures">
      {order.productType === 'mining'
        ? <Figure label={t`Machines`}>{quantity}</Figure>
        : <Figure label={t`Amount`} testId="order-amount"><Amount value={order.amount} asset={order.asset} exact withAsset /></Figure>}
      {order.productType === 'mining' && <Figure label={t`Paid`}><Amount value={order.amount} asset={order.asset} exact withAsset /></Figure>}
      {order.productType !== 'mining' && <Figure label={t`Daily rate`}>{rate(order.dailyRate)}</Figure>}
      <Figure label={t`Term`}>{t`${days} days`}</Figure>
      <Figure label={t`Start`}><When ms={order.startsAt} /></Figure>
      <Figure label={t`End`}><When ms={order.endsAt} /></Figure>
      {(order.status === 'running' || order.status === 'frozen') && <Figure label={t`Remaining period`}>{t`${remaining} days`}</Figure>}
      {order.productType !== 'mining' && (
        <Figure label={t`Expected return`} testId="order-expected" strong><Amount value={expectedOf(order)} asset={order.payoutAsset} exact withAsset /></Figure>
      )}
      <Figure label={t`Today's income`} testId="order-today"><Amount value={order.todayIncome} asset={order.payoutAsset} exact withAsset /></Figure>
      <Figure label={t`Accumulated income`} testId="order-accumulated"><Amount value={order.accumulatedIncome} asset={order.payoutAsset} exact withAsset /></Figure>
    </dl>
  );
}

export function FrozenReason({ order }: { order: ProductOrder }) {
  const { t } = useLingui();
  if (order.status !== 'frozen') return null;
  return (
    <div className="order-reason" role="note">
      <span className="order-reason-label">{t`Frozen by an operator`}</span>
      <p>{order.frozenReason || t`No reason was given.`}</p>
      <p className="order-reason-note">{t`A frozen order earns nothing until it is released.`}</p>
    </div>
  );
}

/** The inputs of a receipt as "name: value" lines, in the receipt's order. */
export function inputLines(receipt: AccrualReceipt): Array<[string, string]> {
  return Object.entries(receipt.inputs).map(([name, value]) => [name, String(value)]);
}

/** An order's daily receipts, opened on demand. */
export function OrderReceipts({ order }: { order: ProductOrder }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const receipts = useOrderReceiptsQuery(order.id, { skip: !open });
  const rows = receipts.data?.records ?? [];
  const listId = `receipts-${order.id}`;
  return (
    <div className="order-receipts">
      <button type="button" className="link-button" aria-expanded={open} aria-controls={listId} onClick={() => setOpen((now) => !now)}>
        {open ? t`Hide daily receipts` : t`Show daily receipts`}
      </button>
      {open && (
        <div id={listId}>
          {receipts.isLoading && <p className="buy-note">{t`Loading...`}</p>}
          {receipts.isError && <p className="buy-refusal" role="alert">{t`The receipts could not be loaded.`}</p>}
          {!receipts.isLoading && !receipts.isError && rows.length === 0 && <p className="buy-note">{t`No income paid yet.`}</p>}
          {rows.length > 0 && (
            <ul className="receipt-list" aria-label={t`Daily receipts`}>
              {rows.map((receipt) => (
                <li key={receipt.day} className="receipt">
                  <div className="receipt-head">
                    <span>{formatCalendarDate(receipt.day)}</span>
                    <Amount value={receipt.amount} asset={receipt.asset} exact withAsset />
                  </div>
                  <dl className="receipt-inputs" aria-label={t`Inputs`}>
                    {inputLines(receipt).map(([name, value]) => <div key={name}><dt>{name}</dt><dd>{value}</dd></div>)}
                  </dl>
                  {order.productType !== 'mining' && receipt.inputs.formula === undefined && <p className="receipt-formula">{t`principal × rate (ppm) ÷ 1,000,000, rounded down`}</p>}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
