// How old a piece of data is, as the user's language says it ("2 min ago", "hace 2 min", "2분 전"),
// for cached figures shown offline (issue 8 #14): an age reads at a glance where a clock time
// makes the reader do the subtraction. Intl only, so it costs no bundle.

const formats = new Map<string, Intl.RelativeTimeFormat>();

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000], ['hour', 3_600_000], ['minute', 60_000], ['second', 1000],
];

/** The age of something recorded at `thenMs`, seen at `nowMs`: "now", "45 sec. ago", "2 min ago", "3 hr. ago". */
export function formatAge(thenMs: number, nowMs: number, intl: string): string {
  let format = formats.get(intl);
  if (!format) {
    format = new Intl.RelativeTimeFormat(intl, { numeric: 'auto', style: 'short' });
    formats.set(intl, format);
  }
  const elapsed = Math.max(0, nowMs - thenMs);
  for (const [unit, ms] of units) {
    if (elapsed >= ms) return format.format(-Math.floor(elapsed / ms), unit);
  }
  return format.format(0, 'second');
}
