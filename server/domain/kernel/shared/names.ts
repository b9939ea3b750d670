// Names in the caller's language: products, offerings, tasks and competitions keep a default name
// and a map of translated ones; a request names its language by query, header or Accept-Language.

/** A row with a default name and its translations. */
export interface Named {
  name: string;
  names: Record<string, string> | null;
}

/** The name in the caller's language: `names[lang]`, then the language without its region, then `name`. */
export function nameIn(row: Named, lang: string | undefined): string {
  if (!lang) return row.name;
  const names = row.names ?? {};
  return names[lang] ?? names[lang.toLowerCase()] ?? names[lang.split('-')[0].toLowerCase()] ?? row.name;
}

/** The caller's language: `lang` of the query, then a `lang` header, then the first of Accept-Language. */
export function requestLang(query: { lang?: string } | undefined, headers: Record<string, string | string[] | undefined>): string | undefined {
  const pick = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const fromQuery = query?.lang;
  if (fromQuery) return fromQuery;
  const header = pick(headers.lang);
  if (header) return header.trim().slice(0, 16);
  const accept = pick(headers['accept-language']);
  if (!accept) return undefined;
  return accept.split(',')[0]?.split(';')[0]?.trim().toLowerCase().slice(0, 16) || undefined;
}
