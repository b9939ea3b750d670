// Lingui runtime: activates one of the ten catalogs, loading it on demand (each catalog is its
// own chunk, cached by the service worker), and remembers the choice under localStorage `lang`.
// Pages that are not on the first screen bring their texts in a catalog of their own (see
// lingui.config.ts): they load it through `loadFeatureCatalog` before they show, and a change of
// language reloads every feature catalog loaded so far in the new language.
import { startTransition } from 'react';
import { i18n, type Messages } from '@lingui/core';
import { isLocaleCode, locales, sourceLocale, type LocaleCode } from './locales.ts';
import { readLocal, storageKeys, writeLocal } from './storage.ts';
import { afterFirstPaint } from './firstPaint.ts';

export { i18n };

export type CatalogLoader = (code: LocaleCode) => Promise<{ messages: Messages }>;

const featureCatalogs = new Map<string, CatalogLoader>();
/** The language each feature catalog was last loaded in. */
const loadedIn = new Map<string, string>();

export function storedLocale(): LocaleCode {
  const stored = readLocal(storageKeys.lang);
  return isLocaleCode(stored) ? stored : sourceLocale;
}

export async function activateLocale(code: LocaleCode): Promise<void> {
  // antd-mobile's own texts, not awaited (lib/antdLocale.ts): no antd-mobile text is on the first
  // frame, so at start they load once it has painted; afterwards at once, beside the catalog.
  void afterFirstPaint().then(() => import('./antdLocale.ts')).then(({ applyAntdLocale }) => applyAntdLocale(code))
    .catch((error) => console.warn('[i18n] antd-mobile texts', error));
  const names = [...featureCatalogs.keys()];
  const [{ messages }, ...features] = await Promise.all([
    import(`../locales/${code}/messages.po`) as Promise<{ messages: Messages }>,
    ...names.map((name) => featureCatalogs.get(name)!(code)),
  ]);
  const intl = locales.find((locale) => locale.value === code)?.intl ?? 'en-US';
  i18n.loadAndActivate({ locale: code, locales: [intl], messages: Object.assign({}, messages, ...features.map((feature) => feature.messages)) });
  for (const name of names) loadedIn.set(name, code);
  writeLocal(storageKeys.lang, code);
  if (typeof document !== 'undefined') document.documentElement.lang = intl;
}

/** Loads a feature's catalog in the current language (once per language) and keeps it for later switches. */
export async function loadFeatureCatalog(name: string, load: CatalogLoader): Promise<void> {
  featureCatalogs.set(name, load);
  const code = isLocaleCode(i18n.locale) ? i18n.locale : sourceLocale;
  if (loadedIn.get(name) === code) return;
  const { messages } = await load(code);
  // The language may have changed meanwhile; activateLocale then loaded this catalog itself.
  if (i18n.locale !== code) return;
  // Every I18nProvider consumer renders again on the catalog's "change": in a transition, so that
  // React does it in slices instead of one long task. Left outside, the update (made in a promise
  // callback) took the default lane, which React renders without yielding, and a card whose texts
  // these are rendered with it: 55 ms of main thread at once for the home market card here.
  startTransition(() => i18n.load(code, messages));
  loadedIn.set(name, code);
}
