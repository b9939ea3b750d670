// The page over the app while the platform is in maintenance (the operator's message as written,
// the expected end in the user's time and language, a button to check again), or while this copy
// of the app is older than the platform still serves (reload to update).
import { useEffect, useState } from 'react';
import { Button } from 'antd-mobile';
import { useLingui } from '@lingui/react/macro';
import { formatEpochMs, isoOfEpochMs } from '../../lib/time.ts';
import { checkStatusNow, useServiceState } from './serviceStatus.ts';
import { prepareContentTexts } from './contentTexts.ts';
import './serviceNotice.css';

export const prepare = prepareContentTexts;

/** Reloads into the newest version: a waiting worker takes over first (it holds the new files). */
async function reloadToUpdate() {
  const registration = await navigator.serviceWorker?.getRegistration?.().catch(() => undefined);
  if (registration?.waiting) {
    navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload());
    registration.waiting.postMessage({ type: 'SKIP_WAITING' });
    return;
  }
  window.location.reload();
}

export default function ServiceNotice() {
  const { t } = useLingui();
  const { view, status } = useServiceState();
  const [checking, setChecking] = useState(false);
  useEffect(() => {
    if (view === 'none') return undefined;
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => { document.body.style.overflow = previous; };
  }, [view]);
  if (view === 'none' || !status) return null;
  if (view === 'update') {
    return (
      <div className="service-notice" role="alertdialog" aria-modal="true" aria-labelledby="service-notice-title">
        <h1 id="service-notice-title">{t`Please update the app`}</h1>
        <p>{t`This version of Bourse is no longer supported. Reload to get the newest version.`}</p>
        <Button color="primary" size="large" onClick={() => void reloadToUpdate()}>{t`Reload`}</Button>
      </div>
    );
  }
  const check = async () => {
    setChecking(true);
    await checkStatusNow().finally(() => setChecking(false));
  };
  return (
    <div className="service-notice" role="alertdialog" aria-modal="true" aria-labelledby="service-notice-title" data-testid="maintenance">
      <h1 id="service-notice-title">{t`Under maintenance`}</h1>
      {status.message && <p className="service-notice-message">{status.message}</p>}
      {status.until !== undefined && (
        <p>{t`Expected back by`} <time dateTime={isoOfEpochMs(status.until)}>{formatEpochMs(status.until)}</time></p>
      )}
      <p className="service-notice-note">{t`Your funds and positions are safe. The app will come back by itself when the work is done.`}</p>
      <Button color="primary" fill="outline" loading={checking} onClick={() => void check()}>{t`Check again`}</Button>
    </div>
  );
}
