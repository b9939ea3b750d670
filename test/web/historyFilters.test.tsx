// The history lists' filter bar (issue 19): symbol or pair, result and time; its choice becomes
// the servers' optional query fields (periods start at a local midnight, so the query is the same
// all day), and a filtered list with nothing says so with a way back to everything.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { useState, type ReactNode } from 'react';
import {
  HistoryFilters, NoHistoryMatch, historyQueryOf, isFiltered, noHistoryFilter, periodStartMs, symbolLabel, type HistoryFilterValue,
} from '../../src/components/HistoryFilters.tsx';
import { pairsOf } from '../../src/features/swap/SwapOrdersPage.tsx';

afterEach(cleanup);

const renderWith = (node: ReactNode) => render(<I18nProvider i18n={i18n}>{node}</I18nProvider>);
const symbols = [{ value: 'BTCUSDT', label: 'BTC/USDT' }, { value: 'ETHUSDT', label: 'ETH/USDT' }];

describe('historyQueryOf', () => {
  const now = new Date(2026, 10, 27, 15, 30, 12).getTime();

  it('sends nothing for "all"', () => {
    expect(historyQueryOf(noHistoryFilter, now)).toEqual({});
    expect(isFiltered(noHistoryFilter)).toBe(false);
  });

  it('sends the symbol, the result and the start of the period', () => {
    expect(historyQueryOf({ symbol: 'BTCUSDT', result: 'lost', period: 'today' }, now))
      .toEqual({ symbol: 'BTCUSDT', result: 'lost', since: new Date(2026, 10, 27).getTime() });
  });

  it('starts 7 and 30 days at the local midnight six and twenty-nine days back, the same all day', () => {
    expect(periodStartMs('week', now)).toBe(new Date(2026, 10, 21).getTime());
    expect(periodStartMs('month', now)).toBe(new Date(2026, 9, 29).getTime());
    expect(periodStartMs('week', new Date(2026, 10, 27, 23, 59).getTime())).toBe(periodStartMs('week', now));
    expect(periodStartMs('all', now)).toBeUndefined();
  });

  it('reads a pair as from and to', () => {
    expect(historyQueryOf({ symbol: 'BTC/USDT', result: '', period: 'all' }, now, 'pair')).toEqual({ from: 'BTC', to: 'USDT' });
  });
});

describe('labels', () => {
  it('spells symbols with a slash and offers every ordered pair of swap currencies', () => {
    expect(symbolLabel('BTCUSDT')).toBe('BTC/USDT');
    expect(symbolLabel('EURUSD')).toBe('EUR/USD');
    expect(symbolLabel('USDT')).toBe('USDT');
    expect(pairsOf(['USDT', 'BTC', 'ETH']).map((pair) => pair.value))
      .toEqual(['USDT/BTC', 'USDT/ETH', 'BTC/USDT', 'BTC/ETH', 'ETH/USDT', 'ETH/BTC']);
  });
});

describe('HistoryFilters', () => {
  function Harness({ onChange, results = true }: { onChange: (value: HistoryFilterValue) => void; results?: boolean }) {
    const [value, setValue] = useState(noHistoryFilter);
    return (
      <HistoryFilters value={value} symbols={symbols} results={results}
        onChange={(next) => { setValue(next); onChange(next); }} />
    );
  }

  it('changes the symbol, the result and the period, one at a time, keeping the others', () => {
    const onChange = vi.fn();
    renderWith(<Harness onChange={onChange} />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Filter by symbol' }), { target: { value: 'ETHUSDT' } });
    expect(onChange).toHaveBeenLastCalledWith({ symbol: 'ETHUSDT', result: '', period: 'all' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Filter by result' }), { target: { value: 'won' } });
    expect(onChange).toHaveBeenLastCalledWith({ symbol: 'ETHUSDT', result: 'won', period: 'all' });
    fireEvent.click(screen.getByRole('radio', { name: '7 days' }));
    expect(onChange).toHaveBeenLastCalledWith({ symbol: 'ETHUSDT', result: 'won', period: 'week' });
    expect(screen.getByRole('radio', { name: '7 days' })).toHaveProperty('ariaChecked', 'true');
    expect(screen.getByRole('radio', { name: 'All' })).toHaveProperty('ariaChecked', 'false');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'All symbols', 'BTC/USDT', 'ETH/USDT', 'All results', 'Won', 'Lost', 'Even',
    ]);
  });

  it('offers no result for swaps, and names its first select a pair', () => {
    renderWith(<HistoryFilters value={noHistoryFilter} onChange={() => undefined} symbols={[]} kind="pair" results={false} />);
    expect(screen.queryByRole('combobox', { name: 'Filter by result' })).toBeNull();
    expect(screen.getByRole('combobox', { name: 'Filter by pair' })).toBeTruthy();
  });

  it('says when nothing matches and clears the filters', () => {
    const onClear = vi.fn();
    renderWith(<NoHistoryMatch onClear={onClear} />);
    expect(screen.getByRole('status').textContent).toContain('Nothing matches these filters.');
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onClear).toHaveBeenCalledTimes(1);
  });
});
