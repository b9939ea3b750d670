// The symbol the user looked at last, on any page (chart, contracts, options, demo), so that each
// of them opens on it rather than on the first of an alphabetical list (issue 19 #12); without
// one, on BTCUSDT. Kept in localStorage through lib/storage.ts. The key is declared here rather
// than in storageKeys (the spec's keys): only the lazy trading and chart pages import this module,
// so the first screen's bundle does not carry it.
import { readLocal, writeLocal } from './storage.ts';

export const lastSymbolKey = 'bourse.lastSymbol';
export const fallbackSymbol = 'BTCUSDT';

const symbolPattern = /^[A-Z0-9]{3,20}$/;

export function readLastSymbol(): string | undefined {
  const stored = readLocal(lastSymbolKey);
  return stored && symbolPattern.test(stored) ? stored : undefined;
}

export function rememberSymbol(symbol: string) {
  if (symbolPattern.test(symbol) && readLocal(lastSymbolKey) !== symbol) writeLocal(lastSymbolKey, symbol);
}

/**
 * The symbol a page opens on among those it offers: the one asked for (the address), else the
 * last viewed, else BTCUSDT, else the first offered.
 */
export function pickSymbol(offered: readonly string[], asked?: string | null): string | undefined {
  for (const candidate of [asked?.toUpperCase(), readLastSymbol(), fallbackSymbol]) {
    if (candidate && offered.includes(candidate)) return candidate;
  }
  return offered[0];
}
