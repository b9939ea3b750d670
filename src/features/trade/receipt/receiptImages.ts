// What the shared receipt image (components/share/shareReceipt.ts) shows for a closed contract
// position and a settled option: the texts in the current language, figures through the shared
// number formatting (prices at the symbol's precision, USDT at its display precision), tick times
// to the millisecond as the on-screen receipt writes them, and the receipt's in-app address.
import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import type { Position, PositionReceipt, SecondOrder } from '../../../api/contract/trading.ts';
import { formatAssetAmount } from '../../../lib/assetPrecision.ts';
import { formatDecimal, decimalsOf } from '../../../lib/number.ts';
import { intlOf } from '../../../lib/locales.ts';
import { symbolLabel } from '../../../components/HistoryFilters.tsx';
import { appRouteUrl, type ReceiptImage, type ReceiptTone } from '../../../components/share/shareReceipt.ts';
import { tickTimeText } from './TickRow.tsx';

const toneOf = (signed: string): ReceiptTone => (/^[+-]?0*(\.0*)?$/.test(signed) ? 'flat' : signed.startsWith('-') ? 'down' : 'up');

/** The address that opens a position's receipt: the contract page (or demo page) with ?receipt=. */
export const positionReceiptRoute = (position: Pick<Position, 'id' | 'demo'>) =>
  `/${position.demo ? 'demotrading' : 'heyue'}?receipt=${encodeURIComponent(position.id)}`;

/** The address of an option's receipt: the options screen with ?order=. */
export const optionReceiptRoute = (order: Pick<SecondOrder, 'id' | 'demo'>) =>
  `/${order.demo ? 'demotrading' : 'heyue'}?mode=options&order=${encodeURIComponent(order.id)}`;

/** `reason` is the close reason in words (PositionReceiptView's labels, which import this module). */
/** The precisions a receipt writes its prices and quantities in. */
export interface ReceiptUnits { pricePrecision: number; quantityPrecision: number }

export function positionReceiptImage(position: Position, receipt: PositionReceipt, units: ReceiptUnits, reason: string): ReceiptImage {
  const intl = intlOf(i18n.locale);
  const price = (text: string) => formatDecimal(text, units.pricePrecision, intl);
  const usdt = (text: string, signed = false) => `${formatAssetAmount(text, 'USDT', intl, { signed })} USDT`;
  const leverage = position.leverage;
  return {
    id: position.id,
    title: position.demo ? t`Demo contract receipt` : t`Contract receipt`,
    symbol: symbolLabel(position.symbol),
    side: position.direction === 'long' ? t`Long ${leverage}×` : t`Short ${leverage}×`,
    sideTone: position.direction === 'long' ? 'up' : 'down',
    result: { label: t`Balance change, fees included`, value: usdt(receipt.balanceChange, true), tone: toneOf(receipt.balanceChange) },
    rows: [
      { label: t`Entry price`, value: price(receipt.entryPrice) },
      { label: t`Exit price`, value: price(receipt.exitPrice) },
      { label: t`Entry tick`, value: tickTimeText(receipt.entryTick.time) },
      { label: t`Exit tick`, value: tickTimeText(receipt.exitTick.time) },
      { label: t`Quantity`, value: formatDecimal(receipt.quantity, units.quantityPrecision, intl) },
      { label: t`Margin`, value: usdt(receipt.margin) },
      { label: t`Profit or loss before fees`, value: usdt(receipt.pnl, true) },
      { label: t`Fees`, value: usdt(receipt.fee) },
    ],
    note: `${reason} · ${t`Source`}: ${receipt.exitTick.source}`,
    url: appRouteUrl(positionReceiptRoute(position)),
  };
}

export function optionReceiptImage(order: SecondOrder): ReceiptImage {
  const intl = intlOf(i18n.locale);
  const usdt = (text: string, signed = false) => `${formatAssetAmount(text, 'USDT', intl, { signed })} USDT`;
  const status = { open: t`Open`, won: t`Won`, lost: t`Lost`, draw: t`Draw` }[order.status];
  const pnl = order.pnl ?? '0';
  const rows: Array<{ label: string; value: string }> = [
    { label: t`Amount`, value: usdt(order.amount) },
    { label: t`Duration`, value: t`${order.duration} s` },
  ];
  if (order.entryTick) {
    rows.push({ label: t`Entry price`, value: formatDecimal(order.entryTick.price, decimalsOf(order.entryTick.price), intl) });
    rows.push({ label: t`Entry tick`, value: tickTimeText(order.entryTick.time) });
  }
  if (order.exitTick) {
    rows.push({ label: t`Exit price`, value: formatDecimal(order.exitTick.price, decimalsOf(order.exitTick.price), intl) });
    rows.push({ label: t`Exit tick`, value: tickTimeText(order.exitTick.time) });
  }
  if (order.payout !== null) rows.push({ label: t`Payout`, value: usdt(order.payout) });
  return {
    id: order.id,
    title: order.demo ? t`Demo option receipt` : t`Option receipt`,
    symbol: symbolLabel(order.symbol),
    side: `${order.direction === 'up' ? `▲ ${t`Up`}` : `▼ ${t`Down`}`} · ${status}`,
    sideTone: order.status === 'won' ? 'up' : order.status === 'lost' ? 'down' : 'flat',
    result: { label: t`Profit or loss`, value: usdt(pnl, true), tone: toneOf(pnl) },
    rows,
    note: order.exitTick ? `${t`Source`}: ${order.exitTick.source}` : undefined,
    url: appRouteUrl(optionReceiptRoute(order)),
  };
}
