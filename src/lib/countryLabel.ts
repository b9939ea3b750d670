// A country's flag and its name in a language, without the country list: the phone field shows
// them on its code button, and the list (lib/countries.ts, with libphonenumber's metadata) loads
// only when the picker opens.

const regionNames = new Map<string, Intl.DisplayNames | null>();

/** The ISO 3166 name of a region in a language ("GB", "es-ES" → "Reino Unido"), or undefined. */
export function regionName(countryCode: string, intlLocale: string): string | undefined {
  if (!regionNames.has(intlLocale)) {
    try {
      regionNames.set(intlLocale, new Intl.DisplayNames([intlLocale], { type: 'region' }));
    } catch {
      // A browser without Intl.DisplayNames (or this language's data): callers fall back.
      regionNames.set(intlLocale, null);
    }
  }
  try {
    const name = regionNames.get(intlLocale)?.of(countryCode);
    // DisplayNames answers the code itself for a region it has no name for.
    return name && name !== countryCode ? name : undefined;
  } catch {
    return undefined;
  }
}

/** The flag emoji of a two-letter region code: its letters as regional indicator symbols. */
export function countryFlag(countryCode: string): string {
  if (!/^[A-Z]{2}$/.test(countryCode)) return '';
  return String.fromCodePoint(...[...countryCode].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));
}
