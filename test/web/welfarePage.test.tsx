// The welfare centre page (features/marketing/rewards/WelfarePage.tsx): tasks with their progress
// and state, a claim that the server refuses shown in the user's words (pool_insufficient) and one
// that pays, after which the task shows claimed, the daily check-in and the streak it brings, and an
// unopened red envelope opened to show its amount. Issue 38:
// an unverified caller is told that rewards wait for basic verification, with a link to it, and a
// claim the server refuses for it (verification_required) is shown in the user's words.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import WelfarePage from '../../src/features/marketing/rewards/WelfarePage.tsx';
import type { RedEnvelope, WelfareTasks } from '../../src/api/contract/rewards.ts';
import { testStore } from './testStore.ts';

vi.mock('../../src/api/crypto.ts', () => ({
  importServerKey: async () => ({}),
  encryptBody: async (payload: unknown) => JSON.stringify(payload),
}));

const ok = (result: unknown) => ({ success: true, code: 200, message: '', result, timestamp: 0 });
const refused = (error: string, message: string, code = 409) => ({ success: false, code, message, result: { error }, timestamp: 0 });

const tasks: WelfareTasks = {
  checkedInToday: false, checkinStreak: 2,
  tasks: [
    { id: '1', kind: 'first_deposit', name: 'Make your first deposit', progress: 1, target: 1, rewardAsset: 'USDT', rewardAmount: '5.000000', state: 'claimable' },
    { id: '6', kind: 'checkin_streak', name: 'Check in 7 days in a row', progress: 2, target: 7, rewardAsset: 'USDT', rewardAmount: '1.000000', state: 'in_progress' },
  ],
};
const envelope: RedEnvelope = { id: '40', week: '2026-11-23', level: 2, asset: 'USDT', status: 'unopened', expiresAt: Date.UTC(2026, 10, 30), createdAt: 0 };

/**
 * A fake server that keeps the caller's welfare state as the real one does: a claim it pays marks
 * that task claimed, a check-in it accepts marks today checked in with the streak it answered. The
 * page shows these only if it reads the tasks again after the action.
 */
function serve(posts: Record<string, unknown[]>, answer: WelfareTasks = tasks) {
  const posted: Array<{ path: string; body: unknown }> = [];
  let state: WelfareTasks = structuredClone(answer);
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const path = new URL(String(url), 'http://test').pathname.replace(/^\/api/, '');
    if (path.includes('getPublicKey')) return new Response(JSON.stringify(ok('PEM')));
    if (init?.method === 'POST') {
      const body = JSON.parse(String(init.body ?? '{}'));
      posted.push({ path, body });
      const reply = (posts[path]?.shift() ?? refused('not_found', 'no', 404)) as { success: boolean; result: Record<string, unknown> };
      if (reply.success && path === '/marketing/welfare/claim') {
        state = { ...state, tasks: state.tasks.map((task) => (task.id === body.taskId ? { ...task, state: 'claimed' } : task)) };
      }
      if (reply.success && path === '/marketing/welfare/checkin') {
        const streak = reply.result.checkinStreak as number;
        state = {
          ...state, checkedInToday: true, checkinStreak: streak,
          tasks: state.tasks.map((task) => (task.kind === 'checkin_streak' ? { ...task, progress: streak } : task)),
        };
      }
      return new Response(JSON.stringify(reply));
    }
    if (path === '/marketing/welfare/tasks') return new Response(JSON.stringify(ok(state)));
    if (path === '/marketing/redEnvelope/mine') return new Response(JSON.stringify(ok([envelope])));
    return new Response(JSON.stringify({ success: false, code: 404, message: 'no', result: null }));
  }));
  return posted;
}

function renderPage() {
  return render(
    <Provider store={testStore('token')}>
      <I18nProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/fuliCenter']}><WelfarePage /></MemoryRouter>
      </I18nProvider>
    </Provider>,
  );
}

beforeEach(() => configureApiClient({ notify: vi.fn() }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the welfare centre', () => {
  it('shows tasks with progress; a refused claim in the user\'s words, then a claim that pays shown claimed; the check-in and its streak', async () => {
    const posted = serve({
      '/marketing/welfare/claim': [refused('pool_insufficient', 'The reward pool is empty for now.'), ok({ taskId: '1', asset: 'USDT', amount: '5.000000', transferId: 'welfare:1:9' })],
      '/marketing/welfare/checkin': [ok({ day: '2026-11-27', checkinStreak: 3 })],
    });
    renderPage();
    const deposit = await screen.findByTestId('task-first_deposit');
    const streakTask = screen.getByTestId('task-checkin_streak');
    expect(within(deposit).getByText('Make your first deposit')).toBeTruthy();
    expect(within(deposit).getByText('5.00 USDT').getAttribute('data-amount')).toBe('5.000000');
    expect(within(streakTask).getByText('2 / 7')).toBeTruthy();
    expect(within(streakTask).getByText('In progress')).toBeTruthy();
    expect(screen.getByText('Days in a row: 2')).toBeTruthy();
    // Refused: the refusal in the user's words, in the task's row; the task is still to claim.
    fireEvent.click(within(deposit).getByRole('button', { name: 'Claim' }));
    expect((await within(deposit).findByRole('alert')).textContent).toBe('The reward pool cannot pay this at the moment. Please try again later.');
    expect(deposit.getAttribute('data-state')).toBe('claimable');
    expect(within(deposit).queryByText('Claimed')).toBeNull();
    // Paid: the row turns to claimed, its button and the refusal gone, the reward it paid still shown.
    fireEvent.click(within(deposit).getByRole('button', { name: 'Claim' }));
    await waitFor(() => expect(screen.getByTestId('task-first_deposit').getAttribute('data-state')).toBe('claimed'));
    const claimed = screen.getByTestId('task-first_deposit');
    expect(within(claimed).getByText('Claimed')).toBeTruthy();
    expect(within(claimed).queryByRole('button', { name: 'Claim' })).toBeNull();
    expect(within(claimed).queryByRole('alert')).toBeNull();
    expect(within(claimed).getByText('5.00 USDT').getAttribute('data-amount')).toBe('5.000000');
    expect(posted.filter((call) => call.path === '/marketing/welfare/claim').map((call) => (call.body as { taskId: string }).taskId)).toEqual(['1', '1']);
    // Checked in: the streak the server answered, the button says it is done, the streak task moves on.
    fireEvent.click(screen.getByRole('button', { name: 'Check in' }));
    expect(await screen.findByText('Days in a row: 3')).toBeTruthy();
    expect(screen.queryByText('Days in a row: 2')).toBeNull();
    expect((screen.getByRole('button', { name: 'Checked in today' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(screen.getByTestId('task-checkin_streak')).getByText('3 / 7')).toBeTruthy();
    expect(posted.filter((call) => call.path === '/marketing/welfare/checkin')).toHaveLength(1);
  });

  it('tells an unverified caller that rewards need basic verification, links to it, and shows the refusal in their words', async () => {
    serve({ '/marketing/welfare/claim': [refused('verification_required', 'Rewards are paid to verified accounts.', 403)] }, { ...tasks, verified: false });
    renderPage();
    const notice = await screen.findByTestId('verification-needed');
    expect(notice.textContent).toContain('wait until your basic identity verification is approved');
    expect(within(notice).getByRole('link', { name: 'Verify my identity' }).getAttribute('href')).toBe('/shenfenRenzheng');
    const deposit = screen.getByTestId('task-first_deposit');
    fireEvent.click(within(deposit).getByRole('button', { name: 'Claim' }));
    await within(deposit).findByText('This needs an approved basic identity verification. Please complete basic verification first.');
  });

  it('says nothing about verification to a verified caller', async () => {
    serve({}, { ...tasks, verified: true });
    renderPage();
    await screen.findByTestId('task-first_deposit');
    expect(screen.queryByTestId('verification-needed')).toBeNull();
  });

  it('opens an unopened red envelope and shows its amount', async () => {
    serve({ '/marketing/redEnvelope/open': [ok({ ...envelope, status: 'opened', amount: '5.000000', openedAt: 1 })] });
    renderPage();
    expect(await screen.findByText('VIP 2 red envelope')).toBeTruthy();
    fireEvent.click(screen.getByTestId('open-envelope-40'));
    const shown = await screen.findByTestId('envelope-amount');
    expect(shown.textContent).toContain('You received 5.00 USDT');
    expect(shown.querySelector('.amount')?.getAttribute('data-amount')).toBe('5.000000');
  });
});
