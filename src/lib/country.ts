// The countryInfo shape of spec §3 and its default (United States, US, 1). Kept apart from the
// full country list so the first screen does not load the list.
export interface CountryInfo { english_name: string; chinese_name: string; country_code: string; phone_code: string }

export const defaultCountry: CountryInfo = { english_name: 'United States', chinese_name: '美国', country_code: 'US', phone_code: '1' };
