// The date module (issue 19): server wall-clock times are UTC+8 (spec §9) and are shown in the
// device's zone; every date on every screen has one form per language, whatever it came as
// (a server string, epoch milliseconds, a calendar day).
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import {
  formatCalendarDate, formatEpochMs, formatServerTime, isoOfEpochMs, parseServerTime, serverTimeToMs,
} from '../../src/lib/time.ts';
import { localeCodes } from '../../src/lib/locales.ts';

const inUtc = { zone: 'UTC', locale: 'en-us' };
/** ICU writes a narrow no-break space before AM/PM in newer versions, a space in older ones. */
const spaced = (text: string) => text.replace(/[\u202f\u00a0]/g, ' ');
/** The server's own rendering of an instant, which the module must never print. */
const serverPattern = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/;

describe('formatServerTime', () => {
  it('subtracts 8 hours to show a server time in UTC', () => {
    expect(spaced(formatServerTime('2026-01-02 08:00:00', 'dateTime', inUtc))).toBe('Jan 2, 2026, 12:00:00 AM');
  });

  it('moves to the previous day when the server time is before 08:00', () => {
    expect(spaced(formatServerTime('2026-01-01 07:59:59', 'dateTime', inUtc))).toBe('Dec 31, 2025, 11:59:59 PM');
  });

  it('shows the time unchanged to a user in the server zone', () => {
    expect(spaced(formatServerTime('2026-01-02 08:00:00', 'dateTime', { zone: 'Asia/Shanghai', locale: 'en-us' })))
      .toBe('Jan 2, 2026, 8:00:00 AM');
  });

  it('shows the time in any other zone, summer time included', () => {
    expect(spaced(formatServerTime('2026-01-02 08:00:00', 'dateTime', { zone: 'America/New_York', locale: 'en-us' })))
      .toBe('Jan 1, 2026, 7:00:00 PM');
    expect(spaced(formatServerTime('2026-07-02 08:00:00', 'dateTime', { zone: 'Europe/Paris', locale: 'en-us' })))
      .toBe('Jul 2, 2026, 2:00:00 AM');
  });

  it('shows the binding time of the issue at 16:17 UTC, not at the server wall clock 00:17', () => {
    expect(spaced(formatServerTime('2026-11-26 00:17:51', 'dateTime', inUtc))).toBe('Nov 25, 2026, 4:17:51 PM');
    expect(spaced(formatServerTime('2026-11-26 00:17:51', 'dateTime', { zone: 'America/Los_Angeles', locale: 'en-us' })))
      .toBe('Nov 25, 2026, 8:17:51 AM');
  });

  it('writes a date alone in the same language', () => {
    expect(spaced(formatServerTime('2026-03-04 13:05:09', 'date', inUtc))).toBe('Mar 4, 2026');
    expect(spaced(formatServerTime('2026-03-04 05:05:09', 'date', inUtc))).toBe('Mar 3, 2026');
  });

  it("shows the device's own zone by default, the same instant as epoch milliseconds", () => {
    expect(formatServerTime('2026-01-02 08:00:00', 'dateTime', { locale: 'en-us' }))
      .toBe(formatEpochMs(Date.UTC(2026, 0, 2, 0, 0, 0), 'dateTime', { locale: 'en-us' }));
    expect(formatServerTime('2026-07-15 20:30:00', 'dateTime', { locale: 'en-us' }))
      .toBe(formatEpochMs(Date.UTC(2026, 6, 15, 12, 30, 0), 'dateTime', { locale: 'en-us' }));
  });

  it('reads a date without a time as midnight server time', () => {
    expect(spaced(formatServerTime('2026-01-02', 'dateTime', { zone: 'Asia/Shanghai', locale: 'en-us' }))).toBe('Jan 2, 2026, 12:00:00 AM');
    expect(spaced(formatServerTime('2026-01-02', 'date', { zone: 'Asia/Shanghai', locale: 'en-us' }))).toBe('Jan 2, 2026');
    expect(spaced(formatServerTime('2026-01-02', 'dateTime', inUtc))).toBe('Jan 1, 2026, 4:00:00 PM');
  });

  it('ignores spaces around the text', () => {
    expect(spaced(formatServerTime('  2026-01-02 08:00:00 ', 'dateTime', inUtc))).toBe('Jan 2, 2026, 12:00:00 AM');
  });

  it('shows nothing for empty or unreadable times', () => {
    for (const text of ['', null, undefined, 'yesterday', '2026-13-01 00:00:00', '2026-02-30', '2026-01-02 25:00:00', '02/01/2026']) {
      expect(spaced(formatServerTime(text, 'dateTime', inUtc)), String(text)).toBe('');
    }
  });
});

describe('one form per language', () => {
  afterEach(() => { i18n.activate('en-us'); });
  const instant = Date.UTC(2026, 10, 25, 16, 10, 35);

  it('writes the same instant the same way whether it came as a server string or epoch milliseconds', () => {
    for (const locale of localeCodes) {
      const place = { zone: 'America/Los_Angeles', locale };
      expect(formatServerTime('2026-11-26 00:10:35', 'dateTime', place), locale).toBe(formatEpochMs(instant, 'dateTime', place));
      expect(formatServerTime('2026-11-26 00:10:35', 'date', place), locale).toBe(formatEpochMs(instant, 'date', place));
    }
  });

  it('never writes the server form YYYY-MM-DD HH:mm:ss, nor a two-digit year', () => {
    for (const locale of localeCodes) {
      const text = formatEpochMs(instant, 'dateTime', { zone: 'UTC', locale });
      expect(text, locale).not.toMatch(serverPattern);
      expect(text, locale).toMatch(/2026|2569/); // Thai writes the Buddhist year
    }
  });

  it('keeps a date on one line: none of its spaces breaks', () => {
    for (const locale of localeCodes) {
      for (const style of ['dateTime', 'date', 'dateTimeMs'] as const) {
        expect(formatEpochMs(instant, style, { zone: 'UTC', locale }), `${locale} ${style}`).not.toMatch(/[ \t\n]/);
      }
    }
  });

  it('writes Spanish and Chinese as those languages do', () => {
    expect(spaced(formatEpochMs(instant, 'dateTime', { zone: 'UTC', locale: 'xi' }))).toBe('25 nov 2026, 16:10:35');
    expect(spaced(formatEpochMs(instant, 'dateTime', { zone: 'UTC', locale: 'zh-tw' }))).toBe('2026年11月25日 下午4:10:35');
    expect(spaced(formatEpochMs(instant, 'date', { zone: 'UTC', locale: 'zh-tw' }))).toBe('2026年11月25日');
  });

  it("follows the app's current language when none is given", () => {
    i18n.load('xi', {});
    i18n.activate('xi');
    expect(spaced(formatEpochMs(instant, 'dateTime', { zone: 'UTC' }))).toBe('25 nov 2026, 16:10:35');
    i18n.load('en-us', {});
    i18n.activate('en-us');
    expect(spaced(formatEpochMs(instant, 'dateTime', { zone: 'UTC' }))).toBe('Nov 25, 2026, 4:10:35 PM');
  });
});

describe('formatEpochMs', () => {
  it('formats epoch milliseconds in the given zone', () => {
    const instant = Date.UTC(2026, 0, 2, 0, 0, 0);
    expect(spaced(formatEpochMs(instant, 'dateTime', inUtc))).toBe('Jan 2, 2026, 12:00:00 AM');
    expect(spaced(formatEpochMs(instant, 'dateTime', { zone: 'UTC+8', locale: 'en-us' }))).toBe('Jan 2, 2026, 8:00:00 AM');
    expect(spaced(formatEpochMs(instant, 'date', { zone: 'America/Los_Angeles', locale: 'en-us' }))).toBe('Jan 1, 2026');
    expect(spaced(formatEpochMs(0, 'dateTime', inUtc))).toBe('Jan 1, 1970, 12:00:00 AM');
  });

  it('keeps milliseconds only when asked (tick receipts)', () => {
    const instant = Date.UTC(2026, 0, 2, 0, 0, 0, 7);
    expect(spaced(formatEpochMs(instant, 'dateTimeMs', inUtc))).toBe('Jan 2, 2026, 12:00:00.007 AM');
    expect(spaced(formatEpochMs(instant, 'dateTime', inUtc))).toBe('Jan 2, 2026, 12:00:00 AM');
  });

  it('shows nothing for no time', () => {
    expect(spaced(formatEpochMs(null))).toBe('');
    expect(spaced(formatEpochMs(undefined))).toBe('');
    expect(spaced(formatEpochMs(Number.NaN))).toBe('');
  });
});

describe('formatCalendarDate', () => {
  it('writes a day as a day in every zone (a birthday does not move)', () => {
    expect(spaced(formatCalendarDate('2000-01-02', { locale: 'en-us' }))).toBe('Jan 2, 2000');
    expect(spaced(formatCalendarDate('2000-01-02', { locale: 'xi' }))).toBe('2 ene 2000');
  });

  it('gives back text that is no date', () => {
    expect(spaced(formatCalendarDate('soon'))).toBe('soon');
  });
});

describe('parseServerTime and serverTimeToMs', () => {
  it('give the instant the server meant', () => {
    expect(parseServerTime('2026-01-02 08:00:00')?.toMillis()).toBe(Date.UTC(2026, 0, 2, 0, 0, 0));
    expect(parseServerTime('2026-01-02')?.toMillis()).toBe(Date.UTC(2026, 0, 1, 16, 0, 0));
    expect(serverTimeToMs('2026-11-26 00:17:51')).toBe(Date.UTC(2026, 10, 25, 16, 17, 51));
  });

  it('give undefined for text they cannot read', () => {
    expect(parseServerTime('not a date')).toBeUndefined();
    expect(serverTimeToMs('')).toBeUndefined();
    expect(serverTimeToMs(undefined)).toBeUndefined();
  });

  it('isoOfEpochMs writes the instant for a <time> element', () => {
    expect(isoOfEpochMs(Date.UTC(2026, 0, 2, 0, 0, 0))).toBe('2026-01-02T00:00:00.000Z');
    expect(isoOfEpochMs(null)).toBe('');
  });
});
