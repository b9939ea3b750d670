// The rise-and-fall distribution: how many markets rose, stayed flat or fell over 24 h, and a bar
// per change bucket (plain SVG, no chart library). Buckets below zero are drawn in the falling
// colour, the rest in the rising one.
import { useLingui } from '@lingui/react/macro';
import type { PriceDistribution } from '../../api/contract/market.ts';
import { useDistribution } from './useMarketData.ts';

type Bucket = PriceDistribution['buckets'][number];

/** "<-7", "-7~-5", …, ">7" (percent). */
export function bucketLabel(bucket: Bucket): string {
  if (bucket.fromPercent === null) return `<${bucket.toPercent}`;
  if (bucket.toPercent === null) return `≥${bucket.fromPercent}`;
  return `${bucket.fromPercent}~${bucket.toPercent}`;
}

const chart = { width: 320, height: 132, top: 18, bottom: 20, gap: 8 };

export function DistributionBars({ distribution }: { distribution: PriceDistribution }) {
  const { t } = useLingui();
  const { buckets, rising, falling, flat } = distribution;
  const most = Math.max(1, ...buckets.map((bucket) => bucket.count));
  const slot = chart.width / Math.max(1, buckets.length);
  const plotHeight = chart.height - chart.top - chart.bottom;
  const total = Math.max(1, rising + falling + flat);
  return (
    <>
      <svg className="distribution-chart" viewBox={`0 0 ${chart.width} ${chart.height}`} role="img"
        aria-label={t`Markets by 24h change: ${rising} rising, ${flat} flat, ${falling} falling`}>
        {buckets.map((bucket, index) => {
          const height = Math.max(2, (bucket.count / most) * plotHeight);
          const x = index * slot + chart.gap / 2;
          const y = chart.top + plotHeight - height;
          const falls = bucket.toPercent !== null && bucket.toPercent <= 0;
          return (
            <g key={bucketLabel(bucket)}>
              <rect x={x} y={y} width={slot - chart.gap} height={height} rx="3" className={falls ? 'bar-down' : 'bar-up'} />
              <text x={x + (slot - chart.gap) / 2} y={y - 4} textAnchor="middle" className="bar-count">{bucket.count}</text>
              <text x={x + (slot - chart.gap) / 2} y={chart.height - 6} textAnchor="middle" className="bar-label">{bucketLabel(bucket)}</text>
            </g>
          );
        })}
      </svg>
      <div className="distribution-ratio" aria-hidden="true">
        <span className="ratio-up" style={{ flexGrow: rising / total }} />
        <span className="ratio-flat" style={{ flexGrow: flat / total }} />
        <span className="ratio-down" style={{ flexGrow: falling / total }} />
      </div>
      <dl className="distribution-counts">
        <div className="up"><dt>{t`Rising`}</dt><dd>{rising}</dd></div>
        <div className="flat"><dt>{t`Flat`}</dt><dd>{flat}</dd></div>
        <div className="down"><dt>{t`Falling`}</dt><dd>{falling}</dd></div>
      </dl>
    </>
  );
}

export function DistributionCard() {
  const { t } = useLingui();
  const query = useDistribution();
  return (
    <section className="distribution" aria-labelledby="distribution-title">
      <h2 id="distribution-title">{t`Rise and fall distribution`} <small>{t`24h change, %`}</small></h2>
      {query.data ? <DistributionBars distribution={query.data} />
        : <p className="distribution-empty">{query.isError ? t`Not available right now.` : t`Loading...`}</p>}
    </section>
  );
}
