// The contract screen (/heyue's "Contracts", and /demotrading with `demo`): a symbol switcher with
// the live price, bid and ask (last ∓ half the spread), the 24 h change and a link to the chart;
// the summary of the user's contract funds; the order form; the positions and their history.
// Trading is off, with the reason on the screen, while the device is offline or the symbol's
// market is closed (with when it reopens). With `demo`, every call carries `demo: true` (the demo
// ledger's virtual funds) and the screen says "Demo" wherever money shows.
import { useEffect, useMemo } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button, ErrorBlock, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { formatAmount } from '../../../api/contract/amounts.ts';
import type { Direction, SymbolTradeSettings } from '../../../api/contract/trading.ts';
import { useOnline } from '../../../components/OfflineBanner.tsx';
import { failureText } from '../../../api/errorMessages.ts';
import { formatDecimal, formatPercent } from '../../../lib/number.ts';
import { intlOf } from '../../../lib/locales.ts';
import { pickSymbol, rememberSymbol } from '../../../lib/lastSymbol.ts';
import { directionOf, formatReopening } from '../../../entities/market/format.ts';
import { useTickers } from '../../../entities/market/useMarketData.ts';
import { prepareTradeTexts } from '../../../entities/trade/tradeTexts.ts';
import { usePositionsSummaryQuery, useTradeSettingsQuery } from '../../../entities/trade/tradeApi.ts';
import { OrderForm } from './OrderForm.tsx';
import { PositionsPanel } from './PositionsPanel.tsx';
import { quoteOf } from './preview.ts';
import '../trade.css';
import { SimulatedPricesLabel } from '../../../components/SimulatedPricesLabel.tsx';
import { symbolName } from '../../../lib/symbolName.ts';
import { Amount } from '../../../components/Amount.tsx';
import { useMyCompetitionEntriesQuery } from '../../../entities/competitions/competitionsApi.ts';

export const prepare = prepareTradeTexts;

/** The summary's unrealised profit or loss is the server's at its last prices: refreshed this often. */
export const summaryPollMs = 5_000;

/** Why trading is off now, or undefined when it is on. */
export function tradingOffReason(online: boolean, settings: Pick<SymbolTradeSettings, 'open' | 'reopensAt'> | undefined,
  texts: { offline: string; closed: string; closedUntil: (when: number) => string }): string | undefined {
  if (!online) return texts.offline;
  if (settings && !settings.open) return settings.reopensAt ? texts.closedUntil(settings.reopensAt) : texts.closed;
  return undefined;
}

export const sideParam = (value: string | null): Direction | undefined => (value === 'long' || value === 'short' ? value : undefined);

export default function ContractTrading({ demo = false }: { demo?: boolean }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const [params, setParams] = useSearchParams();
  const online = useOnline();
  const settings = useTradeSettingsQuery();
  const view = useTickers();
  const summary = usePositionsSummaryQuery(demo ? { demo: true } : {}, { pollingInterval: summaryPollMs, skipPollingIfUnfocused: true });
  // Issue 23: a user in a running trading competition may trade on its account (`?competitionId=` picks it).
  const entries = useMyCompetitionEntriesQuery(undefined, { skip: demo, pollingInterval: summaryPollMs, skipPollingIfUnfocused: true });
  const running = (entries.data?.records ?? []).find((entry) => entry.state === 'joined' && entry.status === 1);
  const competitionChosen = running !== undefined && params.get('competitionId') === running.competitionId;
  const chooseAccount = (competition: boolean) => {
    const next = new URLSearchParams(params);
    if (competition && running) next.set('competitionId', running.competitionId); else next.delete('competitionId');
    setParams(next, { replace: true });
  };

  const enabled = useMemo(() => (settings.data ?? []).filter((item) => item.enabled), [settings.data]);
  const asked = params.get('symbol')?.toUpperCase();
  // The symbol in the address, else the one viewed last on any page, else BTCUSDT (lib/lastSymbol.ts).
  const opened = pickSymbol(enabled.map((item) => item.symbol), asked);
  const symbolSettings = enabled.find((item) => item.symbol === opened);
  const shownSymbol = symbolSettings?.symbol;
  useEffect(() => {
    if (shownSymbol) rememberSymbol(shownSymbol);
  }, [shownSymbol]);
  const ticker = view.tickers?.find((item) => item.symbol === symbolSettings?.symbol);
  const quote = symbolSettings && ticker ? quoteOf(symbolSettings, ticker.last) : undefined;
  const side = sideParam(params.get('side'));
  const pp = symbolSettings?.pricePrecision ?? 2;
  const price = (value: bigint) => formatDecimal(formatAmount(value, pp), pp, intl);
  const money = (text: string | undefined) => (text === undefined ? '—' : <Amount value={text} asset="USDT" />);

  const offReason = tradingOffReason(online, symbolSettings, {
    offline: t`You are offline. Trading resumes when you are back online.`,
    closed: t`The market is closed.`,
    closedUntil: (when) => {
      const reopening = formatReopening(when, intl);
      return t`The market is closed. It reopens ${reopening}.`;
    },
  });
  const noPrice = !offReason && symbolSettings && !quote && !view.loading ? t`No current price for this symbol. Please try again in a moment.` : undefined;
  const disabledReason = offReason ?? noPrice;

  const chooseSymbol = (symbol: string) => {
    const next = new URLSearchParams(params);
    next.set('symbol', symbol);
    setParams(next, { replace: true });
  };

  const demoBadge = demo ? <span className="demo-badge">{t`Demo`}</span> : null;

  if (settings.isLoading) {
    return <div className="contract-trading" aria-busy="true" aria-label={t`Loading...`}>
      <Skeleton.Title animated /><Skeleton.Paragraph lineCount={8} animated />
    </div>;
  }
  if (settings.error || !settings.data) {
    return (
      <div className="contract-trading">
        <ErrorBlock status="disconnected" title={t`Could not load the contracts`} description={failureText(settings.error)}>
          <Button color="primary" onClick={() => void settings.refetch()}>{t`Retry`}</Button>
        </ErrorBlock>
      </div>
    );
  }
  if (!symbolSettings) {
    return <div className="contract-trading"><p className="empty-note">{t`No symbol can be traded at the moment.`}</p></div>;
  }

  const change = ticker?.changePercent24h ?? '0';
  const unrealised = summary.data?.unrealisedPnl;
  return (
    <div className="contract-trading">
      <section className="contract-head" aria-label={t`Symbol and price`}>
        <div className="contract-symbol-row">
          <label className="visually-hidden" htmlFor="contract-symbol">{t`Symbol`}</label>
          <select id="contract-symbol" className="symbol-select" value={symbolSettings.symbol}
            onChange={(event) => chooseSymbol(event.target.value)}>
            {enabled.map((item) => <option key={item.symbol} value={item.symbol}>{symbolName(item.symbol)}</option>)}
          </select>
          {demoBadge}
          <Link className="link-button chart-link" to={`/kline?symbol=${encodeURIComponent(symbolSettings.symbol)}`}>{t`Chart`}</Link>
        </div>
        <div className="contract-price-row">
          <span className={`contract-last mono ${directionOf(change)}`} data-testid="contract-last" aria-label={t`Last price`}>
            {quote ? price(quote.last) : '—'}
          </span>
          <span className={`contract-change ${directionOf(change)}`} aria-label={t`24 h change`}>{ticker ? formatPercent(change, intl) : ''}</span>
          <SimulatedPricesLabel sources={[ticker?.source]} />
        </div>
        <dl className="bid-ask">
          <div><dt>{t`Bid (sell)`}</dt><dd className="mono down" data-testid="contract-bid">{quote ? price(quote.bid) : '—'}</dd></div>
          <div><dt>{t`Ask (buy)`}</dt><dd className="mono up" data-testid="contract-ask">{quote ? price(quote.ask) : '—'}</dd></div>
        </dl>
      </section>

      <section className="summary-strip" aria-label={t`Contract account`}>
        <div><span>{t`Equity`}</span><strong className="mono" data-testid="summary-equity">{money(summary.data?.equity)}</strong></div>
        <div><span>{t`Margin`}</span><strong className="mono" data-testid="summary-margin">{money(summary.data?.margin)}</strong></div>
        <div><span>{t`Unrealised P/L`}</span>
          <strong className={`mono ${unrealised ? directionOf(unrealised) : ''}`} data-testid="summary-unrealised">
            {unrealised === undefined ? '—' : <Amount value={unrealised} asset="USDT" signed />}
          </strong></div>
        <div><span>{t`Available`}</span><strong className="mono" data-testid="summary-available">{money(summary.data?.available)}</strong></div>
      </section>

      {running && (
        <div className="competition-account" role="group" aria-label={t`Trade on`} data-testid="competition-account">
          <button type="button" aria-pressed={!competitionChosen} onClick={() => chooseAccount(false)}>{t`Spot account`}</button>
          <button type="button" aria-pressed={competitionChosen} onClick={() => chooseAccount(true)}>
            {t`Competition: ${running.name}`}
          </button>
          {competitionChosen && <span className="competition-account-note">{t`Available in the competition: ${running.available ?? '0'} USDT`}</span>}
        </div>
      )}

      <OrderForm key={side ?? 'long'} settings={symbolSettings} last={ticker?.last}
        available={competitionChosen ? running?.available : summary.data?.available} demo={demo}
        disabledReason={disabledReason} initialDirection={side} competitionId={competitionChosen ? running?.competitionId : undefined} />

      <PositionsPanel demo={demo} settings={settings.data} tickers={view.tickers} disabledReason={online ? undefined : offReason} />
    </div>
  );
}
