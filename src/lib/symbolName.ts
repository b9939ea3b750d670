// How a trading symbol reads to a person (issue 19 polish): "BTCUSDT" → "BTC/USDT". The market's
// tickers carry a displayName; the trade settings and orders carry only the code, so every
// picker, card and receipt spells it through this one helper.

/** The quote currencies a symbol code may end with, longest first so "USDT" wins over "USD". */
const quoteSuffixes = ['USDT', 'USDC', 'BUSD', 'USD', 'BTC', 'ETH'];

/** "BTCUSDT" → "BTC/USDT", "XAUUSD" → "XAU/USD"; a code without a known quote stays as it is. */
export function symbolName(symbol: string): string {
  if (symbol.includes('/')) return symbol;
  const quote = quoteSuffixes.find((suffix) => symbol.endsWith(suffix) && symbol.length > suffix.length);
  return quote ? `${symbol.slice(0, -quote.length)}/${quote}` : symbol;
}
