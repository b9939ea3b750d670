// The filter bar of the trading history lists (issue 19): contract history, options history and
// swap records narrow by symbol (or, for swaps, the pair), by result and by time. The choice is
// plain state in the list; `historyQueryOf` turns it into the servers' optional query fields
// (symbol, result, since; from and to for a pair), so a paged list is filtered where it is paged.
// Time ranges start at a local midnight, so the query stays the same all day (no refetch per render).
import { symbolName } from '../lib/symbolName.ts';
import { useLingui } from '@lingui/react/macro';
import type { HistoryResult } from '../api/contract/trading.ts';
import './HistoryFilters.css';

export const historyPeriods = ['today', 'week', 'month', 'all'] as const;
export type HistoryPeriod = (typeof historyPeriods)[number];

export interface HistoryFilterValue {
  /** A symbol ("BTCUSDT"), or for swaps a pair in the swap's direction ("BTC/USDT"); '' for all. */
  symbol: string;
  /** '' for every result. */
  result: HistoryResult | '';
  period: HistoryPeriod;
}

export const noHistoryFilter: HistoryFilterValue = { symbol: '', result: '', period: 'all' };

export const isFiltered = (value: HistoryFilterValue) => value.symbol !== '' || value.result !== '' || value.period !== 'all';

/** Days back from today's midnight that each period starts (today counts as the first). */
const periodDays: Record<Exclude<HistoryPeriod, 'all'>, number> = { today: 0, week: 6, month: 29 };

/** Epoch ms at which a period starts: the local midnight that many days before `nowMs`; undefined for all. */
export function periodStartMs(period: HistoryPeriod, nowMs: number): number | undefined {
  if (period === 'all') return undefined;
  const start = new Date(nowMs);
  start.setHours(0, 0, 0, 0);
  start.setDate(start.getDate() - periodDays[period]);
  return start.getTime();
}

export interface HistoryQuery { symbol?: string; result?: HistoryResult; since?: number; from?: string; to?: string }

/** The optional query fields of a filter: `pair` reads the symbol as "FROM/TO" (swap records). */
export function historyQueryOf(value: HistoryFilterValue, nowMs: number, kind: 'symbol' | 'pair' = 'symbol'): HistoryQuery {
  const query: HistoryQuery = {};
  if (value.symbol !== '') {
    if (kind === 'pair') {
      const [from, to] = value.symbol.split('/');
      if (from) query.from = from;
      if (to) query.to = to;
    } else query.symbol = value.symbol;
  }
  if (value.result !== '') query.result = value.result;
  const since = periodStartMs(value.period, nowMs);
  if (since !== undefined) query.since = since;
  return query;
}

/** "BTCUSDT" as a person reads it: "BTC/USDT" (USDT and USD quotes), else as it is. */
/** A symbol as a person reads it ("BTC/USDT"): the one helper of lib/symbolName.ts. */
export const symbolLabel = symbolName;

export interface HistoryFilterOption { value: string; label: string }

export function HistoryFilters({ value, onChange, symbols, kind = 'symbol', results = true }: {
  value: HistoryFilterValue;
  onChange: (next: HistoryFilterValue) => void;
  /** The symbols (or pairs) offered, besides "all". */
  symbols: readonly HistoryFilterOption[];
  kind?: 'symbol' | 'pair';
  /** Whether results (won, lost, even) are offered: swaps have none. */
  results?: boolean;
}) {
  const { t } = useLingui();
  const periodLabels: Record<HistoryPeriod, string> = { today: t`Today`, week: t`7 days`, month: t`30 days`, all: t`All` };
  const set = (patch: Partial<HistoryFilterValue>) => onChange({ ...value, ...patch });
  return (
    <div className="history-filters" role="group" aria-label={t`Filters`} data-testid="history-filters">
      <div className="history-filters-selects">
        <select className="history-filter-select" data-testid="history-filter-symbol" value={value.symbol}
          aria-label={kind === 'pair' ? t`Filter by pair` : t`Filter by symbol`} onChange={(event) => set({ symbol: event.target.value })}>
          <option value="">{kind === 'pair' ? t`All pairs` : t`All symbols`}</option>
          {symbols.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
        </select>
        {results && (
          <select className="history-filter-select" data-testid="history-filter-result" value={value.result}
            aria-label={t`Filter by result`} onChange={(event) => set({ result: event.target.value as HistoryFilterValue['result'] })}>
            <option value="">{t`All results`}</option>
            <option value="won">{t`Won`}</option>
            <option value="lost">{t`Lost`}</option>
            <option value="even">{t`Even`}</option>
          </select>
        )}
      </div>
      <div className="history-filter-periods" role="radiogroup" aria-label={t`Filter by time`}>
        {historyPeriods.map((period) => (
          <button key={period} type="button" role="radio" aria-checked={value.period === period} data-period={period}
            className={`history-filter-period${value.period === period ? ' active' : ''}`} onClick={() => set({ period })}>
            {periodLabels[period]}
          </button>
        ))}
      </div>
    </div>
  );
}

/** What a filtered list says when nothing matches, with a way back to everything. */
export function NoHistoryMatch({ onClear }: { onClear: () => void }) {
  const { t } = useLingui();
  return (
    <div className="history-no-match" role="status" data-testid="history-no-match">
      <p>{t`Nothing matches these filters.`}</p>
      <button type="button" className="history-filter-clear" onClick={onClear}>{t`Clear filters`}</button>
    </div>
  );
}
