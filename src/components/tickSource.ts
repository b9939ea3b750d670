// Where a recorded price came from, in words a user reads on a receipt or a tick line: the
// server names its feeds "simulator" and "ccxt:<venue>" (a venue such as "binance"), which are
// codes, not text ("來源：simulator" on a Chinese receipt). The simulator is told in the user's
// language; a venue by its own name, which no language translates. One helper for every line
// that shows a tick's source (trade receipts, options, flash swap).
import { msg } from '@lingui/core/macro';
import { simulatorSourceName } from '../api/contract/market.ts';
import { i18n } from '../lib/i18n.ts';

/** Venues as they write their names; any other venue code is shown capitalised. */
const venueNames: Readonly<Record<string, string>> = {
  binance: 'Binance', okx: 'OKX', bybit: 'Bybit', coinbase: 'Coinbase', kraken: 'Kraken', bitstamp: 'Bitstamp',
  bitfinex: 'Bitfinex', kucoin: 'KuCoin', gateio: 'Gate.io', huobi: 'HTX', htx: 'HTX', mexc: 'MEXC', bitget: 'Bitget',
};

/** A tick's `source` as a label: "Price simulator" in the user's language, "Binance" for "ccxt:binance". */
export function tickSourceLabel(source: string | undefined): string {
  if (!source) return '—';
  if (source === simulatorSourceName) return i18n._(msg`Price simulator`);
  const venue = source.replace(/^ccxt:/, '');
  return venueNames[venue.toLowerCase()] ?? venue.charAt(0).toUpperCase() + venue.slice(1);
}
