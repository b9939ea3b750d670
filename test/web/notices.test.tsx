// The phone app's content (issue 21): the body renderer against hostile HTML, the wording of
// internal messages, the unread badge read from the API cache, the status check's view, the age
// of a copy the worker served, the pop-up choice and the messages page.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { Provider } from 'react-redux';
import { I18nProvider } from '@lingui/react';
import { i18n } from '../../src/lib/i18n.ts';
import { configureApiClient } from '../../src/api/api.ts';
import { messageKinds, type ContentItem, type UserMessage } from '../../src/api/contract/content.ts';
import { RichText } from '../../src/features/notices/RichText.tsx';
import { wordMessage } from '../../src/features/notices/messageTexts.ts';
import { badgeText, selectUnreadMessages } from '../../src/features/notices/unreadBadge.ts';
import { isOlderThan, statusView } from '../../src/features/notices/statusView.ts';
import { contentApi } from '../../src/entities/content/contentApi.ts';
import { HomeNoticeStrip, popupOf, titleStayMs } from '../../src/features/notices/HomeNotices.tsx';
import { Layout } from '../../src/app/Layout.tsx';
import MessagesPage, { appRouteOf } from '../../src/features/notices/MessagesPage.tsx';
import NoticesPage from '../../src/features/notices/NoticesPage.tsx';
import HelpCentrePage from '../../src/features/notices/HelpCentrePage.tsx';
import { testStore } from './testStore.ts';
import { tagsOf } from '../../src/features/trade/useUserEvents.ts';

const image = `/api/public/content/image/${'a'.repeat(32)}`;

function draw(html: string) {
  const { container } = render(<MemoryRouter><RichText html={html} /></MemoryRouter>);
  return container.firstElementChild as HTMLElement;
}

describe('RichText', () => {
  afterEach(cleanup);

  it('draws the allowed elements, links through the outside-link page and lazy images with their alt', () => {
    const body = draw(`<h1>Title</h1><p>Hello <strong>bold</strong> <em>it</em></p><ol start="3"><li>one</li></ol>
      <a href="https://example.com/a?b=1">site</a> <a href="mailto:help@bourse.test">mail</a>
      <img src="${image}" alt="Chart" width="300"><table><tr><td colspan="2">cell</td></tr></table>`);
    expect(body.querySelector('h1')).toBeNull();
    expect(body.querySelector('h2')?.textContent).toBe('Title');
    expect(body.querySelector('strong')?.textContent).toBe('bold');
    expect(body.querySelector('ol')?.getAttribute('start')).toBe('3');
    const site = screen.getByRole('link', { name: 'site' });
    expect(site.getAttribute('href')).toBe(`/outlink?url=${encodeURIComponent('https://example.com/a?b=1')}`);
    expect(site.getAttribute('target')).toBeNull();
    expect(screen.getByRole('link', { name: 'mail' }).getAttribute('href')).toBe('mailto:help@bourse.test');
    const picture = screen.getByRole('img', { name: 'Chart' });
    expect(picture.getAttribute('src')).toBe(image);
    expect(picture.getAttribute('loading')).toBe('lazy');
    expect(body.querySelector('td')?.getAttribute('colspan')).toBe('2');
  });

  it('drops scripts, handlers, styles, frames, foreign images and javascript: links, keeping harmless text', () => {
    const body = draw(`<p onclick="alert(1)" style="color:red" class="x" id="y">safe</p>
      <script>window.hacked = 1</script><style>p { display: none }</style>
      <img src="x" onerror="window.hacked = 2"><img src="https://evil.test/a.png"><img src="data:image/png;base64,AAAA">
      <iframe src="https://evil.test"></iframe><svg onload="window.hacked = 3"><circle /></svg>
      <a href="javascript:alert(1)">js</a><a href="  JaVaScRiPt:alert(1)">js2</a><a href="data:text/html,hi">data</a>
      <form action="https://evil.test"><input value="x"><button>send</button></form>
      <div><span>kept text</span></div><object data="x"></object><math><mi>x</mi></math>`);
    expect((window as { hacked?: number }).hacked).toBeUndefined();
    const html = body.innerHTML;
    for (const bad of ['onclick', 'onerror', 'onload', 'style=', 'class="x"', 'id="y"', 'script', 'iframe', 'svg', 'javascript', 'data:', 'evil', 'form', 'input', 'button', 'object', 'math']) {
      expect(html.toLowerCase()).not.toContain(bad);
    }
    expect(body.querySelectorAll('img')).toHaveLength(0);
    expect(body.querySelectorAll('a')).toHaveLength(0);
    expect(body.textContent).toContain('safe');
    expect(body.textContent).toContain('js2');
    expect(body.textContent).toContain('kept text');
    expect(body.textContent).not.toContain('hacked');
    expect(body.querySelector('div')).toBeNull();
  });

  it('survives absurd nesting and entity tricks without running anything', () => {
    const deep = `${'<blockquote>'.repeat(1000)}deep${'</blockquote>'.repeat(1000)}`;
    const body = draw(`${deep}<p>&lt;script&gt;alert(1)&lt;/script&gt;</p><a href="&#106;avascript:alert(1)">x</a>`);
    expect(body.textContent).toContain('deep');
    expect(body.textContent).toContain('<script>alert(1)</script>');
    expect(body.querySelector('script')).toBeNull();
    expect(body.querySelectorAll('a')).toHaveLength(0);
  });
});

const message = (kind: string, params: Record<string, string> = {}, extra: Partial<UserMessage> = {}): UserMessage => ({
  id: '1', kind, category: 'money', params, createdAt: Date.UTC(2026, 10, 27, 8, 0), ...extra,
});

describe('internal message wording', () => {
  it('gives every kind of the contract a title of its own', () => {
    const titles = messageKinds.map((kind) => wordMessage(i18n, message(kind)).title);
    expect(titles).not.toContain('New message');
    expect(new Set(titles).size).toBe(messageKinds.length);
  });

  it('words a message from its values, with the reason as written', () => {
    expect(wordMessage(i18n, message('deposit_credited', { amount: '120.5', currency: 'USDT' }))).toEqual({
      title: 'Deposit credited', body: '120.5 USDT has been credited to your account.',
    });
    expect(wordMessage(i18n, message('withdrawal_rejected', { amount: '10', currency: 'BTC', reason: ' Address blocked ' }))).toEqual({
      title: 'Withdrawal rejected', body: 'Your withdrawal of 10 BTC was rejected and the amount returned to your balance.', reason: 'Address blocked',
    });
    // As positions.ts writes it: `reason` is a code there, not words for the user.
    expect(wordMessage(i18n, message('position_take_profit', {
      id: '9', symbol: 'BTCUSDT', direction: 'long', reason: 'take_profit', closePrice: '65000.5', pnl: '12.30',
    }))).toEqual({ title: 'Take-profit reached', body: 'Your BTCUSDT position was closed at the take-profit price, 65000.5. Profit and loss: 12.30 USDT.' });
    expect(wordMessage(i18n, message('kyc_rejected', { id: '3', level: '1', reason: 'The photo is blurred.' })).reason).toBe('The photo is blurred.');
    expect(wordMessage(i18n, message('second_contract_settled', { symbol: 'ETHUSDT', amount: '10', payout: '18.5', status: 'won' })).body)
      .toBe('Your ETHUSDT option of 10 has settled. Payout: 18.5.');
  });

  it('words the investment products\' messages as products/jobs.ts and orders.ts write them', () => {
    expect(wordMessage(i18n, message('product_matured', {
      id: '41', product: 'BTC arbitrage', amount: '1000.000000', asset: 'USDT', income: '1.500000', incomeAsset: 'USDT',
    }))).toEqual({ title: 'Investment matured', body: 'Your BTC arbitrage order has ended and 1000.000000 USDT was returned to your balance.' });
    // Mining holds no principal: no amount, the title alone.
    expect(wordMessage(i18n, message('product_matured', { id: '42', product: 'S19 miner', asset: 'USDT', income: '0.00120000', incomeAsset: 'BTC' })))
      .toEqual({ title: 'Investment matured' });
    expect(wordMessage(i18n, message('product_refunded', { id: '43', product: 'Green bond', amount: '200.000000', asset: 'USDT' }))).toEqual({
      title: 'Investment refunded', body: 'Green bond did not reach its raise target, so your 200.000000 USDT was refunded to your balance in full.',
    });
    expect(wordMessage(i18n, message('product_frozen', { id: '44', product: 'AI quant', reason: ' Source of funds check ' }))).toEqual({
      title: 'Investment order frozen', body: 'Your AI quant order has been frozen and earns nothing until it is unfrozen.', reason: 'Source of funds check',
    });
    expect(wordMessage(i18n, message('product_unfrozen', { id: '44', product: 'AI quant' }))).toEqual({
      title: 'Investment order unfrozen', body: 'Your AI quant order has been unfrozen; the returns it missed will be paid.',
    });
  });

  it('shows the title alone when a value the sentence names is missing, and a generic title for an unknown kind', () => {
    expect(wordMessage(i18n, message('deposit_credited', { amount: '5' }))).toEqual({ title: 'Deposit credited' });
    expect(wordMessage(i18n, message('loan_due', { amount: '5' }))).toEqual({ title: 'New message' });
  });

  it('opens only routes of the app', () => {
    expect(appRouteOf('/chongzhitixianRecord?tab=deposit')).toBe('/chongzhitixianRecord?tab=deposit');
    for (const route of ['//evil.test/x', 'https://evil.test', 'javascript:alert(1)', '/ spaced', '/\\evil', '', undefined]) {
      expect(appRouteOf(route)).toBeUndefined();
    }
  });
});

describe('status check', () => {
  it('shows maintenance, asks an old app to update, and otherwise nothing', () => {
    expect(statusView(undefined, '0.1.0+abc')).toBe('none');
    expect(statusView({ maintenance: true, message: 'Upgrade' }, '0.1.0+abc')).toBe('maintenance');
    expect(statusView({ maintenance: false, minAppVersion: '0.2' }, '0.1.0+abc')).toBe('update');
    expect(statusView({ maintenance: false, minAppVersion: '0.1' }, '0.1.0+abc')).toBe('none');
  });

  it('compares versions part by part', () => {
    expect(isOlderThan('1.9.0', '1.10')).toBe(true);
    expect(isOlderThan('1.10.0', '1.9.9')).toBe(false);
    expect(isOlderThan('1.2', '1.2.0')).toBe(false);
    expect(isOlderThan('dev', '9.9')).toBe(false);
    expect(isOlderThan('1.0.0', 'x')).toBe(false);
    expect(isOlderThan('1.0.0', undefined)).toBe(false);
  });
});

const item = (id: string, extra: Partial<ContentItem> = {}): ContentItem => ({
  id, kind: 'announcement', title: `Title ${id}`, summary: '', lang: 'en-us', popup: false, publishAt: Date.UTC(2026, 10, 1), ...extra,
});

describe('pop-up announcement', () => {
  it('is the first unread pop-up not yet shown this session', () => {
    const items = [item('1'), item('2', { popup: true, readAt: 5 }), item('3', { popup: true }), item('4', { popup: true })];
    expect(popupOf(items, [])?.id).toBe('3');
    expect(popupOf(items, ['3'])?.id).toBe('4');
    expect(popupOf(items, ['3', '4'])).toBeUndefined();
  });
});

interface Reply { result: unknown; cachedAtMs?: number }

function stubServer(routes: Record<string, (query: URLSearchParams) => Reply>) {
  const requests: string[] = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const parsed = new URL(String(url), 'https://bourse.test');
    requests.push(`${init?.method ?? 'GET'} ${parsed.pathname}${parsed.search}`);
    const route = routes[parsed.pathname];
    if (!route) return new Response('not found', { status: 404 });
    const reply = route(parsed.searchParams);
    const headers = reply.cachedAtMs ? { 'X-Cached-At': String(reply.cachedAtMs) } : undefined;
    return new Response(JSON.stringify({ success: true, code: 200, message: '', result: reply.result, timestamp: 0 }), { headers });
  }));
  return requests;
}

const pageOf = <T,>(records: T[]) => ({ records, total: records.length, size: 20, current: 1, pages: 1 });

describe('unread badge', () => {
  beforeEach(() => configureApiClient({ notify: vi.fn(), getToken: () => 'token-1' }));
  afterEach(() => vi.unstubAllGlobals());

  it('reads the unread count the app cached from the unread call', async () => {
    stubServer({ '/api/content/appNotice/unread': () => ({ result: { messages: 3, announcements: 1 } }) });
    const store = testStore('token-1');
    expect(selectUnreadMessages(store.getState())).toBe(0);
    await store.dispatch(contentApi.endpoints.unread.initiate());
    expect(selectUnreadMessages(store.getState())).toBe(3);
    console.log('DEBUG', document.querySelector('nav')?.innerHTML.slice(-400));
    expect(badgeText(3)).toBe('3');
    expect(badgeText(120)).toBe('99+');
  });

  it('shows the count on the My tab', async () => {
    stubServer({ '/api/content/appNotice/unread': () => ({ result: { messages: 3, announcements: 0 } }) });
    const store = testStore('token-1');
    render(
      <Provider store={store}><I18nProvider i18n={i18n}><MemoryRouter initialEntries={['/home']}>
        <Routes><Route element={<Layout />}><Route path="/home" element={<p>home</p>} /></Route></Routes>
      </MemoryRouter></I18nProvider></Provider>,
    );
    expect(screen.queryByRole('status', { name: /unread messages/ })).toBeNull();
    await act(async () => {
      await store.dispatch(contentApi.endpoints.unread.initiate());
    });
    expect(selectUnreadMessages(store.getState())).toBe(3);
    const badge = await screen.findByRole('status', { name: '3 unread messages' });
    expect(badge.closest('a')?.getAttribute('href')).toBe('/my');
  });

  it('asks for the count again when the user channel says a message was written', () => {
    expect(tagsOf({ kind: 'message', demo: false })).toEqual(['Message', 'Unread']);
  });
});

function mountPage(path: string, element: React.ReactElement, routePath: string) {
  const store = testStore('token-1');
  const location = { current: '' };
  function Where() {
    const here = useLocation();
    location.current = `${here.pathname}${here.search}`;
    return null;
  }
  render(
    <Provider store={store}><I18nProvider i18n={i18n}>
      <MemoryRouter initialEntries={[path]}>
        <Where />
        <Routes>
          <Route path={routePath} element={element} />
          <Route path="*" element={<p>elsewhere</p>} />
        </Routes>
      </MemoryRouter>
    </I18nProvider></Provider>,
  );
  return location;
}

describe('content pages', () => {
  beforeEach(() => configureApiClient({ notify: vi.fn(), getToken: () => 'token-1' }));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('lists messages in words, marks unread ones, and opens a message at its page', async () => {
    const requests = stubServer({
      '/api/content/appNotice/myList': () => ({
        result: {
          ...pageOf([
            message('deposit_credited', { amount: '50', currency: 'USDT' }, { id: '7', route: '/chongzhitixianRecord?tab=deposit' }),
            message('kyc_approved', { level: '2' }, { id: '8', readAt: 1 }),
          ]), unread: 1,
        },
      }),
    });
    const location = mountPage('/messages', <MessagesPage />, '/messages');
    expect(await screen.findByText('50 USDT has been credited to your account.')).toBeTruthy();
    expect(screen.getByText('Your identity verification (level 2) has been approved.')).toBeTruthy();
    expect(screen.getAllByRole('img', { name: 'Unread' })).toHaveLength(1);
    expect(requests.some((request) => request.startsWith('GET /api/content/appNotice/myList?pageNo=1'))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: /Deposit credited/ }));
    await waitFor(() => expect(location.current).toBe('/chongzhitixianRecord?tab=deposit'));
  });

  it('says how old a list is when it is the copy the worker kept', async () => {
    const savedAtMs = Date.now() - 5 * 60_000;
    stubServer({
      '/api/content/appNotice/list': () => ({ result: pageOf([item('3', { kind: 'notice', title: 'Trading hours change' })]), cachedAtMs: savedAtMs }),
    });
    mountPage('/notice', <NoticesPage />, '/notice');
    expect(await screen.findByText('Trading hours change')).toBeTruthy();
    const note = screen.getByTestId('content-saved');
    expect(note.textContent).toBe('Offline copy, saved 5 min. ago.');
    expect(screen.getByRole('link', { name: /Trading hours change/ }).getAttribute('href')).toBe('/noticeDetail?id=3');
  });

  it('searches the help centre once the typing pauses, and filters by the categories it has', async () => {
    const requests = stubServer({
      '/api/content/appHelpInfo/list': (query) => {
        const all = [item('1', { kind: 'help', title: 'Deposit steps', category: 'getting_started' }),
          item('2', { kind: 'help', title: 'Withdrawal fees', category: 'fees' })];
        const q = query.get('q');
        const category = query.get('category');
        return { result: pageOf(all.filter((row) => (!q || row.title.toLowerCase().includes(q)) && (!category || row.category === category))) };
      },
    });
    mountPage('/helpCentre', <HelpCentrePage />, '/helpCentre');
    expect(await screen.findByText('Withdrawal fees')).toBeTruthy();
    const search = screen.getByRole('searchbox', { name: 'Search the help centre' });
    for (const text of ['d', 'de', 'dep']) fireEvent.change(search, { target: { value: text } });
    await waitFor(() => expect(screen.queryByText('Withdrawal fees')).toBeNull());
    expect(await screen.findByText('Deposit steps')).toBeTruthy();
    const searches = requests.filter((request) => request.includes('q='));
    expect(searches).toHaveLength(1);
    expect(searches[0]).toContain('q=dep');
    fireEvent.change(search, { target: { value: '' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Fees' }));
    await waitFor(() => expect(screen.queryByText('Deposit steps')).toBeNull());
    expect(await screen.findByText('Withdrawal fees')).toBeTruthy();
    expect(requests.some((request) => request.includes('category=fees'))).toBe(true);
  });

  it('shows a fresh list without an age', async () => {
    stubServer({ '/api/content/appNotice/list': () => ({ result: pageOf([item('3', { kind: 'notice', title: 'Fresh' })]) }) });
    mountPage('/notice', <NoticesPage />, '/notice');
    expect(await screen.findByText('Fresh')).toBeTruthy();
    expect(screen.queryByTestId('content-saved')).toBeNull();
  });
});

describe('home notice strip', () => {
  beforeEach(() => configureApiClient({ notify: vi.fn(), getToken: () => '' }));
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  async function mountStrip(reduced: boolean) {
    stubServer({ '/api/sys/annountCement/vue3List': () => ({ result: [item('1', { kind: 'notice', title: 'First' }), item('2', { kind: 'notice', title: 'Second' })] }) });
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: reduced && query.includes('reduce'), media: query, addEventListener: () => undefined, removeEventListener: () => undefined,
    }));
    // The strip's interval is faked (the rest runs on real time), so a test moves it on at will.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldAdvanceTime: true });
    render(<Provider store={testStore()}><I18nProvider i18n={i18n}><MemoryRouter><HomeNoticeStrip /></MemoryRouter></I18nProvider></Provider>);
    await screen.findByRole('link', { name: 'First' });
    return document.querySelector('.notice-strip-titles') as HTMLElement;
  }

  it('moves to the next title after a while, and links each to its notice', async () => {
    const titles = await mountStrip(false);
    expect(screen.getByRole('link', { name: 'First' }).getAttribute('href')).toBe('/noticeDetail?id=1');
    expect(screen.getByRole('link', { name: 'More' }).getAttribute('href')).toBe('/notice');
    expect(titles.style.transform).toBe('translateY(0%)');
    await act(async () => {
      vi.advanceTimersByTime(titleStayMs);
    });
    // One row of the list of two: the list moves by its own height over the number of titles.
    expect(titles.style.transform).toBe('translateY(-50%)');
  });

  it('stays still when the user asks for reduced motion', async () => {
    const titles = await mountStrip(true);
    await act(async () => {
      vi.advanceTimersByTime(titleStayMs * 3);
    });
    expect(titles.style.transform).toBe('translateY(0%)');
    expect(titles.dataset.still).toBe('true');
  });
});
