// Times with luxon. Server wall-clock strings are UTC+8 (spec §9): they are read in that zone
// (i.e. 8 hours are subtracted to get UTC) and shown in the device's zone.
import { DateTime } from 'luxon';

export const serverZone = 'UTC+8';
export const dateTimeFormats = {
  dayFirst: 'dd/MM/yyyy HH:mm:ss',
  isoDateTime: 'yyyy-MM-dd HH:mm:ss',
  isoDate: 'yyyy-MM-dd',
} as const;
export type DateTimeFormat = keyof typeof dateTimeFormats;

/** Parses "YYYY-MM-DD HH:mm:ss" (or "YYYY-MM-DD") as server time. */
export function parseServerTime(text: string): DateTime | undefined {
  const trimmed = text.trim();
  const parsed = DateTime.fromFormat(trimmed, trimmed.length <= 10 ? dateTimeFormats.isoDate : dateTimeFormats.isoDateTime,
    { zone: serverZone });
  return parsed.isValid ? parsed : undefined;
}

/** Formats a server time for display in `zone` (the device's zone by default); '' if unreadable. */
export function formatServerTime(text: string | null | undefined, format: DateTimeFormat = 'isoDateTime', zone = 'local'): string {
  if (!text) return '';
  const parsed = parseServerTime(text);
  return parsed ? parsed.setZone(zone).toFormat(dateTimeFormats[format]) : '';
}

/** Formats epoch milliseconds for display. */
export function formatEpochMs(ms: number, format: DateTimeFormat = 'isoDateTime', zone = 'local'): string {
  return DateTime.fromMillis(ms, { zone }).toFormat(dateTimeFormats[format]);
}
