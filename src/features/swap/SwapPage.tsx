// shandui (spec §2 flash trade): swap one currency for another at a quoted rate. The user picks
// the two currencies (or turns them round), types an amount (or takes all of the balance), and
// asks for a quote: its rate, fee and what they receive, valid until `expiresAt`, counted down.
// An expired quote cannot be confirmed: the page says so and offers a new one; a refusal of the
// swap (expired, already used) is shown in place with the same offer. The result links to the records.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { ApiError } from '../../api/baseQuery.ts';
import type { SwapQuote, SwapRecord } from '../../api/contract/trading.ts';
import { failureText } from '../../api/errorMessages.ts';
import { serverNow } from '../../api/serverClock.ts';
import { useOnline } from '../../components/OfflineBanner.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { FormError } from '../../components/form/FormError.tsx';
import { formatDecimal, decimalsOf } from '../../lib/number.ts';
import { intlOf } from '../../lib/locales.ts';
import { formatEpochMs } from '../../lib/time.ts';
import { prepareTradeTexts } from '../../entities/trade/tradeTexts.ts';
import { useSwapCurrenciesQuery, useSwapMutation, useSwapQuoteMutation } from '../../entities/trade/tradeApi.ts';
import { useUserBalanceQuery } from '../../entities/wallet/walletApi.ts';
import { checkSwapAmount, quoteGoneCodes, secondsLeft, trimAmount } from './swapAmounts.ts';
import './swap.css';
import { SimulatedPricesLabel } from '../../components/SimulatedPricesLabel.tsx';
import { tickSourceLabel } from '../../components/tickSource.ts';
import { Amount } from '../../components/Amount.tsx';
import { symbolName } from '../../lib/symbolName.ts';
import { SwapRate } from './SwapRate.tsx';

export const prepare = prepareTradeTexts;

const isQuoteGone = (error: unknown) => {
  const failure = error as Partial<Extract<ApiError, { kind: 'api' }>> | undefined;
  return failure?.kind === 'api' && (quoteGoneCodes as readonly string[]).includes(failure.error ?? '');
};

/** The server's clock every second while `active` (the quote's countdown). */
function useNowMs(active: boolean) {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (!active) return undefined;
    setNow(serverNow());
    const timer = setInterval(() => setNow(serverNow()), 1000);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export default function SwapPage() {
  const { t } = useLingui();
  const navigate = useNavigate();
  const currencies = useSwapCurrenciesQuery();
  const records = (
    <button type="button" className="swap-records-link" onClick={() => navigate('/shanduiOrder')}>{t`Records`}</button>
  );
  let body;
  if (currencies.isLoading) {
    body = (
      <div className="swap-skeleton" role="status" aria-label={t`Loading`}>
        <span className="swap-skeleton-block" /><span className="swap-skeleton-block" />
      </div>
    );
  } else if (!currencies.data) {
    body = (
      <div className="swap-empty" role="alert">
        <p>{t`Swaps could not be loaded.`} {failureText(currencies.error)}</p>
        <Button color="primary" fill="outline" onClick={() => void currencies.refetch()}>{t`Retry`}</Button>
      </div>
    );
  } else if (currencies.data.currencies.length < 2) {
    body = <div className="swap-empty"><p>{t`Swaps are not available at the moment.`}</p></div>;
  } else {
    body = <SwapForm codes={currencies.data.currencies.map((entry) => entry.currency)}
      scales={Object.fromEntries(currencies.data.currencies.map((entry) => [entry.currency, entry.scale]))} />;
  }
  return (
    <div className="swap-page">
      <PageHeader title={t`Flash swap`} right={records} />
      {body}
    </div>
  );
}

function SwapForm({ codes, scales }: { codes: string[]; scales: Record<string, number> }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const navigate = useNavigate();
  const online = useOnline();
  const balances = useUserBalanceQuery();
  const [from, setFrom] = useState(codes.includes('USDT') ? 'USDT' : codes[0]);
  const [to, setTo] = useState(codes.find((code) => code !== from && code === 'BTC') ?? codes.find((code) => code !== from) ?? codes[1]);
  const [amount, setAmount] = useState('');
  const [quote, setQuote] = useState<SwapQuote>();
  const [failure, setFailure] = useState<{ message: string; gone: boolean }>();
  const [result, setResult] = useState<SwapRecord>();
  const [askQuote, quoting] = useSwapQuoteMutation();
  const [swap, swapping] = useSwapMutation();
  const nowMs = useNowMs(Boolean(quote));

  const fromScale = scales[from] ?? 8;
  const toScale = scales[to] ?? 8;
  const available = balances.data?.find((balance) => balance.currency === from)?.available;
  const check = checkSwapAmount(amount, fromScale, available);
  const left = quote ? secondsLeft(quote.expiresAt, nowMs) : 0;
  const expired = Boolean(quote) && left === 0;

  const forgetQuote = () => { setQuote(undefined); setFailure(undefined); };
  const chooseFrom = (code: string) => { if (code === to) setTo(from); setFrom(code); forgetQuote(); };
  const chooseTo = (code: string) => { if (code === from) setFrom(to); setTo(code); forgetQuote(); };
  const turnRound = () => { setFrom(to); setTo(from); setAmount(''); forgetQuote(); };

  const requestQuote = async () => {
    setFailure(undefined);
    setQuote(undefined);
    try {
      setQuote(await askQuote({ from, to, amount: amount.trim().replace(',', '.') }).unwrap());
    } catch (error) {
      setFailure({ message: failureText(error), gone: false });
    }
  };
  const confirm = async () => {
    if (!quote) return;
    setFailure(undefined);
    try {
      setResult(await swap({ quoteId: quote.quoteId }).unwrap());
      setQuote(undefined);
      setAmount('');
    } catch (error) {
      const gone = isQuoteGone(error);
      if (gone) setQuote(undefined);
      setFailure({ message: failureText(error), gone });
    }
  };

  if (result) return <SwapResult record={result} onAgain={() => setResult(undefined)} onRecords={() => navigate('/shanduiOrder')} />;

  const amountMessage = {
    empty: undefined, ok: undefined,
    invalid: t`Please enter an amount with at most ${fromScale} decimals.`,
    above_balance: t`The amount is more than your available balance.`,
  }[check];
  const disabledReason = online ? undefined : t`You are offline. Swaps resume when the connection is back.`;
  return (
    <div className="swap-form">
      <section className="swap-leg" aria-label={t`You pay`}>
        <div className="swap-leg-head">
          <label htmlFor="swap-from">{t`From`}</label>
          <span className="swap-available">
            {t`Available`}: {available !== undefined ? <Amount value={available} asset={from} scale={decimalsOf(available)} exact withAsset /> : `— ${from}`}
          </span>
        </div>
        <div className="swap-leg-row">
          <select id="swap-from" className="swap-select" value={from} onChange={(event) => chooseFrom(event.target.value)}>
            {codes.map((code) => <option key={code} value={code}>{code}</option>)}
          </select>
          <input className="swap-amount" inputMode="decimal" autoComplete="off" aria-label={t`Amount to swap`} value={amount}
            placeholder="0" aria-invalid={amountMessage ? true : undefined} aria-describedby="swap-amount-help"
            onChange={(event) => { setAmount(event.target.value); forgetQuote(); }} />
          <button type="button" className="swap-all" disabled={!available}
            onClick={() => { if (available) { setAmount(trimAmount(available)); forgetQuote(); } }}>{t`All`}</button>
        </div>
        <p id="swap-amount-help" className={`swap-help${amountMessage ? ' error' : ''}`}>{amountMessage ?? ''}</p>
      </section>

      <button type="button" className="swap-turn" aria-label={t`Swap direction`} onClick={turnRound}>
        <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round"
          strokeLinejoin="round" aria-hidden="true" focusable="false"><path d="M7 4v16M3 8l4-4 4 4M17 20V4M13 16l4 4 4-4" /></svg>
      </button>

      <section className="swap-leg" aria-label={t`You receive`}>
        <div className="swap-leg-head"><label htmlFor="swap-to">{t`To`}</label></div>
        <div className="swap-leg-row">
          <select id="swap-to" className="swap-select" value={to} onChange={(event) => chooseTo(event.target.value)}>
            {codes.map((code) => <option key={code} value={code}>{code}</option>)}
          </select>
          <output className="swap-receive" aria-label={t`You receive`}>
            {quote ? <Amount value={quote.receive} asset={to} scale={toScale} exact /> : '—'}
          </output>
        </div>
      </section>

      {quote && (
        <section className={`swap-quote${expired ? ' expired' : ''}`} aria-label={t`Quote`}>
          <dl>
            <div><dt>{t`Rate`}</dt><dd><SwapRate rate={quote.rate} from={quote.from} to={quote.to} /></dd></div>
            <div><dt>{t`Fee`}</dt><dd><Amount value={quote.fee} asset={quote.from} scale={fromScale} exact withAsset /></dd></div>
            <div><dt>{t`You receive`}</dt><dd><strong><Amount value={quote.receive} asset={quote.to} scale={toScale} exact withAsset /></strong></dd></div>
          </dl>
          <SimulatedPricesLabel sources={quote.ticks.map((tick) => tick.source)} />
          {expired
            ? <p className="swap-expired" role="alert">{t`The quote has expired. Please ask for a new one.`}</p>
            : <p className="swap-countdown" role="timer" aria-live="off">{t`Valid for ${left} s`}</p>}
          {quote.ticks.length > 0 && (
            <details className="swap-ticks">
              <summary>{t`Prices used`}</summary>
              <ul>{quote.ticks.map((tick) => (
                <li key={tick.id}>{symbolName(tick.symbol)} {formatDecimal(tick.price, decimalsOf(tick.price), intl)} · {formatEpochMs(tick.time)} · {t`Tick #${tick.id}`} · {tickSourceLabel(tick.source)}</li>
              ))}</ul>
            </details>
          )}
        </section>
      )}

      <FormError message={failure?.message} />
      {disabledReason && <p className="swap-disabled" role="status">{disabledReason}</p>}
      {quote && !expired ? (
        <Button block color="primary" size="large" loading={swapping.isLoading} disabled={Boolean(disabledReason)}
          onClick={() => void confirm()}>{t`Confirm swap`}</Button>
      ) : (
        <Button block color="primary" size="large" loading={quoting.isLoading} disabled={Boolean(disabledReason) || check !== 'ok'}
          onClick={() => void requestQuote()}>
          {quote || failure?.gone ? t`Refresh quote` : t`Get a quote`}
        </Button>
      )}
    </div>
  );
}

function SwapResult({ record, onAgain, onRecords }: { record: SwapRecord; onAgain: () => void; onRecords: () => void }) {
  const { t } = useLingui();
  return (
    <section className="swap-result" aria-labelledby="swap-result-title">
      <h2 id="swap-result-title">{t`Swap completed`}</h2>
      <p className="swap-result-line">
        <Amount value={record.amount} asset={record.from} scale={decimalsOf(record.amount)} exact withAsset /> → <strong><Amount value={record.receive} asset={record.to} scale={decimalsOf(record.receive)} exact withAsset /></strong>
      </p>
      <dl>
        <div><dt>{t`Rate`}</dt><dd><SwapRate rate={record.rate} from={record.from} to={record.to} /></dd></div>
        <div><dt>{t`Fee`}</dt><dd><Amount value={record.fee} asset={record.from} scale={decimalsOf(record.fee)} exact withAsset /></dd></div>
      </dl>
      <div className="swap-result-actions">
        <Button block fill="outline" onClick={onRecords}>{t`View records`}</Button>
        <Button block color="primary" onClick={onAgain}>{t`Swap again`}</Button>
      </div>
    </section>
  );
}
