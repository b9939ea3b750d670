// The rise-and-fall distribution: how many markets rose, stayed flat or fell over 24 h, and a bar
// per change bucket (plain SVG, no chart library): falling buckets in the falling colour, the flat
// one grey, rising ones in the rising colour, so each colour's bars add up to its count. Closed
// markets are not counted (their change is their last session's). When the call fails (offline),
// the card shows the distribution of the last ticker list saved on the device, with its age.
import { useState } from 'react';
import { useLingui } from '@lingui/react/macro';
import type { PriceDistribution, Ticker } from '../../api/contract/market.ts';
import { isPointBucket, priceDistribution } from '../../api/contract/marketDistribution.ts';
import { useOnline } from '../../components/OfflineBanner.tsx';
import { formatAge } from '../../lib/age.ts';
import { intlOf } from '../../lib/locales.ts';
import { useServerNow } from '../../entities/market/MarketStates.tsx';
import { useDistribution } from '../../entities/market/useMarketData.ts';

type Bucket = PriceDistribution['buckets'][number];

/** "<-7", "-7~-5", …, "0", …, "≥7" (percent). */
export function bucketLabel(bucket: Bucket): string {
  if (bucket.fromPercent === null) return `<${bucket.toPercent}`;
  if (bucket.toPercent === null) return `≥${bucket.fromPercent}`;
  if (isPointBucket(bucket)) return `${bucket.fromPercent}`;
  return `${bucket.fromPercent}~${bucket.toPercent}`;
}

/** The bar colour of a bucket: below zero falls, exactly zero is flat, above rises. */
export function bucketDirection(bucket: Bucket): 'up' | 'flat' | 'down' {
  if (isPointBucket(bucket) && bucket.fromPercent === 0) return 'flat';
  return bucket.toPercent !== null && bucket.toPercent <= 0 ? 'down' : 'up';
}

const chart = { width: 320, height: 132, top: 18, bottom: 20, gap: 6 };

/** The bars per change bucket: the card's details, drawn when the user opens them. */
export function DistributionBars({ distribution }: { distribution: PriceDistribution }) {
  const { buckets } = distribution;
  const most = Math.max(1, ...buckets.map((bucket) => bucket.count));
  const slot = chart.width / Math.max(1, buckets.length);
  const plotHeight = chart.height - chart.top - chart.bottom;
  // The counts are in the summary's label; the bars repeat them by bucket, for the eye.
  return (
    <svg className="distribution-chart" viewBox={`0 0 ${chart.width} ${chart.height}`} aria-hidden="true" data-testid="distribution-bars">
      {buckets.map((bucket, index) => {
        const height = Math.max(2, (bucket.count / most) * plotHeight);
        const x = index * slot + chart.gap / 2;
        const y = chart.top + plotHeight - height;
        return (
          <g key={bucketLabel(bucket)}>
            <rect x={x} y={y} width={slot - chart.gap} height={height} rx="3" className={`bar-${bucketDirection(bucket)}`} />
            <text x={x + (slot - chart.gap) / 2} y={y - 4} textAnchor="middle" className="bar-count">{bucket.count}</text>
            <text x={x + (slot - chart.gap) / 2} y={chart.height - 6} textAnchor="middle" className="bar-label">{bucketLabel(bucket)}</text>
          </g>
        );
      })}
    </svg>
  );
}

/** How many rose, stayed flat and fell: the card's one slim row, beside its toggle. */
export function DistributionCounts({ distribution }: { distribution: PriceDistribution }) {
  const { t } = useLingui();
  const { rising, falling, flat } = distribution;
  return (
    <dl className="distribution-counts">
      <div className="up"><dt>{t`Rising`}</dt><dd>{rising}</dd></div>
      <div className="flat"><dt>{t`Flat`}</dt><dd>{flat}</dd></div>
      <div className="down"><dt>{t`Falling`}</dt><dd>{falling}</dd></div>
    </dl>
  );
}

/** Their shares as one bar under the counts. */
export function DistributionRatio({ distribution }: { distribution: PriceDistribution }) {
  const { t } = useLingui();
  const { rising, falling, flat } = distribution;
  const total = Math.max(1, rising + falling + flat);
  return (
    <div className="distribution-ratio" role="img"
      aria-label={t`Markets by 24h change: ${rising} rising, ${flat} flat, ${falling} falling`}>
      <span className="ratio-up" style={{ flexGrow: rising / total }} />
      <span className="ratio-flat" style={{ flexGrow: flat / total }} />
      <span className="ratio-down" style={{ flexGrow: falling / total }} />
    </div>
  );
}

/**
 * `saved` is the ticker list the page shows and the time of its newest tick: the fallback when
 * the distribution cannot be fetched.
 */
export function DistributionCard({ saved }: { saved?: { tickers: readonly Ticker[]; asOfMs: number } }) {
  const { t, i18n } = useLingui();
  const query = useDistribution();
  const online = useOnline();
  const nowMs = useServerNow();
  const fallback = !query.data && query.isError && saved && saved.tickers.length > 0
    ? priceDistribution(saved.tickers, saved.asOfMs) : undefined;
  const distribution = query.data ?? fallback;
  // Data that may be old (offline, a failed refresh, or the saved list) says how old.
  const age = distribution && (!online || query.isError) ? formatAge(distribution.time, nowMs, intlOf(i18n.locale)) : undefined;
  const closed = distribution?.closed ?? 0;
  const [open, setOpen] = useState(false);
  // A slim card by default (issue 19: the bars took 45 % of the first screen): the counts on one
  // row with the toggle, their shares as a bar under it, the bars per bucket behind the toggle.
  // The title is for screen readers while the counts say what the card is.
  return (
    <section className="distribution" aria-labelledby="distribution-title">
      <div className="distribution-head">
        <h2 id="distribution-title" className={distribution ? 'visually-hidden' : undefined}>{t`Rise and fall distribution`}</h2>
        {distribution && <DistributionCounts distribution={distribution} />}
        {distribution && (
          <button type="button" className="distribution-toggle" aria-expanded={open} aria-controls="distribution-details"
            aria-label={t`Bars by 24h change`} data-testid="distribution-toggle" onClick={() => setOpen((now) => !now)}>
            <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round"
              strokeLinejoin="round" aria-hidden="true" focusable="false"><path d={open ? 'M6 15l6-6 6 6' : 'M6 9l6 6 6-6'} /></svg>
          </button>
        )}
      </div>
      {distribution ? <DistributionRatio distribution={distribution} />
        : <p className="distribution-empty">{query.isError ? t`Not available right now.` : t`Loading...`}</p>}
      {distribution && open && (
        <div id="distribution-details">
          <p className="distribution-unit">{t`24h change, %`}</p>
          <DistributionBars distribution={distribution} />
        </div>
      )}
      {(closed > 0 || age) && (
        <p className="distribution-note">
          {closed > 0 && <span>{t`Closed markets not counted: ${closed}`}</span>}
          {age && <span data-testid="distribution-age">{t`Updated ${age}`}</span>}
        </p>
      )}
    </section>
  );
}
