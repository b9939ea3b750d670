// What the market views show besides rows: the age of data that is not live, loading, the
// failure with a retry, and the empty result.
import { useEffect, useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { serverNow } from '../../api/serverClock.ts';
import { formatAge } from '../../lib/age.ts';
import { intlOf } from '../../lib/locales.ts';

export const ageRefreshMs = 30_000;

/** The server's time now, refreshed every `everyMs` while shown, so an age on screen grows. */
export function useServerNow(everyMs = ageRefreshMs): number {
  const [nowMs, setNowMs] = useState(serverNow);
  useEffect(() => {
    setNowMs(serverNow());
    const timer = setInterval(() => setNowMs(serverNow()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return nowMs;
}

/** How old the prices shown are ("Updated 2 min ago"): an age reads at a glance, a clock time does not. */
export function StaleNotice({ asOfMs, offline }: { asOfMs: number; offline: boolean }) {
  const { t, i18n } = useLingui();
  const age = formatAge(asOfMs, useServerNow(), intlOf(i18n.locale));
  return (
    <p className="stale-notice" role="status" data-testid="stale-notice">
      {offline ? t`Offline. Prices updated ${age}` : t`Prices are not live. Updated ${age}`}
    </p>
  );
}

export function LoadingRows({ label }: { label: string }) {
  return (
    <div className="loading-rows" role="status" aria-label={label}>
      {[0, 1, 2, 3, 4].map((index) => <div key={index} className="loading-row" aria-hidden="true" />)}
    </div>
  );
}

export function FailedNotice({ offline, onRetry }: { offline: boolean; onRetry: () => void }) {
  const { t } = useLingui();
  return (
    <div className="market-failed" role="alert">
      <p>{offline ? t`You are offline and no prices are saved on this device yet.` : t`The markets could not be loaded.`}</p>
      <button type="button" className="retry-button" onClick={onRetry}>{t`Retry`}</button>
    </div>
  );
}
