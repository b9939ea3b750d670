// The team invitation page (features/marketing/team/TeamPage.tsx): the invitation link built on
// the app's own address with the code, the figures per level and the stated rates, the daily
// statement or its empty state, binding an inviter with the server's refusal in the user's words,
// and a failed load that offers a retry which works.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import TeamPage from '../../src/features/marketing/team/TeamPage.tsx';
import type { MyTeam, TeamIncomeDay } from '../../src/api/contract/team.ts';
import { testStore } from './testStore.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));
// The QR library draws on a canvas jsdom does not have.
vi.mock('../../src/components/AddressQr.tsx', () => ({
  AddressQr: ({ value, label }: { value: string; label: string }) => <span role="img" aria-label={label} data-value={value} />,
}));

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const refused = (error: string, message: string, code = 400) => ({ success: false, code, message, result: { error }, timestamp: 0 });

const team: MyTeam = {
  inviteCode: 'ABCD2345', inviteLink: 'https://elsewhere.example/#/login?mode=register&inviteCode=ABCD2345',
  qrCodeContent: 'https://elsewhere.example/#/login?mode=register&inviteCode=ABCD2345', teamSize: 4, teamIncome: '1.500000',
  teamIncomeByAsset: [{ asset: 'USDT', amount: '1.500000' }], subordinateLevels: 3, newToday: 2, depositedCount: 1, hasInviter: false,
  today: '2026-11-27',
  levels: [
    { level: 1, members: 2, newToday: 1, deposited: 1, ratePercent: '20', income: [{ asset: 'USDT', amount: '1.000000' }] },
    { level: 2, members: 1, newToday: 1, deposited: 0, ratePercent: '10', income: [] },
    { level: 3, members: 1, newToday: 0, deposited: 0, ratePercent: '5', income: [] },
  ],
};
const day: TeamIncomeDay = {
  day: '2026-11-26', asset: 'USDT', fees: '7.500000', amount: '1.500000',
  levels: [{ level: 1, members: 2, fees: '5.000000', ratePercent: '20', amount: '1.000000' }, { level: 2, members: 1, fees: '2.500000', ratePercent: '20', amount: '0.500000' }],
};
const page = (records: TeamIncomeDay[]) => ok({ records, total: records.length, size: 30, current: 1, pages: records.length > 0 ? 1 : 0 });

/** Answers each GET path from a queue (the last answer repeats); POSTs from their own queues. */
function serve(gets: Record<string, unknown[]>, posts: Record<string, unknown[]> = {}) {
  const posted: Array<{ path: string; body: Record<string, unknown> }> = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'http://test').pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    if (init?.method === 'POST') {
      const { _ts: _stamp, ...body } = JSON.parse(String(init.body)) as Record<string, unknown>;
      posted.push({ path, body });
      return new Response(JSON.stringify(posts[path]?.shift() ?? refused('not_found', 'no', 404)));
    }
    const queue = gets[path] ?? [];
    const answer = queue.length > 1 ? queue.shift() : queue[0];
    if (answer instanceof Error) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(answer ?? { success: false, code: 404, message: 'no', result: null }));
  }));
  return posted;
}

function renderPage() {
  return render(
    <Provider store={testStore('token')}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/tuanduiYaoqing']}><TeamPage /></MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
}

beforeEach(() => configureApiClient({ notify: vi.fn() }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the team invitation page', () => {
  it('shows the code, a link on the app\'s own address, the figures per level, the stated rates and the daily statement', async () => {
    serve({ '/marketing/myTeam': [ok(team)], '/marketing/myTeam/income': [page([day])] });
    renderPage();
    expect((await screen.findByTestId('team-code')).textContent).toContain('ABCD2345');
    const link = `${window.location.origin}${window.location.pathname}#/login?mode=register&inviteCode=ABCD2345`;
    expect((screen.getByTestId('team-link')).textContent).toContain(link);
    expect(screen.getByRole('img', { name: 'QR code of your invitation link' }).getAttribute('data-value')).toBe(link);
    expect((screen.getByTestId('team-size')).textContent).toContain('4');
    expect((screen.getByTestId('team-new-today')).textContent).toContain('2');
    expect((screen.getByTestId('team-deposited')).textContent).toContain('1');
    expect(within(screen.getByTestId('team-level-2')).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['1', '1', '0', '10\u00a0%']);
    expect((screen.getByTestId('team-rates')).textContent).toContain('20 % of level 1, 10 % of level 2 and 5 % of level 3');
    const statement = await screen.findByTestId('statement-2026-11-26-USDT');
    expect(within(statement).getAllByRole('row')).toHaveLength(3);
  });

  it('says when there is no income yet, and binding a code shows the refusal in the user\'s words', async () => {
    const posted = serve({ '/marketing/myTeam': [ok(team)], '/marketing/myTeam/income': [page([])] },
      { '/marketing/myTeam/bindInviter': [refused('invite_self', 'server words')] });
    renderPage();
    expect(await screen.findByText('No team income yet. It is credited the day after your team trades.')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: "Inviter's invitation code" }), { target: { value: ' ABCD2345 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Bind inviter' }));
    expect(await screen.findByText('You cannot use your own invitation code.')).toBeTruthy();
    expect(posted).toEqual([{ path: '/marketing/myTeam/bindInviter', body: { inviteCode: 'ABCD2345' } }]);
  });

  it('offers a retry when the team cannot be loaded, and the retry shows it', async () => {
    serve({ '/marketing/myTeam': [new Error('offline'), ok({ ...team, hasInviter: true })], '/marketing/myTeam/income': [page([])] });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect((screen.getByTestId('team-code')).textContent).toContain('ABCD2345'));
    expect(screen.queryByRole('button', { name: 'Bind inviter' })).toBeNull();
  });
});
