// Lingui runtime: activates one of the ten catalogs, loading it on demand (each catalog is its
// own chunk, cached by the service worker), and remembers the choice under localStorage `lang`.
import { i18n } from '@lingui/core';
import { isLocaleCode, locales, sourceLocale, type LocaleCode } from './locales.ts';
import { readLocal, storageKeys, writeLocal } from './storage.ts';

export { i18n };

export function storedLocale(): LocaleCode {
  const stored = readLocal(storageKeys.lang);
  return isLocaleCode(stored) ? stored : sourceLocale;
}

export async function activateLocale(code: LocaleCode): Promise<void> {
  const { messages } = (await import(`../locales/${code}/messages.po`)) as { messages: Record<string, unknown> };
  const intl = locales.find((locale) => locale.value === code)?.intl ?? 'en-US';
  i18n.loadAndActivate({ locale: code, locales: [intl], messages: messages as never });
  writeLocal(storageKeys.lang, code);
  if (typeof document !== 'undefined') document.documentElement.lang = intl;
}
