// The loader of the `account` catalog (lingui.config.ts): the texts of the login, registration
// and personal pages and of the install card (components/InstallOffer.tsx). It sits below the
// features because a shared component loads it too; each of those pages exports `prepare` for
// the router.
import type { Messages } from '@lingui/core';
import { loadFeatureCatalog } from './i18n.ts';

export const prepareAccountTexts = () => loadFeatureCatalog('account',
  (code) => import(`../locales/${code}/account.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] account texts unavailable', error));
