// Every country and region that has a telephone calling code, for the phone-code and country
// pickers (spec §3 countryInfo). The regions and their codes come from libphonenumber's metadata
// (the "min" set the server normalises phone numbers with), the names from Intl.DisplayNames in
// the active language, so nothing is typed by hand and each of the ten languages has every name.
// english_name and chinese_name are kept because the stored countryInfo carries them.
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/min/metadata';
import type { CountryInfo } from './country.ts';
import { regionName } from './countryLabel.ts';

export type { CountryInfo };
export { countryFlag } from './countryLabel.ts';

export const countries: CountryInfo[] = getCountries(metadata).map((code) => ({
  country_code: code,
  english_name: regionName(code, 'en') ?? code,
  chinese_name: regionName(code, 'zh-CN') ?? regionName(code, 'en') ?? code,
  phone_code: getCountryCallingCode(code, metadata),
}));

const byCode = new Map(countries.map((country) => [country.country_code, country]));

/** The region each calling code names first (+1 the US, +44 the UK, +7 Russia): listed first for it. */
const mainOfCallingCode = new Set<string>(Object.values(metadata.country_calling_codes).map((codes) => codes[0]));

/** The country of an ISO 3166 code ("GB"), if it has a calling code. */
export const countryByCode = (code: string): CountryInfo | undefined => byCode.get(code.toUpperCase());

/** The country's name in the given language, falling back to the English name. */
export function countryName(country: Pick<CountryInfo, 'country_code' | 'english_name'>, intlLocale: string): string {
  return regionName(country.country_code, intlLocale) ?? country.english_name;
}

/** A country with its name in one language and what a search compares. */
export interface NamedCountry { country: CountryInfo; name: string; searchText: string }

/** Lower case without accents, so "espana" finds "España" and "turkiye" "Türkiye". */
const folded = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

const namedIn = new Map<string, NamedCountry[]>();

/** Every country with its name in the language, in that language's alphabetical order. */
export function namedCountries(intlLocale: string): NamedCountry[] {
  let named = namedIn.get(intlLocale);
  if (!named) {
    const collator = new Intl.Collator(intlLocale);
    named = countries.map((country) => {
      const name = countryName(country, intlLocale);
      return { country, name, searchText: folded(`${name}\n${country.english_name}`) };
    }).sort((a, b) => collator.compare(a.name, b.name));
    namedIn.set(intlLocale, named);
  }
  return named;
}

/**
 * The countries a query finds: digits (with or without "+") match the start of the calling code,
 * the main region of an exact code first; anything else the name in the language, the English
 * name or the ISO code, the ISO code and names that begin with the query (or have a word that
 * does) first. Each group stays in alphabetical order.
 */
export function searchCountries(named: NamedCountry[], query: string): NamedCountry[] {
  const needle = folded(query.trim());
  if (!needle) return named;
  const digits = needle.replace(/^\+\s*/, '');
  if (/^[0-9]+$/.test(digits)) {
    const found = named.filter(({ country }) => country.phone_code.startsWith(digits));
    const main = (item: NamedCountry) => item.country.phone_code === digits && mainOfCallingCode.has(item.country.country_code);
    return [...found.filter(main), ...found.filter((item) => !main(item))];
  }
  const ranked: NamedCountry[][] = [[], [], []];
  for (const item of named) {
    if (item.country.country_code.toLowerCase() === needle) ranked[0].push(item);
    else if (item.searchText.startsWith(needle) || item.searchText.includes(`\n${needle}`)
      || item.searchText.includes(` ${needle}`)) ranked[1].push(item);
    else if (item.searchText.includes(needle)) ranked[2].push(item);
  }
  return ranked.flat();
}
