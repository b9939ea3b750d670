// The country list of the phone-code and country pickers (issue 8, point 10): every region with a
// calling code, named in each interface language, found by name, English name, ISO code or code.
import { describe, expect, it } from 'vitest';
import {
  countries, countryByCode, countryFlag, countryName, namedCountries, searchCountries,
} from '../../src/lib/countries.ts';
import { defaultCountry } from '../../src/lib/country.ts';
import { locales } from '../../src/lib/locales.ts';

const codesFound = (intl: string, query: string) => searchCountries(namedCountries(intl), query).map(({ country }) => country.country_code);

describe('the country list', () => {
  it('holds every region libphonenumber has a calling code for, each once, with its code', () => {
    expect(countries.length).toBeGreaterThanOrEqual(240);
    expect(countries.length).toBeLessThanOrEqual(250);
    expect(new Set(countries.map((country) => country.country_code)).size).toBe(countries.length);
    for (const country of countries) {
      expect(country.country_code).toMatch(/^[A-Z]{2}$/);
      expect(country.phone_code).toMatch(/^[1-9][0-9]{0,2}$/);
      expect(country.english_name).not.toBe(country.country_code);
    }
    expect(countryByCode('GB')?.phone_code).toBe('44');
    expect(countryByCode('kr')?.phone_code).toBe('82');
    expect(countryByCode('VA')?.phone_code).toBe('39');
  });

  it('keeps the stored countryInfo shape, with the spec default as its United States row', () => {
    expect(countryByCode('US')).toEqual(defaultCountry);
    expect(countryByCode('GB')).toEqual({ country_code: 'GB', english_name: 'United Kingdom', chinese_name: '英国', phone_code: '44' });
  });

  it('names every country in each of the ten languages, not in English, for a sample', () => {
    for (const { intl } of locales) {
      const named = namedCountries(intl);
      expect(named).toHaveLength(countries.length);
      for (const { country, name } of named) expect(name, `${intl} ${country.country_code}`).not.toBe(country.country_code);
    }
    expect(countryName(countryByCode('GB')!, 'ko-KR')).toBe('영국');
    expect(countryName(countryByCode('GB')!, 'es-ES')).toBe('Reino Unido');
    expect(countryName(countryByCode('DE')!, 'ja-JP')).toBe('ドイツ');
    expect(countryName(countryByCode('US')!, 'zh-TW')).toBe('美國');
    expect(countryName(countryByCode('US')!, 'th-TH')).toBe('สหรัฐอเมริกา');
  });

  it('sorts by the name in the language', () => {
    const spanish = namedCountries('es-ES').map(({ name }) => name);
    expect(spanish.indexOf('Alemania')).toBeLessThan(spanish.indexOf('España'));
    expect(spanish.indexOf('España')).toBeLessThan(spanish.indexOf('Reino Unido'));
  });

  it('draws the flag from the two letters', () => {
    expect(countryFlag('GB')).toBe('🇬🇧');
    expect(countryFlag('US')).toBe('🇺🇸');
    expect(countryFlag('gb')).toBe('');
  });
});

describe('searchCountries', () => {
  it('finds by calling code, with or without "+"', () => {
    // The main region of the code first, then the others sharing it.
    expect(codesFound('en-US', '+44')).toEqual(['GB', 'GG', 'IM', 'JE']);
    expect(codesFound('en-US', '44')).toEqual(['GB', 'GG', 'IM', 'JE']);
    expect(codesFound('en-US', '+7')).toEqual(['RU', 'KZ']);
    expect(codesFound('en-US', '+1')[0]).toBe('US');
    expect(codesFound('en-US', '+1')).toEqual(expect.arrayContaining(['US', 'CA', 'PR']));
    expect(codesFound('en-US', '+1').every((code) => countryByCode(code)!.phone_code === '1')).toBe(true);
    expect(codesFound('en-US', '+8')).toEqual(expect.arrayContaining(['CN', 'KR', 'JP', 'HK', 'TW', 'VN']));
  });

  it('finds by the name in the language of the page, without accents, and by the English name', () => {
    expect(codesFound('es-ES', 'reino')[0]).toBe('GB');
    expect(codesFound('es-ES', 'espana')).toEqual(['ES']);
    // "영국령 버진아일랜드" (British Virgin Islands) begins with it too, after the shorter name.
    expect(codesFound('ko-KR', '영국')).toEqual(['GB', 'VG', 'IO']);
    expect(codesFound('ko-KR', 'united kingdom')).toEqual(['GB']);
    expect(codesFound('zh-CN', '英国')[0]).toBe('GB');
    expect(codesFound('en-US', 'turkiye')).toEqual(['TR']);
  });

  it('puts the ISO code and names that begin with the query first', () => {
    expect(codesFound('en-US', 'gb')[0]).toBe('GB');
    const found = codesFound('en-US', 'in');
    expect(found[0]).toBe('IN');
    expect(found.indexOf('ID')).toBeLessThan(found.indexOf('AR'));
  });

  it('finds nothing for nonsense and everything for nothing', () => {
    expect(codesFound('en-US', 'qqqq')).toEqual([]);
    expect(codesFound('en-US', '+999')).toEqual([]);
    expect(codesFound('en-US', '  ')).toHaveLength(countries.length);
  });
});
