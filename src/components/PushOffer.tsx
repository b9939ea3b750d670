// The push offer (issue 21: push is never asked at first visit, it is offered after a first
// deposit, trade or chat message, and in My). A page renders this card right after such an action
// succeeded; it shows only when this browser can take push (Notification, a service worker and
// PushManager), the user has not yet allowed or blocked notifications, and this device never made
// the offer before: the first time it shows, storage remembers it (storageKeys.pushOfferDone), so
// it is offered once per device, and "Turn on" or "Not now" close it. "Turn on" only opens the
// notification settings page: the browser's permission prompt comes from that page's switch,
// never from here. Its texts are in the notifications catalog, which it loads only when it shows.
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useLingui } from '@lingui/react/macro';
import type { Messages } from '@lingui/core';
import { loadFeatureCatalog } from '../lib/i18n.ts';
import { readLocal, storageKeys, writeLocal } from '../lib/storage.ts';
import './pushOffer.css';

/** What the user just did, which says what a notification would bring them. */
export type PushOfferReason = 'deposit' | 'trade' | 'option' | 'chat';

export const notificationSettingsPath = '/notificationSettings';

/** Whether this browser can take push and has neither allowed nor blocked it, and the offer was never made here. */
export function pushOfferWanted(): boolean {
  if (!('Notification' in globalThis) || !('PushManager' in globalThis) || typeof navigator === 'undefined'
    || !('serviceWorker' in navigator)) return false;
  if (Notification.permission !== 'default') return false;
  return readLocal(storageKeys.pushOfferDone) === null;
}

const remember = (state: 'offered' | 'dismissed' | 'accepted') =>
  writeLocal(storageKeys.pushOfferDone, `${state} ${new Date().toISOString()}`);

const prepareOfferTexts = () => loadFeatureCatalog('notifications',
  (code) => import(`../locales/${code}/notifications.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the card rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] notification texts unavailable', error));

/**
 * `reveal`: scroll the card into view when it shows, for a page whose newest content is kept in
 * view at the bottom (the chat), where the card would appear just below what is on screen.
 */
export default function PushOffer({ reason, reveal = false }: { reason: PushOfferReason; reveal?: boolean }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const card = useRef<HTMLElement>(null);
  // Decided once, when the page renders the card: the offer made here stays until answered.
  const [open, setOpen] = useState(pushOfferWanted);
  const [textsReady, setTextsReady] = useState(false);

  useEffect(() => {
    if (!open || textsReady) return undefined;
    let current = true;
    void prepareOfferTexts().then(() => current && setTextsReady(true));
    return () => { current = false; };
  }, [open, textsReady]);

  // Shown: never offered again on this device, even if the user leaves without answering.
  const visible = open && textsReady;
  useEffect(() => {
    if (visible && readLocal(storageKeys.pushOfferDone) === null) remember('offered');
    if (visible && reveal) card.current?.scrollIntoView?.({ block: 'nearest' });
  }, [visible, reveal]);

  if (!visible) return null;

  const lines: Record<PushOfferReason, string> = {
    deposit: t`Get a notification when your deposit is credited.`,
    trade: t`Get a notification when a take-profit or stop-loss is hit.`,
    option: t`Get a notification when your option settles.`,
    chat: t`Get a notification when support replies.`,
  };
  const dismiss = () => {
    remember('dismissed');
    setOpen(false);
  };
  const accept = () => {
    remember('accepted');
    setOpen(false);
    navigate(notificationSettingsPath);
  };

  return (
    <section ref={card} className="push-offer" role="region" aria-labelledby="push-offer-title" data-testid="push-offer">
      <span className="push-offer-icon" aria-hidden="true">
        <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round"
          strokeLinejoin="round" focusable="false">
          <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" /><path d="M13.7 21a2 2 0 0 1-3.4 0" />
        </svg>
      </span>
      <div className="push-offer-body">
        <h2 id="push-offer-title">{t`Turn on notifications?`}</h2>
        <p>{lines[reason]}</p>
        <div className="push-offer-actions">
          <button type="button" className="push-offer-button primary" onClick={accept}>{t`Turn on`}</button>
          <button type="button" className="push-offer-button" onClick={dismiss}>{t`Not now`}</button>
        </div>
      </div>
    </section>
  );
}
