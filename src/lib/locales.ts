// The ten interface languages (spec §9, DESIGN §3). `value` is the key stored under
// localStorage `lang`; `intl` is the BCP 47 tag used for plural rules and number formats.
export const sourceLocale = 'en-us';

export const locales = [
  { value: 'en-us', text: 'English', intl: 'en-US', icon: '🇺🇸' },
  { value: 'ko', text: '한국어', intl: 'ko-KR', icon: '🇰🇷' },
  { value: 'jp', text: '日本語', intl: 'ja-JP', icon: '🇯🇵' },
  { value: 'tai', text: 'ไทย', intl: 'th-TH', icon: '🇹🇭' },
  { value: 'mlxy', text: 'Bahasa Melayu', intl: 'ms-MY', icon: '🇲🇾' },
  { value: 'vl', text: 'Tiếng Việt', intl: 'vi-VN', icon: '🇻🇳' },
  { value: 'xi', text: 'Español', intl: 'es-ES', icon: '🇪🇸' },
  { value: 'zh-cn', text: '简体中文', intl: 'zh-CN', icon: '🇨🇳' },
  { value: 'zh-tw', text: '繁體中文（台灣）', intl: 'zh-TW', icon: '🇹🇼' },
  { value: 'zh-hk', text: '繁體中文（香港）', intl: 'zh-HK', icon: '🇭🇰' },
] as const;

export type LocaleCode = (typeof locales)[number]['value'];
export const localeCodes = locales.map((locale) => locale.value) as LocaleCode[];
export const isLocaleCode = (value: unknown): value is LocaleCode =>
  typeof value === 'string' && (localeCodes as string[]).includes(value);

/** The BCP 47 tag of an interface language key ("zh-cn" → "zh-CN"), for Intl formats. */
export const intlOf = (code: string) => locales.find((locale) => locale.value === code)?.intl ?? 'en-US';
