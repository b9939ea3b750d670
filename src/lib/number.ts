// Number helpers (spec §5, §9). Amounts travel as decimal strings and are never turned into
// binary floats here: truncation works on the digits. Two helpers differ only on empty input:
// `truncateDecimals` returns it unchanged, `truncateOrZero` treats it as 0.

export type DecimalInput = string | number | bigint | null | undefined;

const decimalPattern = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/** Plain decimal digits of a number, without exponent notation. */
function toDecimalString(value: string | number | bigint): string {
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  }
  return value.trim().replace(/,/g, '');
}

/** Truncates (never rounds) to `decimals` places and pads with zeros; '' stays ''. */
export function truncateDecimals(value: DecimalInput, decimals: number): string {
  if (value === null || value === undefined) return '';
  const text = toDecimalString(value);
  if (text === '') return text;
  const match = decimalPattern.exec(text);
  if (!match || (match[2] === '' && !match[3])) return text;
  const [, sign, whole, fraction = ''] = match;
  const kept = fraction.slice(0, Math.max(0, decimals)).padEnd(Math.max(0, decimals), '0');
  const digits = (whole.replace(/^0+(?=\d)/, '') || '0');
  const isZero = /^0*$/.test(digits + kept);
  return `${sign === '-' && !isZero ? '-' : ''}${digits}${decimals > 0 ? `.${kept}` : ''}`;
}

/** As `truncateDecimals`, but an empty input counts as 0. */
export function truncateOrZero(value: DecimalInput, decimals: number): string {
  const result = truncateDecimals(value, decimals);
  return result === '' ? truncateDecimals('0', decimals) : result;
}

/** Groups the whole part in thousands with commas: "1234567.5" → "1,234,567.5". */
export function withThousands(value: string): string {
  const match = /^([+-]?)(\d+)(\.\d*)?$/.exec(value);
  if (!match) return value;
  return `${match[1]}${match[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${match[3] ?? ''}`;
}

/** Truncated and grouped, for display of prices and amounts. */
export const formatAmount = (value: DecimalInput, decimals: number) => withThousands(truncateOrZero(value, decimals));
