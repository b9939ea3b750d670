// The texts of identity verification and the security centre (features/identity, features/security)
// in a catalog of their own that loads with those pages (lingui.config.ts), and the messages of
// their error codes. Each of those pages exports `prepare = prepareIdentityTexts` for the router.
// Error codes met on the login page (Google code, wallet, provider, passkey) are registered by
// the login page's own files (account catalog).
import { msg } from '@lingui/core/macro';
import type { Messages } from '@lingui/core';
import { registerErrorMessages } from '../../api/errorMessages.ts';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

registerErrorMessages({
  kyc_pending: msg`Your verification is under review. Please wait for the result.`,
  kyc_already_approved: msg`This verification level is already approved.`,
  kyc_basic_required: msg`Please complete basic verification first.`,
  kyc_photo_invalid: msg`Please upload the photos of your document again.`,
  kyc_not_found: msg`This verification was not found.`,
  kyc_level_required: msg`Please verify your identity to go above this limit.`,
  session_not_found: msg`This session was not found or has already ended.`,
});

export const prepareIdentityTexts = () => loadFeatureCatalog('identity',
  (code) => import(`../../locales/${code}/identity.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] identity texts unavailable', error));
