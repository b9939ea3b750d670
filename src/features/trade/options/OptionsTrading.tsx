// Options (second contracts, issue 10): pick a symbol whose second contracts are enabled, see its
// live price, choose up or down, a duration (each with its payout rate) and an amount within the
// set's bounds and the balance, read what a win pays before confirming, and buy. The order's
// clientOrderId is kept while the same order is retried, so a flaky network never buys twice.
// Below: the trade asset info (spec §3: balance, open orders, today's P/L), the open contracts
// with their countdowns, and the history with each result's receipt. Shown in /heyue's Options
// segment and, with `demo`, on /demotrading against the virtual funds.
import { useEffect, useRef, useState } from 'react';
import { Button, Popup } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { SecondContractSet, SecondDirection } from '../../../api/contract/trading.ts';
import { failureText } from '../../../api/errorMessages.ts';
import { useOnline } from '../../../components/OfflineBanner.tsx';
import { FormError } from '../../../components/form/FormError.tsx';
import { showToast } from '../../../components/feedback.tsx';
import { formatDecimal } from '../../../lib/number.ts';
import { intlOf } from '../../../lib/locales.ts';
import { pickSymbol, rememberSymbol } from '../../../lib/lastSymbol.ts';
import { formatReopening, tickerPrice } from '../../../entities/market/format.ts';
import { useTickers } from '../../../entities/market/useMarketData.ts';
import { prepareTradeTexts } from '../../../entities/trade/tradeTexts.ts';
import { useBuySecondMutation, useSecondHeadQuery, useSecondSetsQuery } from '../../../entities/trade/tradeApi.ts';
import { OpenOrders, OptionsHistory } from './OptionsOrders.tsx';
import { pnlTone } from './SecondOrderCard.tsx';
import {
  checkStake, formatAtomic, newClientOrderId, parseAtomic, ratePercent, shownDecimals, winPayoutAtomic, type StakeCheck,
} from './optionsMath.ts';
import '../options.css';
import { SimulatedPricesLabel } from '../../../components/SimulatedPricesLabel.tsx';
import { symbolName } from '../../../lib/symbolName.ts';
import { Amount } from '../../../components/Amount.tsx';
import PushOffer from '../../../components/PushOffer.tsx';

export const prepare = prepareTradeTexts;

/** The sets a user can buy: enabled, with at least one duration. */
export const buyableSets = (sets: readonly SecondContractSet[] | undefined) =>
  (sets ?? []).filter((set) => set.enabled && set.durations.length > 0);

export default function OptionsTrading({ demo = false }: { demo?: boolean }) {
  const { t } = useLingui();
  const sets = useSecondSetsQuery();
  const buyable = buyableSets(sets.data);

  let body;
  if (sets.isLoading) {
    body = (
      <div className="options-skeleton" role="status" aria-label={t`Loading options`}>
        <span className="skeleton-block" /><span className="skeleton-block short" /><span className="skeleton-block" />
      </div>
    );
  } else if (!sets.data && sets.isError) {
    body = (
      <div className="options-empty" role="alert">
        <p>{t`Options could not be loaded.`} {failureText(sets.error)}</p>
        <Button color="primary" fill="outline" onClick={() => void sets.refetch()}>{t`Retry`}</Button>
      </div>
    );
  } else if (buyable.length === 0) {
    body = <div className="options-empty"><p>{t`No options are offered at the moment.`}</p></div>;
  } else {
    body = <BuyForm sets={buyable} demo={demo} />;
  }
  return (
    <div className={`options${demo ? ' options-demo' : ''}`}>
      <TradeAssetInfo demo={demo} />
      {body}
      <OpenOrders demo={demo} />
      <OptionsHistory demo={demo} />
    </div>
  );
}

/** Spec §3 trade asset info, from the second-contract head call. */
function TradeAssetInfo({ demo }: { demo: boolean }) {
  const { t } = useLingui();
  const head = useSecondHeadQuery({ demo });
  const data = head.data;
  return (
    <section className="options-head" aria-label={demo ? t`Virtual trade assets` : t`Trade assets`}>
      <div>
        <span>{demo ? t`Virtual balance` : t`Available`}</span>
        <strong data-testid="options-balance">{data ? <Amount value={data.balance} asset="USDT" withAsset /> : '—'}</strong>
      </div>
      <div>
        <span>{t`Open orders`}</span>
        <strong>{data ? data.openOrders : '—'}</strong>
      </div>
      <div>
        <span>{t`Today's P/L`}</span>
        <strong className={data ? pnlTone(data.todayPnl) : ''}>{data ? <Amount value={data.todayPnl} asset="USDT" signed /> : '—'}</strong>
      </div>
    </section>
  );
}

interface OrderDraft { symbol: string; direction: SecondDirection; duration: number; amount: string }

function BuyForm({ sets, demo }: { sets: SecondContractSet[]; demo: boolean }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const online = useOnline();
  const { tickers } = useTickers();
  const head = useSecondHeadQuery({ demo });
  const [buy, buying] = useBuySecondMutation();
  // Opens on the symbol viewed last on any page, else BTCUSDT (lib/lastSymbol.ts), not the alphabet's first.
  const [symbol, setSymbol] = useState(() => pickSymbol(sets.map((candidate) => candidate.symbol)) ?? sets[0].symbol);
  const set = sets.find((candidate) => candidate.symbol === symbol) ?? sets[0];
  useEffect(() => rememberSymbol(set.symbol), [set.symbol]);
  const [direction, setDirection] = useState<SecondDirection>('up');
  const [durationChoice, setDuration] = useState(set.durations[0].seconds);
  const duration = set.durations.find((choice) => choice.seconds === durationChoice) ?? set.durations[0];
  const [amount, setAmount] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string>();
  /** A real option bought from this form: the first one on this device offers push. */
  const [boughtHere, setBoughtHere] = useState(false);
  const ticker = tickers?.find((candidate) => candidate.symbol === set.symbol);

  // One retry key per order: kept while the same order is retried after a failure, new for a changed one.
  const draft: OrderDraft = { symbol: set.symbol, direction, duration: duration.seconds, amount: amount.trim() };
  const draftKey = JSON.stringify(draft);
  const retryKey = useRef<{ key: string; clientOrderId: string } | undefined>(undefined);
  const clientOrderIdFor = (key: string) => {
    if (retryKey.current?.key !== key) retryKey.current = { key, clientOrderId: newClientOrderId() };
    return retryKey.current.clientOrderId;
  };
  useEffect(() => setFailure(undefined), [draftKey]);

  const check = checkStake(amount, set.amountMin, set.amountMax, head.data?.balance);
  const amountAtomic = parseAtomic(amount);
  const winAtomic = check === 'ok' && amountAtomic !== undefined ? winPayoutAtomic(amountAtomic, duration.payoutRate) : undefined;
  const winExact = winAtomic !== undefined ? formatAtomic(winAtomic) : undefined;
  const winText = winExact !== undefined ? formatDecimal(winExact, shownDecimals(winExact), intl) : undefined;
  const rate = ratePercent(duration.payoutRate) ?? duration.payoutRate;
  const closedReason = !set.open
    ? (set.reopensAt ? t`The market is closed. Trading resumes ${formatReopening(set.reopensAt, intl)}.` : t`The market is closed.`)
    : undefined;
  const offlineReason = online ? undefined : t`You are offline. Trading resumes when the connection is back.`;
  const disabledReason = offlineReason ?? closedReason;
  const min = formatDecimal(set.amountMin, 2, intl);
  const max = formatDecimal(set.amountMax, 2, intl);
  const stakeMessages: Partial<Record<StakeCheck, string>> = {
    invalid: t`Please enter an amount with at most 6 decimals.`,
    below_min: t`The minimum is ${min} USDT.`,
    above_max: t`The maximum is ${max} USDT.`,
    above_balance: t`The amount is more than your available balance.`,
  };
  const available = head.data ? formatDecimal(head.data.balance, 2, intl) : '—';
  const message = amount.trim() === '' ? undefined : stakeMessages[check];

  const submit = async () => {
    setFailure(undefined);
    try {
      await buy({
        symbol: draft.symbol, direction: draft.direction, duration: draft.duration,
        amount: formatAtomic(amountAtomic ?? 0n), clientOrderId: clientOrderIdFor(draftKey), ...(demo ? { demo: true } : {}),
      }).unwrap();
      retryKey.current = undefined;
      setConfirming(false);
      setAmount('');
      void showToast(t`Order placed`);
      if (!demo) setBoughtHere(true);
    } catch (error) {
      setFailure(failureText(error));
    }
  };

  const durationLabel = (seconds: number) => (seconds % 60 === 0 ? t`${seconds / 60} min` : t`${seconds} s`);
  return (
    <section className="options-form" aria-label={t`Buy an option`}>
      <div className="options-symbol-row">
        <label className="options-field-label" htmlFor={`options-symbol${demo ? '-demo' : ''}`}>{t`Symbol`}</label>
        <select id={`options-symbol${demo ? '-demo' : ''}`} className="options-select" value={set.symbol}
          onChange={(event) => { setSymbol(event.target.value); setDuration(0); }}>
          {sets.map((candidate) => <option key={candidate.symbol} value={candidate.symbol}>{symbolName(candidate.symbol)}</option>)}
        </select>
        <span className="options-price" aria-live="polite" aria-label={t`Last price`}>
          {ticker ? tickerPrice(ticker, intl) : '—'}
        </span>
        <SimulatedPricesLabel sources={[ticker?.source]} />
      </div>

      <div className="options-directions" role="group" aria-label={t`Direction`}>
        <button type="button" className={`options-direction up${direction === 'up' ? ' active' : ''}`} aria-pressed={direction === 'up'}
          onClick={() => setDirection('up')}>▲ {t`Up`}</button>
        <button type="button" className={`options-direction down${direction === 'down' ? ' active' : ''}`} aria-pressed={direction === 'down'}
          onClick={() => setDirection('down')}>▼ {t`Down`}</button>
      </div>

      <div className="options-durations" role="group" aria-label={t`Duration`}>
        {set.durations.map((choice) => (
          <button key={choice.seconds} type="button" aria-pressed={choice.seconds === duration.seconds}
            className={`options-duration${choice.seconds === duration.seconds ? ' active' : ''}`} onClick={() => setDuration(choice.seconds)}>
            <strong>{durationLabel(choice.seconds)}</strong>
            <span>{t`pays ${ratePercent(choice.payoutRate) ?? choice.payoutRate}%`}</span>
          </button>
        ))}
      </div>

      <label className="options-field-label" htmlFor={`options-amount${demo ? '-demo' : ''}`}>{t`Amount (USDT)`}</label>
      <div className="options-amount">
        <input id={`options-amount${demo ? '-demo' : ''}`} inputMode="decimal" autoComplete="off" value={amount}
          placeholder={`${min} – ${max}`}
          aria-invalid={message ? true : undefined} aria-describedby={`options-amount-help${demo ? '-demo' : ''}`}
          onChange={(event) => setAmount(event.target.value.replace(',', '.'))} />
      </div>
      <p id={`options-amount-help${demo ? '-demo' : ''}`} className={message ? 'options-help error' : 'options-help'}>
        {message ?? t`From ${min} to ${max} USDT · available ${available}`}
      </p>

      <div className="options-preview" aria-live="polite">
        <span>{t`If it wins, you receive`}</span>
        <strong data-testid="options-win">{winText !== undefined ? `${winText} USDT` : '—'}</strong>
      </div>

      {disabledReason && <p className="options-disabled" role="status">{disabledReason}</p>}
      {!confirming && <FormError message={failure} />}
      <Button block color={direction === 'up' ? 'success' : 'danger'} disabled={Boolean(disabledReason) || check !== 'ok'}
        onClick={() => { setFailure(undefined); setConfirming(true); }}>
        {direction === 'up' ? t`Buy Up` : t`Buy Down`}
      </Button>
      {boughtHere && <PushOffer reason="option" />}

      <Popup visible={confirming} onMaskClick={() => setConfirming(false)} bodyClassName="options-sheet" destroyOnClose>
        <div role="dialog" aria-modal="true" aria-labelledby="options-sheet-title">
          <h2 id="options-sheet-title">{t`Confirm the order`}</h2>
          <dl className="options-summary">
            <div><dt>{t`Symbol`}</dt><dd>{set.symbol}</dd></div>
            <div><dt>{t`Direction`}</dt><dd>{direction === 'up' ? t`Up` : t`Down`}</dd></div>
            <div><dt>{t`Duration`}</dt><dd>{durationLabel(duration.seconds)}</dd></div>
            <div><dt>{t`Amount`}</dt><dd>{amountAtomic !== undefined ? formatDecimal(formatAtomic(amountAtomic), shownDecimals(formatAtomic(amountAtomic)), intl) : '—'} USDT</dd></div>
            <div><dt>{t`Payout rate`}</dt><dd>{rate}%</dd></div>
            <div><dt>{t`If it wins`}</dt><dd>{winText ?? '—'} USDT</dd></div>
            <div><dt>{t`If it loses`}</dt><dd>{formatDecimal('0', 2, intl)} USDT</dd></div>
            <div><dt>{t`If the prices are equal`}</dt><dd>{t`The amount is refunded`}</dd></div>
          </dl>
          <p className="option-rule">{t`Entry: the first recorded tick at or after acceptance. Exit: the first recorded tick at or after expiry.`}</p>
          {demo && <p className="options-demo-note">{t`Demo — virtual funds`}</p>}
          <FormError message={failure} />
          <div className="options-sheet-actions">
            <Button block fill="outline" onClick={() => setConfirming(false)}>{t`Cancel`}</Button>
            <Button block color="primary" loading={buying.isLoading} disabled={Boolean(disabledReason)} onClick={() => void submit()}>
              {failure ? t`Try again` : t`Confirm`}
            </Button>
          </div>
        </div>
      </Popup>
    </section>
  );
}
