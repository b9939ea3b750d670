// The frame around every page: the "Loading..." overlay on navigation (route background, shown
// at least 300 ms), the document title, and scrolling back to the top after each navigation.
import { useEffect, useRef, useState } from 'react';
import { Outlet, useLocation, useNavigation } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import { routeFor } from './routes.ts';
import { OfflineBanner } from '../components/OfflineBanner.tsx';

export const overlayMinimumMs = 300;

export function Root() {
  const navigation = useNavigation();
  const location = useLocation();
  const { t, i18n } = useLingui();
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
    const entry = routeFor(location.pathname);
    document.title = entry ? `${i18n._(entry.title)} · Bourse` : 'Bourse';
  }, [location.pathname, i18n]);

  const target = routeFor(navigation.location?.pathname ?? location.pathname);
  return (
    <>
      <OfflineBanner />
      <Outlet />
      {shownSince !== null && (
        <div className="page-loading" role="status" aria-live="polite"
          style={{ '--route-background': target?.background ?? '#ffffff' } as React.CSSProperties}>
          <span>{t`Loading...`}</span>
        </div>
      )}
    </>
  );
}
