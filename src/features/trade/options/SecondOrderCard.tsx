// One second contract as the user reads it: while open, its countdown to expiry and the entry
// price once the first tick at or after acceptance is recorded; once settled, the result with the
// receipt (both ticks: id, price, time, source) and the rule that chose them, so the user can
// check the outcome against the recorded ticks (GET /trade/appSymbol/ticks).
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { SecondOrder, TickRef } from '../../../api/contract/trading.ts';
import { serverNow } from '../../../api/serverClock.ts';
import { formatDecimal, formatSigned } from '../../../lib/number.ts';
import { intlOf } from '../../../lib/locales.ts';
import { formatEpochMs } from '../../../lib/time.ts';
import { decimalsOf } from '../../../entities/market/format.ts';
import { countdownText, ratePercent } from './optionsMath.ts';
import { SimulatedPricesLabel } from '../../../components/SimulatedPricesLabel.tsx';
import { ShareButton } from '../../../components/share/ShareButton.tsx';
import { optionReceiptImage } from '../receipt/receiptImages.ts';
import { tickSourceLabel } from '../../../components/tickSource.ts';

/** The server's clock, read again every `intervalMs` while mounted (countdowns). */
export function useNowMs(intervalMs = 1000, active = true): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(serverNow()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs, active]);
  return now;
}

/** The colour class of a signed amount: gains green, losses red, nothing plain. */
export const pnlTone = (amount: string) => (amount.startsWith('-') ? 'pnl-down' : /^[+]?0*(\.0*)?$/.test(amount) ? 'pnl-flat' : 'pnl-up');

export function StatusBadge({ status }: { status: SecondOrder['status'] }) {
  const { t } = useLingui();
  const label = { open: t`Open`, won: t`Won`, lost: t`Lost`, draw: t`Draw` }[status];
  return <span className={`option-status option-${status}`}>{label}</span>;
}

export function DirectionBadge({ direction }: { direction: SecondOrder['direction'] }) {
  const { t } = useLingui();
  return (
    <span className={`option-direction ${direction}`}>
      <span aria-hidden="true">{direction === 'up' ? '▲' : '▼'}</span> {direction === 'up' ? t`Up` : t`Down`}
    </span>
  );
}

function TickLine({ label, tick }: { label: string; tick: TickRef }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  return (
    <div className="option-tick">
      <dt>{label}</dt>
      <dd>
        <strong>{formatDecimal(tick.price, decimalsOf(tick.price), intl)}</strong>
        <span>{formatEpochMs(tick.time)}</span>
        <span className="option-tick-meta">{t`Tick #${tick.id}`} · {t`Source: ${tickSourceLabel(tick.source)}`}</span>
        <SimulatedPricesLabel sources={[tick.source]} />
      </dd>
    </div>
  );
}

export function SecondOrderCard({ order, nowMs }: { order: SecondOrder; nowMs: number }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const open = order.status === 'open';
  const remainingMs = order.expireTime - nowMs;
  const rate = ratePercent(order.payoutRate);
  const spent = Math.min(1, Math.max(0, (nowMs - order.acceptTime) / Math.max(1, order.expireTime - order.acceptTime)));
  let openState: string | undefined;
  if (open && !order.entryTick) openState = t`Waiting for the entry price`;
  else if (open && remainingMs <= 0) openState = t`Waiting for the exit price`;

  return (
    <li className="option-order" data-order-id={order.id} data-status={order.status}>
      <div className="option-order-head">
        <strong>{order.symbol}</strong>
        <DirectionBadge direction={order.direction} />
        <StatusBadge status={order.status} />
      </div>
      <dl className="option-fields">
        <div><dt>{t`Amount`}</dt><dd>{formatDecimal(order.amount, 2, intl)} USDT</dd></div>
        <div><dt>{t`Duration`}</dt><dd>{t`${order.duration} s`}{rate ? ` · ${t`pays ${rate}%`}` : ''}</dd></div>
        {open && remainingMs > 0 && (
          <div className="option-countdown">
            <dt>{t`Settles in`}</dt>
            <dd><span role="timer" aria-label={t`Time left`}>{countdownText(remainingMs)}</span></dd>
          </div>
        )}
        {!open && order.payout !== null && <div><dt>{t`Payout`}</dt><dd>{formatDecimal(order.payout, 2, intl)} USDT</dd></div>}
        {!open && order.pnl !== null && (
          <div>
            <dt>{t`Profit or loss`}</dt>
            <dd className={pnlTone(order.pnl)}>
              {formatSigned(order.pnl, 2, intl)} USDT
            </dd>
          </div>
        )}
      </dl>
      {open && remainingMs > 0 && (
        <div className="option-progress" aria-hidden="true"><span style={{ width: `${Math.round(spent * 100)}%` }} /></div>
      )}
      {openState && <p className="option-waiting" role="status">{openState}</p>}
      {(order.entryTick || order.exitTick) && (
        <details className="option-receipt" open={!open}>
          <summary>{t`Receipt`}</summary>
          <dl>
            {order.entryTick && <TickLine label={t`Entry price`} tick={order.entryTick} />}
            {order.exitTick && <TickLine label={t`Exit price`} tick={order.exitTick} />}
            <div className="option-tick">
              <dt>{t`Accepted`}</dt><dd><span>{formatEpochMs(order.acceptTime)}</span></dd>
            </div>
            <div className="option-tick">
              <dt>{t`Expiry`}</dt><dd><span>{formatEpochMs(order.expireTime)}</span></dd>
            </div>
          </dl>
          <p className="option-rule">{t`Entry: the first recorded tick at or after acceptance. Exit: the first recorded tick at or after expiry. A win pays the amount × (1 + rate), a loss keeps the amount, equal prices refund it.`}</p>
          {!open && <div className="option-share"><ShareButton receipt={() => optionReceiptImage(order)} /></div>}
        </details>
      )}
    </li>
  );
}
