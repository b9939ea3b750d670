// The investment pages' texts (products, mining, bonds, VIP level), in a catalog of their own
// (`invest`, lingui.config.ts) that loads with the pages; each page exports `prepare = prepareInvestTexts`.
import type { Messages } from '@lingui/core';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

export const prepareInvestTexts = () => loadFeatureCatalog('invest',
  (code) => import(`../../locales/${code}/invest.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] invest texts unavailable', error));
