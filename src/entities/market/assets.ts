// What the lists show of each market besides its code: a full name in the user's language (the
// market catalog translates it, so only the current language's names are loaded) and a mark, a
// coloured disc with a letter or currency sign drawn by CSS: no image, no network, a few bytes.
// A symbol the server adds later still gets a mark (its first letter, a colour from its code)
// and shows without a full name until one is written here.
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** Full names by symbol; a forex pair is named by its currency other than the US dollar. */
export const marketNames: Readonly<Record<string, MessageDescriptor>> = {
  BTCUSDT: msg`Bitcoin`,
  ETHUSDT: msg`Ethereum`,
  SOLUSDT: msg`Solana`,
  BNBUSDT: msg`Binance Coin`,
  XRPUSDT: msg`Ripple`,
  DOGEUSDT: msg`Dogecoin`,
  ADAUSDT: msg`Cardano`,
  TRXUSDT: msg`TRON`,
  LTCUSDT: msg`Litecoin`,
  DOTUSDT: msg`Polkadot`,
  LINKUSDT: msg`Chainlink`,
  AVAXUSDT: msg`Avalanche`,
  XAUUSD: msg`Gold`,
  XAGUSD: msg`Silver`,
  EURUSD: msg`Euro`,
  GBPUSD: msg`British pound`,
  USDJPY: msg`Japanese yen`,
  AUDUSD: msg`Australian dollar`,
  USDCHF: msg`Swiss franc`,
  USDCAD: msg`Canadian dollar`,
};

/** The mark's sign and colour by symbol: the asset's usual sign or letters, in its usual colour. */
const marks: Readonly<Record<string, readonly [sign: string, colour: string]>> = {
  BTCUSDT: ['B', '#f7931a'],
  ETHUSDT: ['Ξ', '#627eea'],
  SOLUSDT: ['S', '#9945ff'],
  BNBUSDT: ['B', '#d89f00'],
  XRPUSDT: ['X', '#23292f'],
  DOGEUSDT: ['Ð', '#ba9f33'],
  ADAUSDT: ['A', '#0033ad'],
  TRXUSDT: ['T', '#eb0029'],
  LTCUSDT: ['Ł', '#345d9d'],
  DOTUSDT: ['P', '#e6007a'],
  LINKUSDT: ['L', '#2a5ada'],
  AVAXUSDT: ['A', '#e84142'],
  XAUUSD: ['Au', '#c08a00'],
  XAGUSD: ['Ag', '#7b8794'],
  EURUSD: ['€', '#003399'],
  GBPUSD: ['£', '#c8102e'],
  USDJPY: ['¥', '#bc002d'],
  AUDUSD: ['A$', '#00843d'],
  USDCHF: ['Fr', '#d52b1e'],
  USDCAD: ['C$', '#b01c2e'],
};

export interface MarketMark { sign: string; colour: string }

export function markOf(symbol: string, base: string): MarketMark {
  const known = marks[symbol];
  if (known) return { sign: known[0], colour: known[1] };
  let hash = 0;
  for (const character of symbol) hash = (hash * 31 + character.charCodeAt(0)) % 360;
  return { sign: base.slice(0, 1), colour: `hsl(${hash} 45% 40%)` };
}
