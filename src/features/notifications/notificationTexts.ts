// The notification settings and price alert pages' texts, and the messages of the push error
// codes, in a catalog of their own (`notifications`, lingui.config.ts) that loads with those pages.
// Each page exports `prepare = prepareNotificationTexts` for the router.
import { msg } from '@lingui/core/macro';
import type { Messages } from '@lingui/core';
import { registerErrorMessages } from '../../api/errorMessages.ts';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

registerErrorMessages({
  push_endpoint_refused: msg`This browser's push service address was refused.`,
  push_keys_invalid: msg`This browser gave invalid push keys. Please try again.`,
  push_endpoint_taken: msg`This browser's notifications belong to another account.`,
  price_alert_limit: msg`You can have at most 50 active price alerts. Delete one first.`,
  price_alert_price_invalid: msg`Please enter a price above zero with no more decimals than the symbol has.`,
});

export const prepareNotificationTexts = () => loadFeatureCatalog('notifications',
  (code) => import(`../../locales/${code}/notifications.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] notification texts unavailable', error));
