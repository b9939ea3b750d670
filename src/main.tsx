// Start-up: root font scaling, the language and the store (rehydrated from IndexedDB) side by
// side, the API's hooks into the app, the router, then (loaded after the first render) background
// work, the service worker and the pages' code, fetched but not run (DESIGN §3).
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { RouterProvider } from 'react-router-dom';
import { I18nProvider } from '@lingui/react';
// antd-mobile's global styles only: its barrel would pull every component into the first chunk.
import 'antd-mobile/es/global';
import { configureApiClient } from './api/api.ts';
import { sessionExpired } from './api/session.ts';
import { redirectRemembered } from './entities/session/userSlice.ts';
import { activateLocale, i18n, storedLocale } from './lib/i18n.ts';
import { afterFirstPaint } from './lib/firstPaint.ts';
import { flushStorage } from './lib/storage.ts';
import { applyAppearance } from './lib/theme.ts';
import { createAppStore } from './app/store.ts';
import { createAppRouter } from './app/router.tsx';
import { loginPath } from './app/routes.ts';
import './styles.css';

// Chromium offers installation (beforeinstallprompt) as soon as the page qualifies, usually before
// lib/install.ts has loaded: the offer is held here for it instead of being lost.
let heldInstallPrompt: Event | undefined;
addEventListener('beforeinstallprompt', (event) => {
  event.preventDefault();
  heldInstallPrompt = event;
}, { once: true });

/** Design width 375 in units of 750: 1rem is 100 design units (50 px on a 375 px screen). */
export function scaleRootFont() {
  const width = Math.min(document.documentElement.clientWidth || 375, 575);
  document.documentElement.style.fontSize = `${(width / 375) * 50}px`;
}

/** Resolves once the first screen has painted and the main thread is next idle. */
function firstPaintThenIdle(): Promise<void> {
  return afterFirstPaint().then(() => new Promise((resolve) => {
    if ('requestIdleCallback' in window) requestIdleCallback(() => resolve(), { timeout: 2000 });
    else setTimeout(resolve, 0);
  }));
}

async function start() {
  // Light or dark and the colour of rises, before anything is drawn (lib/theme.ts).
  applyAppearance();
  scaleRootFont();
  window.addEventListener('resize', scaleRootFont);
  const locale = activateLocale(storedLocale());
  const { store, persistor } = createAppStore();
  await Promise.all([locale, new Promise<void>((resolve) => {
    if (persistor.getState().bootstrapped) return resolve();
    const unsubscribe = persistor.subscribe(() => {
      if (!persistor.getState().bootstrapped) return;
      unsubscribe();
      resolve();
    });
  })]);
  // The API client is configured before the router exists: creating the router runs the first
  // route's guard, whose user-info call must already carry the token (a token restored from
  // localStorage or the cookie alone has no user id yet, so the guard asks the server).
  let router: ReturnType<typeof createAppRouter> | undefined;
  configureApiClient({
    getToken: () => store.getState().user.token,
    // The toast code loads with the first message (DESIGN §8 budget).
    notify: (message) => void import('./components/feedback.tsx').then(({ showToast }) => showToast(message)),
    onUnauthorized: () => {
      const current = router?.state.location;
      if (current) store.dispatch(redirectRemembered(`${current.pathname}${current.search}`));
      // A session that was live here and ended (expired, ended from another device, a password
      // change): the login page says so.
      const hadSession = Boolean(store.getState().user.token);
      store.dispatch(sessionExpired());
      void router?.navigate(loginPath, { state: hadSession ? { sessionEnded: true } : undefined });
    },
  });
  const appRouter = createAppRouter(store);
  router = appRouter;
  const root = createRoot(document.getElementById('app')!);
  startTransition(() => root.render(
    <StrictMode>
      <Provider store={store}>
        <I18nProvider i18n={i18n}>
          {/* Router updates outside a transition: a page's first paint shows the fallbacks of its
              lazy parts (the home page's market card) instead of waiting for them. */}
          <RouterProvider router={appRouter} useTransitions={false} />
        </I18nProvider>
      </Provider>
    </StrictMode>,
  ));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void flushStorage();
  });
  // The status check, the desktop redirect, the service worker, the install prompt's keeper and
  // the pages' code do not draw the first screen: their code loads once it has painted and the
  // browser is idle (DESIGN §3, §8); an install offer made before then was held at start.
  await firstPaintThenIdle();
  const [background, updates, pages, install] = await Promise.all([
    import('./app/background.ts'), import('./app/updates.ts'), import('./app/pagePreload.ts'), import('./lib/install.ts'),
  ]);
  install.watchInstallPrompt(heldInstallPrompt);
  background.startBackgroundWork(store, () => void updates.offerReload());
  void updates.registerServiceWorker();
  void background.redirectDesktop(store);
  pages.preloadPages();
}

void start();
