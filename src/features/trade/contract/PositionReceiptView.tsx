// The receipt of a closed position: why it closed, the two recorded ticks it used (id, price,
// time, source), every figure of PositionReceipt and the line of arithmetic that gives each one
// (tradingMath.ts, written out in the README), so the user can redo it by hand. A button loads the
// recorded ticks around the exit from the server (GET /trade/appSymbol/ticks), where the exit tick
// is found among its neighbours: the price was the market's, not one chosen for this position.
import { useState } from 'react';
import { Button, DotLoading } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CloseReason, Position, PositionReceipt } from '../../../api/contract/trading.ts';
import { feeOf, marginScale, notional, parseRate } from '../../../api/contract/tradingMath.ts';
import { formatAmount } from '../../../api/contract/amounts.ts';
import { failureText } from '../../../api/errorMessages.ts';
import { useTicksQuery } from '../../../entities/trade/tradeApi.ts';
import { halfSpreadText, unitsOf } from './preview.ts';
import { TickRow } from '../receipt/TickRow.tsx';
import { ShareButton } from '../../../components/share/ShareButton.tsx';
import { positionReceiptImage } from '../receipt/receiptImages.ts';
import { Amount } from '../../../components/Amount.tsx';
import { decimalsIn, formatExact } from '../../../lib/assetPrecision.ts';
import { intlOf } from '../../../lib/locales.ts';

export const closeReasonLabels: Record<CloseReason, MessageDescriptor> = {
  user: msg`Closed by you`,
  take_profit: msg`Take-profit reached`,
  stop_loss: msg`Stop-loss reached`,
  liquidation: msg`Liquidated (margin exhausted)`,
  competition_end: msg`Closed at the competition's end`,
};

/** Milliseconds either side of the exit tick that "Check the ticks" loads. */
export const tickWindowMs = 10_000;

import type { ReceiptUnits } from '../receipt/receiptImages.ts';
export type { ReceiptUnits };

/** Notionals at entry and exit, and the nominal close fee, recomputed from the receipt's own figures. */
export function receiptNotionals(receipt: PositionReceipt, units: ReceiptUnits, feeRate: string) {
  const quantity = unitsOf(receipt.quantity, units.quantityPrecision) ?? 0n;
  const entry = unitsOf(receipt.entryPrice, units.pricePrecision) ?? 0n;
  const exit = unitsOf(receipt.exitPrice, units.pricePrecision) ?? 0n;
  const entryNotional = notional(units, quantity, entry);
  const exitNotional = notional(units, quantity, exit);
  return {
    entryNotional: formatAmount(entryNotional, marginScale),
    exitNotional: formatAmount(exitNotional, marginScale),
    nominalCloseFee: formatAmount(feeOf(exitNotional, parseRate(feeRate) ?? 0), marginScale),
  };
}

function Figure({ label, value, formula, testId }: { label: string; value: string; formula?: string; testId?: string }) {
  // Every decimal the server wrote (a receipt is checked digit by digit), grouped (issue 19 polish).
  return (
    <div className="receipt-figure" data-testid={testId}>
      <dt>{label}</dt>
      <dd><Amount className="mono receipt-value" value={value} decimals={decimalsIn(value)} />{formula && <span className="receipt-formula mono">{formula}</span>}</dd>
    </div>
  );
}

function TicksAround({ position, receipt }: { position: Position; receipt: PositionReceipt }) {
  const { t } = useLingui();
  const from = Math.max(0, receipt.exitTick.time - tickWindowMs);
  const ticks = useTicksQuery({ symbol: position.symbol, from, to: receipt.exitTick.time + tickWindowMs });
  if (ticks.isLoading) return <div className="receipt-note" aria-busy="true"><DotLoading /> {t`Loading...`}</div>;
  if (ticks.error || !ticks.data) {
    return (
      <div className="receipt-note" role="alert">
        {failureText(ticks.error)}{' '}
        <button type="button" className="link-button" onClick={() => void ticks.refetch()}>{t`Retry`}</button>
      </div>
    );
  }
  const found = ticks.data.some((tick) => tick.id === receipt.exitTick.id && tick.price === receipt.exitTick.price);
  const count = ticks.data.length;
  return (
    <div className="receipt-ticks">
      <p className={`receipt-note ${found ? 'ok' : 'bad'}`} role="status">
        {found ? t`The exit tick is among the ${count} ticks the server recorded around it.`
          : t`The exit tick was not found among the recorded ticks.`}
      </p>
      <ol className="receipt-tick-list" aria-label={t`Recorded ticks around the exit`}>
        {ticks.data.map((tick) => <li key={tick.id}><TickRow tick={tick} highlight={tick.id === receipt.exitTick.id} /></li>)}
      </ol>
    </div>
  );
}

export function PositionReceiptView({ position, receipt, units }: { position: Position; receipt: PositionReceipt; units: ReceiptUnits }) {
  const { t, i18n } = useLingui();
  const [checking, setChecking] = useState(false);
  const intl = intlOf(i18n.locale);
  // The formulas' operands grouped as the figures are; the raw strings stay in the receipt object.
  const g = (text: string) => formatExact(text, intl);
  const long = position.direction === 'long';
  const half = g(halfSpreadText(position.spread, units.pricePrecision));
  const notionals = receiptNotionals(receipt, units, position.feeRate);
  const entryNotional = g(notionals.entryNotional);
  const exitNotional = g(notionals.exitNotional);
  const nominalCloseFee = g(notionals.nominalCloseFee);
  const feeRate = position.feeRate;
  const sign = long ? '+' : '−';
  const exitSign = long ? '−' : '+';
  const move = long ? `(${g(receipt.exitPrice)} − ${g(receipt.entryPrice)})` : `(${g(receipt.entryPrice)} − ${g(receipt.exitPrice)})`;
  const margin = g(receipt.margin);
  const capped = receipt.shortfall !== '0' && !/^0(\.0+)?$/.test(receipt.shortfall);
  return (
    <section className="receipt" aria-label={t`Receipt`}>
      <div className="receipt-head-row">
        <p className="receipt-reason" data-testid="receipt-reason">{i18n._(closeReasonLabels[receipt.reason])}</p>
        <ShareButton receipt={() => positionReceiptImage(position, receipt, units, i18n._(closeReasonLabels[receipt.reason]))} />
      </div>
      <div className="receipt-ticks-pair">
        <TickRow label={t`Entry tick`} tick={receipt.entryTick} />
        <TickRow label={t`Exit tick`} tick={receipt.exitTick} />
      </div>
      <dl className="receipt-figures">
        <Figure label={t`Entry price`} value={receipt.entryPrice} testId="receipt-entry"
          formula={`${g(receipt.entryTick.price)} ${sign} ${half} (${t`half the spread`})`} />
        <Figure label={t`Exit price`} value={receipt.exitPrice} testId="receipt-exit"
          formula={`${g(receipt.exitTick.price)} ${exitSign} ${half} (${t`half the spread`})`} />
        <Figure label={t`Quantity`} value={receipt.quantity} testId="receipt-quantity" />
        <Figure label={t`Margin`} value={receipt.margin} testId="receipt-margin" />
        <Figure label={t`Gross profit or loss`} value={receipt.grossPnl} testId="receipt-gross"
          formula={`${move} × ${g(receipt.quantity)}`} />
        <Figure label={t`Profit or loss`} value={receipt.pnl} testId="receipt-pnl"
          formula={capped ? t`The loss stops at the margin: −${margin}` : t`The gross, the loss never beyond the margin`} />
        <Figure label={t`Borne by the platform`} value={receipt.shortfall} testId="receipt-shortfall"
          formula={t`The part of a loss beyond the margin`} />
        <Figure label={t`Opening fee`} value={receipt.openFee} testId="receipt-open-fee"
          formula={`${entryNotional} × ${feeRate} (${t`entry notional × fee rate`})`} />
        <Figure label={t`Closing fee`} value={receipt.closeFee} testId="receipt-close-fee"
          formula={`${exitNotional} × ${feeRate} = ${nominalCloseFee} (${t`at most what is left of the margin`})`} />
        <Figure label={t`Fees`} value={receipt.fee} testId="receipt-fee" formula={`${g(receipt.openFee)} + ${g(receipt.closeFee)}`} />
        <Figure label={t`Paid back at close`} value={receipt.payout} testId="receipt-payout"
          formula={`${margin} + (${g(receipt.pnl)}) − ${g(receipt.closeFee)}`} />
        <Figure label={t`Balance change`} value={receipt.balanceChange} testId="receipt-balance-change"
          formula={`${g(receipt.pnl)} − ${g(receipt.fee)}`} />
      </dl>
      <p className="receipt-note">{t`Amounts in USDT. Every division truncates; the formulas are in the app's README.`}</p>
      {checking ? <TicksAround position={position} receipt={receipt} /> : (
        <Button size="small" fill="outline" onClick={() => setChecking(true)}>{t`Check the recorded ticks`}</Button>
      )}
    </section>
  );
}
