// The install card of the home page, for every visitor, logged in or not (lib/install.ts says
// when: once engaged, never in the installed app, not for two weeks after "Not now"). It offers
// the browser's own install prompt, or on iOS, which has none, the Share → Add to Home Screen
// steps. It sits in the page's flow, so it never covers an action or the tab bar. Its texts are in
// the account catalog, which it loads only when it shows, so they stay off the first screen.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useLingui } from '@lingui/react/macro';
import {
  countVisit, dismissOffer, installMethod, msUntilEngaged, offerDismissed, onInstallAvailabilityChange, promptInstall,
} from '../lib/install.ts';
import { prepareAccountTexts } from '../lib/catalogs.ts';
import './installOffer.css';

/** iOS's Share glyph (a box with an arrow up), as the user finds it in the browser's toolbar. */
function ShareGlyph() {
  return (
    <svg className="share-glyph" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor"
      strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d="M12 3v12" /><path d="M8 7l4-4 4 4" /><path d="M8 10H6v11h12V10h-2" />
    </svg>
  );
}

/**
 * How to install on iOS, after the Share glyph the user looks for; the words are those of iOS's
 * own Share menu in each language. (Plain text: <Trans> would bring its renderer into the first
 * screen's bundle.)
 */
export function IosInstallSteps() {
  const { t } = useLingui();
  return <><ShareGlyph />{t`Tap Share, then “Add to Home Screen”.`}</>;
}

export const useInstallMethod = () => useSyncExternalStore(onInstallAvailabilityChange, installMethod, () => undefined);

export default function InstallOffer() {
  const { t } = useLingui();
  const method = useInstallMethod();
  const [engaged, setEngaged] = useState(false);
  const [textsReady, setTextsReady] = useState(false);
  const [dismissed, setDismissed] = useState(() => offerDismissed());
  const wanted = engaged && method !== undefined && !dismissed;

  useEffect(() => {
    countVisit();
    const timer = setTimeout(() => setEngaged(true), msUntilEngaged());
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (!wanted || textsReady) return;
    let current = true;
    void prepareAccountTexts().then(() => current && setTextsReady(true));
    return () => { current = false; };
  }, [wanted, textsReady]);

  if (!wanted || !textsReady) return null;

  const dismiss = () => {
    dismissOffer();
    setDismissed(true);
  };
  const install = async () => {
    // Declined in the browser's own dialog counts as "Not now".
    if (!(await promptInstall())) dismiss();
  };

  return (
    <section className="install-offer" aria-labelledby="install-offer-title">
      <img className="install-offer-icon" src="/icons/icon-192.png" alt="" width={44} height={44} />
      <div className="install-offer-body">
        <h2 id="install-offer-title">{t`Install Bourse`}</h2>
        <p>{method === 'ios' ? <IosInstallSteps /> : t`Open it from your home screen: full screen, faster, even offline.`}</p>
        <div className="install-offer-actions">
          {method === 'prompt' && (
            <button type="button" className="install-offer-button primary" onClick={() => void install()}>{t`Install`}</button>
          )}
          <button type="button" className="install-offer-button" onClick={dismiss}>{t`Not now`}</button>
        </div>
      </div>
    </section>
  );
}
