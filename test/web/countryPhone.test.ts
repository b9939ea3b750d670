// Phone numbers per country (issue 8, point 10): the form's rule accepts and refuses what the
// server's normalisation does, for every country, and says which country it checked against.
import { afterEach, describe, expect, it } from 'vitest';
import { getExampleNumber } from 'libphonenumber-js/min';
import examples from 'libphonenumber-js/mobile/examples';
import { countries, countryByCode } from '../../src/lib/countries.ts';
import { isPossiblePhoneNumber } from '../../src/lib/phoneNumbers.ts';
import { rules } from '../../src/entities/session/rules.ts';
import { activateLocale, i18n } from '../../src/lib/i18n.ts';
import { prepareAccountTexts } from '../../src/lib/catalogs.ts';
import { normalisePhone } from '../../server/domain/kernel/phoneNumbers.ts';

const serverAccepts = (nationalNumber: string, callingCode: string) => normalisePhone(nationalNumber, callingCode) !== undefined;

/** A small deterministic generator, so a failure names digits that fail again. */
function digitStrings(seed: number, count: number): string[] {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state;
  };
  return Array.from({ length: count }, () => {
    const length = 3 + (next() % 14);
    return Array.from({ length }, () => String(next() % 10)).join('');
  });
}

describe('isPossiblePhoneNumber', () => {
  it("agrees with the server's normalisation for every country, on its example number and variations of it", () => {
    let accepted = 0;
    let refused = 0;
    for (const country of countries) {
      const example = getExampleNumber(country.country_code as Parameters<typeof getExampleNumber>[0], examples);
      expect(example, country.country_code).toBeDefined();
      const national = example!.nationalNumber;
      const candidates = [
        national, `0${national}`, national.slice(0, -1), `${national}0`, `${national}00`, national.slice(0, 3),
        ` ${national} `, `${national.slice(0, 3)} ${national.slice(3)}`, `+${country.phone_code}${national}`,
        ...digitStrings(country.phone_code.length * 1000 + Number(country.phone_code), 12),
      ];
      for (const candidate of candidates) {
        for (const callingCode of [country.phone_code, `00${country.phone_code}`]) {
          const client = isPossiblePhoneNumber(candidate, callingCode);
          expect(client, `${country.country_code} +${callingCode} "${candidate}"`).toBe(serverAccepts(candidate, callingCode));
          if (client) accepted += 1;
          else refused += 1;
        }
      }
      // The example itself is a number of that country on both sides.
      expect(isPossiblePhoneNumber(national, country.phone_code), country.country_code).toBe(true);
    }
    // Both answers occur often: the comparison is not all one way.
    expect(accepted).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });

  it('accepts and refuses by the country chosen', () => {
    expect(isPossiblePhoneNumber('2015550123', '1')).toBe(true);
    expect(isPossiblePhoneNumber('201555012', '1')).toBe(false);
    expect(isPossiblePhoneNumber('7400123456', '44')).toBe(true);
    expect(isPossiblePhoneNumber('07400123456', '44')).toBe(true);
    expect(isPossiblePhoneNumber('74001234567', '44')).toBe(false);
    expect(isPossiblePhoneNumber('612345678', '34')).toBe(true);
    expect(isPossiblePhoneNumber('61234567', '34')).toBe(false);
    expect(isPossiblePhoneNumber('1012345678', '82')).toBe(true);
    expect(isPossiblePhoneNumber('7400 123456', '44')).toBe(false);
    // "+4" with "47…" would read as a UK number: not the country chosen.
    expect(isPossiblePhoneNumber('47400123456', '4')).toBe(false);
  });
});

describe('the phone rule of the account forms', () => {
  afterEach(() => activateLocale('en-us'));

  const check = async (value: string, code: string) => {
    const { validator } = rules(i18n).phone(countryByCode(code)!)[1] as { validator: (rule: unknown, value: string) => Promise<void> };
    try {
      await validator(undefined, value);
      return 'accepted';
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('names the country a number does not fit, in the language of the page', async () => {
    expect(await check('7400123456', 'GB')).toBe('accepted');
    expect(await check('74001234567', 'GB')).toBe('Enter a valid phone number for United Kingdom');
    expect(await check('', 'GB')).toBe('accepted');
    await activateLocale('xi');
    await prepareAccountTexts();
    expect(await check('61234567', 'ES')).toBe('Introduzca un número de teléfono válido para España');
    await activateLocale('ko');
    await prepareAccountTexts();
    expect(await check('123', 'KR')).toBe('대한민국의 올바른 휴대폰 번호를 입력해 주세요');
  });
});
