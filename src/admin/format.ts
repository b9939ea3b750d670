// Amounts and times as the operator's language writes them. Amounts stay decimal strings: the
// server writes every decimal of the currency's scale, so that is how many are shown. Times go
// through the app's date module, so the back office writes a date as the app does.
import { i18n } from '@lingui/core';
import { formatDecimal } from '../lib/number.ts';
import { intlOf } from '../lib/locales.ts';
import { formatEpochMs } from '../lib/time.ts';

export const currentIntl = () => intlOf(i18n.locale);

/** "1234.500000" → "1,234.500000" (en-US), "1.234,500000" (es-ES); text that is no number as it came. */
export function formatAmount(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const decimals = value.includes('.') ? value.length - value.indexOf('.') - 1 : 0;
  return formatDecimal(value, decimals, currentIntl());
}

/** Epoch milliseconds as a date and time with seconds, in the operator's language and zone (the date module's one form). */
export function formatTime(ms: number | null | undefined): string {
  return formatEpochMs(ms) || '—';
}

/** A count ("12,345"), grouped as the operator's language groups it. */
export const formatCount = (value: number) => new Intl.NumberFormat(currentIntl()).format(value);
