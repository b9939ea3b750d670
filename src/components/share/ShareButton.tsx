// The Share button of a receipt (contract, option, swap): builds the receipt's image data when
// pressed (the texts in the current language) and shares it through shareReceipt.ts.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import { shareReceipt, type ReceiptImage, type ShareEnvironment } from './shareReceipt.ts';
import './share.css';

export function ShareButton({ receipt, environment }: {
  /** Called on press, so the figures and texts are the ones on screen then. */
  receipt: () => ReceiptImage;
  environment?: ShareEnvironment;
}) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const press = async () => {
    setBusy(true);
    try {
      await shareReceipt(receipt(), { copied: t`Link copied`, failed: t`Fail` }, environment);
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" className="share-button" data-testid="share-receipt" aria-label={t`Share the receipt`}
      aria-busy={busy} disabled={busy} onClick={() => void press()}>
      <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8}
        strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
        <path d="M12 15V3M7 8l5-5 5 5M5 12v8h14v-8" />
      </svg>
      <span>{t`Share`}</span>
    </button>
  );
}
