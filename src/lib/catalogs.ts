// The texts of the login, registration and personal pages, in a catalog of their own that loads
// with those pages (lingui.config.ts). Each of those pages exports `prepare` for the router.
import type { Messages } from '@lingui/core';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

export const prepareAccountTexts = () => loadFeatureCatalog('account',
  (code) => import(`../../locales/${code}/account.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] account texts unavailable', error));
