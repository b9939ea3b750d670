// One line of the account ledger's default view (issue 19): a business event as the server folds
// it (GET /finance/appBalanceLog/events): what happened, its state (a withdrawal held → paid out
// or returned, a contract's margin held → closed), one figure, and the spot balance after it only
// where the event moved the spot balance.
import { useLingui } from '@lingui/react/macro';
import type { BalanceLogEvent } from '../../api/contract/wallet.ts';
import { Amount } from '../../components/Amount.tsx';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { eventFigure, ledgerEventLabel, ledgerEventStateLabel } from './ledgerTypes.ts';
import { decimalsOf } from '../../lib/number.ts';


export function LedgerEventRow({ event }: { event: BalanceLogEvent }) {
  const { t, i18n } = useLingui();
  const state = ledgerEventStateLabel(i18n, event);
  const figure = eventFigure(event);
  return (
    <li className="ledger-row" data-testid="ledger-event" data-type={event.type} data-state={event.state}>
      <div className="ledger-line">
        <span className="ledger-type">
          <strong>{ledgerEventLabel(i18n, event.type)}</strong>
          <span className="ledger-currency">{event.currency}</span>
          {state && <span className={`ledger-state ${event.state}`} data-testid="ledger-event-state">{state}</span>}
        </span>
        <span className={`ledger-amount ${figure.tone}`} data-testid="ledger-amount">
          <Amount value={figure.value} asset={event.currency} scale={decimalsOf(figure.value)} exact signed={figure.tone !== 'neutral'} />
        </span>
      </div>
      <div className="ledger-line ledger-sub">
        <time dateTime={isoOfEpochMs(event.time)}>{formatEpochMs(event.time)}</time>
        {event.balanceAfter !== null && (
          <span className="ledger-balance" data-testid="ledger-balance">
            {t`Balance`} <Amount value={event.balanceAfter} asset={event.currency} scale={decimalsOf(event.balanceAfter)} />
          </span>
        )}
      </div>
      {event.remark && <p className="ledger-remark">{event.remark}</p>}
    </li>
  );
}
