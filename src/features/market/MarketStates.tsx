// What the market views show besides rows: the age of data that is not live, loading, the
// failure with a retry, and the empty result.
import { useLingui } from '@lingui/react/macro';
import { formatLocalDateTime } from './format.ts';

export function StaleNotice({ asOfMs, offline }: { asOfMs: number; offline: boolean }) {
  const { t } = useLingui();
  const time = formatLocalDateTime(asOfMs);
  return (
    <p className="stale-notice" role="status" data-testid="stale-notice">
      {offline ? t`Offline. Prices as of ${time}` : t`Prices are not live. As of ${time}`}
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
