// The frame around every page: the "Loading..." overlay on navigation (route background, shown
// at least 300 ms), the document title, scrolling back to the top after each navigation, and the
// kept-alive pages (KeepAlive.tsx), drawn beside the <Outlet/> so that they outlive a visit.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useSelector } from 'react-redux';
import { Outlet, useLocation, useNavigation } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { I18n } from '@lingui/core';
import { routeFor } from './routes.ts';
import { keepAliveFrame, type KeptPages } from './keptPages.ts';
import { OfflineBanner } from '../components/OfflineBanner.tsx';
import type { UserState } from '../entities/session/userSlice.ts';
import { useServiceState } from '../features/notices/serviceStatus.ts';

// The maintenance and "please update" page (issue 21) loads only when the status check asks for
// it, through the pages' chunk (app/pages.ts), so the first screen carries no list of its files.
const ServiceNotice = lazy(() => import('./pages.ts').then((module) => module.loadServiceNotice()));

export const overlayMinimumMs = 300;
export const appName = 'Bourse';

/** "<route title> · Bourse", or the app's name alone for a route without a title (spec §2). */
export function documentTitle(pathname: string, i18n: I18n): string {
  const entry = routeFor(pathname);
  const title = entry?.title.id ? i18n._(entry.title) : '';
  return title ? `${title} · ${appName}` : appName;
}

export function Root({ keptPages }: { keptPages: KeptPages }) {
  const navigation = useNavigation();
  const location = useLocation();
  const { t, i18n } = useLingui();
  const session = useSelector((state: { user: UserState }) => state.user.token);
  const busy = navigation.state !== 'idle';
  const [shownSince, setShownSince] = useState<number | null>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (busy) {
      clearTimeout(hideTimer.current);
      setShownSince((since) => since ?? Date.now());
      return;
    }
    if (shownSince === null) return;
    const remainingMs = Math.max(0, overlayMinimumMs - (Date.now() - shownSince));
    hideTimer.current = setTimeout(() => setShownSince(null), remainingMs);
    return () => clearTimeout(hideTimer.current);
  }, [busy, shownSince]);

  useEffect(() => {
    window.scrollTo(0, 0);
    document.querySelector('main')?.scrollTo?.(0, 0);
    document.title = documentTitle(location.pathname, i18n);
  }, [location.pathname, i18n]);

  const serviceView = useServiceState().view;
  // Loaded by the router with the first kept route, before that route shows (app/keptPages.ts).
  const KeepAlive = keepAliveFrame();
  const target = routeFor(navigation.location?.pathname ?? location.pathname);
  return (
    <>
      <OfflineBanner />
      {serviceView !== 'none' && <Suspense fallback={null}><ServiceNotice /></Suspense>}
      <Outlet />
      {KeepAlive && <KeepAlive pages={keptPages} session={session} />}
      {shownSince !== null && (
        <div className="page-loading" role="status" aria-live="polite"
          style={target?.background === '#ffffff' ? undefined : { '--route-background': target?.background } as React.CSSProperties}>
          <span>{t`Loading...`}</span>
        </div>
      )}
    </>
  );
}
