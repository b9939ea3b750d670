// The competition pages (features/marketing/competitions): the detail shows the status, the prize
// table, the stated formula and the live ranking with the caller's row marked, its result, and the
// join button only while it can be joined; a failed load offers a retry that works; my entries
// show rank, return and the exited status (spec -3) without a rank.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import CompetitionDetailPage from '../../src/features/marketing/competitions/CompetitionDetailPage.tsx';
import MyEntriesPage from '../../src/features/marketing/competitions/MyEntriesPage.tsx';
import type { CompetitionDetail, CompetitionEntry } from '../../src/api/contract/competitions.ts';
import { testStore } from './testStore.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });

const entry: CompetitionEntry = {
  id: '7', competitionId: '3', name: 'Weekly cup', status: 1, state: 'joined', entryAmount: '100.000000', asset: 'USDT',
  equity: '112.500000', returnRate: '12.5000', rank: 1, reward: '500.000000', joinTime: 1_780_000_000_000, exitTime: null,
  startTime: 1_779_900_000_000, endTime: 1_780_500_000_000, clientOrderId: 'cmp-1234567890',
};
const detail = (fields: Partial<CompetitionDetail> = {}): CompetitionDetail => ({
  id: '3', name: 'Weekly cup', status: 1, state: 'running', asset: 'USDT', entryAmount: '100.000000', symbols: ['BTCUSDT'],
  startTime: 1_779_900_000_000, endTime: 1_780_500_000_000, participants: 2, maxParticipants: 10, prizeAsset: 'USDT',
  prizes: [{ fromRank: 1, toRank: 1, amount: '500.000000' }, { fromRank: 2, toRank: 3, amount: '150.000000' }], prizeTotal: '800.000000',
  ranking: [
    { rank: 1, name: 'me***', equity: '112.500000', returnRate: '12.5000', reward: '500.000000', joinTime: 1, mine: true },
    { rank: 2, name: 'al***e', equity: '95.000000', returnRate: '-5.0000', reward: '150.000000', joinTime: 2 },
  ],
  formula: 'equity = ...', joined: true, myEntry: entry, ...fields,
});

function serve(answers: Record<string, unknown[]>) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    const path = new URL(String(url), 'http://test').pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    const queue = answers[path] ?? [];
    const answer = queue.length > 1 ? queue.shift() : queue[0];
    if (answer instanceof Error) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer ?? { success: false, code: 404, message: 'no', result: null }));
  }));
}

function renderAt(path: string, page: React.ReactNode) {
  return render(
    <Provider store={testStore('token')}>
      <I18nProvider i18n={i18n}><MemoryRouter initialEntries={[path]}>{page}</MemoryRouter></I18nProvider>
    </Provider>,
  );
}

beforeEach(() => configureApiClient({ notify: vi.fn() }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/**
 * The formula the detail page states under the ranking, as the user reads it. The page states it in
 * its own translated words; the answer's `formula` (the server's English) is not what it shows.
 */
const statedFormula = 'Equity = competition account balance + margin of open competition positions + their unrealised profit or loss at the last price. '
  + 'Rate of return = (equity − entry funds) ÷ entry funds. Ranked by rate of return; on a tie, the earlier entrant ranks first.';

/** A table's body rows as the texts of their cells. */
const rowsOf = (table: HTMLElement) =>
  [...table.querySelectorAll('tbody tr')].map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('the competition detail', () => {
  it('shows the prize table, the formula and the live ranking with the caller marked, and the exit button of an entrant', async () => {
    serve({ '/marketing/competition/detail': [ok(detail())] });
    renderAt('/bisaiDetail?id=3', <CompetitionDetailPage />);
    const ranking = await screen.findByTestId('cmp-ranking');
    expect(screen.getByRole('heading', { name: /Weekly cup/ }).textContent).toBe('Weekly cup In progress');
    expect(screen.getByTestId('cmp-participants').textContent).toBe('2 / 10');
    // The prize table: each rank or range with its prize.
    const prizes = within(screen.getByRole('heading', { name: 'Prizes' }).closest('section')!).getByRole('table');
    expect(rowsOf(prizes)).toEqual([['1', '500.00 USDT'], ['2–3', '150.00 USDT']]);
    // The formula the ranking follows, stated in words.
    expect(screen.getByTestId('cmp-formula').textContent).toBe(statedFormula);
    // The live ranking: every row, the caller's marked as theirs and only that one.
    expect(screen.getByRole('heading', { name: 'Live ranking' })).toBeTruthy();
    expect(rowsOf(ranking)).toEqual([['1', 'me*** (you)', '12.5000 %', '500.00'], ['2', 'al***e', '-5.0000 %', '150.00']]);
    expect(within(ranking).getAllByRole('row').filter((row) => row.classList.contains('cmp-mine'))).toEqual([screen.getByTestId('cmp-ranking-mine')]);
    expect(screen.getByTestId('cmp-ranking-mine').textContent).toContain('me*** (you)');
    // The caller's result.
    const mine = screen.getByTestId('cmp-my-entry');
    expect(screen.getByTestId('cmp-my-rank').textContent).toBe('1');
    expect(screen.getByTestId('cmp-my-return').textContent).toBe('12.5000 %');
    expect(within(mine).getByText('112.50 USDT').getAttribute('data-amount')).toBe('112.500000');
    expect(within(mine).getByText('500.00 USDT').getAttribute('data-amount')).toBe('500.000000');
    // An entrant of a running competition may trade in it or exit; there is nothing to join.
    expect(screen.getByTestId('cmp-exit').textContent).toBe('Exit');
    expect(screen.getByRole('link', { name: 'Trade in the competition' }).getAttribute('href')).toBe('/heyue?competitionId=3');
    expect(screen.queryByTestId('cmp-join')).toBeNull();
  });

  it('offers join to a newcomer, nothing once ended, and a retry after a failed load', async () => {
    serve({ '/marketing/competition/detail': [new Error('offline'), ok(detail({ joined: false, myEntry: null }))] });
    renderAt('/bisaiDetail?id=3', <CompetitionDetailPage />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The competition could not be loaded.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect((await screen.findByTestId('cmp-join')).textContent).toBe('Join');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByTestId('cmp-my-entry')).toBeNull();
    expect(screen.queryByTestId('cmp-exit')).toBeNull();
    cleanup();
    serve({ '/marketing/competition/detail': [ok(detail({ status: -2, state: 'settled', joined: false, myEntry: null }))] });
    renderAt('/bisaiDetail?id=3', <CompetitionDetailPage />);
    await screen.findByTestId('cmp-ranking');
    expect(screen.getByTestId('cmp-status').textContent).toBe('Ended');
    expect(screen.getByRole('heading', { name: 'Ranking' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Live ranking' })).toBeNull();
    expect(screen.queryByTestId('cmp-join')).toBeNull();
    expect(screen.queryByTestId('cmp-exit')).toBeNull();
  });
});

describe('my entries', () => {
  it('lists rank, return and an exited entry without a rank', async () => {
    const exited: CompetitionEntry = { ...entry, id: '8', status: -3, state: 'exited', rank: null, reward: '0.000000', returnRate: '-2.0000', exitTime: 1_780_100_000_000 };
    serve({ '/marketing/competition/mine': [ok({ records: [entry, exited], total: 2, size: 50, current: 1, pages: 1 })] });
    renderAt('/bisaiMycansai', <MyEntriesPage />);
    const fact = (card: HTMLElement, term: string) => within(card).getByText(term, { selector: 'dt' }).nextElementSibling?.textContent;
    const first = await screen.findByTestId('entry-7');
    expect(within(first).getByTestId('cmp-status').textContent).toBe('In progress');
    expect(fact(first, 'Rank')).toBe('1');
    expect(fact(first, 'Rate of return')).toBe('12.5000 %');
    expect(fact(first, 'Reward')).toBe('500.00 USDT');
    expect(within(first).queryByText('Exited', { selector: 'dt' })).toBeNull();
    const second = screen.getByTestId('entry-8');
    expect(within(second).getByTestId('cmp-status').textContent).toBe('Exited');
    expect(fact(second, 'Rank')).toBe('—');
    expect(fact(second, 'Rate of return')).toBe('-2.0000 %');
    expect(fact(second, 'Reward')).toBe('0.00 USDT');
    expect(within(second).getByText('Exited', { selector: 'dt' })).toBeTruthy();
    expect(within(second).getByRole('link').getAttribute('href')).toBe('/bisaiDetail?id=3');
  });
});
