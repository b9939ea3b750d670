// One recorded tick as a receipt cites it: its id, price, time (to the millisecond) and source.
// Shared by the contract receipt and the other trading receipts (options, swap).
import { useLingui } from '@lingui/react/macro';
import type { TickRef } from '../../../api/contract/trading.ts';
import { formatEpochMs } from '../../../lib/time.ts';
import { SimulatedPricesLabel } from '../../../components/SimulatedPricesLabel.tsx';
import { tickSourceLabel } from '../../../components/tickSource.ts';
import { Amount } from '../../../components/Amount.tsx';
import { decimalsIn } from '../../../lib/assetPrecision.ts';

/** Epoch ms as the receipt writes it: local date and time with milliseconds. */
export const tickTimeText = (ms: number) => formatEpochMs(ms, 'dateTimeMs');

export function TickRow({ label, tick, highlight }: { label?: string; tick: TickRef; highlight?: boolean }) {
  const { t } = useLingui();
  const time = tickTimeText(tick.time);
  return (
    <div className={`tick-row${highlight ? ' highlight' : ''}`} data-tick-id={tick.id}>
      {label && <div className="tick-row-label">{label}</div>}
      <dl className="tick-row-fields">
        <div><dt>{t`Tick`}</dt><dd className="mono">#{tick.id}</dd></div>
        <div><dt>{t`Price`}</dt><dd className="mono"><Amount value={tick.price} decimals={decimalsIn(tick.price)} /></dd></div>
        <div><dt>{t`Time`}</dt><dd className="mono">{time}</dd></div>
        <div><dt>{t`Source`}</dt><dd>{tickSourceLabel(tick.source)} <SimulatedPricesLabel sources={[tick.source]} /></dd></div>
      </dl>
    </div>
  );
}
