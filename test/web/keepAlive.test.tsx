// Kept-alive pages (spec §2, app/KeepAlive.tsx): a kept page keeps its state when the user leaves
// and comes back, sees only its own (frozen) location while hidden, shows new parameters when
// reopened with them, and resumes as it was left when a link names nothing new. Its effects stop
// while it is hidden, its route guard still runs on every visit, and a new session drops it.
// Then the real router: the app's kept routes, the document title, and in-app back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import {
  createHashRouter, createMemoryRouter, Outlet, RouterProvider, useLocation, useNavigation, useSearchParams,
  type RouteObject,
} from 'react-router-dom';
import { Provider } from 'react-redux';
import { configureStore } from '@reduxjs/toolkit';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { KeepAlive, keptPathOf, resumesLeftPage } from '../../src/app/KeepAlive.tsx';
import { KeptRouteSlot, type KeptPages } from '../../src/app/keptPages.ts';
import { createAppRouter } from '../../src/app/router.tsx';
import { documentTitle } from '../../src/app/Root.tsx';
import { routeFor, routeTable } from '../../src/app/routes.ts';
import { api } from '../../src/api/api.ts';
import { loggedIn, userSlice } from '../../src/entities/session/userSlice.ts';
import { marketSlice } from '../../src/entities/market/marketSlice.ts';
import { useBack } from '../../src/components/useBack.ts';
import type { AppStore } from '../../src/app/store.ts';

afterEach(cleanup);

/** Every location the kept test page rendered with, and its effect's starts and stops. */
let seen: string[] = [];
let effects = { started: 0, stopped: 0 };

function KeptTestPage() {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  useNavigation(); // changes on every navigation: the hidden page is asked to render again
  const [count, setCount] = useState(0);
  seen.push(`${location.pathname}${location.search}`);
  useEffect(() => {
    effects.started += 1;
    return () => {
      effects.stopped += 1;
    };
  }, []);
  return (
    <section aria-label="Kept page">
      <p data-testid="kept-location">{`${location.pathname}${location.search}`}</p>
      <p data-testid="kept-symbol">{params.get('symbol') ?? 'none'}</p>
      <button type="button" onClick={() => setCount((value) => value + 1)}>{`Count ${count}`}</button>
      <input aria-label="Note" />
      <button type="button" onClick={() => setParams((current) => {
        current.set('period', '1h');
        return current;
      }, { replace: true })}>Hourly</button>
    </section>
  );
}

function SecondKeptPage() {
  const location = useLocation();
  return <p data-testid="second-location">{`${location.pathname}${location.search}`}</p>;
}

const keptLoader = vi.fn(() => null);
let switchSession: (session: string) => void = () => undefined;

function TestRoot({ pages }: { pages: KeptPages }) {
  const [session, setSession] = useState('first');
  switchSession = setSession;
  return (
    <>
      <Outlet />
      <KeepAlive pages={pages} session={session} />
    </>
  );
}

function Home() {
  const location = useLocation();
  return <p data-testid="home-location">{`${location.pathname}${location.search}`}</p>;
}

async function renderApp(initial = '/home') {
  const pages: KeptPages = new Map([['kept', KeptTestPage], ['second', SecondKeptPage]]);
  const routes: RouteObject[] = [{
    path: '/',
    element: <TestRoot pages={pages} />,
    children: [
      { path: 'home', Component: Home, handle: { path: 'home' } },
      { path: 'kept', Component: KeptRouteSlot, handle: { path: 'kept', keepAlive: true }, loader: keptLoader },
      { path: 'second', Component: KeptRouteSlot, handle: { path: 'second', keepAlive: true } },
    ],
  }];
  const router = createMemoryRouter(routes, { initialEntries: [initial] });
  render(<RouterProvider router={router} />);
  await act(async () => {
    await vi.waitFor(() => expect(router.state.initialized).toBe(true));
  });
  const go = (to: string | number) => act(async () => {
    await (typeof to === 'number' ? router.navigate(to) : router.navigate(to));
  });
  return { router, go };
}

const keptWrapper = (path = 'kept') => document.querySelector<HTMLElement>(`[data-kept-page="${path}"]`);
const keptLocation = () => screen.getByTestId('kept-location').textContent;

beforeEach(() => {
  seen = [];
  effects = { started: 0, stopped: 0 };
  keptLoader.mockClear();
});

describe('a kept-alive page', () => {
  it('keeps its state and its DOM when the user leaves and reopens it', async () => {
    const { go } = await renderApp('/kept?symbol=BTC');
    const note = screen.getByRole('textbox', { name: 'Note' }) as HTMLInputElement;
    fireEvent.change(note, { target: { value: 'typed' } });
    fireEvent.click(screen.getByRole('button', { name: 'Count 0' }));
    expect(screen.getByRole('button', { name: 'Count 1' })).toBeTruthy();

    await go('/home');
    expect(screen.getByTestId('home-location').textContent).toBe('/home');
    expect(keptWrapper()?.hidden).toBe(true);
    expect(keptWrapper()?.hasAttribute('inert')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Count 1' })).toBeNull(); // hidden from the page

    await go('/kept?symbol=BTC');
    expect(keptWrapper()?.hidden).toBe(false);
    expect(keptWrapper()?.hasAttribute('inert')).toBe(false);
    expect(screen.getByRole('button', { name: 'Count 1' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: 'Note' })).toBe(note);
    expect(note.value).toBe('typed');

    await go(-1);
    await go(-1);
    expect(keptLocation()).toBe('/kept?symbol=BTC');
    expect(screen.getByRole('button', { name: 'Count 1' })).toBeTruthy();
  });

  it('sees its own frozen location while hidden, never the route the user is on', async () => {
    const { go } = await renderApp('/kept?symbol=BTC');
    await go('/home?tab=crypto&symbol=ETH');
    await go('/home?tab=metals');
    expect(screen.getByTestId('home-location').textContent).toBe('/home?tab=metals');
    expect(screen.getByTestId('kept-location').textContent).toBe('/kept?symbol=BTC');
    expect(screen.getByTestId('kept-symbol').textContent).toBe('BTC');
    // It did render again while hidden (the navigation state changed), always with its own address.
    expect(seen.length).toBeGreaterThan(2);
    expect(new Set(seen)).toEqual(new Set(['/kept?symbol=BTC']));
  });

  it('keeps each kept page on its own location when the user goes from one to the other', async () => {
    const { go } = await renderApp('/kept?symbol=BTC');
    await go('/second?x=1');
    expect(screen.getByTestId('second-location').textContent).toBe('/second?x=1');
    expect(screen.getByTestId('kept-location').textContent).toBe('/kept?symbol=BTC');
    await go('/kept?symbol=BTC');
    expect(screen.getByTestId('second-location').textContent).toBe('/second?x=1');
    expect(new Set(seen)).toEqual(new Set(['/kept?symbol=BTC']));
  });

  it('shows the new parameters when reopened with others, in the same page instance', async () => {
    const { go, router } = await renderApp('/kept?symbol=BTC');
    fireEvent.click(screen.getByRole('button', { name: 'Count 0' }));
    await go('/home');
    await go('/kept?symbol=ETH');
    expect(router.state.location.search).toBe('?symbol=ETH');
    expect(keptLocation()).toBe('/kept?symbol=ETH');
    expect(screen.getByTestId('kept-symbol').textContent).toBe('ETH');
    expect(screen.getByRole('button', { name: 'Count 1' })).toBeTruthy();
    // No parameters at all names nothing to resume: the page gets the bare address.
    await go('/home');
    await go('/kept');
    expect(keptLocation()).toBe('/kept');
    expect(screen.getByTestId('kept-symbol').textContent).toBe('none');
  });

  it('resumes as it was left when reopened by a link that names nothing new, and says so in the address', async () => {
    const { go, router } = await renderApp('/kept?symbol=BTC');
    fireEvent.click(screen.getByRole('button', { name: 'Hourly' }));
    await act(async () => {
      await vi.waitFor(() => expect(router.state.location.search).toBe('?symbol=BTC&period=1h'));
    });
    expect(keptLocation()).toBe('/kept?symbol=BTC&period=1h');
    await go('/home');
    seen = [];
    await go('/kept?symbol=BTC');
    await act(async () => {
      await vi.waitFor(() => expect(router.state.location.search).toBe('?symbol=BTC&period=1h'));
    });
    expect(keptLocation()).toBe('/kept?symbol=BTC&period=1h');
    // The page never rendered with the shorter address: it went straight back to its own.
    expect(seen).not.toContain('/kept?symbol=BTC');
    // One history entry for the reopening: back goes to /home.
    await go(-1);
    expect(router.state.location.pathname).toBe('/home');
  });

  it('changes its own parameters while on screen without being resumed back', async () => {
    const { router } = await renderApp('/kept?symbol=BTC&period=1h');
    await act(async () => {
      await router.navigate('/kept?symbol=BTC', { replace: true });
    });
    expect(keptLocation()).toBe('/kept?symbol=BTC');
    expect(router.state.location.search).toBe('?symbol=BTC');
  });

  it('stops its effects while hidden and starts them again when shown', async () => {
    const { go } = await renderApp('/kept?symbol=BTC');
    expect(effects).toEqual({ started: 1, stopped: 0 });
    await go('/home');
    expect(effects).toEqual({ started: 1, stopped: 1 });
    await go('/kept?symbol=BTC');
    expect(effects).toEqual({ started: 2, stopped: 1 });
  });

  it('still runs its route guard on every visit', async () => {
    const { go } = await renderApp('/kept?symbol=BTC');
    expect(keptLoader).toHaveBeenCalledTimes(1);
    await go('/home');
    await go('/kept?symbol=BTC');
    await go('/home');
    await go(-1);
    expect(keptLoader).toHaveBeenCalledTimes(3);
  });

  it('is dropped when the session changes: at once when hidden, on leaving when shown', async () => {
    const { go } = await renderApp('/kept?symbol=BTC');
    await go('/second');
    act(() => switchSession('second'));
    expect(keptWrapper('kept')).toBeNull();
    expect(keptWrapper('second')).not.toBeNull(); // on screen: kept until the user leaves
    await go('/home');
    expect(keptWrapper('second')).toBeNull();
    await go('/kept?symbol=BTC');
    expect(screen.getByRole('button', { name: 'Count 0' })).toBeTruthy();
    expect(effects.started).toBe(2);
  });
});

describe('keep-alive helpers', () => {
  const at = (path: string) => {
    const url = new URL(path, 'http://app');
    return { pathname: url.pathname, search: url.search, hash: '', state: null, key: path };
  };

  it('resumes only when every given parameter matches what the page was left with', () => {
    expect(resumesLeftPage(at('/kline?symbol=BTC'), at('/kline?symbol=BTC&period=1h'))).toBe(true);
    expect(resumesLeftPage(at('/kline?symbol=ETH'), at('/kline?symbol=BTC&period=1h'))).toBe(false);
    expect(resumesLeftPage(at('/kline'), at('/kline?symbol=BTC&period=1h'))).toBe(false);
    expect(resumesLeftPage(at('/login'), at('/login?mode=register'))).toBe(false);
    expect(resumesLeftPage(at('/kline?symbol=BTC'), at('/kline?symbol=BTC'))).toBe(false);
    expect(resumesLeftPage(at('/kline?symbol=BTC&period=4h'), at('/kline?symbol=BTC&period=1h'))).toBe(false);
  });

  it('knows a kept route by its handle', () => {
    expect(keptPathOf(routeFor('/kline'))).toBe('kline');
    expect(keptPathOf(routeFor('/home'))).toBeNull();
    expect(keptPathOf(undefined)).toBeNull();
  });

  it('marks the pages outside the layout as kept alive with an empty title, and no other', () => {
    const kept = routeTable.filter((entry) => entry.keepAlive).map((entry) => entry.path);
    expect(kept.sort()).toEqual(['demotrading', 'kline', 'login', 'outlink']);
    for (const entry of routeTable) expect(entry.keepAlive === true, entry.path).toBe(!entry.layout);
    for (const path of kept) expect(routeTable.find((entry) => entry.path === path)?.title.id, path).toBe('');
  });

  it("titles the document with the route's title, or the app's name alone for an empty title", () => {
    expect(documentTitle('/home', i18n)).toBe('Home · Bourse');
    expect(documentTitle('/kline?symbol=BTCUSDT', i18n)).toBe('Bourse');
    expect(documentTitle('/login', i18n)).toBe('Bourse');
    expect(documentTitle('/nowhere', i18n)).toBe('Bourse');
  });
});

describe('the app router with kept pages', () => {
  function testStore() {
    const store = configureStore({
      reducer: { [api.reducerPath]: api.reducer, user: userSlice.reducer, market: marketSlice.reducer },
      middleware: (getDefault) => getDefault().concat(api.middleware),
    });
    return store as unknown as AppStore;
  }

  beforeEach(() => {
    window.history.replaceState(null, '', '/');
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined); // Root scrolls up; jsdom has no layout
  });

  it('keeps /login and /outlink alive across visits, each with its own address, and titles them "Bourse"', async () => {
    window.history.replaceState(null, '', '/#/outlink?url=https%3A%2F%2Fexample.com%2Fa');
    const store = testStore();
    const router = createAppRouter(store);
    render(
      <Provider store={store}>
        <I18nProvider i18n={i18n}>
          <RouterProvider router={router} />
        </I18nProvider>
      </Provider>,
    );
    await screen.findByText('example.com', {}, { timeout: 10_000 });
    // The title is set by an effect after the page's first render: wait for it, under load too.
    await waitFor(() => expect(document.title).toBe('Bourse'));

    await act(async () => {
      await router.navigate('/login');
    });
    const account = await screen.findByPlaceholderText('E-mail, mobile or account', {}, { timeout: 10_000 }) as HTMLInputElement;
    fireEvent.change(account, { target: { value: 'someone@example.com' } });
    expect(document.title).toBe('Bourse');
    // The outside-link page, hidden, still shows its own address.
    expect(screen.getByText('https://example.com/a')).toBeTruthy();

    await act(async () => {
      await router.navigate('/outlink?url=https%3A%2F%2Fexample.org%2Fb');
    });
    await screen.findByText('example.org', {}, { timeout: 10_000 });
    await act(async () => {
      await router.navigate('/login');
    });
    const again = await screen.findByPlaceholderText('E-mail, mobile or account', {}, { timeout: 10_000 }) as HTMLInputElement;
    expect(again).toBe(account);
    expect(again.value).toBe('someone@example.com');

    // Logging in ends the session the login page belongs to: it is not kept once left.
    act(() => {
      store.dispatch(loggedIn({ token: 'token-1' }));
    });
    await act(async () => {
      await router.navigate('/outlink?url=https%3A%2F%2Fexample.org%2Fb');
    });
    expect(document.querySelector('[data-kept-page="login"]')).toBeNull();
    router.dispose();
  });
});

describe('in-app back', () => {
  function Child() {
    const back = useBack('/parent');
    return <button type="button" onClick={back}>Back</button>;
  }
  const Parent = () => <p>Parent page</p>;
  const Start = () => <p>Start page</p>;

  function renderHashApp(hash: string) {
    window.history.replaceState(null, '', `/${hash}`);
    const router = createHashRouter([
      { path: '/start', Component: Start }, { path: '/parent', Component: Parent }, { path: '/child', Component: Child },
    ]);
    render(<RouterProvider router={router} />);
    return router;
  }

  it('goes to the parent, in place, when the page was opened directly', async () => {
    const router = renderHashApp('#/child');
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByText('Parent page');
    expect(router.state.location.pathname).toBe('/parent');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(window.history.state.idx).toBe(0);
    router.dispose();
  });

  it('goes back through the app when the app opened the page', async () => {
    const router = renderHashApp('#/start');
    await act(async () => {
      await router.navigate('/child');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    await screen.findByText('Start page');
    expect(router.state.historyAction).toBe('POP');
    router.dispose();
  });
});
