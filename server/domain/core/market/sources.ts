// Chooses the price source from configuration: "simulator" (default) or "ccxt:<exchange id>",
// where the venue quotes the crypto symbols and the simulator keeps forex and metals. The live
// simulator always draws from the secure generator: no configuration makes live ticks seeded.
import { ccxtSource, compositeSource, type TickerVenue } from './ccxtSource.ts';
import { secureSimulatorRandom, simulatorSource, type PriceSource } from './engine.ts';
import { symbolSpecs } from './symbols.ts';

export async function createPriceSource(feed: string): Promise<PriceSource> {
  if (feed === 'simulator') return simulatorSource();
  const match = /^ccxt:([a-z0-9]+)$/.exec(feed);
  if (!match) throw new Error(`MARKET_FEED must be "simulator" or "ccxt:<exchange id>", not "${feed}"`);
  const { default: ccxt } = await import('ccxt');
  const Exchange = (ccxt as unknown as Record<string, new (options: object) => TickerVenue>)[match[1]];
  if (typeof Exchange !== 'function') throw new Error(`ccxt has no exchange "${match[1]}"`);
  const venue = new Exchange({ enableRateLimit: true });
  return compositeSource([
    ccxtSource(venue, symbolSpecs.filter((spec) => spec.class === 'crypto')),
    simulatorSource(secureSimulatorRandom, symbolSpecs.filter((spec) => spec.class !== 'crypto')),
  ]);
}
