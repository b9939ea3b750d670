// The rise-and-fall distribution (GET /trade/api/getPriceDistribution) as a pure function of the
// ticker list: the server answers the call with it, and the client draws it from the last saved
// list when offline, so both always bucket alike. Plain values only (no TypeBox), for the client.
import type { PriceDistribution, Ticker } from './market.ts';

/**
 * The buckets, in percent of 24 h change: below -7, -7 to -5, -5 to -3, -3 to 0, exactly 0, above
 * 0 to 3, 3 to 5, 5 to 7, 7 and above. Flat markets have a bucket of their own, so the rising
 * bars add up to the rising count and the falling bars to the falling count.
 */
export const distributionBounds: ReadonlyArray<readonly [number | null, number | null]> = [
  [null, -7], [-7, -5], [-5, -3], [-3, 0], [0, 0], [0, 3], [3, 5], [5, 7], [7, null],
];

/** Whether a bucket holds exactly one value (the flat one): its bounds are equal. */
export const isPointBucket = (bucket: { fromPercent: number | null; toPercent: number | null }) =>
  bucket.fromPercent !== null && bucket.fromPercent === bucket.toPercent;

/**
 * Counts the markets that trade now by their 24 h change. Closed markets (forex and metals at the
 * weekend) show their last session's change, which says nothing about today: they are left out
 * of the bars and the totals and only counted in `closed`.
 */
export function priceDistribution(tickers: ReadonlyArray<Pick<Ticker, 'changePercent24h' | 'open'>>, timeMs: number): PriceDistribution {
  const buckets = distributionBounds.map(([fromPercent, toPercent]) => ({ fromPercent, toPercent, count: 0 }));
  let rising = 0;
  let falling = 0;
  let flat = 0;
  let closed = 0;
  for (const ticker of tickers) {
    if (!ticker.open) {
      closed += 1;
      continue;
    }
    // Two decimals at most: comparing them as numbers with the integer bounds is exact enough.
    const change = Number(ticker.changePercent24h);
    if (!Number.isFinite(change)) continue;
    if (change > 0) rising += 1;
    else if (change < 0) falling += 1;
    else flat += 1;
    const bucket = buckets.find((candidate) => (change === 0 ? isPointBucket(candidate)
      : !isPointBucket(candidate) && (candidate.fromPercent === null || change >= candidate.fromPercent)
        && (candidate.toPercent === null || change < candidate.toPercent)));
    if (bucket) bucket.count += 1;
  }
  return { rising, falling, flat, closed, buckets, time: timeMs };
}
