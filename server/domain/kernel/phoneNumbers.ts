// Phone accounts in one canonical form (E.164, by libphonenumber's metadata), so that every way
// of writing one number reaches one account: a country code with leading zeros ("+001"), a
// national number with its trunk prefix ("07…" in the UK, "8…" in Russia). Trunk prefixes differ
// by country, and in some (Italy) a leading zero belongs to the number, so no fixed rule will do.
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

export interface NormalisedPhone {
  /** The calling code without "+" or leading zeros: "1", "44". */
  countryCode: string;
  /** The national significant number, digits only, without a trunk prefix. */
  nationalNumber: string;
  /** "+<country code><national number>". */
  e164: string;
}

/**
 * The canonical form of a national number and its country calling code, or undefined when they
 * cannot make a phone number: an unknown calling code, or a length no number of that country has.
 */
export function normalisePhone(nationalNumber: string, countryCode: string): NormalisedPhone | undefined {
  const digits = nationalNumber.trim();
  const callingCode = countryCode.trim().replace(/^0+/, '');
  if (!/^[0-9]{4,15}$/.test(digits) || !/^[1-9][0-9]{0,3}$/.test(callingCode)) return undefined;
  const parsed = parsePhoneNumberFromString(`+${callingCode}${digits}`);
  // The digits after "+" are read as one number: "+4" and "47…" would make a UK number, which is
  // not what the person chose.
  if (!parsed || parsed.countryCallingCode !== callingCode || !parsed.isPossible()) return undefined;
  return { countryCode: callingCode, nationalNumber: parsed.nationalNumber, e164: parsed.number };
}
