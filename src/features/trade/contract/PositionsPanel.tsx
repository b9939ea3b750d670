// The user's positions under the order form: running ones with their live profit or loss and
// yield (tradingMath.settle at the current exit price from the ticker), margin, entry, TP/SL and
// liquidation price, each with "TP/SL" (a sheet that sets both levels) and "Close" (confirmed);
// and the history of closed positions, 20 a page as the list scrolls, pull to refresh, each
// opening its receipt.
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Button, ErrorBlock, Form, InfiniteScroll, Input, Popup, PullToRefresh, Skeleton } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import type { Ticker } from '../../../api/contract/market.ts';
import type { Position, SymbolTradeSettings } from '../../../api/contract/trading.ts';
import { levelSides, marginScale } from '../../../api/contract/tradingMath.ts';
import { formatAmount } from '../../../api/contract/amounts.ts';
import { failureText } from '../../../api/errorMessages.ts';
import type { FieldsByCode } from '../../../components/form/fieldErrors.ts';
import { FormError } from '../../../components/form/FormError.tsx';
import { useFormFailure } from '../../../components/form/useFormFailure.ts';
import { confirmDialog, showToast } from '../../../components/feedback.tsx';
import { formatDecimal, formatSigned, decimalsOf } from '../../../lib/number.ts';
import { intlOf } from '../../../lib/locales.ts';
import { formatEpochMs } from '../../../lib/time.ts';
import { PositionReceiptView, closeReasonLabels } from './PositionReceiptView.tsx';
import {
  HistoryFilters, NoHistoryMatch, historyQueryOf, isFiltered, noHistoryFilter, symbolLabel, type HistoryFilterValue, type HistoryQuery,
} from '../../../components/HistoryFilters.tsx';
import {
  tradeApi, useClosePositionMutation, usePositionQuery, usePositionsQuery, useUpdateStopLossMutation,
} from '../../../entities/trade/tradeApi.ts';
import { livePnl, unitsOf, unitsOfSettings } from './preview.ts';

export const historyPageSize = 20;
/** Running positions shown at once (the list is the user's open positions, newest first). */
export const runningPageSize = 100;

type Tab = 'running' | 'history';

interface Context {
  demo: boolean;
  settingsBySymbol: Map<string, SymbolTradeSettings>;
  tickerBySymbol: Map<string, Ticker>;
  /** Trading is off (offline): closing and editing say so instead of trying. */
  disabledReason: string | undefined;
}

const unitsFor = (context: Context, position: Position) => {
  const settings = context.settingsBySymbol.get(position.symbol);
  return settings ? unitsOfSettings(settings) : { pricePrecision: decimalsOf(position.openPrice), quantityPrecision: decimalsOf(position.quantity) };
};

function DirectionTag({ position }: { position: Position }) {
  const { t } = useLingui();
  return <span className={`direction-tag ${position.direction}`}>{position.direction === 'long' ? t`Long` : t`Short`} {position.leverage}×</span>;
}

const pnlClass = (value: bigint | string) => {
  const negative = typeof value === 'bigint' ? value < 0n : value.startsWith('-');
  const zero = typeof value === 'bigint' ? value === 0n : /^-?0(\.0+)?$/.test(value);
  return zero ? 'flat' : negative ? 'down' : 'up';
};

function LevelsSheet({ position, context, onDone }: { position: Position; context: Context; onDone: () => void }) {
  const { t } = useLingui();
  const [form] = Form.useForm<{ takeProfit?: string; stopLoss?: string }>();
  const fieldsByCode: FieldsByCode = { take_profit_wrong_side: 'takeProfit', stop_loss_wrong_side: 'stopLoss', price_invalid: 'takeProfit' };
  const failure = useFormFailure(form, fieldsByCode);
  const [update, updating] = useUpdateStopLossMutation();
  const units = unitsFor(context, position);
  const ticker = context.tickerBySymbol.get(position.symbol);
  const live = ticker ? livePnl(position, units, ticker.last) : undefined;
  const takeProfit = ((Form.useWatch('takeProfit', form) as string | undefined) ?? '').trim().replace(',', '.');
  const stopLoss = ((Form.useWatch('stopLoss', form) as string | undefined) ?? '').trim().replace(',', '.');
  const tpUnits = takeProfit === '' ? null : unitsOf(takeProfit, units.pricePrecision) ?? -1n;
  const slUnits = stopLoss === '' ? null : unitsOf(stopLoss, units.pricePrecision) ?? -1n;
  const long = position.direction === 'long';
  const sides = live ? levelSides(position.direction, live.exit, tpUnits, slUnits) : { takeProfitOk: true, stopLossOk: true };
  const tpProblem = tpUnits !== null && tpUnits <= 0n ? t`Please enter a valid price.` : !sides.takeProfitOk
    ? (long ? t`For a long, the take-profit must be above the current price.` : t`For a short, the take-profit must be below the current price.`) : undefined;
  const slProblem = slUnits !== null && slUnits <= 0n ? t`Please enter a valid price.` : !sides.stopLossOk
    ? (long ? t`For a long, the stop-loss must be below the current price.` : t`For a short, the stop-loss must be above the current price.`) : undefined;

  const save = async () => {
    failure.clear();
    const result = await update({
      id: position.id, ...(takeProfit ? { takeProfit } : {}), ...(stopLoss ? { stopLoss } : {}), ...(context.demo ? { demo: true } : {}),
    });
    if (result.data) {
      void showToast(t`Saved`);
      onDone();
      return;
    }
    failure.show(result.error);
  };
  return (
    <div role="dialog" aria-modal="true" aria-labelledby="levels-title">
      <h2 id="levels-title" className="sheet-title">{t`Take-profit and stop-loss`} · {position.symbol}</h2>
      <p className="receipt-note">{t`An empty field removes that level.`}</p>
      <Form form={form} name="levels" layout="vertical" footer={null} onValuesChange={failure.onValuesChange}
        initialValues={{ takeProfit: position.takeProfit ?? '', stopLoss: position.stopLoss ?? '' }}>
        <Form.Item name="takeProfit" label={t`Take-profit`} description={tpProblem && <span className="field-problem">{tpProblem}</span>}>
          <Input inputMode="decimal" autoComplete="off" clearable maxLength={40} placeholder={t`Price`} />
        </Form.Item>
        <Form.Item name="stopLoss" label={t`Stop-loss`} description={slProblem && <span className="field-problem">{slProblem}</span>}>
          <Input inputMode="decimal" autoComplete="off" clearable maxLength={40} placeholder={t`Price`} />
        </Form.Item>
      </Form>
      <FormError {...failure.placed} />
      {context.disabledReason && <p className="trade-disabled" role="status">{context.disabledReason}</p>}
      <div className="sheet-actions">
        <Button onClick={onDone}>{t`Cancel`}</Button>
        <Button color="primary" loading={updating.isLoading} disabled={Boolean(tpProblem || slProblem || context.disabledReason)}
          onClick={() => void save()}>{t`Save`}</Button>
      </div>
    </div>
  );
}

function RunningRow({ position, context, onEdit }: { position: Position; context: Context; onEdit: () => void }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const units = unitsFor(context, position);
  const ticker = context.tickerBySymbol.get(position.symbol);
  const live = ticker ? livePnl(position, units, ticker.last) : undefined;
  const [close, closing] = useClosePositionMutation();
  const [problem, setProblem] = useState<string>();
  const money = (text: string) => formatDecimal(text, 2, intl);
  const price = (text: string | null) => (text === null ? '—' : formatDecimal(text, units.pricePrecision, intl));

  const askClose = async () => {
    setProblem(undefined);
    const estimate = live ? formatSigned(formatAmount(live.pnl, marginScale), 2, intl) : '—';
    const confirmed = await confirmDialog({
      title: t`Close this position?`,
      content: t`It closes at the next recorded price. Profit or loss now: ${estimate} USDT (before the closing fee).`,
      confirmText: t`Close`, cancelText: t`Cancel`,
    });
    if (!confirmed) return;
    const result = await close({ id: position.id, ...(context.demo ? { demo: true } : {}) });
    if (result.data) void showToast(t`Position closed`);
    else setProblem(failureText(result.error));
  };

  return (
    <li className="position-card" aria-label={`${position.symbol} ${position.direction}`} data-position-id={position.id}>
      <div className="position-head">
        <strong>{position.symbol}</strong>
        <DirectionTag position={position} />
        {context.demo && <span className="demo-badge">{t`Demo`}</span>}
        {position.status === 'settling' && <span className="status-tag">{t`Settling`}</span>}
      </div>
      <div className="position-pnl">
        <div>
          <span className="position-label">{t`Profit or loss (USDT)`}</span>
          <span className={`mono big ${live ? pnlClass(live.pnl) : ''}`} data-testid="live-pnl">
            {live ? formatSigned(formatAmount(live.pnl, marginScale), 2, intl) : '—'}
          </span>
        </div>
        <div>
          <span className="position-label">{t`Yield`}</span>
          <span className={`mono big ${live ? pnlClass(live.pnl) : ''}`} data-testid="live-yield">{live ? `${live.yieldPercent}%` : '—'}</span>
        </div>
      </div>
      <dl className="position-fields">
        <div><dt>{t`Quantity`}</dt><dd className="mono">{position.quantity}</dd></div>
        <div><dt>{t`Margin`}</dt><dd className="mono">{money(position.margin)}</dd></div>
        <div><dt>{t`Entry price`}</dt><dd className="mono">{price(position.openPrice)}</dd></div>
        <div><dt>{t`Current exit price`}</dt><dd className="mono">{live ? price(formatAmount(live.exit, units.pricePrecision)) : '—'}</dd></div>
        <div><dt>{t`Take-profit`}</dt><dd className="mono" data-testid="position-tp">{price(position.takeProfit)}</dd></div>
        <div><dt>{t`Stop-loss`}</dt><dd className="mono" data-testid="position-sl">{price(position.stopLoss)}</dd></div>
        <div><dt>{t`Liquidation price`}</dt><dd className="mono">{position.liquidationPrice === null ? t`None` : price(position.liquidationPrice)}</dd></div>
        <div><dt>{t`Opened`}</dt><dd className="mono">{formatEpochMs(position.createTime)}</dd></div>
      </dl>
      {problem && <p className="form-error" role="alert">{problem}</p>}
      <div className="position-actions">
        <Button size="small" fill="outline" disabled={position.status !== 'running' || Boolean(context.disabledReason)} onClick={onEdit}>{t`TP/SL`}</Button>
        <Button size="small" color="danger" fill="outline" loading={closing.isLoading}
          disabled={position.status !== 'running' || Boolean(context.disabledReason)} onClick={() => void askClose()}>{t`Close`}</Button>
      </div>
    </li>
  );
}

function HistoryRow({ position, onOpen }: { position: Position; onOpen: () => void }) {
  const { t, i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const reason = position.receipt ? i18n._(closeReasonLabels[position.receipt.reason]) : '';
  const change = position.receipt?.balanceChange ?? position.pnl ?? '0';
  const { symbol, id } = position;
  return (
    <li>
      <button type="button" className="history-row" onClick={onOpen} aria-label={t`Receipt of ${symbol} position ${id}`}>
        <span className="history-main">
          <strong>{position.symbol}</strong> <DirectionTag position={position} />
          <span className="history-reason">{reason}</span>
        </span>
        <span className="history-side">
          {/* The net figure is what the balance moved, fees included: labelled so, with the profit or
              loss the card showed and the fees beside it, it cannot read as a contradiction (issue 19 #8). */}
          <span className="history-net">
            <span className="history-net-label">{t`Net of fees`}</span>
            <span className={`mono ${pnlClass(change)}`} data-testid="history-net">{formatSigned(change, 2, intl)}</span>
          </span>
          {position.receipt && (
            <span className="history-breakdown" data-testid="history-breakdown">
              <span>{t`Profit or loss`} <span className={`mono ${pnlClass(position.receipt.pnl)}`}>{formatSigned(position.receipt.pnl, 2, intl)}</span></span>
              <span>{t`Fees`} <span className="mono">{formatSigned(`-${position.receipt.fee}`.replace(/^--/, ''), 2, intl)}</span></span>
            </span>
          )}
          <span className="history-time mono">{position.closeTime ? formatEpochMs(position.closeTime) : ''}</span>
        </span>
      </button>
    </li>
  );
}

/** One page of history; pages after the first are fetched by the list's loadMore before they render. */
function HistoryPage({ pageNo, demo, filter, onOpen }: {
  pageNo: number; demo: boolean; filter: HistoryQuery; onOpen: (position: Position) => void;
}) {
  const page = usePositionsQuery({ ...filter, status: 'closed', pageNo, pageSize: historyPageSize, ...(demo ? { demo: true } : {}) });
  // currentData: after a filter change, never the rows of the previous filter.
  return <>{page.currentData?.records.map((position) => <HistoryRow key={position.id} position={position} onOpen={() => onOpen(position)} />)}</>;
}

function History({ context, onOpen }: { context: Context; onOpen: (position: Position) => void }) {
  const { t } = useLingui();
  const [fetchPage] = tradeApi.endpoints.positions.useLazyQuery();
  const [filterValue, setFilterValue] = useState<HistoryFilterValue>(noHistoryFilter);
  // Read once per filter change: the periods start at a midnight, so the arguments stay stable.
  const filter = useMemo(() => historyQueryOf(filterValue, Date.now()), [filterValue]);
  const symbols = useMemo(() => [...context.settingsBySymbol.keys()].map((symbol) => ({ value: symbol, label: symbolLabel(symbol) })),
    [context.settingsBySymbol]);
  const demoArg = context.demo ? { demo: true } : {};
  const first = usePositionsQuery({ ...filter, status: 'closed', pageNo: 1, pageSize: historyPageSize, ...demoArg });
  const [pages, setPages] = useState(1);
  const [lastPages, setLastPages] = useState<number>();
  const choose = (next: HistoryFilterValue) => {
    setFilterValue(next);
    setPages(1);
    setLastPages(undefined);
  };
  const filters = <HistoryFilters value={filterValue} onChange={choose} symbols={symbols} />;
  const firstPage = first.currentData;
  const totalPages = lastPages ?? firstPage?.pages ?? 1;
  const hasMore = Boolean(firstPage) && pages < totalPages;

  const loadMore = async () => {
    const next = pages + 1;
    const answer = await fetchPage({ ...filter, status: 'closed', pageNo: next, pageSize: historyPageSize, ...demoArg }).unwrap();
    setLastPages(answer.pages);
    setPages(next);
  };
  const refresh = async () => {
    setPages(1);
    setLastPages(undefined);
    await first.refetch();
  };

  if (!firstPage && first.isFetching) return <>{filters}<div aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={4} animated /></div></>;
  if (first.error || !firstPage) {
    return (
      <>
        {filters}
        <ErrorBlock status="disconnected" title={t`Could not load your positions`} description={failureText(first.error)}>
          <Button color="primary" onClick={() => void first.refetch()}>{t`Retry`}</Button>
        </ErrorBlock>
      </>
    );
  }
  if (firstPage.records.length === 0) {
    return <>{filters}{isFiltered(filterValue) ? <NoHistoryMatch onClear={() => choose(noHistoryFilter)} />
      : <p className="empty-note">{t`No closed positions yet.`}</p>}</>;
  }
  return (
    <>
      {filters}
      <PullToRefresh onRefresh={refresh} pullingText={t`Pull to refresh`} canReleaseText={t`Release to refresh`}
        refreshingText={t`Loading...`} completeText={t`Updated`}>
        <ul className="history-list" aria-label={t`Closed positions`}>
          {Array.from({ length: pages }, (_, index) => (
            <HistoryPage key={index + 1} pageNo={index + 1} demo={context.demo} filter={filter} onOpen={onOpen} />
          ))}
        </ul>
        <InfiniteScroll hasMore={hasMore} loadMore={loadMore} />
      </PullToRefresh>
    </>
  );
}

export function PositionsPanel({ demo, settings, tickers, disabledReason }: {
  demo: boolean; settings: SymbolTradeSettings[]; tickers: Ticker[] | undefined; disabledReason: string | undefined;
}) {
  const { t } = useLingui();
  const [tab, setTab] = useState<Tab>('running');
  const [editing, setEditing] = useState<Position>();
  const [receiptOf, setReceiptOf] = useState<Position>();
  // A shared receipt's link (?receipt=<id>, receiptImages.ts) opens that receipt over the history.
  const [params, setParams] = useSearchParams();
  const linkedId = params.get('receipt') ?? '';
  const linked = usePositionQuery({ id: linkedId, ...(demo ? { demo: true } : {}) }, { skip: !/^[1-9]\d{0,18}$/.test(linkedId) });
  useEffect(() => {
    if (!linked.data) return;
    setTab('history');
    setReceiptOf(linked.data);
  }, [linked.data]);
  const closeReceipt = () => {
    setReceiptOf(undefined);
    if (!params.has('receipt')) return;
    const next = new URLSearchParams(params);
    next.delete('receipt');
    setParams(next, { replace: true });
  };
  const running = usePositionsQuery({ status: 'running', pageNo: 1, pageSize: runningPageSize, ...(demo ? { demo: true } : {}) });
  const context = useMemo<Context>(() => ({
    demo,
    settingsBySymbol: new Map(settings.map((item) => [item.symbol, item])),
    tickerBySymbol: new Map((tickers ?? []).map((ticker) => [ticker.symbol, ticker])),
    disabledReason,
  }), [demo, settings, tickers, disabledReason]);
  const count = running.data?.records.length ?? 0;
  const receiptUnits = receiptOf ? unitsFor(context, receiptOf) : undefined;

  return (
    <section className="positions-panel" aria-label={t`Your positions`}>
      <div className="panel-tabs" role="tablist" aria-label={t`Your positions`}>
        <button type="button" role="tab" aria-selected={tab === 'running'} className={`panel-tab${tab === 'running' ? ' active' : ''}`}
          onClick={() => setTab('running')}>{t`Positions`}{count > 0 ? ` (${count})` : ''}</button>
        <button type="button" role="tab" aria-selected={tab === 'history'} className={`panel-tab${tab === 'history' ? ' active' : ''}`}
          onClick={() => setTab('history')}>{t`History`}</button>
      </div>
      <div role="tabpanel">
        {tab === 'running' && (running.isLoading ? <div aria-busy="true" aria-label={t`Loading...`}><Skeleton.Paragraph lineCount={4} animated /></div>
          : running.error || !running.data ? (
            <ErrorBlock status="disconnected" title={t`Could not load your positions`} description={failureText(running.error)}>
              <Button color="primary" onClick={() => void running.refetch()}>{t`Retry`}</Button>
            </ErrorBlock>
          ) : running.data.records.length === 0 ? <p className="empty-note">{t`No open positions.`}</p> : (
            <ul className="position-list" aria-label={t`Open positions`}>
              {running.data.records.map((position) => (
                <RunningRow key={position.id} position={position} context={context} onEdit={() => setEditing(position)} />
              ))}
            </ul>
          ))}
        {tab === 'history' && <History context={context} onOpen={setReceiptOf} />}
      </div>
      <Popup visible={editing !== undefined} onMaskClick={() => setEditing(undefined)} bodyClassName="trade-sheet" destroyOnClose>
        {editing && <LevelsSheet position={editing} context={context} onDone={() => setEditing(undefined)} />}
      </Popup>
      <Popup visible={receiptOf !== undefined} onMaskClick={closeReceipt} bodyClassName="trade-sheet receipt-sheet" destroyOnClose>
        {receiptOf && receiptUnits && (
          <div role="dialog" aria-modal="true" aria-labelledby="receipt-title">
            <div className="sheet-head">
              <h2 id="receipt-title" className="sheet-title">{t`Receipt`} · {receiptOf.symbol} <DirectionTag position={receiptOf} />
                {demo && <span className="demo-badge">{t`Demo`}</span>}</h2>
              <button type="button" className="sheet-close" aria-label={t`Close the receipt`} onClick={closeReceipt}>×</button>
            </div>
            {receiptOf.receipt ? <PositionReceiptView position={receiptOf} receipt={receiptOf.receipt} units={receiptUnits} />
              : <p className="empty-note">{t`This position is still settling; its receipt appears when it closes.`}</p>}
          </div>
        )}
      </Popup>
    </section>
  );
}
