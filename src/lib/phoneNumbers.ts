// Whether a national number and a calling code make a phone number, by the rule the server
// normalises phone accounts with (server/domain/kernel/phoneNumbers.ts, libphonenumber's "min"
// metadata): the form refuses what the server would refuse and nothing it would accept.
// test/web/countryPhone.test.ts holds the two to the same answers for every country.
import { parsePhoneNumberFromString } from 'libphonenumber-js/core';
import metadata from 'libphonenumber-js/min/metadata';

/** True when the server would take these digits as a number of that calling code ("44"). */
export function isPossiblePhoneNumber(nationalNumber: string, callingCode: string): boolean {
  const digits = nationalNumber.trim();
  const code = callingCode.trim().replace(/^0+/, '');
  if (!/^[0-9]{4,15}$/.test(digits) || !/^[1-9][0-9]{0,3}$/.test(code)) return false;
  const parsed = parsePhoneNumberFromString(`+${code}${digits}`, metadata);
  // The digits after "+" are read as one number: "+4" and "47…" would make a UK number, which is
  // not the country the person chose.
  return Boolean(parsed && parsed.countryCallingCode === code && parsed.isPossible());
}
