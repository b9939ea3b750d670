// The texts of the notices, announcements, messages, help and news pages, in a catalog of their
// own (`content`, lingui.config.ts) that loads with those pages and with the home notice strip.
import type { Messages } from '@lingui/core';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

export const prepareContentTexts = () => loadFeatureCatalog('content',
  (code) => import(`../../locales/${code}/content.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] content texts unavailable', error));
