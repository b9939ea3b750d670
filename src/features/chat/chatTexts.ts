// The support chat page's texts, in a catalog of their own (`chat`, lingui.config.ts) that loads
// with the page; ChatPage exports `prepare = prepareChatTexts` for the router.
import type { Messages } from '@lingui/core';
import { loadFeatureCatalog } from '../../lib/i18n.ts';

export const prepareChatTexts = () => loadFeatureCatalog('chat',
  (code) => import(`../../locales/${code}/chat.po`) as Promise<{ messages: Messages }>)
  // Offline in a language whose catalog was never fetched: show the page rather than nothing.
  .catch((error: unknown) => console.warn('[i18n] chat texts unavailable', error));
