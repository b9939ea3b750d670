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

/** The decimals a decimal string was written with ("67000.50" → 2, "12" → 0), trailing zeros included. */
export const decimalsOf = (text: string) => text.split('.')[1]?.length ?? 0;

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

// Display: one formatter for every number the app shows, in the user's language (issue 8 #7). The
// digits are truncated first (above), then Intl.NumberFormat only spells them: grouping, decimal
// mark, digits and sign as the language writes them. Intl reads a decimal string exactly (ES2023),
// so no amount passes through a binary float. `intl` is a BCP 47 tag (lib/locales.ts `intlOf`).

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(intl: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${intl}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(intl, { roundingMode: 'trunc', ...options });
    formats.set(key, format);
  }
  return format;
}

/** What Intl is given: plain digits only. */
const plainDecimal = /^[+-]?\d+(\.\d+)?$/;

const fixed = (decimals: number) => ({ minimumFractionDigits: Math.max(0, decimals), maximumFractionDigits: Math.max(0, decimals) });

function spell(value: DecimalInput, decimals: number, intl: string, options: Intl.NumberFormatOptions): string {
  const digits = truncateOrZero(value, decimals);
  // Text that is not a number is shown as it came rather than turned into one.
  if (!plainDecimal.test(digits)) return digits;
  return numberFormat(intl, { ...fixed(decimals), ...options }).format(digits as Intl.StringNumericLiteral);
}

/** A price or amount: truncated to `decimals`, padded, grouped as the language groups ("1,234.50", "1234,50"). */
export const formatDecimal = (value: DecimalInput, decimals: number, intl: string) => spell(value, decimals, intl, {});

/** As `formatDecimal` with a sign on every non-zero value: "+2,646.63", "-0.50", "0.00". */
export const formatSigned = (value: DecimalInput, decimals: number, intl: string) =>
  spell(value, decimals, intl, { signDisplay: 'exceptZero' });

/** Moves the decimal point of a plain decimal string `places` to the left, exactly. */
function shiftLeft(text: string, places: number): string {
  const match = decimalPattern.exec(text);
  if (!match) return text;
  const [, sign, whole, fraction = ''] = match;
  const padded = whole.padStart(places + 1, '0');
  return `${sign}${padded.slice(0, -places)}.${padded.slice(-places)}${fraction}`;
}

/** A percentage given in percent ("1.259" → "+1.25%", "1,25 %" in Spanish), truncated to `decimals`. */
export function formatPercent(percent: DecimalInput, intl: string, decimals = 2): string {
  const digits = truncateOrZero(percent, decimals);
  if (!plainDecimal.test(digits)) return digits;
  return numberFormat(intl, { style: 'percent', signDisplay: 'exceptZero', ...fixed(decimals) })
    .format(shiftLeft(digits, 2) as Intl.StringNumericLiteral);
}

/** A volume in the language's compact form ("1.45B", "14.5亿", "1450,96 M"), truncated to two decimals. */
export function formatCompact(value: DecimalInput, intl: string): string {
  const digits = truncateOrZero(value, 8);
  if (!plainDecimal.test(digits)) return digits;
  return numberFormat(intl, { notation: 'compact', maximumFractionDigits: 2 }).format(digits as Intl.StringNumericLiteral);
}
