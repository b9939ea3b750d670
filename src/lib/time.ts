// Every date the app and the back office show goes through this module, so one instant reads the
// same on every screen: one date-and-time form and one date form per language (Intl's medium
// style, e.g. "Nov 25, 2026, 4:10:35 PM" in English, "25 nov 2026, 16:10:35" in Spanish), in the
// device's zone. Server wall-clock strings are UTC+8 (spec §9): they are read in that zone (8 hours
// are subtracted to get UTC) before they are shown; epoch milliseconds are instants already.
import { i18n } from '@lingui/core';
import { DateTime, type DateTimeFormatOptions } from 'luxon';
import { intlOf } from './locales.ts';

export const serverZone = 'UTC+8';
/** The forms the server writes (spec §9); the app reads them and never writes them. */
const serverFormats = { dateTime: 'yyyy-MM-dd HH:mm:ss', date: 'yyyy-MM-dd' } as const;

/** The one form per language for each kind of date (fixed objects: every screen uses these). */
export const dateFormats = {
  /** Date and time to the second: every money screen, the back office. */
  dateTime: DateTime.DATETIME_MED_WITH_SECONDS,
  /** A day: when an account was opened, a passkey added, a birthday. */
  date: DateTime.DATE_MED,
  /** Date and time to the millisecond: tick receipts, where two ticks may share a second. */
  dateTimeMs: { ...DateTime.DATETIME_MED_WITH_SECONDS, fractionalSecondDigits: 3 },
} as const satisfies Record<string, DateTimeFormatOptions>;
export type DateStyle = keyof typeof dateFormats;

export type FormatPlace = {
  /** An interface language key ("en-us", "zh-tw", "xi"): the app's current language by default. */
  locale?: string;
  /** An IANA zone or 'UTC+8': the device's zone ('local') by default. */
  zone?: string;
};

/** Parses "YYYY-MM-DD HH:mm:ss" (or "YYYY-MM-DD") as server time. */
export function parseServerTime(text: string): DateTime | undefined {
  const trimmed = text.trim();
  const parsed = DateTime.fromFormat(trimmed, trimmed.length <= 10 ? serverFormats.date : serverFormats.dateTime,
    { zone: serverZone });
  return parsed.isValid ? parsed : undefined;
}

/** Epoch milliseconds of a server time; undefined if unreadable (for `<time dateTime>` and sorting). */
export const serverTimeToMs = (text: string | null | undefined) => (text ? parseServerTime(text)?.toMillis() : undefined);

/**
 * An instant as the module writes it, in the given style, language and zone. Its spaces do not
 * break: like a number, a date never wraps in the middle ("7:26:06 | PM"); it moves whole to the
 * next line.
 */
function formatInstant(instant: DateTime, style: DateStyle, place: FormatPlace): string {
  return instant.setZone(place.zone ?? 'local').setLocale(intlOf(place.locale ?? i18n.locale ?? ''))
    .toLocaleString(dateFormats[style]).replace(/ /g, '\u00a0');
}

/** Formats a server wall-clock time (UTC+8) for display in the device's zone; '' if unreadable. */
export function formatServerTime(text: string | null | undefined, style: DateStyle = 'dateTime', place: FormatPlace = {}): string {
  if (!text) return '';
  const parsed = parseServerTime(text);
  return parsed ? formatInstant(parsed, style, place) : '';
}

/** Formats epoch milliseconds for display in the device's zone; '' for no time or an impossible one. */
export function formatEpochMs(ms: number | null | undefined, style: DateStyle = 'dateTime', place: FormatPlace = {}): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const instant = DateTime.fromMillis(ms);
  return instant.isValid ? formatInstant(instant, style, place) : '';
}

/**
 * Formats a calendar date "YYYY-MM-DD" that names a day, not an instant (a birthday): no zone
 * moves it. Text that is no such date comes back as it came.
 */
export function formatCalendarDate(text: string, place: Omit<FormatPlace, 'zone'> = {}): string {
  const parsed = DateTime.fromFormat(text.trim(), serverFormats.date, { zone: 'UTC' });
  return parsed.isValid ? formatInstant(parsed, 'date', { ...place, zone: 'UTC' }) : text;
}

/** The instant as an ISO 8601 string for `<time dateTime>`; '' for no time. */
export function isoOfEpochMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  return DateTime.fromMillis(ms, { zone: 'UTC' }).toISO() ?? '';
}
