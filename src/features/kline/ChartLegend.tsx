// The strip above the chart (issue 8 #8): the open, high, low and close of the candle under the
// crosshair (the newest one otherwise) and the averages and bands drawn over the candles, in the
// page's font and the user's language. It sits above the canvas, never over the candles, and its
// height depends only on how many values it holds and the width, not on the values, so the chart
// does not jump as prices move.
import { useLingui } from '@lingui/react/macro';
import { formatDecimal } from '../../lib/number.ts';
import type { LegendValue } from './chartIndicators.ts';

export interface CandleLegend {
  open: number;
  high: number;
  low: number;
  close: number;
  overlays: LegendValue[];
}

export function ChartLegend({ legend, pricePrecision, intl }: { legend: CandleLegend | null; pricePrecision: number; intl: string }) {
  const { t } = useLingui();
  const price = (value: number | undefined) => (value === undefined ? '–' : formatDecimal(value, pricePrecision, intl));
  // Short labels as trading screens write them, with the full name for screen readers.
  const fields = [
    { key: 'open', short: t({ message: 'O', context: 'chart legend: opening price, one letter or two' }), long: t`Opening price`, value: legend?.open },
    { key: 'high', short: t({ message: 'H', context: 'chart legend: highest price, one letter or two' }), long: t`Highest price`, value: legend?.high },
    { key: 'low', short: t({ message: 'L', context: 'chart legend: lowest price, one letter or two' }), long: t`Lowest price`, value: legend?.low },
    { key: 'close', short: t({ message: 'C', context: 'chart legend: closing price, one letter or two' }), long: t`Closing price`, value: legend?.close },
  ];
  return (
    <div className="kline-legend" role="group" aria-label={t`Candle values`} data-testid="kline-legend">
      <dl className="kline-legend-row kline-legend-prices">
        {fields.map(({ key, short, long, value }) => (
          <div key={key} data-field={key}>
            <dt><span aria-hidden="true">{short}</span><span className="visually-hidden">{long}</span></dt>
            <dd>{price(value)}</dd>
          </div>
        ))}
      </dl>
      {legend && legend.overlays.length > 0 && (
        <dl className="kline-legend-row kline-legend-overlays">
          {legend.overlays.map(({ key, label, value, color }) => (
            <div key={key}>
              <dt><span className="kline-legend-swatch" style={{ background: color }} aria-hidden="true" />{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
