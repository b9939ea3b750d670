import type { LocaleCode } from './locales.ts';

/**
 * antd-mobile's own texts (the clear button of an input, a search bar's cancel, a picker's confirm,
 * their accessible labels) default to Chinese: give it the interface language. Loaded beside the
 * catalog but not awaited, and kept out of the first screen's code: the first screen does not wait
 * for it (DESIGN §8).
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

export async function applyAntdLocale(code: LocaleCode) {
  wantedLocale = code;
  const [{ default: locale }, { getDefaultConfig, setDefaultConfig }] = await Promise.all([
    antdLocales[code](), import('antd-mobile/es/components/config-provider/config-provider.js'),
  ]);
  if (wantedLocale === code) setDefaultConfig({ ...getDefaultConfig(), locale: locale as ReturnType<typeof getDefaultConfig>['locale'] });
}
