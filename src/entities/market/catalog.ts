// The market and chart pages' texts, in a catalog of their own that loads with those pages
// (lingui.config.ts). Every entry point of the feature awaits it before it renders.
import { loadFeatureCatalog } from '../../lib/i18n.ts';
import type { Messages } from '@lingui/core';

export const prepareMarketTexts = () => loadFeatureCatalog('market',
  (code) => import(`../../locales/${code}/market.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] market texts unavailable', error));
