// Server times (spec §9): the server writes wall-clock times 8 hours ahead of UTC; the app reads
// them in that zone and shows them in the device's zone, in one of three formats.
import { describe, expect, it } from 'vitest';
import { formatEpochMs, formatServerTime, parseServerTime } from '../../src/lib/time.ts';

/** The instant as this machine's own clock shows it, YYYY-MM-DD HH:mm:ss, from plain Date. */
function deviceWallClock(ms: number): string {
  const date = new Date(ms);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} `
    + `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

describe('formatServerTime', () => {
  it('subtracts 8 hours to show a server time in UTC', () => {
    expect(formatServerTime('2026-01-02 08:00:00', 'isoDateTime', 'UTC')).toBe('2026-01-02 00:00:00');
  });

  it('moves to the previous day when the server time is before 08:00', () => {
    expect(formatServerTime('2026-01-01 07:59:59', 'isoDateTime', 'UTC')).toBe('2025-12-31 23:59:59');
  });

  it('shows the time unchanged to a user in the server zone', () => {
    expect(formatServerTime('2026-01-02 08:00:00', 'isoDateTime', 'Asia/Shanghai')).toBe('2026-01-02 08:00:00');
  });

  it('shows the time in any other zone', () => {
    expect(formatServerTime('2026-01-02 08:00:00', 'isoDateTime', 'America/New_York')).toBe('2026-01-01 19:00:00');
    expect(formatServerTime('2026-07-02 08:00:00', 'isoDateTime', 'Europe/Paris')).toBe('2026-07-02 02:00:00');
  });

  it('writes the three formats of spec §9', () => {
    const server = '2026-03-04 13:05:09';
    expect(formatServerTime(server, 'dayFirst', 'UTC')).toBe('04/03/2026 05:05:09');
    expect(formatServerTime(server, 'isoDateTime', 'UTC')).toBe('2026-03-04 05:05:09');
    expect(formatServerTime(server, 'isoDate', 'UTC')).toBe('2026-03-04');
  });

  it('uses YYYY-MM-DD HH:mm:ss unless told otherwise', () => {
    expect(formatServerTime('2026-03-04 13:05:09', undefined, 'UTC')).toBe('2026-03-04 05:05:09');
  });

  it("shows the device's own zone by default", () => {
    expect(formatServerTime('2026-01-02 08:00:00')).toBe(deviceWallClock(Date.UTC(2026, 0, 2, 0, 0, 0)));
    expect(formatServerTime('2026-07-15 20:30:00')).toBe(deviceWallClock(Date.UTC(2026, 6, 15, 12, 30, 0)));
  });

  it('reads a date without a time as midnight server time', () => {
    expect(formatServerTime('2026-01-02', 'isoDateTime', 'Asia/Shanghai')).toBe('2026-01-02 00:00:00');
    expect(formatServerTime('2026-01-02', 'isoDate', 'Asia/Shanghai')).toBe('2026-01-02');
    expect(formatServerTime('2026-01-02', 'isoDateTime', 'UTC')).toBe('2026-01-01 16:00:00');
  });

  it('ignores spaces around the text', () => {
    expect(formatServerTime('  2026-01-02 08:00:00 ', 'isoDateTime', 'UTC')).toBe('2026-01-02 00:00:00');
  });

  it('shows nothing for empty or unreadable times', () => {
    for (const text of ['', null, undefined, 'yesterday', '2026-13-01 00:00:00', '2026-02-30', '2026-01-02 25:00:00', '02/01/2026']) {
      expect(formatServerTime(text, 'isoDateTime', 'UTC'), String(text)).toBe('');
    }
  });
});

describe('parseServerTime', () => {
  it('gives the instant the server meant', () => {
    expect(parseServerTime('2026-01-02 08:00:00')?.toMillis()).toBe(Date.UTC(2026, 0, 2, 0, 0, 0));
    expect(parseServerTime('2026-01-02')?.toMillis()).toBe(Date.UTC(2026, 0, 1, 16, 0, 0));
  });

  it('gives undefined for text it cannot read', () => {
    expect(parseServerTime('not a date')).toBeUndefined();
  });
});

describe('formatEpochMs', () => {
  it('formats epoch milliseconds in the given zone', () => {
    const instant = Date.UTC(2026, 0, 2, 0, 0, 0);
    expect(formatEpochMs(instant, 'isoDateTime', 'UTC')).toBe('2026-01-02 00:00:00');
    expect(formatEpochMs(instant, 'dayFirst', 'UTC+8')).toBe('02/01/2026 08:00:00');
    expect(formatEpochMs(instant, 'isoDate', 'America/Los_Angeles')).toBe('2026-01-01');
    expect(formatEpochMs(0, 'isoDateTime', 'UTC')).toBe('1970-01-01 00:00:00');
  });

  it("uses the device's own zone and YYYY-MM-DD HH:mm:ss by default", () => {
    const instant = Date.UTC(2026, 0, 2, 0, 0, 0);
    expect(formatEpochMs(instant)).toBe(deviceWallClock(instant));
  });
});
