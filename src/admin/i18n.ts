// The back office's languages: the ten of the phone app (lib/locales.ts), its texts from the admin
// catalogs only (lingui.config.ts), and antd's own texts (pagination, confirm buttons, empty
// tables) in the same language. The choice is kept in localStorage `bourse.admin.lang`.
import { i18n, type Messages } from '@lingui/core';
import type { Locale } from 'antd/es/locale';
import { intlOf, isLocaleCode, sourceLocale, type LocaleCode } from '../lib/locales.ts';
import { readLocal, storageKeys, writeLocal } from '../lib/storage.ts';

export const langKey = 'bourse.admin.lang';

const antdLocales: Record<LocaleCode, () => Promise<{ default: Locale }>> = {
  'en-us': () => import('antd/es/locale/en_US'),
  ko: () => import('antd/es/locale/ko_KR'),
  jp: () => import('antd/es/locale/ja_JP'),
  tai: () => import('antd/es/locale/th_TH'),
  mlxy: () => import('antd/es/locale/ms_MY'),
  vl: () => import('antd/es/locale/vi_VN'),
  xi: () => import('antd/es/locale/es_ES'),
  'zh-cn': () => import('antd/es/locale/zh_CN'),
  'zh-tw': () => import('antd/es/locale/zh_TW'),
  'zh-hk': () => import('antd/es/locale/zh_HK'),
};

/** The back office's language, else the phone app's on this browser, else English. */
export function storedAdminLocale(): LocaleCode {
  const stored = readLocal(langKey) ?? readLocal(storageKeys.lang);
  return isLocaleCode(stored) ? stored : sourceLocale;
}

/** Loads the admin catalog and antd's texts of `code`, activates them, and returns antd's. */
export async function activateAdminLocale(code: LocaleCode): Promise<Locale> {
  const [{ messages }, antd] = await Promise.all([
    import(`../locales/${code}/admin.po`) as Promise<{ messages: Messages }>,
    antdLocales[code](),
  ]);
  const intl = intlOf(code);
  i18n.loadAndActivate({ locale: code, locales: [intl], messages });
  writeLocal(langKey, code);
  document.documentElement.lang = intl;
  return antd.default;
}

export { i18n };
