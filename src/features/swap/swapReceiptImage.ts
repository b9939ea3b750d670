// What the shared receipt image (components/share/shareReceipt.ts) shows for a swap: the pair, what
// was given and received at each currency's display precision, the rate, the fee, the time and the
// ticks the rate was made from, and the record's address on the swap records page.
import { i18n } from '@lingui/core';
import { t } from '@lingui/core/macro';
import type { SwapRecord } from '../../api/contract/trading.ts';
import { formatAssetAmount } from '../../lib/assetPrecision.ts';
import { intlOf } from '../../lib/locales.ts';
import { formatEpochMs } from '../../lib/time.ts';
import { appRouteUrl, type ReceiptImage } from '../../components/share/shareReceipt.ts';

/** The records page scrolled to one record. */
export const swapReceiptRoute = (record: Pick<SwapRecord, 'id'>) => `/shanduiOrder?id=${encodeURIComponent(record.id)}`;

export function swapReceiptImage(record: SwapRecord): ReceiptImage {
  const intl = intlOf(i18n.locale);
  const amount = (value: string, currency: string) => `${formatAssetAmount(value, currency, intl, { exact: true })} ${currency}`;
  const rows = [
    { label: t`Amount`, value: amount(record.amount, record.from) },
    { label: t`Fee`, value: amount(record.fee, record.from) },
    { label: t`Rate`, value: `1 ${record.from} = ${record.rate} ${record.to}` },
    { label: t`Time`, value: formatEpochMs(record.createTime) },
    ...record.ticks.map((tick) => ({ label: `${t`Tick`} ${tick.symbol}`, value: `${tick.price} · ${formatEpochMs(tick.time, 'dateTimeMs')}` })),
  ];
  return {
    id: record.id,
    title: t`Swap receipt`,
    symbol: `${record.from} → ${record.to}`,
    result: { label: t`Received`, value: amount(record.receive, record.to), tone: 'up' },
    rows,
    note: record.ticks.length === 0 ? t`Stablecoins at par: no price was used.` : `${t`Source`}: ${record.ticks.map((tick) => tick.source).join(', ')}`,
    url: appRouteUrl(swapReceiptRoute(record)),
  };
}
