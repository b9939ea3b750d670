// A swap's rate both ways (issue 19 #10): "1 USDT ≈ 0.00001482 BTC" and "1 BTC ≈ 67,456.49 USDT",
// each at a readable precision (lib/assetPrecision.ts formatRate) and the inverse computed exactly;
// "=" when nothing was cut, "≈" when digits were. The exact quoted rate stays in the title.
import { useLingui } from '@lingui/react/macro';
import { formatRate, inverseRate } from '../../lib/assetPrecision.ts';
import { intlOf } from '../../lib/locales.ts';
import './swapRate.css';

export function SwapRate({ rate, from, to }: { rate: string; from: string; to: string }) {
  const { i18n } = useLingui();
  const intl = intlOf(i18n.locale);
  const forward = formatRate(rate, to, intl);
  const inverse = inverseRate(rate);
  const backward = inverse === undefined ? undefined : formatRate(inverse, from, intl);
  return (
    <span className="swap-rate" title={`1 ${from} = ${rate} ${to}`}>
      <span className="swap-rate-line" data-testid="swap-rate">1 {from} {forward.cut ? '≈' : '='} <span className="amount" data-amount={rate}>{forward.text}</span> {to}</span>
      {backward && (
        <span className="swap-rate-line swap-rate-inverse" data-testid="swap-rate-inverse">
          1 {to} ≈ <span className="amount" data-amount={inverse}>{backward.text}</span> {from}
        </span>
      )}
    </span>
  );
}
