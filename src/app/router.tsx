// The hash router built from the route table. Every registered route runs the guard of spec §2
// before its page shows: with a token but no user id it fetches the user; a login-only route
// without a user remembers where the user was going and sends them to /login. A kept-alive route
// (`keepAlive`) still runs the guard on every visit, but its page is drawn by Root's KeepAlive,
// not in the <Outlet/>, so that it outlives the visit.
import { createHashRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router-dom';
import { loggedOut, redirectRemembered, userInfoCleared, userInfoReceived } from '../entities/session/userSlice.ts';
import { paths } from '../api/contract/paths.ts';
import type { UserInfo } from '../api/contract/accounts.ts';
import { baseQuery } from '../api/api.ts';
import { builtRoutes, defaultRedirect, loginPath, type RouteEntry } from './routes.ts';
import type { AppStore } from './store.ts';
import { Root } from './Root.tsx';
import { Layout } from './Layout.tsx';
import { KeptRouteSlot, loadKeepAliveFrame, type KeptPages } from './keptPages.ts';

async function refreshUser(store: AppStore) {
  const { token, userInfo } = store.getState().user;
  if (!token || userInfo.id) return;
  // Not through getMyUserInfo's cache: the guard must see the server's answer now, and a 401
  // here only means "not logged in" (spec §8), not "go to /login".
  const result = await baseQuery({ url: paths.myUserInfo, quietUnauthorized: true },
    { dispatch: store.dispatch, getState: store.getState } as never, {});
  if ('data' in result && result.data && typeof result.data === 'object') {
    store.dispatch(userInfoReceived(result.data as UserInfo));
  } else if ('error' in result && result.error?.kind === 'unauthorized') {
    store.dispatch(loggedOut());
  } else {
    store.dispatch(userInfoCleared());
  }
}

function guard(store: AppStore, entry: RouteEntry) {
  return async ({ request }: LoaderFunctionArgs) => {
    await refreshUser(store);
    if (entry.login && !store.getState().user.userInfo.id) {
      const url = new URL(request.url);
      store.dispatch(redirectRemembered(`${url.pathname}${url.search}`));
      throw redirect(loginPath);
    }
    return null;
  };
}

function toRoute(store: AppStore, entry: RouteEntry, keptPages: KeptPages): RouteObject {
  return {
    path: entry.path,
    handle: entry,
    loader: guard(store, entry),
    // A change of the search alone (the chart's period, its full-screen view) stays on the page:
    // the guard has nothing new to decide, and rerunning it would flash the loading overlay.
    shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
      currentUrl.pathname !== nextUrl.pathname && defaultShouldRevalidate,
    lazy: async () => {
      // A kept route brings the frame that draws kept pages (Root's KeepAlive) the first time.
      const [page] = await Promise.all([entry.load!(), entry.keepAlive ? loadKeepAliveFrame() : undefined]);
      await page.prepare?.();
      if (!entry.keepAlive) return { Component: page.default };
      keptPages.set(entry.path, page.default);
      return { Component: KeptRouteSlot };
    },
  };
}

export function createAppRouter(store: AppStore) {
  const keptPages: KeptPages = new Map();
  const layoutRoutes = builtRoutes.filter((entry) => entry.layout).map((entry) => toRoute(store, entry, keptPages));
  const topRoutes = builtRoutes.filter((entry) => !entry.layout).map((entry) => toRoute(store, entry, keptPages));
  return createHashRouter([{
    path: '/',
    element: <Root keptPages={keptPages} />,
    children: [
      { index: true, loader: () => redirect(defaultRedirect) },
      { Component: Layout, children: layoutRoutes },
      ...topRoutes,
      { path: '*', loader: () => redirect(defaultRedirect) },
    ],
  }]);
}

