// Lingui runtime: activates one of the ten catalogs, loading it on demand (each catalog is its
// own chunk, cached by the service worker), and remembers the choice under localStorage `lang`.
// Pages that are not on the first screen bring their texts in a catalog of their own (see
// lingui.config.ts): they load it through `loadFeatureCatalog` before they show, and a change of
// language reloads every feature catalog loaded so far in the new language.
import { i18n, type Messages } from '@lingui/core';
import { isLocaleCode, locales, sourceLocale, type LocaleCode } from './locales.ts';
import { readLocal, storageKeys, writeLocal } from './storage.ts';

export { i18n };

export type CatalogLoader = (code: LocaleCode) => Promise<{ messages: Messages }>;

const featureCatalogs = new Map<string, CatalogLoader>();
/** The language each feature catalog was last loaded in. */
const loadedIn = new Map<string, string>();

export function storedLocale(): LocaleCode {
  const stored = readLocal(storageKeys.lang);
  return isLocaleCode(stored) ? stored : sourceLocale;
}

/**
 * antd-mobile's own texts (the clear button of an input, a search bar's cancel, a picker's confirm,
 * their accessible labels) default to Chinese: give it the interface language. Loaded beside the
 * catalog but not awaited: the first screen does not wait for it (DESIGN §8).
 */
const antdLocales: Record<LocaleCode, () => Promise<{ default: unknown }>> = {
  'en-us': () => import('antd-mobile/es/locales/en-US.js'),
  ko: () => import('antd-mobile/es/locales/ko-KR.js'),
  jp: () => import('antd-mobile/es/locales/ja-JP.js'),
  tai: () => import('antd-mobile/es/locales/th-TH.js'),
  mlxy: () => import('antd-mobile/es/locales/ms-MY.js'),
  vl: () => import('antd-mobile/es/locales/vi-VN.js'),
  xi: () => import('antd-mobile/es/locales/es-ES.js'),
  'zh-cn': () => import('antd-mobile/es/locales/zh-CN.js'),
  'zh-tw': () => import('antd-mobile/es/locales/zh-TW.js'),
  'zh-hk': () => import('antd-mobile/es/locales/zh-HK.js'),
};

/** The language last asked for: a slower load for an earlier choice must not win. */
let wantedLocale: LocaleCode | undefined;

async function applyAntdLocale(code: LocaleCode) {
  const [{ default: locale }, { getDefaultConfig, setDefaultConfig }] = await Promise.all([
    antdLocales[code](), import('antd-mobile/es/components/config-provider/config-provider.js'),
  ]);
  if (wantedLocale === code) setDefaultConfig({ ...getDefaultConfig(), locale: locale as ReturnType<typeof getDefaultConfig>['locale'] });
}

export async function activateLocale(code: LocaleCode): Promise<void> {
  wantedLocale = code;
  void applyAntdLocale(code).catch((error) => console.warn('[i18n] antd-mobile texts', error));
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
  i18n.load(code, messages);
  loadedIn.set(name, code);
}
