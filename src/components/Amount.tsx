// One amount on screen (issue 19 #2): the figure never wraps mid-number (it is one nowrap box;
// the label beside it gives way instead, see Amount.css), it shows its asset's display precision
// (lib/assetPrecision.ts), and when that hides digits a tap, a long press or Enter on it shows the
// full value in place, and again the short one. Screen readers always hear the full value. Every
// amount carries the class `amount` and `data-amount` (the exact value) so tests can find them.
// The figure and its unit are one text node: one fragment to lay out and to measure.
//
// Not a button on purpose: the figure is a figure first. Its toggle is a convenience for eyes (the
// accessible name already holds the full value), so it stays out of the tab of 44 px controls.
import { useState, type KeyboardEvent, type MouseEvent } from 'react';
import { useLingui } from '@lingui/react/macro';
import { formatAssetAmount, formatFullAmount, type AmountOptions } from '../lib/assetPrecision.ts';
import type { DecimalInput } from '../lib/number.ts';
import { intlOf } from '../lib/locales.ts';
import './Amount.css';

/** What the asset centre's eye shows instead of an amount. */
export const hiddenAmountText = '****';

export interface AmountProps extends AmountOptions {
  /** The amount as a decimal string from the server or a helper ("12.500000"), never a float. */
  value: DecimalInput;
  /** The asset's code ("USDT"): picks the display precision. */
  asset?: string;
  /** Writes the asset's code after the figure, inside the same unbreakable box ("500.00 USDT"). */
  withAsset?: boolean;
  /** Masks the figure (the hide-amounts eye). */
  hidden?: boolean;
  className?: string;
  'data-testid'?: string;
}

export function Amount({ value, asset, withAsset, hidden, className, scale, decimals, exact, signed, ...rest }: AmountProps) {
  const { i18n, t } = useLingui();
  const [expanded, setExpanded] = useState(false);
  const intl = intlOf(i18n.locale);
  const unit = withAsset && asset ? ` ${asset}` : '';
  const classes = `amount${className ? ` ${className}` : ''}`;
  const raw = value === null || value === undefined ? '' : String(value);
  if (hidden) {
    return <span className={classes} data-amount="" data-testid={rest['data-testid']}>{`${hiddenAmountText}${unit}`}</span>;
  }
  const short = formatAssetAmount(value, asset, intl, { scale, decimals, exact, signed });
  const full = formatFullAmount(value, asset, intl, { scale, decimals: exact ? undefined : decimals, signed });
  if (full === short) {
    return <span className={classes} data-amount={raw} data-testid={rest['data-testid']}>{`${short}${unit}`}</span>;
  }
  const toggle = () => setExpanded((now) => !now);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      toggle();
    }
  };
  // A long press opens the context menu on phones; it shows the full value instead.
  const onContextMenu = (event: MouseEvent) => {
    event.preventDefault();
    setExpanded(true);
  };
  const fullText = `${full}${unit}`;
  return (
    <span className={`${classes} amount-expandable`} data-amount={raw} data-testid={rest['data-testid']}
      data-expanded={expanded ? 'true' : 'false'} tabIndex={0} title={fullText}
      aria-label={t`${short}${unit}, full value ${fullText}`}
      onClick={toggle} onKeyDown={onKeyDown} onContextMenu={onContextMenu}>
      {`${expanded ? full : short}${unit}`}
    </span>
  );
}
