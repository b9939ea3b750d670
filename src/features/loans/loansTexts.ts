// The loan pages' texts, in a catalog of their own (`loans`, lingui.config.ts) that loads with the
// pages; each page exports `prepare = prepareLoanTexts`.
import type { Messages } from '@lingui/core';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

export const prepareLoanTexts = () => loadFeatureCatalog('loans',
  (code) => import(`../../locales/${code}/loans.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] loan texts unavailable', error));
