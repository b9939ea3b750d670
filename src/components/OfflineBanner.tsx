// A thin banner while the device is offline, so the user knows the figures on screen are the
// last ones received and that nothing they send will go out until the network is back.
import { useSyncExternalStore } from 'react';
import { useLingui } from '@lingui/react/macro';

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

export const useOnline = () => useSyncExternalStore(subscribe, () => navigator.onLine, () => true);

export function OfflineBanner() {
  const { t } = useLingui();
  const online = useOnline();
  if (online) return null;
  return (
    <div className="offline-banner" role="status" aria-live="polite">
      {t`You are offline. Showing the last data received.`}
    </div>
  );
}
